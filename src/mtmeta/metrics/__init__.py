"""Metric registry: names map to classes, imported only when used (as in sacrebleu)."""

from __future__ import annotations

import ast
import importlib
import inspect
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
    its module (every file, for a package) and each module of ``mtmeta.metrics`` it imports, directly
    or through those (kernels, tokenisers, shared counting; read from the files, imports inside
    functions included). The workflow makes them inputs of the metric's scoring jobs, so that editing
    one reruns exactly the metrics that use it."""
    package = Path(__file__).parent  # .../mtmeta/metrics

    def files(module: str) -> list[Path]:
        parts = module.split(".")
        if parts[:2] != ["mtmeta", "metrics"] or len(parts) < 3:  # the registry itself is not a metric's code
            return []
        path = package.joinpath(*parts[2:])
        if path.is_dir():
            return sorted(path.glob("*.py"))
        return [path.with_suffix(".py")] if path.with_suffix(".py").is_file() else []

    todo = files(METRICS[name].split(":")[0])
    found: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                todo += [f for alias in node.names for f in files(alias.name)]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                todo += files(node.module) + [f for alias in node.names for f in files(f"{node.module}.{alias.name}")]
    return sorted(str(path.relative_to(package.parent.parent)) for path in found)


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
    """Instantiate the metric registered as ``name`` with ``params``."""
    return metric_class(name)(**params)
