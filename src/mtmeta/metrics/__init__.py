"""Metric registry: names map to classes, imported only when used (as in sacrebleu)."""

from __future__ import annotations

import importlib

from mtmeta.metrics.base import Metric

METRICS: dict[str, str] = {
    "bleu": "mtmeta.metrics.bleu:BLEU",
}


def get(name: str, **params) -> Metric:
    """Instantiate the metric registered as ``name`` with ``params``."""
    try:
        target = METRICS[name]
    except KeyError:
        raise KeyError(f"unknown metric {name!r}; known metrics: {', '.join(sorted(METRICS))}") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)(**params)
