"""Correlations over a systems x items matrix, grouped and averaged as mt-metrics-eval does.

mt-metrics-eval (MTME) stores the scores of one eval set as a systems x items matrix (items are
segments, documents or the whole set) and correlates them in one of three ways (``average_by``):

- ``none``: one correlation over the flattened matrix (system-major, as MTME packs it); at system
  level (one item per system) this is the only sensible choice;
- ``sys``: one correlation per system row, then their average;
- ``item``: one correlation per item column, across systems, then their average ("item-grouped",
  the WMT23 segment-level protocol).

Missing gold scores (NaN here, ``None`` in MTME) are dropped pairwise inside each group; a group
left with fewer than two scores is skipped. Metric scores must be complete. A correlation that is
undefined (a constant vector: Pearson, Spearman and the tau-b/tau-c variants are NaN there) is
dropped from the average, or counted as 0 with ``nan_as_zero`` (MTME's
``replace_nans_with_zeros``). ``macro=True`` is the plain mean over groups; ``macro=False`` weights
each group by its number of scores. The average is accumulated group by group in order, as MTME's
``AverageCorrelation`` does, so values agree to the last bit.

One deliberate difference: when no group has a defined correlation, MTME returns 0; here the value
is NaN and ``undefined`` says how many groups were dropped (a 0 would be a silent, wrong number).

Statistics (MTME's names in brackets):

- ``pearson``, ``spearman``, ``kendall`` (tau-b) [scipy's ``pearsonr``, ``spearmanr``,
  ``kendalltau``]: the same arithmetic as scipy (``mtmeta.stats.correlation``), including scipy's
  conventions MTME inherits: two points give Pearson and Kendall +-1, and Kendall is clipped to [-1, 1];
- ``tau_b``, ``tau_c``, ``tau_eq``, ``acc_eq`` [``KendallVariants`` 'b', 'c', '23', 'acc23']: from
  the pair counts of :mod:`mtmeta.stats.kendall_counts` with MTME's formulas (tau_b and tau_c NaN
  when either side is all ties; no clipping); ``epsilon`` makes metric differences <= epsilon ties
  (not with tau_c, as in MTME).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mtmeta.stats import correlation
from mtmeta.stats.kendall_counts import grouped_counts

AVERAGE_BY = ("none", "sys", "item")
KENDALL_VARIANTS = ("tau_b", "tau_c", "tau_eq", "acc_eq")
STATISTICS = ("pearson", "spearman", "kendall", *KENDALL_VARIANTS)


@dataclass(frozen=True)
class Groups:
    """Scores with missing gold dropped, group after group: group k is ``[starts[k], starts[k+1])``."""

    gold: np.ndarray
    metric: np.ndarray
    starts: np.ndarray

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.starts)


@dataclass(frozen=True)
class GroupedCorrelation:
    value: float  # the average (NaN when no group is defined and nan_as_zero is off)
    weight: int  # MTME's third return value: groups averaged (macro) or scores in them (weighted)
    groups: int  # groups with at least two scores
    undefined: int  # of those, groups whose correlation is NaN (dropped, or counted as 0)


def as_matrix(scores, name: str) -> np.ndarray:
    """A systems x items float matrix; a 1-d vector is one score per system (one item)."""
    matrix = np.asarray(scores, dtype=float)
    if matrix.ndim == 1:
        matrix = matrix[:, None]
    if matrix.ndim != 2:
        raise ValueError(f"{name}: need a systems x items matrix, got shape {matrix.shape}")
    return matrix


def layout(gold, metric, average_by: str) -> Groups:
    """Group the two matrices as ``average_by`` says and drop the cells whose gold is missing."""
    if average_by not in AVERAGE_BY:
        raise ValueError(f"unknown average_by {average_by!r}; expected one of: {', '.join(AVERAGE_BY)}")
    gold, metric = as_matrix(gold, "gold"), as_matrix(metric, "metric")
    if gold.shape != metric.shape:
        raise ValueError(f"gold and metric differ in shape: {gold.shape} vs {metric.shape}")
    if np.isnan(metric).any():
        raise ValueError("metric scores contain NaN; only gold scores may be missing")
    if average_by == "none":
        gold, metric = gold.reshape(1, -1), metric.reshape(1, -1)
    elif average_by == "item":
        gold, metric = gold.T, metric.T
    keep = ~np.isnan(gold)
    starts = np.concatenate([[0], np.cumsum(keep.sum(axis=1))])
    return Groups(gold[keep], metric[keep], starts)


def pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r along the last axis (length >= 2; leading axes broadcast) in ``scipy.stats.pearsonr``'s
    arithmetic: scaled norms, clipping, NaN for a constant row, exactly +-1 for two points; each row
    first scaled by a power of two (``correlation.normalised``: exact, no overflow near 1e308)."""
    x, y = correlation.normalised(x), correlation.normalised(y)
    constant = np.all(x == x[..., :1], axis=-1) | np.all(y == y[..., :1], axis=-1)
    centred = []
    for v in (x, y):
        deviation = v - np.mean(v, axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            largest = np.max(np.abs(deviation), axis=-1, keepdims=True)
            norm = largest * np.linalg.norm(deviation / largest, ord=2, axis=-1, keepdims=True)
            centred.append(deviation / norm)
    with np.errstate(invalid="ignore"):
        r = np.clip(np.vecdot(centred[0], centred[1], axis=-1), -1.0, 1.0)
    r = np.where(constant, math.nan, r)
    if x.shape[-1] == 2:
        r = np.round(r)
    return r


def _by_size(groups: Groups, rows_function) -> np.ndarray:
    """Apply a row-wise statistic to all groups of the same size at once."""
    values = np.full(len(groups.sizes), math.nan)
    sizes = groups.sizes
    for size in np.unique(sizes[sizes >= 2]):
        which = np.flatnonzero(sizes == size)
        cells = groups.starts[which][:, None] + np.arange(size)
        values[which] = rows_function(groups.gold[cells], groups.metric[cells])
    return values


def _spearman_rows(gold: np.ndarray, metric: np.ndarray) -> np.ndarray:
    """Spearman rho of each row pair as ``mtmeta.stats.correlation.spearman`` (scipy's arithmetic):
    the ranks are computed for all rows at once, but np.corrcoef (what scipy's spearmanr calls) goes
    through BLAS, so each row is its own call."""
    gold_ranks, metric_ranks = correlation.rankdata(gold, axis=-1), correlation.rankdata(metric, axis=-1)
    constant = (np.ptp(gold, axis=-1) == 0) | (np.ptp(metric, axis=-1) == 0)
    out = np.full(len(gold), math.nan)
    for k in np.flatnonzero(~constant):
        out[k] = np.corrcoef(np.column_stack((gold_ranks[k], metric_ranks[k])), rowvar=False)[1, 0]
    return out


def kendall_from_counts(counts: np.ndarray, statistic: str, sizes: np.ndarray,
                        metric_classes: np.ndarray | None = None, gold_classes: np.ndarray | None = None) -> np.ndarray:
    """Kendall variants from (groups x 5) counts (:data:`kendall_counts.COLUMNS`), in MTME's formulas;
    ``kendall`` is scipy's tau-b (the same value, clipped to [-1, 1]). tau_c needs each group's number
    of distinct metric and gold values."""
    con, dis, metric_only, gold_only, both = (counts[:, k].astype(np.int64) for k in range(5))
    total = con + dis + metric_only + gold_only + both
    metric_ties, gold_ties = metric_only + both, gold_only + both
    with np.errstate(invalid="ignore", divide="ignore"):
        if statistic == "tau_b":  # KendallVariants(gold, metric): the metric's ties divide first
            value = (con - dis) / np.sqrt(total - metric_ties) / np.sqrt(total - gold_ties)
        elif statistic == "kendall":  # scipy's kendalltau(gold, metric): gold's first, then clipped
            value = (con - dis) / np.sqrt(total - gold_ties) / np.sqrt(total - metric_ties)
            value = np.minimum(1.0, np.maximum(-1.0, value))
        elif statistic == "tau_c":
            classes = np.minimum(metric_classes, gold_classes).astype(float)
            value = 2 * (con - dis) / (sizes.astype(float) ** 2 * (classes - 1) / classes)
        elif statistic == "tau_eq":
            value = (con + both - dis - gold_only - metric_only) / total
        elif statistic == "acc_eq":
            value = (con + both) / total
        else:
            raise ValueError(f"not a Kendall statistic: {statistic!r}")
    if statistic in ("tau_b", "tau_c", "kendall"):
        value = np.where((metric_ties == total) | (gold_ties == total), math.nan, value)
    return value


def _distinct(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    return np.array([len(np.unique(values[a:b])) for a, b in zip(starts[:-1], starts[1:], strict=True)])


def group_values(groups: Groups, statistic: str, epsilon: float = 0.0) -> np.ndarray:
    """The statistic of every group (NaN for groups with fewer than two scores or undefined)."""
    if statistic not in STATISTICS:
        raise ValueError(f"unknown statistic {statistic!r}; expected one of: {', '.join(STATISTICS)}")
    if epsilon and statistic not in ("tau_b", "tau_eq", "acc_eq"):
        raise ValueError(f"epsilon applies to tau_b, tau_eq and acc_eq, not {statistic!r} (as in mt-metrics-eval)")
    if statistic == "pearson":
        return _by_size(groups, pearson_rows)
    if statistic == "spearman":
        return _by_size(groups, _spearman_rows)
    counts = grouped_counts(groups.metric, groups.gold, groups.starts, epsilon)
    sizes = groups.sizes
    classes = {}
    if statistic == "tau_c":
        classes = {"metric_classes": _distinct(groups.metric, groups.starts),
                   "gold_classes": _distinct(groups.gold, groups.starts)}
    values = kendall_from_counts(counts, statistic, sizes, **classes)
    values[sizes < 2] = math.nan
    return values


def average(values: np.ndarray, sizes: np.ndarray, macro: bool = True, nan_as_zero: bool = False) -> GroupedCorrelation:
    """MTME's ``AverageCorrelation``: groups with fewer than two scores are skipped; NaN values are
    dropped or count as 0; the weighted sum is accumulated in group order, then divided."""
    used = sizes >= 2
    values, sizes = values[used], sizes[used]
    undefined = np.isnan(values)
    weights = np.ones(len(values), dtype=np.int64) if macro else sizes.astype(np.int64)
    if nan_as_zero:
        values = np.where(undefined, 0.0, values)
    else:
        values, weights = values[~undefined], weights[~undefined]
    weight = int(weights.sum())
    value = float(np.cumsum(weights * values)[-1] / weight) if weight else math.nan
    return GroupedCorrelation(value, weight, int(used.sum()), int(undefined.sum()))


def grouped_correlation(gold, metric, statistic: str, *, average_by: str, macro: bool = True,
                        nan_as_zero: bool = False, epsilon: float = 0.0) -> GroupedCorrelation:
    """``statistic`` of systems x items ``gold`` (NaN = missing) and ``metric`` scores, grouped by
    ``average_by`` and averaged as MTME's ``Correlation`` methods do."""
    groups = layout(gold, metric, average_by)
    values = group_values(groups, statistic, epsilon)
    return average(values, groups.sizes, macro=macro, nan_as_zero=nan_as_zero)
