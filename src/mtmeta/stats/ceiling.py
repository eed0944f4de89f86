"""Human ceiling: one rater against the mean of the other raters, beside a metric against that same mean.

Input: ``ratings``, raters x systems x segments (NaN where a rater did not rate the cell), from data
where every segment was rated by ``k`` raters (WMT23 side-by-side MQM: k = 3, and a segment's raters
rated all of its systems). For each segment its k raters are put in slots (in rater order); a
segment whose raters are not exactly k, or who did not all rate the same systems of it, is left out
and counted.

Held-out rule: a seeded generator (``numpy.random.default_rng(seed)``) draws, for every segment, an
order of its k slots. Rotation r holds out, in every segment, the slot at position r of that order:
the "single rater" matrix takes that rater's score, the gold is the mean of the other k - 1 raters.
Each rating is held out in exactly one rotation. The human value is the protocol's statistic of
(gold = the other raters' mean, metric = the single rater); the metric's value is the statistic of
(gold = the same mean, metric = the metric's scores): the same items, the same gold. Both are
averaged over the k rotations. A different seed only regroups which segments are held out together.

:func:`slot_pairs` is the plainer agreement between single ratings: every cell's k ratings in slots
(each segment's raters in rater order), one slot against another over all usable cells;
:func:`rater_pairs` compares named raters, each pair on the cells both rated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

Statistic = Callable[[np.ndarray, np.ndarray], float]  # (gold, metric) systems x segments -> value


@dataclass(frozen=True)
class Ceiling:
    human: float  # the single rater against the others' mean, averaged over the rotations
    metric: float  # the metric against the same mean (NaN without a metric)
    human_rotations: tuple[float, ...]
    metric_rotations: tuple[float, ...]
    segments: int  # segments used
    left_out: int  # segments without exactly k raters of the same cells
    seed: int


def headroom_share(value: float, chance: float, human: float) -> float:
    """The share of the headroom between chance and the human level a metric closes,
    (metric - chance) / (human - chance); NaN where a level is missing or the human is not above chance."""
    if any(v is None or math.isnan(v) for v in (value, chance, human)) or human <= chance:
        return math.nan
    return (value - chance) / (human - chance)


def rater_slots(ratings, k: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """(slots: k x systems x segments, usable: one flag per segment): each usable segment's k raters
    in rater order; a segment is usable when exactly k raters rated it and all rated the same cells."""
    ratings = np.asarray(ratings, dtype=float)
    if ratings.ndim != 3:
        raise ValueError(f"need raters x systems x segments ratings, got shape {ratings.shape}")
    rated = np.isfinite(ratings)
    n_segments = ratings.shape[2]
    slots = np.full((k, ratings.shape[1], n_segments), np.nan)
    usable = np.zeros(n_segments, bool)
    for j in range(n_segments):
        who = np.flatnonzero(rated[:, :, j].any(axis=1))
        if len(who) != k or not (rated[who, :, j] == rated[who[0], :, j]).all():
            continue
        slots[:, :, j] = ratings[who, :, j]
        usable[j] = True
    return slots, usable


def held_out_order(n_segments: int, k: int, seed: int) -> np.ndarray:
    """segments x k: for every segment, the order in which its slots are held out (seeded)."""
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(k), (n_segments, 1)), axis=1)


def rotations(ratings, k: int = 3, seed: int = 12345):
    """Yield (single rater, mean of the others) systems x usable-segments matrices, one per rotation;
    the columns are the usable segments in order."""
    slots, usable = rater_slots(ratings, k)
    slots = slots[:, :, usable]
    order = held_out_order(slots.shape[2], k, seed)
    columns = np.arange(slots.shape[2])
    total = slots.sum(axis=0)
    for r in range(k):
        single = slots[order[:, r], :, columns].T  # systems x segments
        yield single, (total - single) / (k - 1)


def human_ceiling(ratings, statistic: Statistic, metric=None, *, k: int = 3, seed: int = 12345) -> Ceiling:
    """The human ceiling of ``statistic`` and, with ``metric`` (systems x segments, every segment of
    ``ratings``; or one score per system, for a system-level statistic), the metric's value against
    the same gold, each averaged over the k rotations."""
    _, usable = rater_slots(ratings, k)
    metric_used = None if metric is None else np.asarray(metric, dtype=float)
    if metric_used is not None and metric_used.ndim == 2:  # segment scores: the usable segments
        metric_used = metric_used[:, usable]
    human_values, metric_values = [], []
    for single, gold in rotations(ratings, k, seed):
        human_values.append(statistic(gold, np.where(np.isnan(gold), 0.0, single)))
        if metric_used is not None:
            metric_values.append(statistic(gold, metric_used))
    return Ceiling(float(np.mean(human_values)), float(np.mean(metric_values)) if metric_values else math.nan,
                   tuple(human_values), tuple(metric_values), int(usable.sum()), int((~usable).sum()), seed)


def rater_pairs(ratings, statistic: Statistic, min_segments: int = 1) -> list[tuple[int, int, int, float]]:
    """(rater a, rater b, segments both rated, statistic(gold = a, metric = b)) for every pair of
    raters sharing at least ``min_segments`` segments, on the cells both rated (others NaN in the gold)."""
    ratings = np.asarray(ratings, dtype=float)
    out = []
    for a, b in itertools.combinations(range(len(ratings)), 2):
        both = np.isfinite(ratings[a]) & np.isfinite(ratings[b])
        segments = int(both.any(axis=0).sum())
        if segments < min_segments:
            continue
        keep = both.any(axis=0)
        gold = np.where(both, ratings[a], np.nan)[:, keep]
        metric = np.where(both, ratings[b], 0.0)[:, keep]
        out.append((a, b, segments, statistic(gold, metric)))
    return out


def slot_pairs(ratings, statistic: Statistic, k: int = 3) -> list[tuple[int, int, float]]:
    """(slot a, slot b, statistic(gold = slot a, metric = slot b)) for every pair of slots, over the
    usable segments (see :func:`rater_slots`)."""
    slots, usable = rater_slots(ratings, k)
    slots = slots[:, :, usable]
    return [(a, b, statistic(slots[a], np.where(np.isnan(slots[a]), 0.0, slots[b])))
            for a, b in itertools.combinations(range(k), 2)]
