"""Permutation tests between two metrics and significance clusters, as mt-metrics-eval defines them.

Every test here answers "does metric a agree with the gold scores better than metric b?" (one-sided;
MTME's functions take the two metrics in the other order: ``PermutationSigDiff(corr1, corr2)`` tests
metric 2 > metric 1, so ours with a = metric 2, b = metric 1 is theirs).

- :func:`perm_both` (PERM-BOTH, Deutsch et al. 2021; MTME's ``PermutationSigDiff``): the scores are
  grouped as for the statistic (:mod:`mtmeta.stats.grouped`, missing gold dropped); each metric's
  remaining scores are z-scored over all of them (mean, population standard deviation: scipy's
  ``zscore``); each draw swaps the two metrics' z-scores cell by cell with probability 1/2 and
  recomputes both statistics (the mean over groups, NaN groups dropped or 0 with ``nan_as_zero``; 0
  when no group is defined, as MTME's test does). p = #(draws with stat(a') - stat(b') >= observed
  difference) / draws. Draws are checked in blocks of ``block_size``: at each block's end the test
  stops if p < ``early_min`` or p > ``early_max`` (MTME's defaults: k = 1000, blocks of 1000, 0.02,
  0.5; MTME's task runner uses blocks of 100). On soft pairwise accuracy, :func:`spa_tests` runs every
  test of a ranking together (:mod:`mtmeta.stats.spa_draws`: each metric's products once per block of
  draws, shared by all its pairs), and compares draws with the observed difference as exact integers.
- :func:`pairwise_perm_test` (MTME's ``PairwisePermutationSigDiff``) for tie-calibrated acc_eq and
  tau_eq: each metric keeps its own epsilon (calibrated on its raw scores unless given), and each
  draw swaps the two metrics' *verdicts on each pair of items* with probability 1/2. Only pairs where
  the two metrics' verdicts differ move the statistic, each by +-1 / (pairs of its group x groups),
  so the null difference is a sum of independent signs: per class of equally weighted pairs, the
  number of swaps that favour a is Binomial(K, 1/2). The draws are made in that form (the same
  distribution as MTME's pair-by-pair draws, in microseconds), and compared with the observed
  difference as exact integers. MTME checks its early-stopping rule only at block ends whose own draw
  was at least the observed difference; that is kept.
- :func:`assign_ranks` (MTME's ``AssignRanks``) and :func:`rank_metrics` (``CompareMetrics``):
  metrics sorted by their statistic (ties by name); p[i, j] (i < j) is the test of metric i > metric
  j; metric i starts a new cluster when any metric of the current cluster before it beats it with
  p <= 0.05.

Draws come from ``numpy.random.default_rng(seed)``; every pair of metrics is tested with the same
seed, so its p-value does not depend on which other metrics are ranked. The swap masks are drawn as
uniforms < 0.5 in draw order, so the draws do not depend on how the work is chunked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from mtmeta.stats import correlation
from mtmeta.stats.grouped import (
    KENDALL_VARIANTS,
    Groups,
    grouped_correlation,
    kendall_from_counts,
    layout,
    pearson_rows,
)
from mtmeta.stats.kendall_counts import grouped_counts
from mtmeta.stats.memory_limit import check_allocation, pairs_of
from mtmeta.stats.spa_draws import SpaDraws, observed_counts
from mtmeta.stats.system_pairs import (
    pairwise_accuracy,
    permutation_signs,
    pooled_pairwise_accuracy,
    soft_pairwise_accuracy,
)
from mtmeta.stats.tie_calibration import Pairs, calibrate, enumerate_pairs, value_at

DEFAULT_SEED = 12345
PERM_STATISTICS = ("pearson", "spearman", "kendall", *KENDALL_VARIANTS, "accuracy", "spa")
CELLS_PER_CHUNK = 20_000_000  # values materialised at once while evaluating draws
SPA_CELLS_PER_CHUNK = 2_000_000  # float32 masked products per metric held at once (soft pairwise accuracy)


@dataclass(frozen=True)
class PermutationResult:
    p_value: float  # one-sided, H1: metric a agrees better than metric b
    delta: float  # statistic(a) - statistic(b), on the scores the test permutes
    draws: int  # draws used (fewer than k after early stopping)
    method: str
    # stat(a') - stat(b') of each draw used, what MTME keeps as its draws list and what the
    # significance of an average over tasks resamples (MTME's ``AverageCorrMatrix``)
    null: np.ndarray | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class EarlyStopping:
    block_size: int = 1000
    early_min: float = 0.02
    early_max: float = 0.5


def _mean_of_defined(values: np.ndarray, nan_as_zero: bool) -> np.ndarray:
    """Each draw's (row's) mean over its groups with a defined value (NaN groups as 0 with
    ``nan_as_zero``); 0 for a draw without any, as MTME's averages give."""
    if nan_as_zero:
        values = np.nan_to_num(values, nan=0.0)
    defined = ~np.isnan(values)
    counts = defined.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(defined, values, 0.0).sum(axis=1) / counts
    return np.where(counts > 0, means, 0.0)


def draws_used(large: np.ndarray, stopping: EarlyStopping, only_after_large: bool = False) -> int:
    """How many draws MTME's loop performs: at each block end it stops if the running p-value is below
    ``early_min`` or above ``early_max`` (``only_after_large``: and that end's draw was large, as in
    MTME's pairwise test)."""
    k = len(large)
    ends = np.arange(stopping.block_size, k + 1, stopping.block_size)
    if not len(ends):
        return k
    running = np.cumsum(large)[ends - 1] / ends
    stop = (running < stopping.early_min) | (running > stopping.early_max)
    if only_after_large:
        stop &= large[ends - 1]
    hits = np.flatnonzero(stop)
    return int(ends[hits[0]]) if len(hits) else k


def _zscore(values: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return (values - values.mean()) / values.std()


# --- statistics over many draws at once ---------------------------------------------------------

class _Evaluator:
    """The mean-over-groups statistic of many draws (rows) of permuted metric scores."""

    def __init__(self, groups: Groups, statistic: str, epsilon: float, nan_as_zero: bool):
        self.groups, self.statistic, self.epsilon, self.nan_as_zero = groups, statistic, epsilon, nan_as_zero
        sizes = groups.sizes
        self.buckets = [(np.flatnonzero(sizes == s), int(s)) for s in np.unique(sizes[sizes >= 2])]

    def __call__(self, draws: np.ndarray) -> np.ndarray:
        if self.statistic == "accuracy":
            return self._accuracy(draws)
        values = np.full((len(draws), len(self.groups.sizes)), math.nan)
        for which, size in self.buckets:
            cells = self.groups.starts[which][:, None] + np.arange(size)
            for rows in _chunks(len(draws), len(which) * max(size, size * (size - 1) // 2)):
                values[rows, which] = self._bucket(draws[rows][:, cells], self.groups.gold[cells], size)
        return _mean_of_defined(values, self.nan_as_zero)

    def _bucket(self, x: np.ndarray, gold: np.ndarray, size: int) -> np.ndarray:
        """The statistic of every (draw, group) of one size: x is draws x groups x size."""
        if self.statistic == "pearson":
            return pearson_rows(x, gold)
        if self.statistic == "spearman":
            return pearson_rows(correlation.rankdata(x, axis=-1), correlation.rankdata(gold, axis=-1))
        if size > 64 and self.epsilon == 0:  # one large group: compiled O(n log n) counts per draw
            out = np.empty(x.shape[:2])
            for d in range(len(x)):
                starts = np.arange(0, x.shape[1] * size + 1, size)
                counts = grouped_counts(x[d].ravel(), np.broadcast_to(gold, x.shape[1:]).ravel(), starts)
                out[d] = self._kendall(counts, x[d], np.broadcast_to(gold, x.shape[1:]), size)
            return out
        i, j = np.triu_indices(size, k=1)
        dm = x[..., i] - x[..., j]
        dg = gold[..., i] - gold[..., j]
        metric_tie = np.abs(dm) <= self.epsilon
        gold_tie = np.broadcast_to(dg == 0, dm.shape)
        decided = ~metric_tie & ~gold_tie
        agree = decided & ((dm > 0) == (dg > 0))
        counts = np.stack([agree.sum(-1), (decided & ~agree).sum(-1), (metric_tie & ~gold_tie).sum(-1),
                           (gold_tie & ~metric_tie).sum(-1), (metric_tie & gold_tie).sum(-1)], axis=-1)
        shape = counts.shape[:-1]
        return self._kendall(counts.reshape(-1, 5), x, np.broadcast_to(gold, x.shape), size).reshape(shape)

    def _kendall(self, counts: np.ndarray, x: np.ndarray, gold: np.ndarray, size: int) -> np.ndarray:
        sizes = np.full(len(counts), size)
        classes = {}
        if self.statistic == "tau_c":
            classes = {"metric_classes": _distinct_last(x).ravel(), "gold_classes": _distinct_last(gold).ravel()}
        return kendall_from_counts(counts, self.statistic, sizes, **classes)

    def _accuracy(self, draws: np.ndarray) -> np.ndarray:
        """Pairwise accuracy pooled over the groups (eval sets): agreeing pairs / pairs."""
        agree = np.zeros(len(draws))
        pairs = 0
        for which, size in self.buckets:
            pairs_here = len(which) * pairs_of(size)
            check_allocation(f"pairwise accuracy of {len(draws)} draws x {pairs_here} pairs of systems",
                             len(draws) * pairs_here, 40)
            i, j = np.triu_indices(size, k=1)
            cells = self.groups.starts[which][:, None] + np.arange(size)
            x, gold = draws[:, cells], self.groups.gold[cells]
            same = np.sign(x[..., i] - x[..., j]) == np.sign(gold[..., i] - gold[..., j])
            agree += same.sum(axis=(1, 2))
            pairs += len(which) * len(i)
        return agree / pairs if pairs else np.zeros(len(draws))


def _distinct_last(values: np.ndarray) -> np.ndarray:
    ordered = np.sort(values, axis=-1)
    return 1 + (ordered[..., 1:] != ordered[..., :-1]).sum(axis=-1)


def _chunks(n: int, cells_per_row: int):
    step = max(1, CELLS_PER_CHUNK // max(1, cells_per_row))
    for start in range(0, n, step):
        yield slice(start, min(n, start + step))


# --- PERM-BOTH ----------------------------------------------------------------------------------

class _PearsonMoments:
    """Pearson of permuted mixtures from sums: a draw's mixture of a and b is b + mask (a - b), so
    each group's sums (of x, x^2, x * gold) are b's sums plus a's masked sums minus b's masked sums;
    the masked sums of one metric are matrix products with the masks, computed once per metric and
    reused for every pair it is in. Row 0 of the masks is all ones: the observed statistic."""

    def __init__(self, gold: np.ndarray, starts: np.ndarray, masks: np.ndarray, nan_as_zero: bool):
        self.starts, self.gold, self.nan_as_zero = starts, gold, nan_as_zero
        self.masks = np.vstack([np.ones((1, masks.shape[1])), masks.astype(float)])
        self.sizes = np.diff(starts).astype(float)
        self.gold_sum = self._totals(gold)
        self.gold_square = self._totals(gold * gold)

    def _totals(self, v: np.ndarray) -> np.ndarray:
        return np.add.reduceat(v, self.starts[:-1]) if len(v) else np.zeros(0)

    def _masked(self, v: np.ndarray) -> np.ndarray:
        if len(self.starts) == 2:
            return (self.masks @ v)[:, None]
        return np.add.reduceat(self.masks * v, self.starts[:-1], axis=1)

    def moments(self, z: np.ndarray):
        """(masked sums, totals) of z, z^2 and z * gold."""
        columns = (z, z * z, z * self.gold)
        return [self._masked(v) for v in columns], [self._totals(v) for v in columns]

    def _statistic(self, first, second) -> np.ndarray:
        (masked_first, _), (masked_second, totals_second) = first, second
        s1, s2, sg = (totals_second[k] + masked_first[k] - masked_second[k] for k in range(3))
        sizes, gold_sum, gold_square = self.sizes, self.gold_sum, self.gold_square
        with np.errstate(invalid="ignore", divide="ignore"):
            x_var = sizes * s2 - s1 * s1
            g_var = sizes * gold_square - gold_sum * gold_sum
            r = (sizes * sg - s1 * gold_sum) / np.sqrt(x_var * g_var)
        r = np.clip(r, -1.0, 1.0)
        undefined = (x_var <= 1e-12 * sizes * s2) | (g_var <= 1e-12 * sizes * gold_square) | (sizes < 2)
        r = np.where(undefined, math.nan, np.where(sizes == 2, np.round(r), r))
        return _mean_of_defined(r, self.nan_as_zero)

    def differences(self, moments_a, moments_b) -> np.ndarray:
        """stat(a') - stat(b') for the observed scores (row 0) and every draw."""
        return self._statistic(moments_a, moments_b) - self._statistic(moments_b, moments_a)


def perm_both(gold, metric_a, metric_b, statistic: str, *, average_by: str = "none", k: int = 1000,
              stopping: EarlyStopping = EarlyStopping(), seed: int = DEFAULT_SEED, nan_as_zero: bool = False,
              epsilon: float = 0.0, set_sizes=None) -> PermutationResult:
    """PERM-BOTH: is ``metric_a`` better than ``metric_b`` at ``statistic`` (systems x items inputs,
    NaN gold = missing)? ``statistic`` is one of :data:`PERM_STATISTICS` (``accuracy``: pairwise
    accuracy pooled over the groups; ``spa``: soft pairwise accuracy of systems x segments scores,
    ``average_by`` none). With ``set_sizes``, the inputs are system scores of several eval sets laid
    end to end and ``accuracy`` is pooled over them (MTME's global accuracy; z-scores over all sets)."""
    tester = _PermBoth(gold, statistic, average_by, nan_as_zero, epsilon, set_sizes)
    return tester.test(metric_a, metric_b, k, stopping, seed)


class _PermBoth:
    """PERM-BOTH set up once for one gold matrix, statistic and grouping (a ranking reuses it)."""

    def __init__(self, gold, statistic: str, average_by: str, nan_as_zero: bool, epsilon: float, set_sizes=None):
        if statistic not in PERM_STATISTICS:
            raise ValueError(f"unknown statistic {statistic!r}; expected one of: {', '.join(PERM_STATISTICS)}")
        if statistic == "spa" and average_by != "none":
            raise ValueError("soft pairwise accuracy is system level: average_by must be 'none'")
        self.gold = np.asarray(gold, dtype=float)
        self.statistic, self.average_by, self.nan_as_zero, self.epsilon = statistic, average_by, nan_as_zero, epsilon
        self.masks: dict[tuple[int, int], np.ndarray] = {}
        self.moment_setup = None
        self.set_sizes = None if set_sizes is None else np.asarray(set_sizes, dtype=np.int64)
        if self.set_sizes is not None and (statistic != "accuracy" or self.set_sizes.sum() != self.gold.size):
            raise ValueError("set_sizes lay out system scores of several sets for pooled accuracy; "
                             f"they must add up to the {self.gold.size} gold scores")

    def _layout(self, metric) -> Groups:
        if self.set_sizes is None:
            return layout(self.gold, metric, self.average_by)
        return set_layout(self.gold, metric, self.set_sizes)

    def _masks(self, k: int, seed: int, cells: int) -> np.ndarray:
        if (k, seed) not in self.masks:
            rng = np.random.default_rng(seed)
            self.masks = {(k, seed): (rng.random((k, cells)) < 0.5)}
        return self.masks[(k, seed)]

    def _moments(self, key, z: np.ndarray, groups: Groups, k: int, seed: int):
        """A metric's Pearson moments under the draws, kept per metric while k and seed stay."""
        if self.moment_setup is None or self.moment_setup[0] != (k, seed):
            masks = self._masks(k, seed, len(z))
            self.moment_setup = ((k, seed), _PearsonMoments(groups.gold, groups.starts, masks, self.nan_as_zero), {})
        _, calculator, cache = self.moment_setup
        if key is None:
            return calculator, calculator.moments(z)
        if key not in cache:
            cache[key] = calculator.moments(z)
        return calculator, cache[key]

    def test(self, metric_a, metric_b, k: int, stopping: EarlyStopping, seed: int,
             keys=(None, None)) -> PermutationResult:
        """The test of a > b; ``keys`` name the metrics, so that a ranking computes each metric's
        per-draw sums once (Pearson)."""
        if self.statistic == "spa":
            return spa_tests(self.gold, {"a": metric_a, "b": metric_b}, [("a", "b")], k, stopping, seed)[("a", "b")]
        groups_a, groups_b = self._layout(metric_a), self._layout(metric_b)
        za, zb = _zscore(groups_a.metric), _zscore(groups_b.metric)
        groups = Groups(groups_a.gold, za, groups_a.starts)
        masks = self._masks(k, seed, len(za))
        method = f"perm-both|{self.statistic}|{self.average_by}|k:{k}|block:{stopping.block_size}|seed:{seed}"
        if self.statistic == "pearson":
            calculator, moments_a = self._moments(keys[0], za, groups, k, seed)
            _, moments_b = self._moments(keys[1], zb, groups, k, seed)
            differences = calculator.differences(moments_a, moments_b)
            delta, null = float(differences[0]), differences[1:]
        else:
            evaluate = _Evaluator(groups, self.statistic, self.epsilon, self.nan_as_zero)
            observed = evaluate(np.stack([za, zb]))
            delta = float(observed[0] - observed[1])
            null = np.empty(0)
            used = 0
            while used < k:  # one block at a time, so early stopping saves the rest
                end = min(k, used + stopping.block_size)
                block = masks[used:end]
                values_a = evaluate(np.where(block, za, zb))
                values_b = evaluate(np.where(block, zb, za))
                null = np.concatenate([null, values_a - values_b])
                used = end
                if draws_used(null >= delta, stopping) < used:
                    break
        large = null >= delta
        n = draws_used(large, stopping)
        return PermutationResult(float(large[:n].mean()) if n else math.nan, delta, n, method, null[:n])


def spa_tests(gold, metrics: Mapping[str, np.ndarray], pairs: list[tuple[str, str]], k: int,
              stopping: EarlyStopping, seed: int) -> dict:
    """PERM-BOTH on soft pairwise accuracy for each (a, b) of ``pairs`` (is a better?), all with the
    masks of ``default_rng(seed)`` as :func:`perm_both` draws them, computed together
    (:mod:`mtmeta.stats.spa_draws`: each metric's products once per block of draws, a pair's draws from
    them). Each test stops early on its own, at block ends. Returns (a, b) -> PermutationResult."""
    gold = np.asarray(gold, dtype=float)
    if gold.ndim != 2 or np.isnan(gold).any():
        raise ValueError("PERM-BOTH on soft pairwise accuracy needs a complete systems x segments gold matrix")
    n, segments = gold.shape
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    z = {name: _zscore(layout(gold, metrics[name], "none").metric).reshape(n, segments) for name in names}
    signs = permutation_signs(segments)
    gold_counts = observed_counts(np.ascontiguousarray(gold, dtype=np.float32), signs)
    masks = np.random.default_rng(seed).random((k, n * segments)) < 0.5
    draws = SpaDraws(gold_counts, z, masks, len(signs))
    scale = len(signs) * max(1, len(gold_counts))  # integer difference -> difference of soft accuracies
    observed = {pair: draws.observed_difference(*pair) for pair in pairs}
    null = {pair: [] for pair in pairs}
    running = list(dict.fromkeys(pairs))
    chunk = max(1, min(stopping.block_size, SPA_CELLS_PER_CHUNK // max(1, len(signs) * n)))
    used = 0
    while running and used < k:
        block_end = min(k, (used // stopping.block_size + 1) * stopping.block_size)
        end = min(block_end, used + chunk)
        needed = dict.fromkeys(name for pair in running for name in pair)
        masked = {name: draws.masked(name, used, end) for name in needed}
        for pair in running:
            null[pair].append(draws.differences(*pair, masked))
        used = end
        if used == block_end:
            running = [pair for pair in running
                       if draws_used(np.concatenate(null[pair]) >= observed[pair], stopping) >= used]
    results = {}
    for pair in pairs:
        values = np.concatenate(null[pair]) if null[pair] else np.zeros(0, dtype=np.int64)
        large = values >= observed[pair]
        used = draws_used(large, stopping)
        method = f"perm-both|spa|none|k:{k}|block:{stopping.block_size}|seed:{seed}"
        results[pair] = PermutationResult(float(large[:used].mean()) if used else math.nan, observed[pair] / scale,
                                          used, method, values[:used] / scale)
    return results


# --- pairwise permutation for tie-calibrated Kendall ---------------------------------------------

@dataclass(frozen=True)
class Verdicts:
    """One metric's verdicts on every pair of items (1: agrees with gold) at its epsilon."""

    pairs: Pairs
    epsilon: float
    agree: np.ndarray
    value: float  # the tie-calibrated statistic (on the sampled pairs when sample_rate < 1)


def verdicts(gold, metric, *, variant: str = "acc_eq", average_by: str = "item", epsilon: float | None = None,
             sample_rate: float = 1.0, calibration_seed: int | None = None, running_sum: bool = False) -> Verdicts:
    """The pairs and verdicts the pairwise test swaps; epsilon calibrated on the raw scores unless given
    (``running_sum``: in MTME's arithmetic, :func:`mtmeta.stats.tie_calibration.running_values`)."""
    groups = layout(gold, metric, average_by)
    pairs = enumerate_pairs(groups, in_order=running_sum)
    sampled = pairs if sample_rate == 1 else enumerate_pairs(groups, sample_rate, calibration_seed)
    if epsilon is None:
        calibration = calibrate(sampled, variant, running_sum=running_sum)
        epsilon, value = calibration.epsilon, calibration.value
    else:
        value = value_at(sampled, epsilon, variant)
    if epsilon < 0:
        raise ValueError(f"epsilon must be non-negative, got {epsilon}")
    return Verdicts(pairs, float(epsilon), _agreement(pairs, epsilon), value)


def pairwise_perm_test(gold, metric_a, metric_b, *, variant: str = "acc_eq", average_by: str = "item",
                       epsilon_a: float | None = None, epsilon_b: float | None = None, sample_rate: float = 1.0,
                       calibration_seed: int | None = None, k: int = 1000, stopping: EarlyStopping = EarlyStopping(),
                       seed: int = DEFAULT_SEED) -> PermutationResult:
    """MTME's ``PairwisePermutationSigDiff`` for acc_eq / tau_eq: is ``metric_a`` better? Epsilons not
    given are calibrated (:mod:`mtmeta.stats.tie_calibration`) on each metric's raw scores."""
    if variant not in ("acc_eq", "tau_eq"):
        raise ValueError(f"the pairwise permutation test supports acc_eq and tau_eq, not {variant!r}")
    options = {"variant": variant, "average_by": average_by, "sample_rate": sample_rate,
               "calibration_seed": calibration_seed}
    a = verdicts(gold, metric_a, epsilon=epsilon_a, **options)
    b = verdicts(gold, metric_b, epsilon=epsilon_b, **options)
    return pairwise_test(a, b, variant=variant, k=k, stopping=stopping, seed=seed, average_by=average_by)


def pairwise_test(a: Verdicts, b: Verdicts, *, variant: str, k: int, stopping: EarlyStopping, seed: int,
                  average_by: str = "") -> PermutationResult:
    """The pairwise permutation test from two metrics' verdicts on the same pairs."""
    counts = a.pairs.count[a.pairs.group]  # pairs of each pair's group
    n_groups = int((a.pairs.count > 0).sum())
    difference = a.agree.astype(np.int64) - b.agree  # -1, 0 or 1 per pair (tau_eq doubles it)
    moving_counts = counts[difference != 0]
    classes, moving = np.unique(moving_counts, return_counts=True)
    favour_a = np.array([int(np.sum(counts[difference > 0] == c)) for c in classes], dtype=np.int64)
    denominator = 1
    for c in classes:
        denominator = math.lcm(denominator, int(c))
    if denominator * (len(difference) + 1) < 2**62:  # exact integers over the common denominator
        weights = np.array([denominator // int(c) for c in classes], dtype=np.int64)
    else:
        weights = 1.0 / classes
    rng = np.random.default_rng(seed)
    swaps = np.zeros((k, len(classes)), dtype=np.int64)  # per class, the swaps that favour a
    for c, m in enumerate(moving):
        swaps[:, c] = rng.binomial(m, 0.5, size=k)
    null = (2 * swaps - moving) @ weights
    observed = (2 * favour_a - moving) @ weights
    large = null >= observed
    n = draws_used(large, stopping, only_after_large=True)
    delta = _mean_value(a.pairs, a.agree, variant) - _mean_value(b.pairs, b.agree, variant)
    method = (f"pairwise-permutation|{variant}|{average_by}|eps_a:{a.epsilon:.6g}|eps_b:{b.epsilon:.6g}|k:{k}|"
              f"block:{stopping.block_size}|seed:{seed}|groups:{n_groups}")
    scale = (2.0 if variant == "tau_eq" else 1.0) / max(n_groups, 1)
    real_null = (null[:n] / (denominator if weights.dtype.kind == "i" else 1)) * scale
    return PermutationResult(float(large[:n].mean()) if n else math.nan, delta, n, method, real_null)


def _agreement(pairs, epsilon: float) -> np.ndarray:
    """Per pair, 1 when the metric with ties at |difference| <= epsilon agrees with gold: a metric tie
    agrees iff gold is tied; otherwise iff the pair is concordant (``change`` -1)."""
    return np.where(pairs.distance <= epsilon, pairs.gold_tie, pairs.change == -1).astype(np.int8)


def _mean_value(pairs, agree: np.ndarray, variant: str) -> float:
    used = pairs.count > 0
    agreeing = np.bincount(pairs.group, weights=agree, minlength=len(pairs.count))[used]
    count = pairs.count[used]
    if not len(count):
        return 0.0
    per_group = agreeing / count if variant == "acc_eq" else (2 * agreeing - count) / count
    return float(np.mean(per_group))


# --- significance clusters ----------------------------------------------------------------------

def assign_ranks(p_values: np.ndarray, threshold: float = 0.05) -> list[int]:
    """MTME's ``AssignRanks``: metrics in decreasing order of their statistic; metric i opens a new
    cluster if any metric of the current cluster before it beats it (p[m, i] <= threshold)."""
    ranks, rank, start = [], 1, 0
    for i in range(p_values.shape[0]):
        if np.any(p_values[start:i, i] <= threshold):
            rank += 1
            start = i
        ranks.append(rank)
    return ranks


@dataclass(frozen=True)
class MetricRanking:
    names: list[str]  # best first
    values: list[float]
    p_values: np.ndarray  # p[i, j], i < j: metric i beats metric j (zeros when k = 0, as MTME)
    ranks: list[int]  # significance cluster of each metric
    draws: np.ndarray  # draws used by each test
    method: str
    # (i, j) -> the null differences stat(names[i]') - stat(names[j]') of that test's draws
    null_draws: dict = field(default_factory=dict, repr=False, compare=False)


def set_layout(gold, metric, set_sizes) -> Groups:
    """System scores of several eval sets laid end to end, one group per set, missing gold dropped."""
    gold, metric = np.asarray(gold, dtype=float).ravel(), np.asarray(metric, dtype=float).ravel()
    if gold.shape != metric.shape or np.isnan(metric).any():
        raise ValueError("need one gold and one (known) metric score per system of every set")
    keep = ~np.isnan(gold)
    bounds = np.concatenate([[0], np.cumsum(set_sizes)])
    starts = np.array([keep[:b].sum() for b in bounds])
    return Groups(gold[keep], metric[keep], starts)


def metric_value(gold, metric, statistic: str, *, average_by: str = "none", nan_as_zero: bool = False,
                 epsilon: float = 0.0, sample_rate: float = 1.0, calibration_seed: int | None = None,
                 set_sizes=None) -> float:
    """The statistic a ranking sorts by: a grouped correlation, pairwise accuracy, soft pairwise
    accuracy, or (``acc_eq_calibrated`` / ``tau_eq_calibrated``) a tie-calibrated value."""
    if statistic == "accuracy":
        gold, metric = np.asarray(gold, dtype=float).ravel(), np.asarray(metric, dtype=float).ravel()
        if set_sizes is None:
            return pairwise_accuracy(gold, metric)
        bounds = np.concatenate([[0], np.cumsum(set_sizes)])
        sets = [(gold[a:b], metric[a:b]) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        return pooled_pairwise_accuracy(sets)[0]
    if statistic == "spa":
        return soft_pairwise_accuracy(gold, metric)
    if statistic in ("acc_eq_calibrated", "tau_eq_calibrated"):
        pairs = enumerate_pairs(layout(gold, metric, average_by), sample_rate, calibration_seed)
        return calibrate(pairs, statistic.removesuffix("_calibrated")).value
    return grouped_correlation(gold, metric, statistic, average_by=average_by, nan_as_zero=nan_as_zero,
                               epsilon=epsilon).value


def rank_metrics(gold, metrics: Mapping[str, np.ndarray], statistic: str, *, average_by: str = "none",
                 k: int = 1000, stopping: EarlyStopping = EarlyStopping(), seed: int = DEFAULT_SEED,
                 threshold: float = 0.05, nan_as_zero: bool = False, epsilon: float = 0.0,
                 sample_rate: float = 1.0, calibration_seed: int | None = None, set_sizes=None,
                 running_sum: bool = False) -> MetricRanking:
    """MTME's ``CompareMetrics``: every metric's statistic, the significance matrix and the clusters.
    Tie-calibrated statistics (``acc_eq_calibrated``, ``tau_eq_calibrated``) use the pairwise
    permutation test with each metric's own epsilon; every other statistic uses PERM-BOTH. ``set_sizes``:
    pooled (global) pairwise accuracy over eval sets laid end to end, as for :func:`perm_both`."""
    names = list(metrics)
    calibrated = statistic.endswith("_calibrated")
    if calibrated:
        variant = statistic.removesuffix("_calibrated")
        verdict = {name: verdicts(gold, metrics[name], variant=variant, average_by=average_by, sample_rate=sample_rate,
                                  calibration_seed=calibration_seed, running_sum=running_sum) for name in names}
        values = {name: verdict[name].value for name in names}
    else:
        values = {name: metric_value(gold, metrics[name], statistic, average_by=average_by,
                                     nan_as_zero=nan_as_zero, epsilon=epsilon, set_sizes=set_sizes)
                  for name in names}
    order = sorted(names, key=lambda name: (-values[name] if not math.isnan(values[name]) else math.inf, name))
    n = len(order)
    p_values, draws = np.zeros((n, n)), np.zeros((n, n), dtype=np.int64)
    null_draws = {}
    if calibrated:
        method = f"pairwise-permutation|{variant}|{average_by}|k:{k}|block:{stopping.block_size}|seed:{seed}"
    else:
        tester = _PermBoth(gold, statistic, average_by, nan_as_zero, epsilon, set_sizes)
        method = f"perm-both|{statistic}|{average_by}|k:{k}|block:{stopping.block_size}|seed:{seed}"
    if k and statistic == "spa":  # every pair at once: each metric's products serve all its pairs
        tests = spa_tests(gold, metrics, [(order[i], order[j]) for i in range(n) for j in range(i + 1, n)], k,
                          stopping, seed)
        for i in range(n):
            for j in range(i + 1, n):
                result = tests[(order[i], order[j])]
                p_values[i, j], draws[i, j] = result.p_value, result.draws
                null_draws[(i, j)] = result.null
    elif k:
        for i in range(n):
            for j in range(i + 1, n):
                if calibrated:
                    result = pairwise_test(verdict[order[i]], verdict[order[j]], variant=variant, k=k,
                                           stopping=stopping, seed=seed, average_by=average_by)
                else:
                    result = tester.test(metrics[order[i]], metrics[order[j]], k, stopping, seed,
                                         keys=(order[i], order[j]))
                p_values[i, j], draws[i, j] = result.p_value, result.draws
                null_draws[(i, j)] = result.null
    return MetricRanking(order, [values[name] for name in order], p_values, assign_ranks(p_values, threshold),
                         draws, f"{method}|threshold:{threshold}", null_draws)


def average_significance(averages: Mapping[str, float], rankings: list[MetricRanking], weights, spans,
                         threshold: float = 0.05) -> tuple[np.ndarray, list[int]]:
    """MTME's ``TaskSetResults.AverageCorrMatrix``: the significance of differences between weighted
    averages of task values. ``averages`` maps each metric to its average, best first; ``rankings``
    are the tasks' rankings (with their draws), ``weights`` the tasks' weights and ``spans`` the width
    of each task's range (1 for accuracies, 2 for correlations: the average rescales every value to
    [0, 1]). For metrics m1 above m2, each task's null differences stat(m1') - stat(m2') are scaled by
    weight / span; a task that stopped early is repeated (``np.tile``) up to the longest; their sum per
    draw is the null distribution of the average's difference, and p = the share of draws >= the
    observed difference. Returns (p-value matrix, cluster ranks)."""
    names = list(averages)
    n = len(names)
    p_values = np.zeros((n, n))
    positions = [{name: i for i, name in enumerate(r.names)} for r in rankings]
    for i in range(n):
        for j in range(i + 1, n):
            m1, m2 = names[i], names[j]
            per_task = []
            for ranking, where, weight, span in zip(rankings, positions, weights, spans, strict=True):
                a, b = where[m1], where[m2]
                null = ranking.null_draws.get((a, b) if a < b else (b, a))
                if null is None:
                    raise ValueError("a task was ranked without significance draws (k = 0)")
                per_task.append(weight * (null if a < b else -null) / span)
            longest = max(len(d) for d in per_task)
            if longest == 0:
                raise ValueError("a task test has no draws")
            total = np.zeros(longest)
            for d in per_task:
                total += np.tile(d, int(np.ceil(longest / len(d))))[:longest]
            observed = averages[m1] - averages[m2]
            # an undefined average is never significantly different (NaN p: no new cluster)
            p_values[i, j] = float(np.mean(total >= observed)) if observed == observed else math.nan
    return p_values, assign_ranks(p_values, threshold)
