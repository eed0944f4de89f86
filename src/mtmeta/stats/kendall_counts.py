"""Kendall's sufficient statistics for many groups of paired scores at once, compiled with numba.

For each group of paired (metric, gold) scores, every pair of items is one of: concordant (C),
discordant (D), tied in the metric only (T_m), tied in gold only (T_g) or tied in both (T_mg), as
mt-metrics-eval's ``KendallVariants`` counts them (metric first, gold second). With ``epsilon`` > 0 a
metric difference |m_i - m_j| <= epsilon is a metric tie (Deutsch, Foster & Freitag 2023); gold ties
are exact equality.

Two counting methods give the same integers:

- all pairs, O(n^2): groups of at most ``QUADRATIC_MAX_N`` items (an item-grouped segment level has
  one group per segment over 10-20 systems) and any group when epsilon > 0;
- scipy's O(n log n) method for larger groups at epsilon 0 (a correlation over every segment of
  every system): order by gold, then stably by metric, count strict inversions of the gold ranks with
  a Fenwick tree, and count ties from runs of equal values.

The counts are exact integers, so every Kendall variant formed from them in the same arithmetic as
scipy or mt-metrics-eval equals theirs to the last bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

QUADRATIC_MAX_N = 64
COLUMNS = ("concordant", "discordant", "metric_ties", "gold_ties", "both_ties")


@njit(cache=True)
def _quadratic(metric, gold, epsilon, out):
    # Branch-free counting (the categories as 0/1 integers), so the inner loop vectorises.
    n = metric.shape[0]
    both = metric_only = gold_only = agree = 0
    for i in range(n):
        mi = metric[i]
        gi = gold[i]
        for j in range(i + 1, n):
            dm = mi - metric[j]
            dg = gi - gold[j]
            metric_tie = np.int64(abs(dm) <= epsilon)
            gold_tie = np.int64(dg == 0.0)
            both += metric_tie * gold_tie
            metric_only += metric_tie * (1 - gold_tie)
            gold_only += gold_tie * (1 - metric_tie)
            agree += (1 - metric_tie) * (1 - gold_tie) * np.int64((dm > 0) == (dg > 0))
    total = n * (n - 1) // 2
    out[0] += agree
    out[1] += total - agree - metric_only - gold_only - both
    out[2] += metric_only
    out[3] += gold_only
    out[4] += both


@njit(cache=True)
def _tied_pairs(sorted_values):
    """Pairs of equal values in a sorted array: the sum of c(c - 1)/2 over runs of length c."""
    total = 0
    run = 1
    for i in range(1, sorted_values.shape[0]):
        if sorted_values[i] == sorted_values[i - 1]:
            run += 1
        else:
            total += run * (run - 1) // 2
            run = 1
    return total + run * (run - 1) // 2


@njit(cache=True)
def _n_log_n(metric, gold, out):
    n = metric.shape[0]
    by_gold = np.argsort(gold, kind="mergesort")
    g = gold[by_gold]
    m = metric[by_gold]
    ranks = np.empty(n, dtype=np.int64)  # dense gold ranks, 1-based
    rank = 1
    for i in range(n):
        if i > 0 and g[i] != g[i - 1]:
            rank += 1
        ranks[i] = rank
    by_metric = np.argsort(m, kind="mergesort")  # stable: metric ties stay in gold order
    m = m[by_metric]
    ranks = ranks[by_metric]
    tree = np.zeros(rank + 1, dtype=np.int64)  # Fenwick tree over gold ranks seen so far
    discordant = 0
    start = 0
    while start < n:  # a run of equal metric values is counted before any of it is inserted
        end = start
        while end < n and m[end] == m[start]:
            end += 1
        for k in range(start, end):
            seen_at_most = 0
            idx = ranks[k]
            while idx > 0:
                seen_at_most += tree[idx]
                idx -= idx & (-idx)
            discordant += start - seen_at_most  # earlier, strictly smaller metric, strictly larger gold
        for k in range(start, end):
            idx = ranks[k]
            while idx <= rank:
                tree[idx] += 1
                idx += idx & (-idx)
        start = end
    metric_ties = _tied_pairs(m)
    gold_ties = _tied_pairs(np.sort(g))
    both = 0
    run = 1
    for i in range(1, n):
        if m[i] == m[i - 1] and ranks[i] == ranks[i - 1]:
            run += 1
        else:
            both += run * (run - 1) // 2
            run = 1
    both += run * (run - 1) // 2
    total = n * (n - 1) // 2
    out[0] = total - discordant - metric_ties - gold_ties + both
    out[1] = discordant
    out[2] = metric_ties - both
    out[3] = gold_ties - both
    out[4] = both


@njit(cache=True)
def _grouped(metric, gold, starts, epsilon):
    groups = starts.shape[0] - 1
    out = np.zeros((groups, 5), dtype=np.int64)
    for k in range(groups):
        m = metric[starts[k]:starts[k + 1]]
        g = gold[starts[k]:starts[k + 1]]
        if epsilon > 0 or m.shape[0] <= QUADRATIC_MAX_N:
            _quadratic(m, g, epsilon, out[k])
        else:
            _n_log_n(m, g, out[k])
    return out


def grouped_counts(metric: np.ndarray, gold: np.ndarray, starts: np.ndarray, epsilon: float = 0.0) -> np.ndarray:
    """(groups x 5) int64 counts, columns :data:`COLUMNS`, of the contiguous groups
    ``metric[starts[k]:starts[k + 1]]`` against ``gold[...]`` (no NaN; the caller drops missing gold)."""
    if epsilon < 0:
        raise ValueError(f"epsilon must be non-negative, got {epsilon}")
    metric = np.ascontiguousarray(metric, dtype=np.float64)
    gold = np.ascontiguousarray(gold, dtype=np.float64)
    return _grouped(metric, gold, np.ascontiguousarray(starts, dtype=np.int64), float(epsilon))


def counts(metric, gold, epsilon: float = 0.0) -> np.ndarray:
    """The five counts of one pair of vectors (see :data:`COLUMNS`)."""
    metric = np.asarray(metric, dtype=np.float64)
    return grouped_counts(metric, gold, np.array([0, metric.size]), epsilon)[0]
