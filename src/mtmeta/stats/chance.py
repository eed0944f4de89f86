"""Chance levels: what a metric whose scores carry no information scores under each protocol.

"No information" means: the metric's scores, randomly permuted within the protocol's groups (over
the systems at system level; over all rated cells without grouping; within each item's systems
when grouped by item; within each system's segments when grouped by system), every permutation
equally likely. The gold is left as it is, ties included. The chance level is the expected value
of the protocol's statistic over those permutations.

Convention. By default the permuted values are the metric's own (a *permuted copy of the metric*):
its multiset of values per group, hence its tie pattern and, for tie calibration, the spread of its
differences, are kept. This is what makes the level comparable with that metric's value: a metric
that ties often (segment BLEU at 0) has a higher acc_eq floor than one that never ties, and tie
calibration chooses its threshold from the metric's own differences. With ``metric=None`` the exact
formulas take a continuous metric (no ties): the level of a metric that always decides.

Exact levels (derivations; P pairs in a group, T_g of them tied in the gold, q the share of the
group's pairs of metric values that are ties at the threshold, ``|a - b| <= epsilon``):

- Pearson, Spearman, Kendall (tau-b, tau-c, scipy's clipped tau-b) in every grouping: 0 wherever a
  group is defined. Pearson's numerator sum_i (g_i - mean g)(m_pi(i) - mean m) is linear in the
  permuted metric, and every position receives every value with probability 1/n, so
  E[m_pi(i)] = mean m and each term has expectation 0; Spearman is Pearson on ranks; Kendall's
  C - D has expectation 0 because swapping the two values of any pair is a bijection of the
  permutations, so each pair is as often concordant as discordant. The denominators depend only on
  the gold and on the multiset of metric values in the group, which a permutation within the group
  keeps, and so does whether the group is defined (constant gold or constant metric in the group).
  The mean over groups of quantities with expectation 0 is 0.
- Pairwise human judgments (WMT12-14; :func:`expected_judgment_statistic`): the metric's scores
  permuted among the systems of each segment, each comparison is a metric tie with the probability
  q of its segment, and by the swap symmetry as often concordant as discordant otherwise. WMT14's
  Kendall (C - D) / (C + D + T_m) has the fixed denominator N_h (the comparisons humans did not
  tie): 0. WMT12's (C - D - T_m) / N_h: -E[T_m] / N_h. acc_eq and tau_eq as below. WMT13's
  (C - D) / (C + D) and tau-b have random denominators once the metric can tie: 0 for a continuous
  metric, otherwise :func:`permutation_level_judgments`.
- Pairwise accuracy (MTME's ``Agreement``, Kocmi et al. 2021) and acc_eq at a fixed epsilon, per
  group: a pair of positions receives each unordered pair of the group's metric values with equal
  probability, so it is a metric tie with probability q. A gold-tied pair agrees exactly when the
  metric ties (probability q); an untied gold pair agrees when the metric does not tie and orders it
  the gold's way, probability (1 - q) / 2 by the swap symmetry above. Hence

      E[acc] = (T_g q + (P - T_g)(1 - q) / 2) / P,

  and for a grouped acc_eq the mean over groups of that; tau_eq = 2 acc_eq - 1 in expectation too.
  For a continuous metric (q = 0) pairwise accuracy is (P - T_g) / (2P): half of the untied pairs.
- Global accuracy (pairs of several sets pooled): sum over sets of E[agreeing pairs] over the sum
  of pairs, each set permuted on its own.
- Soft pairwise accuracy (WMT24), with the metric's systems relabelled at random (its segment rows
  permuted): 1 - mean over gold pairs (a, b) of E|p_gold(a, b) - p_metric(s(a), s(b))|, and
  (s(a), s(b)) is uniform over the ordered pairs of distinct systems, so the expectation is the
  mean of |p_gold(a, b) - p_metric(u, v)| over all ordered (u, v), u != v (each p-value from the
  same permutation test as :func:`mtmeta.stats.system_pairs.soft_pairwise_accuracy`).

Tie-calibrated acc_eq has no closed form: the threshold maximises acc_eq on each permuted metric, so
the level is the expectation of a maximum. :func:`permutation_level` estimates it (and any other
statistic) from seeded permutations within the groups, redoing the calibration on each, with the
Monte-Carlo standard error of the mean.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from mtmeta.stats.grouped import STATISTICS, Groups, average, group_values, layout
from mtmeta.stats.system_pairs import DEFAULT_PERMUTATIONS, DEFAULT_SEED, complete_segments, pairwise_p_values
from mtmeta.stats.tie_calibration import ShuffledCalibration, calibrate, enumerate_pairs

CORRELATIONS = ("pearson", "spearman", "kendall", "tau_b", "tau_c")
CALIBRATED = "acc_eq_calibrated"
PAIRWISE_GROUP_LIMIT = 4000  # above it, a group's tied metric pairs are counted from the sorted values


@dataclass(frozen=True)
class ChanceEstimate:
    value: float  # the mean over the draws with a defined statistic (NaN if none)
    standard_error: float  # its Monte-Carlo standard error (sd / sqrt(draws used))
    draws: int  # draws with a defined value
    seed: int


def _tied_pairs(values: np.ndarray, epsilon: float) -> int:
    """Pairs of ``values`` with |difference| <= epsilon (as the protocols count metric ties)."""
    n = len(values)
    if n < 2:
        return 0
    if n <= PAIRWISE_GROUP_LIMIT:
        i, j = np.triu_indices(n, k=1)
        return int(np.sum(np.abs(values[i] - values[j]) <= epsilon))
    ordered = np.sort(values)
    if epsilon == 0:
        _, counts = np.unique(ordered, return_counts=True)
        return int(np.sum(counts * (counts - 1) // 2))
    # Large group with a threshold: b - a <= epsilon counted from the sorted values (the rounding of
    # a + epsilon can differ from that of b - a in the last bit).
    reach = np.searchsorted(ordered, ordered + epsilon, side="right")
    return int(np.sum(reach - np.arange(n) - 1))


def _group_expected_agreement(gold: np.ndarray, metric: np.ndarray | None, epsilon: float) -> tuple[float, int]:
    """(expected agreeing pairs, pairs) of one group: T_g q + (P - T_g)(1 - q) / 2."""
    n = len(gold)
    pairs = n * (n - 1) // 2
    if pairs == 0:
        return 0.0, 0
    gold_ties = _tied_pairs(gold, 0.0)
    q = 0.0 if metric is None else _tied_pairs(metric, epsilon) / pairs
    return gold_ties * q + (pairs - gold_ties) * (1 - q) / 2, pairs


def _vector(values, name: str) -> np.ndarray:
    values = np.asarray(values, dtype=float)
    if values.ndim != 1:
        raise ValueError(f"{name}: need one score per system, got shape {values.shape}")
    return values


def expected_pairwise_accuracy(gold, metric=None) -> float:
    """The chance level of pairwise accuracy over systems (NaN gold: system left out, as MTME does)."""
    gold = _vector(gold, "gold")
    known = ~np.isnan(gold)
    metric_known = None if metric is None else _vector(metric, "metric")[known]
    agree, pairs = _group_expected_agreement(gold[known], metric_known, 0.0)
    return agree / pairs if pairs else math.nan


def expected_global_accuracy(sets: Iterable[tuple]) -> float:
    """The chance level of global accuracy: ``sets`` holds (gold, metric or None) system vectors, one
    pair per eval set; each set is permuted on its own and the pairs pooled."""
    agree = pairs = 0.0
    for gold, metric in sets:
        gold = _vector(gold, "gold")
        known = ~np.isnan(gold)
        a, p = _group_expected_agreement(gold[known], None if metric is None else _vector(metric, "metric")[known],
                                         0.0)
        agree, pairs = agree + a, pairs + p
    return agree / pairs if pairs else math.nan


def _groups(gold, metric, average_by: str) -> Groups:
    gold = np.asarray(gold, dtype=float)
    return layout(gold, np.zeros_like(gold) if metric is None else metric, average_by)


def _group_exact_ties(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Pairs of equal values inside each group (cells ``starts[g]:starts[g + 1]``; a matrix's columns
    when the groups are its columns, one after the other), every group at once: runs of equal values
    after one sort by group and value, c(c - 1) / 2 pairs per run of c."""
    sizes = np.diff(starts)
    group = np.repeat(np.arange(len(sizes)), sizes)
    order = np.lexsort((values, group))
    ordered, in_group = values[order], group[order]
    starts_run = np.ones(len(ordered), dtype=bool)
    starts_run[1:] = (ordered[1:] != ordered[:-1]) | (in_group[1:] != in_group[:-1])
    lengths = np.bincount(np.cumsum(starts_run) - 1)
    return np.bincount(in_group[starts_run], weights=lengths * (lengths - 1) // 2, minlength=len(sizes)).astype(
        np.int64)


def _expected_agreements(groups: Groups, with_metric: bool, epsilon: float) -> list[float]:
    """E[acc_eq] of each group with at least one pair, in group order (:func:`_group_expected_agreement`).
    At epsilon 0 with finite values, every group's ties are counted at once (the same integers, so
    the same floats); otherwise group by group."""
    if epsilon == 0 and np.isfinite(groups.gold).all() and (not with_metric or np.isfinite(groups.metric).all()):
        sizes = np.diff(groups.starts)
        pairs = sizes * (sizes - 1) // 2
        gold_ties = _group_exact_ties(groups.gold, groups.starts)
        has_pairs = pairs > 0
        q = np.zeros(len(sizes))
        if with_metric:
            q[has_pairs] = _group_exact_ties(groups.metric, groups.starts)[has_pairs] / pairs[has_pairs]
        agree = gold_ties * q + (pairs - gold_ties) * (1 - q) / 2
        return (agree[has_pairs] / pairs[has_pairs]).tolist()
    values = []
    for a, b in zip(groups.starts[:-1], groups.starts[1:], strict=True):
        agree, pairs = _group_expected_agreement(groups.gold[a:b], groups.metric[a:b] if with_metric else None,
                                                 epsilon)
        if pairs:
            values.append(agree / pairs)
    return values


def expected_acc_eq(gold, metric=None, *, average_by: str = "item", epsilon: float = 0.0,
                    variant: str = "acc_eq") -> float:
    """The chance level of acc_eq (or tau_eq) at a fixed ``epsilon``, grouped as ``average_by`` says:
    the mean over groups with two or more rated cells of E[acc_eq] (see the module's derivation)."""
    if variant not in ("acc_eq", "tau_eq"):
        raise ValueError(f"expected_acc_eq gives acc_eq or tau_eq, not {variant!r}")
    groups = _groups(gold, metric, average_by)
    values = _expected_agreements(groups, metric is not None, epsilon)
    if not values:
        return math.nan
    accuracy = float(np.mean(values))
    return accuracy if variant == "acc_eq" else 2 * accuracy - 1


def all_tied_acc_eq(gold, *, average_by: str = "item") -> float:
    """The acc_eq of a metric that ties every pair (the floor tie calibration can always reach with a
    large enough epsilon): the mean over groups of the share of gold-tied pairs."""
    gold = np.asarray(gold, dtype=float)
    return expected_acc_eq(gold, np.zeros_like(gold), average_by=average_by)


def expected_correlation(gold, metric=None, *, statistic: str = "pearson", average_by: str = "none") -> float:
    """The chance level of Pearson, Spearman or a Kendall tau (b, c, scipy's): 0 when some group is
    defined (two or more rated cells, gold and metric not constant in it), NaN otherwise."""
    if statistic not in CORRELATIONS:
        raise ValueError(f"expected_correlation covers {', '.join(CORRELATIONS)}, not {statistic!r}")
    groups = _groups(gold, metric, average_by)
    for a, b in zip(groups.starts[:-1], groups.starts[1:], strict=True):
        if b - a >= 2 and np.ptp(groups.gold[a:b]) > 0 and (metric is None or np.ptp(groups.metric[a:b]) > 0):
            return 0.0
    return math.nan


def _ordered_p_values(scores: np.ndarray, permutations: int, seed: int) -> np.ndarray:
    """p(u, v) for every ordered pair of systems u != v, in pairwise_p_values' arithmetic (both
    orders: the upper triangle of the rows in order and of the rows reversed)."""
    n = len(scores)
    forward = pairwise_p_values(scores, permutations, seed)
    backward = pairwise_p_values(scores[::-1], permutations, seed)[::-1, ::-1]
    return np.where(np.triu(np.ones((n, n), bool), k=1), forward, backward)


def expected_soft_pairwise_accuracy(gold_segments, metric_segments, permutations: int = DEFAULT_PERMUTATIONS,
                                    seed: int = DEFAULT_SEED) -> float:
    """The chance level of soft pairwise accuracy, the metric's systems relabelled at random (its
    rows of segment scores permuted; systems x segments inputs, segments as the statistic keeps them)."""
    gold = np.asarray(gold_segments, dtype=float)
    metric = np.asarray(metric_segments, dtype=float)
    if gold.shape != metric.shape or gold.ndim != 2:
        raise ValueError(f"need two systems x segments matrices of one shape, got {gold.shape} and {metric.shape}")
    n = len(gold)
    if n < 2:
        return math.nan
    keep = complete_segments(gold)
    p_gold = pairwise_p_values(gold[:, keep], permutations, seed)[np.triu_indices(n, k=1)]
    p_metric = _ordered_p_values(metric[:, keep].astype(np.float32), permutations, seed)
    ordered = p_metric[~np.eye(n, dtype=bool)]
    return float(1.0 - np.mean(np.abs(p_gold[:, None] - ordered[None, :])))


JUDGMENT_STATISTICS = ("acc_eq", "tau_eq", "three_way_accuracy", "wmt12", "wmt13", "wmt14", "tau_b")


def comparison_tie_probability(scores, segment, epsilon: float = 0.0) -> np.ndarray:
    """For pairwise human judgments (WMT12-14): each comparison's probability that the metric ties it
    when the metric's scores (systems x segments, every system scored) are permuted among the systems
    of each segment: the share of the segment's pairs of metric values within ``epsilon``."""
    scores = np.asarray(scores, dtype=float)
    n = scores.shape[0]
    pairs = n * (n - 1) // 2
    if epsilon == 0 and scores.size:
        per_segment = _group_exact_ties(scores.T.ravel(), np.arange(0, scores.size + 1, n)) / pairs
    else:
        per_segment = np.array([_tied_pairs(scores[:, j], epsilon) / pairs for j in range(scores.shape[1])])
    return per_segment[np.asarray(segment, dtype=int)]


def expected_judgment_statistic(human, tie_probability, statistic: str) -> float:
    """The chance level of a statistic over pairwise human judgments (labels +1 / -1 / 0), the metric
    permuted within segments, each comparison a metric tie with probability q (from
    :func:`comparison_tie_probability`; all 0 for a continuous metric). With N comparisons, N_h of
    them not tied by the humans: acc_eq = (sum over human ties of q + sum over the others of
    (1 - q) / 2) / N (three-way accuracy is acc_eq at epsilon 0), tau_eq = 2 acc_eq - 1, WMT14's
    Kendall 0 (its denominator C + D + T_m = N_h is fixed and E[C - D] = 0), WMT12's -sum q / N_h
    over the untied comparisons (metric ties count as discordant). WMT13's (C - D) / (C + D) and
    tau-b have a random denominator once the metric can tie: 0 when no comparison can be a metric
    tie, otherwise no closed form (an error naming :func:`permutation_level_judgments`)."""
    human = np.asarray(human)
    q = np.asarray(tie_probability, dtype=float)
    if human.shape != q.shape:
        raise ValueError(f"need one tie probability per comparison, got {q.shape} for {human.shape}")
    if statistic not in JUDGMENT_STATISTICS:
        raise ValueError(f"unknown statistic {statistic!r}; expected one of {', '.join(JUDGMENT_STATISTICS)}")
    n, tied = len(human), human == 0
    untied = int((~tied).sum())
    if statistic in ("acc_eq", "tau_eq", "three_way_accuracy"):
        accuracy = (q[tied].sum() + ((1 - q[~tied]) / 2).sum()) / n if n else math.nan
        return float(2 * accuracy - 1) if statistic == "tau_eq" else float(accuracy)
    if not untied:
        return math.nan
    if statistic == "wmt14":
        return 0.0
    if statistic == "wmt12":
        return float(-q[~tied].sum() / untied)
    can_tie = q[~tied] if statistic == "wmt13" else q
    if (can_tie > 0).any():
        raise ValueError(f"{statistic}: no closed form when the metric can tie; use permutation_level_judgments")
    return 0.0


def permutation_level_judgments(scores, segment, first, second, human, statistic: Callable, *, draws: int = 1000,
                                seed: int = 12345) -> ChanceEstimate:
    """The chance level over pairwise judgments by seeded permutation: each draw permutes the metric's
    scores (systems x segments) among the systems of every segment, and ``statistic(human, delta)``
    is recomputed (e.g. :func:`mtmeta.stats.pairwise.calibrate_epsilon`'s value: calibration redone)."""
    scores = np.asarray(scores, dtype=float)
    segment, first, second = (np.asarray(v, dtype=int) for v in (segment, first, second))
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(draws):
        permuted = rng.permuted(scores, axis=0)
        values.append(statistic(human, permuted[first, segment] - permuted[second, segment]))
    values = np.array(values, dtype=float)
    values = values[np.isfinite(values)]
    if not len(values):
        return ChanceEstimate(math.nan, math.nan, 0, seed)
    return ChanceEstimate(float(values.mean()), float(values.std(ddof=1) / math.sqrt(len(values))), len(values),
                          seed)


# The statistics of the segment-level table over pairwise judgments (mtmeta.metaeval.segment_level)
# whose chance level :func:`judgment_chance` gives: the WMT Kendall variants, tau-b and the tie-aware ones.
JUDGMENT_TABLE = ("wmt12", "wmt13", "wmt14", "tau_b", "tau_eq", "acc_eq", "acc_eq_calibrated", "three_way_accuracy")




def judgment_chance(scores, segment, first, second, human, *, draws: int = 100,
                    seed: int = 12345) -> dict[str, ChanceEstimate]:
    """The chance level of each statistic of :data:`JUDGMENT_TABLE` over pairwise judgments (metric
    ties at epsilon 0, or at the calibrated threshold), the metric's scores (systems x segments, every
    cell scored) permuted among the systems of each segment. Exact (:func:`expected_judgment_statistic`,
    ``draws`` 0) for all but: WMT13's Kendall and tau-b when some comparison the humans decided can be a
    metric tie, and tie-calibrated acc_eq when the humans tied some comparison; those from ``draws``
    seeded permutations, one draw serving all three (standard error of the mean).

    Without human ties, tie calibration keeps epsilon 0 on every permuted metric (a metric tie can then
    only turn an agreement or a disagreement into a tie, which counts 0), so its level is acc_eq's."""
    scores = np.asarray(scores, dtype=float)
    segment, first, second = (np.asarray(v, dtype=int) for v in (segment, first, second))
    human = np.asarray(human, dtype=int)
    q = comparison_tie_probability(scores, segment)
    out = {name: ChanceEstimate(expected_judgment_statistic(human, q, name), 0.0, 0, seed)
           for name in ("wmt12", "wmt14", "tau_eq", "acc_eq", "three_way_accuracy")}
    # WMT13's denominator C + D is random once a comparison the humans decided can be a metric tie;
    # tau-b's C + D + T_h once any comparison can; the calibrated threshold once humans tie.
    random = {"wmt13": bool((q[human != 0] > 0).any()), "tau_b": bool((q > 0).any()),
              "acc_eq_calibrated": bool((human == 0).any())}
    for name in ("wmt13", "tau_b"):
        if not random[name]:
            out[name] = ChanceEstimate(expected_judgment_statistic(human, q, name), 0.0, 0, seed)
    if not random["acc_eq_calibrated"]:
        out["acc_eq_calibrated"] = out["acc_eq"]
    if any(random.values()):
        if draws < 2:
            raise ValueError(f"need at least 2 permutation draws, got {draws}")
        out.update(_judgment_permutations(scores, segment, first, second, human, [n for n in random if random[n]],
                                          draws, seed))
    return {name: out[name] for name in JUDGMENT_TABLE}


def _judgment_permutations(scores, segment, first, second, human, names: list[str], draws: int,
                           seed: int) -> dict[str, ChanceEstimate]:
    """WMT13's Kendall, tau-b and tie-calibrated acc_eq (those of ``names``) by seeded permutation
    within segments. The comparisons are counted once per distinct (segment, first, second, label),
    weighted by how often they occur (WMT13 repeats many), from one flat index into each permuted matrix."""
    from mtmeta.stats.pairwise import calibrate_epsilon

    n_systems = scores.shape[0]
    flat_first = segment.astype(np.int64) * n_systems + first  # into the permuted matrix, segment-major
    flat_second = segment.astype(np.int64) * n_systems + second
    key = (flat_first * n_systems + second) * 3 + (human + 1)
    distinct, weight = np.unique(key, return_counts=True)
    label, rest = distinct % 3 - 1, distinct // 3
    flat_first, flat_second = rest // n_systems, rest // n_systems // n_systems * n_systems + rest % n_systems
    untied = label != 0
    decided_weight = int(weight[untied].sum())
    rng = np.random.default_rng(seed)
    values = {name: [] for name in names}
    for _ in range(draws):
        flat = rng.permuted(scores, axis=0).T.ravel()
        delta = flat[flat_first] - flat[flat_second]
        sign = np.sign(delta)
        c = int(weight[untied & (sign == label)].sum())
        t_m = int(weight[untied & (sign == 0)].sum())
        t_h = int(weight[~untied & (sign != 0)].sum())
        d = decided_weight - c - t_m
        if "wmt13" in values:
            values["wmt13"].append((c - d) / (c + d) if c + d else math.nan)
        if "tau_b" in values:
            denominator = math.sqrt((c + d + t_m) * (c + d + t_h))
            values["tau_b"].append((c - d) / denominator if denominator else math.nan)
        if "acc_eq_calibrated" in values:
            values["acc_eq_calibrated"].append(calibrate_epsilon(label, delta, "acc_eq", weight)[0])
    out = {}
    for name, drawn in values.items():
        drawn = np.array(drawn)
        drawn = drawn[np.isfinite(drawn)]
        out[name] = (ChanceEstimate(float(drawn.mean()), float(drawn.std(ddof=1) / math.sqrt(len(drawn))), len(drawn),
                                    seed) if len(drawn) >= 2 else ChanceEstimate(math.nan, math.nan, len(drawn), seed))
    return out


def protocol_statistic(statistic: str, epsilon: float = 0.0) -> Callable[[Groups], float]:
    """A protocol's statistic of grouped scores, for :func:`permutation_level`: any statistic of
    :mod:`mtmeta.stats.grouped` (``acc_eq`` at epsilon 0 over one group is pairwise accuracy), or
    ``acc_eq_calibrated`` (tie calibration redone on the scores it is given)."""
    if statistic == CALIBRATED:
        return lambda groups: calibrate(enumerate_pairs(groups), "acc_eq").value
    if statistic not in STATISTICS:
        raise ValueError(f"unknown statistic {statistic!r}; expected {CALIBRATED} or one of {', '.join(STATISTICS)}")
    return lambda groups: average(group_values(groups, statistic, epsilon), groups.sizes).value


def within_group_order(groups: Groups, rng: np.random.Generator) -> np.ndarray:
    """A random shuffle of the cells inside each group: cell k takes the metric score of ``order[k]``."""
    index = np.repeat(np.arange(len(groups.sizes)), groups.sizes)
    return np.argsort(index + rng.random(len(index)), kind="stable")


def permute_within_groups(groups: Groups, rng: np.random.Generator) -> Groups:
    """The groups with the metric's values shuffled inside each group (gold untouched)."""
    return Groups(groups.gold, groups.metric[within_group_order(groups, rng)], groups.starts)


def permutation_level(gold, metric, statistic: str | Callable[[Groups], float], *, average_by: str,
                      draws: int = 1000, seed: int = 12345, epsilon: float = 0.0) -> ChanceEstimate:
    """The chance level estimated from ``draws`` seeded permutations of the metric's scores within
    the protocol's groups (``average_by``: none, sys or item; a system-level vector is one group),
    the statistic recomputed on each (tie calibration included). Draws whose statistic is undefined
    are left out and counted."""
    if draws < 2:
        raise ValueError(f"need at least 2 permutation draws, got {draws}")
    compute = protocol_statistic(statistic, epsilon) if isinstance(statistic, str) else statistic
    groups = layout(gold, metric, average_by)
    rng = np.random.default_rng(seed)
    if statistic == CALIBRATED:  # the same values, from one sort of the pairs
        shuffles = ShuffledCalibration(groups)
        values = np.array([shuffles.calibrate(within_group_order(groups, rng))[0] for _ in range(draws)])
    else:
        values = np.array([compute(permute_within_groups(groups, rng)) for _ in range(draws)])
    values = values[np.isfinite(values)]
    if not len(values):
        return ChanceEstimate(math.nan, math.nan, 0, seed)
    return ChanceEstimate(float(values.mean()), float(values.std(ddof=1) / math.sqrt(len(values))), len(values),
                          seed)


def permutation_item_values(gold, metric, *, draws: int = 1000, seed: int = 12345) -> tuple[ChanceEstimate,
                                                                                              np.ndarray]:
    """:func:`permutation_level` of tie-calibrated acc_eq grouped by item (the same draws, the same
    estimate), and each draw's per-item acc_eq at that draw's calibrated epsilon (draws x items, NaN
    for an item with fewer than two rated cells): what a bootstrap over items re-weights."""
    if draws < 2:
        raise ValueError(f"need at least 2 permutation draws, got {draws}")
    groups = layout(gold, metric, "item")
    rng = np.random.default_rng(seed)
    shuffles = ShuffledCalibration(groups)
    values, per_item = [], []
    for _ in range(draws):
        order = within_group_order(groups, rng)
        value, epsilon = shuffles.calibrate(order)
        values.append(value)
        per_item.append(group_values(shuffles.shuffled(order), "acc_eq", epsilon))
    values = np.array(values, dtype=float)
    finite = np.isfinite(values)
    used = values[finite]
    estimate = (ChanceEstimate(float(used.mean()), float(used.std(ddof=1) / math.sqrt(len(used))), len(used), seed)
                if len(used) >= 2 else ChanceEstimate(math.nan, math.nan, len(used), seed))
    return estimate, np.array(per_item)[finite]
