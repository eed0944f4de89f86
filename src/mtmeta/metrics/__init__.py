"""Metric registry: names map to classes, imported only when used (as in sacrebleu). It reads no
config: an id of a config's ``metric_settings`` resolves with the config the caller hands it.

- ``base``: the Metric interface (statistics once, any score from them); ``params``: typed,
  range-checked parameters; ``spec``: a configured id (MetricSpec); ``limits``: the refusal of a
  too-long segment;
- the metrics: ``bleu``, ``chrf``, ``ter``, ``nist``, ``wer`` (and PER), ``lepor`` (and hLEPOR),
  ``wordmatch``, ``softbleu``, ``meteor`` (a package); ``sacrebleu_adapter``: any sacrebleu metric
  through the interface; ``ngrams``: the clipped n-gram matches of BLEU and chrF;
- ``score_tables``: every system of a segment table scored; ``user_metric``: a user's scores as
  statistics;
- compiled kernels (numba): ``kernels`` (which one a call runs), ``ngram_kernel``, ``score_kernel``,
  ``sums_kernel``, ``ter_kernel``, ``nist_kernel``, ``lepor_kernel``, ``soft_kernel``,
  ``assign_kernel``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from functools import cache
from pathlib import Path

from mtmeta.errors import ConfigError
from mtmeta.metrics.base import Metric

METRICS: dict[str, str] = {
    "bleu": "mtmeta.metrics.bleu:BLEU",
    "chrf": "mtmeta.metrics.chrf:CHRF",
    "chrf++": "mtmeta.metrics.chrf:CHRFPlusPlus",
    "ter": "mtmeta.metrics.ter:TER",
    "nist": "mtmeta.metrics.nist:NIST",
    "wer": "mtmeta.metrics.wer:WER",
    "per": "mtmeta.metrics.wer:PER",
    "meteor": "mtmeta.metrics.meteor:METEOR",
    "lepor": "mtmeta.metrics.lepor:LEPOR",
    "hlepor": "mtmeta.metrics.lepor:HLEPOR",
    "wordmatch": "mtmeta.metrics.wordmatch:WordMatch",
    "softbleu": "mtmeta.metrics.softbleu:SoftBLEU",
}


class UnknownMetricError(ConfigError, KeyError):
    """A name that is neither a registered metric nor a configured id (a KeyError too, as before)."""

    __str__ = Exception.__str__  # the message, not KeyError's quoted repr of it


def metric_class(name: str) -> type[Metric]:
    try:
        target = METRICS[name]
    except KeyError:
        from mtmeta.metrics.params import did_you_mean

        raise UnknownMetricError(f"unknown metric {name!r}{did_you_mean(name, METRICS)} "
                                 f"(registered metrics: {', '.join(sorted(METRICS))})") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


def metric_settings(config=None, where: str = "config") -> dict[str, dict]:
    """Configured metric ids: ``{id: {"metric": registry name, "params": {...}}}``.

    ``config`` is a config mapping whose ``metric_settings`` key is read (``mtmeta.app.config.load_config``'s
    result, or that key as the application read it from a file), or None: no configured ids. The
    registry reads no file; ``where`` names the config in messages."""
    settings = (config or {}).get("metric_settings") or {}
    if not isinstance(settings, dict):
        raise ConfigError(f"{where}: metric_settings: expected a mapping of metric ids")
    for metric_id, entry in settings.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("metric"), str):
            raise ConfigError(f"{where}: metric_settings.{metric_id}: expected {{metric: NAME, params: {{...}}}}")
        if not isinstance(entry.get("params", {}), dict):
            raise ConfigError(f"{where}: metric_settings.{metric_id}.params: expected a mapping of parameters")
        check_setting_id(metric_id, entry["metric"], f"{where}: metric_settings.{metric_id}")
    return settings


def check_setting_id(metric_id: str, registry_name: str, where: str) -> None:
    """A ``metric_settings`` id that is a registered metric's name configures that metric (``bleu:
    {metric: bleu, params: ...}``), never another one: ``ter: {metric: bleu}`` would print BLEU's
    scores labelled TER in every table."""
    if metric_id in METRICS and registry_name != metric_id:
        raise ConfigError(f"{where}: the id {metric_id!r} is the registered metric {metric_id}, but it is set to "
                          f"metric {registry_name!r}; expected metric: {metric_id} (its parameters changed), or "
                          f"another id for a variant of {registry_name} (e.g. {registry_name}-{metric_id})")


def resolve(metric_id: str, config=None, where: str | None = None) -> tuple[str, dict]:
    """The registry name and parameters of ``metric_id``, as the workflow reads them: an id that the
    config's ``metric_settings`` defines is that definition (even where it reuses a registry name, as
    ``bleu: {metric: bleu, params: {tokenize: intl}}`` does); any other id must be a registry name.
    ``config`` is as :func:`metric_settings` takes it; with None, only registry names resolve, each to
    itself. ``where`` names the config in messages (a file name; default "the config")."""
    if config is None and metric_id in METRICS:
        return metric_id, {}
    settings = metric_settings(config, where or "config")
    if metric_id in settings:
        entry = settings[metric_id]
        if entry["metric"] not in METRICS:
            metric_class(entry["metric"])  # unknown: the error names it and the close registered names
        return entry["metric"], dict(entry.get("params") or {})
    if metric_id in METRICS:
        return metric_id, {}
    from mtmeta.metrics.params import did_you_mean

    configured = (f"ids configured in {where or 'the config'}: {', '.join(sorted(settings)) or 'none'}"
                  if config is not None else "no config given, so no configured ids")
    raise UnknownMetricError(
        f"unknown metric {metric_id!r}{did_you_mean(metric_id, {**METRICS, **settings})} (registered metrics: "
        f"{', '.join(sorted(METRICS))}; {configured})")


def code_files(name: str) -> list[str]:
    """The source files a metric's numbers come from, relative to the directory holding ``mtmeta``:
    its module (every file, for a package) and each module of ``mtmeta.metrics``, ``mtmeta.lexicons``,
    ``mtmeta.embeddings`` and ``mtmeta.data.tokenize`` it imports, directly or through those (kernels,
    tokenisers, lexical resources, shared counting; read from the files, imports inside functions
    included). The workflow makes them inputs of the metric's scoring jobs, so that editing
    one reruns exactly the metrics that use it."""
    todo = list(_module_files(METRICS[name].split(":")[0]))
    found: set[Path] = set()
    while todo:
        path = todo.pop()
        if path not in found:
            found.add(path)
            todo += _imported_files(path)
    return sorted(str(path.relative_to(_PACKAGE.parent.parent)) for path in found)


_PACKAGE = Path(__file__).parent  # .../mtmeta/metrics
# What a metric's numbers are computed by: mtmeta.metrics and the lower layers that compute text
# (tokenisers, lexical resources, word vectors); not I/O, configuration or the registry.
_TRACKED = (("mtmeta", "metrics"), ("mtmeta", "lexicons"), ("mtmeta", "embeddings"), ("mtmeta", "data", "tokenize"))


def _module_files(module: str) -> tuple[Path, ...]:
    """The files of a tracked module (every file, for a package); none for other modules."""
    parts = tuple(module.split("."))
    if not any(parts[: len(prefix)] == prefix for prefix in _TRACKED) or parts == ("mtmeta", "metrics"):
        return ()  # the registry itself is not a metric's code
    path = _PACKAGE.parent.joinpath(*parts[1:])
    if path.is_dir():
        return tuple(sorted(path.glob("*.py")))
    return (path.with_suffix(".py"),) if path.with_suffix(".py").is_file() else ()


@cache
def _imported_files(path: Path) -> tuple[Path, ...]:
    """The tracked files one file imports. Parsed once per process: the workflow asks for
    the code of every metric id when it builds its rules, and parsing was a third of a no-op run."""
    imported: list[Path] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported += [f for alias in node.names for f in _module_files(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported += [*_module_files(node.module),
                         *(f for alias in node.names for f in _module_files(f"{node.module}.{alias.name}"))]
    return tuple(imported)


def required_sources(name: str, lang: str, **params) -> list[str]:
    """Source ids (declared in config) a metric reads for this language and these parameters."""
    cls = metric_class(name)
    finder = getattr(cls, "required_sources", None)
    return finder(lang, **params) if finder else []


def required_files(name: str, lang: str, **params) -> list[str]:
    """Workflow products (not sources) a metric reads, e.g. trained word vectors."""
    finder = getattr(metric_class(name), "required_files", None)
    return finder(lang, **params) if finder else []


def get_for_dataset(name: str, lang: str, params: dict, tokenized: bool = False,
                    resources: str = "resources", config=None) -> Metric:
    """The metric as the workflow scores a dataset: target language, lexical resources, and
    whitespace tokenisation for already-tokenised text (unless the parameters choose one).
    ``name`` may be a configured id (:func:`resolve`); ``params`` override its parameters."""
    name, configured = resolve(name, config)
    accepted = inspect.signature(metric_class(name)).parameters
    params = {**configured, **params}
    if tokenized and "tokenize" in accepted:
        params.setdefault("tokenize", "none")
    if "resources" in accepted:
        params.setdefault("resources", resources)
    return get(name, lang=lang, **params)


def get(name: str, config=None, **params) -> Metric:
    """The metric ``name`` with ``params``, each checked against the parameter's declared type and range
    (:mod:`mtmeta.metrics.params`). ``name`` is a registered metric or an id of ``config``'s
    ``metric_settings`` (``get("ter-wmt", config=load_config())``: the study's tercom-style TER), whose
    parameters ``params`` override (:func:`resolve`)."""
    from mtmeta.metrics.params import check_params

    registry_name, configured = resolve(name, config)
    cls = metric_class(registry_name)
    where = registry_name if registry_name == name else f"{name} ({registry_name})"
    return cls(**check_params(cls, {**configured, **params}, where=where))
