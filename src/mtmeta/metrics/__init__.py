"""Metric registry: names map to classes, imported only when used (as in sacrebleu)."""

from __future__ import annotations

import ast
import importlib
import inspect
from functools import cache
from pathlib import Path

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


def metric_class(name: str) -> type[Metric]:
    try:
        target = METRICS[name]
    except KeyError:
        raise KeyError(f"unknown metric {name!r}; known metrics: {', '.join(sorted(METRICS))}") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


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
                    resources: str = "resources") -> Metric:
    """The metric as the workflow scores a dataset: target language, lexical resources, and
    whitespace tokenisation for already-tokenised text (unless the parameters choose one)."""
    accepted = inspect.signature(metric_class(name)).parameters
    params = dict(params)
    if tokenized and "tokenize" in accepted:
        params.setdefault("tokenize", "none")
    if "resources" in accepted:
        params.setdefault("resources", resources)
    return get(name, lang=lang, **params)


def get(name: str, **params) -> Metric:
    """Instantiate the metric registered as ``name`` with ``params``, each checked against the
    parameter's declared type and range (:mod:`mtmeta.metrics.params`)."""
    from mtmeta.metrics.params import check_params

    cls = metric_class(name)
    return cls(**check_params(cls, params))
