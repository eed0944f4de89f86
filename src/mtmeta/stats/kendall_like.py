"""WMT's DA "Kendall-like" tau (WMT17-20 segment level), as mt-metrics-eval's ``stats.KendallLike``
and ``Correlation.KendallLike`` define it.

Over every pair of scores whose gold values are both known, a pair counts only if the gold scores
differ by at least ``threshold`` (25 DA points by default: ``abs(diff) >= thresh``); it is concordant
when the metric orders it the same way (``diff > 0 and m_a > m_b`` or ``diff < 0 and m_a < m_b``), else
discordant -- a metric tie is discordant, as in WMT. tau = (C - D) / (C + D), 0 without counted pairs
(MTME's value). ``Correlation.KendallLike`` averages it by item with ``macro=False``: each item's tau
weighted by its number of counted pairs, i.e. pooled counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtmeta.stats.grouped import layout


@dataclass(frozen=True)
class KendallLike:
    value: float
    pairs: int
    concordant: int
    discordant: int


def kendall_like(gold, metric, threshold: float = 25.0) -> KendallLike:
    """MTME's ``KendallLike`` of two vectors (NaN gold = missing)."""
    gold, metric = np.asarray(gold, dtype=float), np.asarray(metric, dtype=float)
    if gold.shape != metric.shape or gold.ndim != 1:
        raise ValueError(f"need two vectors of one length, got shapes {gold.shape} and {metric.shape}")
    known = ~np.isnan(gold)
    gold, metric = gold[known], metric[known]
    i, j = np.triu_indices(len(gold), k=1)
    diff = gold[i] - gold[j]
    counted = np.abs(diff) >= threshold
    concordant = counted & (((diff > 0) & (metric[i] > metric[j])) | ((diff < 0) & (metric[i] < metric[j])))
    c, n = int(concordant.sum()), int(counted.sum())
    return KendallLike((c - (n - c)) / n if n else 0.0, n, c, n - c)


def grouped_kendall_like(gold, metric, *, average_by: str = "item", threshold: float = 25.0) -> KendallLike:
    """``Correlation.KendallLike``: systems x items matrices grouped by ``average_by``, each group's tau
    weighted by its counted pairs (``macro=False``); a group with fewer than two known scores is
    skipped, and NaN never arises (a group without counted pairs has weight 0). 0 without pairs."""
    groups = layout(gold, metric, average_by)
    total = concordant = 0
    weighted = 0.0
    for start, end in zip(groups.starts[:-1], groups.starts[1:], strict=True):
        if end - start < 2:
            continue
        one = kendall_like(groups.gold[start:end], groups.metric[start:end], threshold)
        weighted += one.pairs * one.value
        total += one.pairs
        concordant += one.concordant
    return KendallLike(weighted / total if total else 0.0, total, concordant, total - concordant)
