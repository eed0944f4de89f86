"""System-level protocols over pairs of systems, as mt-metrics-eval defines them.

- :func:`agreement` / :func:`pairwise_accuracy` (Kocmi et al. 2021; MTME's ``Agreement``): over
  every pair of systems whose gold score is known, the metric agrees when sign(gold difference) ==
  sign(metric difference); a tie on both sides agrees, a tie on one side does not.
- :func:`pooled_pairwise_accuracy`: Kocmi et al.'s global accuracy (MTME's
  ``CompareMetricsWithGlobalAccuracy``): pairs are formed within each eval set (language pair) and
  pooled, sum of agreements over sum of pairs.
- :func:`soft_pairwise_accuracy` (WMT24; Thompson et al. 2024; MTME's ``pce.py``): for every pair of
  systems, the p-value of a one-sided paired permutation test that system i beats system j is
  computed once from the gold and once from the metric's segment scores; the result is 1 - the mean
  |p_gold - p_metric|. The permutations are MTME's: ``numpy.random.default_rng(seed)`` draws
  ``permutations x segments`` float32 uniforms, rounded to 0/1 (``np.rint``) and mapped to -1/+1,
  one sign per segment shared by every system pair, gold and metric alike (seed 4, 1000
  permutations); scores are float32 sums, and p = #(null difference >= observed difference) /
  permutations, in the same float32 arithmetic and memory layout (C order: a float32 matrix product
  rounds differently for another layout), so the p-values equal MTME's.
- :func:`system_rows`: which systems a protocol uses; the caller says explicitly whether human
  translations (references scored as systems) are in.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mtmeta.stats.grouped import grouped_correlation
from mtmeta.stats.memory_limit import check_allocation, pairs_of

DEFAULT_PERMUTATIONS = 1000
DEFAULT_SEED = 4


def system_rows(is_human, *, include_human: bool) -> np.ndarray:
    """Indices of the systems to evaluate: all of them with ``include_human``, else the MT systems only."""
    is_human = np.asarray(is_human, dtype=bool)
    if is_human.ndim != 1:
        raise ValueError("is_human must be one flag per system")
    return np.arange(len(is_human)) if include_human else np.flatnonzero(~is_human)


def _system_vectors(gold, metric) -> tuple[np.ndarray, np.ndarray]:
    gold, metric = np.asarray(gold, dtype=float), np.asarray(metric, dtype=float)
    if gold.shape != metric.shape or gold.ndim != 1:
        raise ValueError(f"need one gold and one metric score per system, got shapes {gold.shape} and {metric.shape}")
    if np.isnan(metric).any():
        raise ValueError("metric system scores contain NaN; only gold scores may be missing")
    return gold, metric


def agreement(gold, metric) -> tuple[int, int]:
    """(agreeing pairs, pairs) over the systems with a gold score (NaN gold: the system is left out)."""
    gold, metric = _system_vectors(gold, metric)
    known = ~np.isnan(gold)
    gold, metric = gold[known], metric[known]
    check_allocation(f"pairwise accuracy of {pairs_of(len(gold))} pairs of systems", pairs_of(len(gold)), 40)
    i, j = np.triu_indices(len(gold), k=1)
    agree = np.sign(gold[i] - gold[j]) == np.sign(metric[i] - metric[j])
    return int(agree.sum()), len(i)


def pairwise_accuracy(gold, metric) -> float:
    agree, pairs = agreement(gold, metric)
    return agree / pairs if pairs else float("nan")


def pooled_pairwise_accuracy(sets) -> tuple[float, int, int]:
    """Accuracy over the pairs of several eval sets pooled: ``sets`` holds one (gold, metric) pair of
    system-score vectors per set. Returns (accuracy, agreeing pairs, pairs)."""
    agree = pairs = 0
    for gold, metric in sets:
        a, p = agreement(gold, metric)
        agree, pairs = agree + a, pairs + p
    return (agree / pairs if pairs else float("nan")), agree, pairs


@lru_cache(maxsize=8)
def permutation_signs(n_segments: int, permutations: int = DEFAULT_PERMUTATIONS,
                      seed: int = DEFAULT_SEED) -> np.ndarray:
    """MTME's permutation matrix (permutations x segments, float32 -1/+1), read-only and shared."""
    rng = np.random.default_rng(seed)
    signs = rng.random(size=(permutations, n_segments), dtype=np.float32)
    np.rint(signs, out=signs)  # uniform [0, 1) -> 0 or 1 (0.5 rounds to even: 0)
    signs *= 2.0
    signs -= 1.0
    signs.flags.writeable = False
    return signs


def pairwise_p_values(segment_scores, permutations: int = DEFAULT_PERMUTATIONS, seed: int = DEFAULT_SEED) -> np.ndarray:
    """(systems x systems) p-values, upper triangle: p[i, j] for "system i is better than system j"
    from a paired permutation test on the segment scores (systems x segments); NaN elsewhere."""
    # C order, as MTME's reshape of a flat list gives it: float32 matrix products round differently for
    # another memory layout (BLAS takes another path), and a p-value at a tie moves by 1 / permutations.
    scores = np.ascontiguousarray(segment_scores, dtype=np.float32)
    if scores.ndim != 2:
        raise ValueError(f"need a systems x segments matrix, got shape {scores.shape}")
    check_allocation(f"soft pairwise accuracy's permutation test of {permutations} permutations x "
                     f"{pairs_of(scores.shape[0])} pairs of systems", permutations * pairs_of(scores.shape[0]), 8)
    signs = permutation_signs(scores.shape[1], permutations, seed)
    totals = np.sum(scores, axis=1)
    null = np.matmul(signs, scores.T)  # permutations x systems
    n = scores.shape[0]
    p = np.full((n, n), np.nan)
    i, j = np.triu_indices(n, k=1)
    null_delta = null[:, i] - null[:, j]
    p[i, j] = np.sum(null_delta >= (totals[i] - totals[j]), axis=0) / permutations
    return p


def complete_segments(gold) -> np.ndarray:
    """The segments with a gold score for every system; MTME's soft pairwise accuracy drops missing
    gold cells and reshapes per system, which is only meaningful when every system misses the same
    segments, so anything else is an error here."""
    gold = np.asarray(gold, dtype=float)
    missing = np.isnan(gold)
    partial = missing.any(axis=0) & ~missing.all(axis=0)
    if partial.any():
        raise ValueError(f"soft pairwise accuracy needs the same segments scored for every system; "
                         f"{int(partial.sum())} segment(s) have gold scores for some systems only")
    return np.flatnonzero(~missing.all(axis=0))


def soft_pairwise_accuracy(gold_segments, metric_segments, permutations: int = DEFAULT_PERMUTATIONS,
                           seed: int = DEFAULT_SEED) -> float:
    """1 - mean |p_gold - p_metric| over system pairs (systems x segments inputs; see the module)."""
    gold = np.asarray(gold_segments, dtype=float)
    metric = np.asarray(metric_segments, dtype=float)
    if gold.shape != metric.shape or gold.ndim != 2:
        raise ValueError(f"need two systems x segments matrices of one shape, got {gold.shape} and {metric.shape}")
    if np.isnan(metric).any():
        raise ValueError("metric segment scores contain NaN; only gold scores may be missing")
    keep = complete_segments(gold)
    p_gold = pairwise_p_values(gold[:, keep], permutations, seed)
    p_metric = pairwise_p_values(metric[:, keep], permutations, seed)
    upper = np.triu_indices(len(gold), k=1)
    return float(1.0 - np.mean(np.abs(p_gold - p_metric)[upper]))


SYSTEM_STATISTICS = ("pearson", "spearman", "kendall", "accuracy")


def system_level(gold, metric, statistic: str, *, is_human, include_human: bool) -> tuple[float, int]:
    """A system-level statistic over the MT systems only, or with the human translations too
    (``include_human``; ``is_human`` flags each system). Pearson, Spearman and Kendall are MTME's
    ``average_by='none'`` correlations (missing gold dropped); ``accuracy`` is pairwise accuracy.
    Returns (value, systems used)."""
    if statistic not in SYSTEM_STATISTICS:
        raise ValueError(f"unknown system-level statistic {statistic!r}; expected one of: "
                         f"{', '.join(SYSTEM_STATISTICS)}")
    gold, metric = _system_vectors(gold, metric)
    if len(np.asarray(is_human)) != len(gold):
        raise ValueError(f"is_human has {len(np.asarray(is_human))} flags for {len(gold)} systems")
    rows = system_rows(is_human, include_human=include_human)
    gold, metric = gold[rows], metric[rows]
    used = int(np.sum(~np.isnan(gold)))
    if statistic == "accuracy":
        return pairwise_accuracy(gold, metric), used
    return grouped_correlation(gold, metric, statistic, average_by="none").value, used
