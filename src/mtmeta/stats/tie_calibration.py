"""Tie calibration of acc_eq and tau_eq (Deutsch, Foster & Freitag 2023, "Ties Matter"), as
mt-metrics-eval's ``KendallWithTiesOpt`` / ``tau_optimization`` defines it.

The groups are those of :mod:`mtmeta.stats.grouped` (``average_by`` none / sys / item; missing gold
dropped). Every pair of scores inside a group is enumerated in MTME's order (group by group, then
i < j); with ``sample_rate`` < 1 a pair is kept when a uniform draw is <= ``sample_rate``, drawn
pair by pair in that order from ``numpy.random.RandomState(seed)`` -- the legacy generator behind
MTME's ``np.random.random()``, so after ``np.random.seed(seed)`` MTME keeps the same pairs. Groups
left without pairs are not averaged.

One epsilon is chosen for all groups together: the candidates are 0 and every kept pair's
|metric difference|; at candidate t every pair with |difference| <= t is a metric tie, and the
statistic is the mean over groups of each group's acc_eq = (C + T_both) / pairs (or tau_eq =
(C + T_both - D - T_gold - T_metric) / pairs = 2 acc_eq - 1). The best candidate is the first
(smallest) maximum, as ``np.nanargmax`` picks it.

All candidates are scored from one sort of the pairs by |difference| (O(P log P)): making pair p a
metric tie changes its group's C + T_both by -1 (a concordant pair), +1 (a gold tie) or 0, so the
statistic at every candidate is a cumulative sum. The sums are kept as exact integers over a common
denominator when the groups' pair counts allow (always for item grouping over up to 20 systems), so
equal candidates compare equal; the reported value is recomputed at the chosen epsilon group by group,
as ``KendallVariants`` with that epsilon gives it (MTME's incremental running sum can differ from it
in the last bits).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mtmeta.stats.grouped import Groups, layout

VARIANTS = ("acc_eq", "tau_eq")  # MTME's 'acc23' and '23'
CHUNK_PAIRS = 1 << 22  # pairs enumerated at once (memory bound for a large ungrouped set)
CLASS_SORT_MIN_PAIRS = 1_000_000  # above it, candidates are scored by sorting each class of pairs
SHUFFLED_MAX_PAIRS = 2 * CHUNK_PAIRS  # ShuffledCalibration keeps its pairs' arrays up to this many pairs


@dataclass(frozen=True)
class Pairs:
    """The kept pairs: |metric difference|, the change of C + T_both when the pair becomes a metric
    tie (-1 for a concordant pair, +1 for a gold-only tie, else 0), whether gold ties it, its group;
    and per group, C + T_both with exact metric ties only, and the kept pairs."""

    distance: np.ndarray
    change: np.ndarray
    gold_tie: np.ndarray
    group: np.ndarray
    agreeing: np.ndarray
    count: np.ndarray


@dataclass(frozen=True)
class TieCalibration:
    value: float  # the best acc_eq / tau_eq (NaN without pairs)
    epsilon: float  # its threshold: metric differences <= epsilon are ties
    variant: str
    pairs: int  # pairs the search used
    groups: int  # groups averaged
    thresholds: np.ndarray  # every candidate epsilon, ascending
    values: np.ndarray  # the statistic at each candidate


def _pair_chunks(sizes: np.ndarray, starts: np.ndarray, in_order: bool = True):
    """The pairs of every group in MTME's order, in chunks of at most CHUNK_PAIRS pairs (consecutive
    groups of one size together; a large group in runs of rows). Each chunk is (number of pairs,
    decode), where decode(positions) gives the (first cell, second cell, group) of pairs at those
    positions of the chunk, so a sample never builds the pairs it leaves out. Without ``in_order``
    (no sample: the order of the pairs changes nothing), all small groups of one size go together."""
    if not in_order:
        small = sizes * (sizes - 1) // 2 <= CHUNK_PAIRS
        for size in np.unique(sizes[small & (sizes >= 2)]):
            which = np.flatnonzero(sizes == size)
            per_group = int(size * (size - 1) // 2)
            for first in range(0, len(which), max(1, CHUNK_PAIRS // per_group)):
                part = which[first:first + max(1, CHUNK_PAIRS // per_group)]
                yield len(part) * per_group, _decode_groups(starts, part, int(size), per_group)
        large = np.flatnonzero(~small)
        for k in large:
            yield from _row_chunks(starts, int(k), int(sizes[k]))
        return
    k, groups = 0, len(sizes)
    while k < groups:
        size = int(sizes[k])
        per_group = size * (size - 1) // 2
        if per_group == 0:
            k += 1
            continue
        if per_group <= CHUNK_PAIRS:
            end = k + 1
            while end < groups and sizes[end] == size and (end - k + 1) * per_group <= CHUNK_PAIRS:
                end += 1
            yield (end - k) * per_group, _decode_groups(starts, np.arange(k, end), size, per_group)
            k = end
            continue
        yield from _row_chunks(starts, k, size)
        k += 1


def _row_chunks(starts, k, size):
    """A large group's pairs in runs of rows (i fixed, j > i), at most CHUNK_PAIRS at a time."""
    row = 0
    while row < size - 1:
        last, pairs = row, 0
        while last < size - 1 and pairs + (size - 1 - last) <= max(CHUNK_PAIRS, size):
            pairs += size - 1 - last
            last += 1
        yield pairs, _decode_rows(starts[k], k, size, row, last)
        row = last


def _decode_groups(starts, groups, size, per_group):
    i, j = np.triu_indices(size, k=1)

    def decode(positions):
        group = groups[positions // per_group]
        within = positions % per_group
        return starts[group] + i[within], starts[group] + j[within], group
    return decode


def _decode_rows(start, group, size, first_row, end_row):
    rows = np.arange(first_row, end_row)
    row_start = np.concatenate([[0], np.cumsum(size - 1 - rows)])  # position of each row's first pair

    def decode(positions):
        row = np.searchsorted(row_start, positions, side="right") - 1
        first = first_row + row
        second = first + 1 + (positions - row_start[row])
        return start + first, start + second, np.full(len(positions), group)
    return decode


def _classify(metric_up: np.ndarray, metric_tie: np.ndarray, gold_difference: np.ndarray):
    """(change, gold_tie, agreeing) of pairs from the sign of their metric difference (``metric_up``:
    > 0, ``metric_tie``: == 0) and their gold difference: change is -1 for a concordant pair, +1 for a
    gold-only tie, else 0 (what becoming a metric tie does to C + T_both); agreeing is concordant or a
    tie of both."""
    gold_tie = gold_difference == 0
    concordant = ~gold_tie & ~metric_tie & (metric_up == (gold_difference > 0))
    agreeing = concordant | (gold_tie & metric_tie)
    change = np.where(concordant, -1, np.where(gold_tie & ~metric_tie, 1, 0)).astype(np.int8)
    return change, gold_tie, agreeing


def _candidate_ends(distance: np.ndarray) -> np.ndarray:
    """The last position of each run of equal values in sorted ``distance``: one candidate epsilon each."""
    if not len(distance):
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.append(distance[1:] != distance[:-1], True))


def _lacks_zero(thresholds: np.ndarray) -> bool:
    """Whether 0, always a candidate (no tie added), must go before the pairs' ``thresholds``."""
    return len(thresholds) == 0 or thresholds[0] > 0


def enumerate_pairs(groups: Groups, sample_rate: float = 1.0, seed: int | None = None, *,
                    in_order: bool = False) -> Pairs:
    """Every (or every sampled) pair of scores inside each group, as tie calibration needs them
    (``in_order``: in MTME's order, group by group then i < j, as a sample always is)."""
    if not 0 < sample_rate <= 1:
        raise ValueError(f"sample_rate must be in (0, 1], got {sample_rate}")
    if sample_rate < 1 and seed is None:
        raise ValueError("sample_rate < 1 draws pairs at random: give a seed")
    draws = np.random.RandomState(seed) if sample_rate < 1 else None
    parts = []
    for count, decode in _pair_chunks(groups.sizes, groups.starts, in_order=in_order or draws is not None):
        if draws is not None:
            positions = np.flatnonzero(draws.random_sample(count) <= sample_rate)
        else:
            positions = np.arange(count)
        first, second, group = decode(positions)
        metric_difference = groups.metric[first] - groups.metric[second]
        change, gold_tie, agreeing = _classify(metric_difference > 0, metric_difference == 0,
                                               groups.gold[first] - groups.gold[second])
        parts.append((np.abs(metric_difference), change, gold_tie, group.astype(np.int64), agreeing))
    n_groups = len(groups.sizes)
    if not parts:
        empty = np.zeros(0)
        return Pairs(empty, empty.astype(np.int8), empty.astype(bool), empty.astype(np.int64),
                     np.zeros(n_groups, np.int64), np.zeros(n_groups, np.int64))
    distance, change, gold_tie, group, agreeing = (np.concatenate(column) for column in zip(*parts, strict=True))
    agreeing_per_group = np.bincount(group, weights=agreeing, minlength=n_groups).astype(np.int64)
    return Pairs(distance, change, gold_tie, group, agreeing_per_group,
                 np.bincount(group, minlength=n_groups).astype(np.int64))


def _common_denominator(counts: np.ndarray, total_pairs: int) -> int | None:
    """The lcm of the groups' pair counts, if numerators over it fit in int64, else None."""
    denominator = 1
    for count in np.unique(counts):
        denominator = math.lcm(denominator, int(count))
        if denominator * (total_pairs + 1) >= 2**62:
            return None
    return denominator


def _changes_up_to(pairs: Pairs, pair_weight: np.ndarray, distance: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """For each candidate (the last pair of each run of equal sorted ``distance``), the weighted sum
    of the changes of every pair at or below it."""
    thresholds = distance[ends]
    weights = np.unique(pair_weight)
    if len(distance) > CLASS_SORT_MIN_PAIRS and len(weights) <= 2:
        # Many pairs in few classes (change +-1 times a group weight): count each class's members <= t
        # with one sort per class; sorting values is several times cheaper than ordering the pairs.
        total = np.zeros(len(thresholds), dtype=pair_weight.dtype)
        for weight in weights:
            for change in (1, -1):
                members = np.sort(pairs.distance[(pairs.change == change) & (pair_weight == weight)])
                total = total + np.searchsorted(members, thresholds, side="right") * (change * weight)
        return total
    order = np.argsort(pairs.distance)
    return np.cumsum(pairs.change[order] * pair_weight[order])[ends]


def running_values(pairs: Pairs, variant: str = "acc_eq") -> tuple[np.ndarray, np.ndarray]:
    """MTME's ``tau_optimization`` in its own floating-point arithmetic: the pairs (in MTME's order:
    :func:`enumerate_pairs` with ``in_order``) stably sorted by |difference|; a running total starts as
    the sum of every group's value in group order, and each pair subtracts its group's value before
    the pair becomes a metric tie and adds the value after; the statistic at a candidate is the total
    after its last pair / groups. The same additions in the same order, done by one ``np.cumsum``
    (sequential in numpy), so the values and the first maximum equal MTME's bit for bit. Returns
    (thresholds, values)."""
    used = pairs.count > 0
    n_groups = int(used.sum())
    order = np.argsort(pairs.distance, kind="stable")
    distance = pairs.distance[order]
    group, change = pairs.group[order], pairs.change[order].astype(np.int64)
    # Each group's agreeing count before every one of its pairs (in sorted order).
    by_group = np.argsort(group, kind="stable")
    changes_sorted = change[by_group]
    starts = np.searchsorted(group[by_group], group[by_group], side="left")
    cumulative = np.cumsum(changes_sorted)
    before_in_group = cumulative - changes_sorted - np.concatenate([[0], cumulative])[starts]
    before = np.empty_like(before_in_group)
    before[by_group] = before_in_group
    old = pairs.agreeing[group] + before
    new = old + change
    count = pairs.count[group].astype(float)

    def value(agreeing, n):
        return agreeing / n if variant == "acc_eq" else (2 * agreeing - n) / n
    initial = value(pairs.agreeing[used].astype(float), pairs.count[used].astype(float))
    steps = np.empty(2 * len(order))
    steps[0::2] = -value(old.astype(float), count)
    steps[1::2] = value(new.astype(float), count)
    totals = np.cumsum(np.concatenate([initial, steps]))
    start_total = totals[len(initial) - 1]
    after_pair = totals[len(initial) + 1::2]
    ends = _candidate_ends(distance)
    thresholds, values = distance[ends], after_pair[ends] / n_groups
    if _lacks_zero(thresholds):
        thresholds = np.concatenate([[0.0], thresholds])
        values = np.concatenate([[start_total / n_groups], values])
    return thresholds, values


def calibrate(pairs: Pairs, variant: str = "acc_eq", *, running_sum: bool = False) -> TieCalibration:
    """The best statistic over every candidate epsilon (see the module's docstring). With
    ``running_sum`` the candidates are scored and chosen in MTME's arithmetic (:func:`running_values`;
    the pairs must be in MTME's order) and the value reported is MTME's."""
    if variant not in VARIANTS:
        raise ValueError(f"tie calibration optimises {' or '.join(VARIANTS)}, not {variant!r}")
    used = pairs.count > 0
    n_groups = int(used.sum())
    if n_groups == 0:
        return TieCalibration(math.nan, 0.0, variant, 0, 0, np.zeros(1), np.full(1, math.nan))
    if running_sum:
        thresholds, values = running_values(pairs, variant)
        best = int(np.nanargmax(values))
        return TieCalibration(float(values[best]), float(thresholds[best]), variant, len(pairs.distance), n_groups,
                              thresholds, values)
    denominator = _common_denominator(pairs.count[used], len(pairs.distance))
    if denominator is not None:  # exact: numerators over the common denominator
        group_weight = np.zeros(len(pairs.count), dtype=np.int64)
        group_weight[used] = denominator // pairs.count[used]
        scale = float(denominator)
    else:
        group_weight = np.zeros(len(pairs.count))
        group_weight[used] = 1.0 / pairs.count[used]
        scale = 1.0
    start = np.sum(pairs.agreeing[used] * group_weight[used])
    distance = np.sort(pairs.distance)
    ends = _candidate_ends(distance)
    thresholds = distance[ends]
    numerators = start + _changes_up_to(pairs, group_weight[pairs.group], distance, ends)
    if _lacks_zero(thresholds):
        thresholds = np.concatenate([[0.0], thresholds])
        numerators = np.concatenate([[start], numerators])
    best = int(np.argmax(numerators))
    accuracy = numerators / scale / n_groups
    values = accuracy if variant == "acc_eq" else 2 * accuracy - 1
    epsilon = float(thresholds[best])
    return TieCalibration(value_at(pairs, epsilon, variant), epsilon, variant, len(distance), n_groups,
                          thresholds, values)


def value_at(pairs: Pairs, epsilon: float, variant: str = "acc_eq") -> float:
    """acc_eq / tau_eq of the kept pairs at one epsilon: each group's value, as KendallVariants
    computes it, summed in group order and divided by the number of groups."""
    tied = pairs.distance <= epsilon
    agreeing = pairs.agreeing + np.bincount(pairs.group[tied], weights=pairs.change[tied],
                                            minlength=len(pairs.count)).astype(np.int64)
    used = pairs.count > 0
    agreeing, count = agreeing[used], pairs.count[used]
    if not len(count):
        return math.nan
    per_group = agreeing / count if variant == "acc_eq" else (2 * agreeing - count) / count
    return float(np.cumsum(per_group)[-1] / len(count))


class ShuffledCalibration:
    """Tie-calibrated acc_eq of many within-group shuffles of one layout's metric scores (chance
    levels), from one enumeration and one sort of its pairs.

    A shuffle puts ``metric[order[k]]`` beside ``gold[k]``. Read from the metric's side, cell
    ``order[k]`` keeps its metric score and gets ``gold[k]``: the gold shuffled the inverse way, inside
    the same groups. The pairs of a group are the same unordered pairs either way, so a shuffle changes
    no pair's |metric difference|, only which pairs are concordant or gold ties. The candidates and the
    pairs' order are therefore sorted once, and a shuffle costs a gather and a cumulative sum.

    The arithmetic is :func:`calibrate`'s exact one: the same integer numerators over the same common
    denominator, the same first maximum, the value recomputed at that epsilon by :func:`value_at`; so
    every shuffle's (value, epsilon) is the one ``calibrate(enumerate_pairs(shuffled))`` gives, to
    the last bit. Where the groups' pair counts have no common denominator in int64, or there are no
    pairs or more than :data:`SHUFFLED_MAX_PAIRS`, each shuffle is calibrated directly."""

    def __init__(self, groups: Groups):
        self.groups = groups
        sizes = groups.sizes.astype(np.int64)
        self.exact = 0 < int(np.sum(sizes * (sizes - 1) // 2)) <= SHUFFLED_MAX_PAIRS
        if not self.exact:
            return
        parts = [decode(np.arange(count)) for count, decode in _pair_chunks(groups.sizes, groups.starts,
                                                                             in_order=False)]
        first, second, group = (np.concatenate(column) for column in zip(*parts, strict=True))
        self.first, self.second, self.group = first, second, group.astype(np.int64)
        self.count = np.bincount(self.group, minlength=len(groups.sizes)).astype(np.int64)
        self.used = self.count > 0
        denominator = _common_denominator(self.count[self.used], len(first))
        self.exact = denominator is not None
        if not self.exact:
            return
        self.group_weight = np.zeros(len(self.count), dtype=np.int64)
        self.group_weight[self.used] = denominator // self.count[self.used]
        metric_difference = groups.metric[first] - groups.metric[second]
        self.metric_up, self.metric_tie = metric_difference > 0, metric_difference == 0
        self.distance = np.abs(metric_difference)
        self.order = np.argsort(self.distance, kind="stable")
        distance = self.distance[self.order]
        self.sorted_weight = self.group_weight[self.group[self.order]]
        self.ends = _candidate_ends(distance)
        self.thresholds = distance[self.ends]
        self.zero_first = _lacks_zero(self.thresholds)
        if self.zero_first:
            self.thresholds = np.concatenate([[0.0], self.thresholds])

    def shuffled(self, order: np.ndarray) -> Groups:
        """The layout with the metric's scores moved as ``order`` says (:func:`within_group_order`)."""
        return Groups(self.groups.gold, self.groups.metric[order], self.groups.starts)

    def calibrate(self, order: np.ndarray) -> tuple[float, float]:
        """(acc_eq, epsilon) of :func:`calibrate` on :meth:`shuffled` ``order``."""
        if not self.exact:
            calibration = calibrate(enumerate_pairs(self.shuffled(order)), "acc_eq")
            return calibration.value, calibration.epsilon
        inverse = np.empty_like(order)
        inverse[order] = np.arange(len(order))
        gold = self.groups.gold[inverse]
        change, gold_tie, agreeing = _classify(self.metric_up, self.metric_tie, gold[self.first] - gold[self.second])
        agreeing_per_group = np.bincount(self.group, weights=agreeing, minlength=len(self.count)).astype(np.int64)
        start = np.sum(agreeing_per_group[self.used] * self.group_weight[self.used])
        numerators = start + np.cumsum(change[self.order] * self.sorted_weight)[self.ends]
        if self.zero_first:
            numerators = np.concatenate([[start], numerators])
        epsilon = float(self.thresholds[int(np.argmax(numerators))])
        pairs = Pairs(self.distance, change, gold_tie, self.group, agreeing_per_group, self.count)
        return value_at(pairs, epsilon, "acc_eq"), epsilon


def calibrate_ties(gold, metric, *, average_by: str, variant: str = "acc_eq", sample_rate: float = 1.0,
                   seed: int | None = None) -> TieCalibration:
    """MTME's ``KendallWithTiesOpt`` on systems x items ``gold`` (NaN = missing) and ``metric``."""
    return calibrate(enumerate_pairs(layout(gold, metric, average_by), sample_rate, seed), variant)
