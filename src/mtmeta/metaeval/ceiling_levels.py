"""Human ceiling and chance level beside metrics on WMT23 side-by-side MQM (three raters per segment).

For one pair (:class:`mtmeta.data.wmt23.SxsSet`), over its MT systems (a human translation that is
also the reference, en-de's refA, is left out):

- agreement between single ratings: each segment's three raters in rater order as three slots,
  slot against slot over every segment (:func:`slot_agreement`), and every pair of named raters on
  the cells both rated (:func:`rater_agreement`): segment-level Pearson (no
  grouping) and system-level Kendall (tau-b) of the two raters' system means over the segments both
  rated (pairs sharing at least ``min_shared`` segments);
- the human ceiling (:func:`mtmeta.stats.ceiling.human_ceiling`: one rater against the mean of the
  other two, seeded held-out rule, the three rotations averaged) and each metric against the same
  two-rater mean, for system pairwise accuracy (metric: its corpus score; gold: the systems' mean
  over the segments), system Kendall, segment Pearson (no grouping) and segment acc_eq grouped by
  item with tie calibration (the study's protocols);
- the chance level of each, against the same two-rater means: exact where a formula exists
  (:mod:`mtmeta.stats.chance`; pairwise accuracy with the metric's system scores permuted, so their
  ties kept), by seeded permutation within items for tie-calibrated acc_eq, the calibration redone
  on each permuted copy of the metric (so each metric has its own chance level there); beside it
  the floor a metric reaches by tying every pair (the share of gold-tied pairs per item).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mtmeta.data.wmt23 import SxsSet, rating_array
from mtmeta.metaeval.level_draws import (
    INTERVAL_STATISTICS,
    expected_accuracy_draws,
    interval_columns,
    item_values,
    share_interval_columns,
    weighted_item_means,
)
from mtmeta.metrics.base import Metric
from mtmeta.stats import chance
from mtmeta.stats.ceiling import human_ceiling, rater_pairs, rater_slots, rotations, slot_pairs
from mtmeta.stats.grouped import grouped_correlation
from mtmeta.stats.system_pairs import pairwise_accuracy
from mtmeta.stats.tie_calibration import calibrate_ties
from mtmeta.stats.two_level_bootstrap import resampled_values, resampling_plan, system_means

# rotation_min / rotation_max: the smallest and largest of the three rotations' values (not an interval);
# standard_error: the Monte-Carlo standard error of a permutation estimate (0 for an exact level).
# low / high: the percentile interval over bootstrap draws of the segments (interval_draws of them;
# mtmeta.metaeval.level_draws); share_low / share_high: that of a metric's share of the headroom.
COLUMNS = ["lp", "statistic", "level", "who", "value", "standard_error", "rotation_min", "rotation_max", "systems",
           "segments", "seed", "draws", "low", "high", "share_low", "share_high", "interval_draws"]
STATISTICS = ("system_accuracy", "system_kendall", "segment_pearson", "segment_acc_eq")
# Every statistic :func:`statistic` knows: the study's MQM protocol table uses system Pearson and
# accuracy (corpus scores), segment Kendall (no grouping) and acc_eq (item, calibrated).
ALL_STATISTICS = ("system_pearson", "system_accuracy", "system_kendall", "segment_pearson", "segment_kendall",
                  "segment_acc_eq")


def _system_vectors(gold: np.ndarray, metric: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The systems' gold means over the segments rated for every system, and the metric's system
    scores (given as a vector, or the means of its segment scores over the same segments)."""
    rated = np.isfinite(gold).all(axis=0)
    gold_means = gold[:, rated].mean(axis=1)
    return gold_means, (metric if metric.ndim == 1 else metric[:, rated].mean(axis=1))


def statistic(name: str):
    """The protocol's statistic as (gold, metric) -> value on systems x segments matrices."""
    if name == "system_accuracy":
        return lambda gold, metric: pairwise_accuracy(*_system_vectors(gold, metric))
    if name in ("system_kendall", "system_pearson"):
        return lambda gold, metric: grouped_correlation(*_system_vectors(gold, metric), name.split("_")[1],
                                                        average_by="none").value
    if name in ("segment_pearson", "segment_kendall"):
        return lambda gold, metric: grouped_correlation(gold, metric, name.split("_")[1], average_by="none").value
    if name == "segment_acc_eq":
        return lambda gold, metric: calibrate_ties(gold, metric, average_by="item").value
    raise ValueError(f"unknown statistic {name!r}; known: {', '.join(ALL_STATISTICS)}")


def mt_systems(sxs: SxsSet) -> list[str]:
    return [s for s in sxs.evalset.systems if s != sxs.evalset.std_ref]


def rater_agreement(sxs: SxsSet, min_shared: int = 10) -> pd.DataFrame:
    """lp, rater_a, rater_b, segments, segment_pearson, system_kendall for every pair of raters
    sharing at least ``min_shared`` segments (MT systems only)."""
    systems = mt_systems(sxs)
    names, ratings = rating_array(sxs.raters, systems, sxs.evalset.texts["seg_id"])
    rows = {}
    for key in ("segment_pearson", "system_kendall"):
        for a, b, segments, value in rater_pairs(ratings, statistic(key), min_shared):
            rows.setdefault((names[a], names[b]), {"segments": segments})[key] = value
    return pd.DataFrame([{"lp": sxs.evalset.lp, "rater_a": a, "rater_b": b, **v} for (a, b), v in rows.items()],
                        columns=["lp", "rater_a", "rater_b", "segments", "segment_pearson", "system_kendall"])


def slot_agreement(sxs: SxsSet) -> pd.DataFrame:
    """lp, slot_a, slot_b, segment_pearson, system_kendall between single ratings: each segment's three
    raters in rater order as slots 1-3, one slot against another over every segment (MT systems)."""
    systems = mt_systems(sxs)
    _, ratings = rating_array(sxs.raters, systems, sxs.evalset.texts["seg_id"])
    rows = {}
    for key in ("segment_pearson", "system_kendall"):
        for a, b, value in slot_pairs(ratings, statistic(key)):
            rows.setdefault((a + 1, b + 1), {})[key] = value
    return pd.DataFrame([{"lp": sxs.evalset.lp, "slot_a": a, "slot_b": b, **v} for (a, b), v in rows.items()],
                        columns=["lp", "slot_a", "slot_b", "segment_pearson", "system_kendall"])


def metric_scores(sxs: SxsSet, metric: Metric) -> tuple[pd.Series, pd.DataFrame]:
    """A metric's corpus scores (per system) and segment scores (systems x seg_id) on the MT systems,
    against the standard reference, higher is better (negated otherwise)."""
    systems = mt_systems(sxs)
    segments = sxs.evalset.segments()
    sign = 1.0 if metric.higher_is_better else -1.0
    corpus, grid = {}, {}
    for system in systems:
        rows = segments[segments["system"] == system].sort_values("seg_id")
        stats = metric.stats(rows["hypothesis"].tolist(), [rows["reference"].tolist()])
        corpus[system] = sign * metric.corpus_score(stats)
        grid[system] = sign * np.asarray(metric.segment_scores(stats), dtype=float)
    return pd.Series(corpus), pd.DataFrame(grid, index=sorted(sxs.evalset.texts["seg_id"])).T.loc[systems]


def levels(sxs: SxsSet, metrics: dict[str, tuple[pd.Series, pd.DataFrame]], *, seed: int = 12345,
           draws: int = 200, statistics=STATISTICS) -> pd.DataFrame:
    """Human ceiling, each metric and its chance level, for every statistic (see the module)."""
    return rater_levels(sxs.evalset.lp, sxs.raters, mt_systems(sxs), list(sxs.evalset.texts["seg_id"]), metrics,
                        seed=seed, draws=draws, statistics=statistics)


def rater_levels(lp: str, raters: pd.DataFrame, systems: list[str], seg_ids: list, metrics: dict, *,
                 seed: int = 12345, draws: int = 200, statistics=STATISTICS, bootstrap: int = 0,
                 alpha: float = 0.05) -> pd.DataFrame:
    """:func:`levels` from the tables: every rating (system, seg_id, rater, score), the MT systems,
    the segments, and per metric id its (corpus scores, systems x seg_id segment scores[, reaggregate]),
    higher is better; ``reaggregate(counts)`` gives its corpus scores (draws x systems) under segment
    counts (draws x ``seg_ids``). ``draws``: permutation draws per rotation for the chance level of
    calibrated acc_eq. ``bootstrap`` > 0: that many draws of the segments for the intervals
    (:mod:`mtmeta.metaeval.level_draws`; ``low``/``high``, and ``share_low``/``share_high`` of each
    metric's share of the headroom)."""
    _, ratings = rating_array(raters, systems, seg_ids)
    _, usable = rater_slots(ratings)
    rows = []
    base = {"lp": lp, "systems": len(systems), "seed": seed}
    draws_of = _Draws(ratings, seg_ids, usable, seed, bootstrap, alpha) if bootstrap else None
    for name in statistics:
        compute = statistic(name)
        system_level = name.startswith("system")
        ceiling = human_ceiling(ratings, compute, None, seed=seed)
        human_draws = draws_of.human(name) if draws_of and name in INTERVAL_STATISTICS else None
        rows.append({**base, "statistic": name, "level": "human", "who": "one rater vs mean of two",
                     "value": ceiling.human, "rotation_min": min(ceiling.human_rotations),
                     "rotation_max": max(ceiling.human_rotations), "segments": ceiling.segments,
                     **interval_columns(human_draws, alpha)})
        for metric_id, scores in metrics.items():
            corpus, grid = scores[0], scores[1]
            metric_input = (corpus.loc[systems].to_numpy(float) if system_level
                            else grid.loc[systems, seg_ids].to_numpy(float))
            result = human_ceiling(ratings, compute, metric_input, seed=seed)
            level, metric_draws, chance_draws = _chance(name, ratings, metric_input, seed, draws, draws_of,
                                                        scores[2] if len(scores) > 2 else None)
            rows.append({**base, "statistic": name, "level": "metric", "who": metric_id, "value": result.metric,
                         "rotation_min": min(result.metric_rotations), "rotation_max": max(result.metric_rotations),
                         "segments": result.segments, **interval_columns(metric_draws, alpha),
                         **share_interval_columns(metric_draws, chance_draws, human_draws, alpha)})
            rows.append({**base, "statistic": name, "level": "chance", "who": f"permuted {metric_id}",
                         "segments": result.segments, **level, **interval_columns(chance_draws, alpha)})
        if name == "segment_acc_eq":
            floors = [chance.all_tied_acc_eq(gold) for _, gold in rotations(ratings, seed=seed)]
            rows.append({**base, "statistic": name, "level": "floor", "who": "every pair tied",
                         "value": float(np.mean(floors)), "standard_error": 0.0, "rotation_min": min(floors),
                         "rotation_max": max(floors), "segments": ceiling.segments})
    return pd.DataFrame(rows, columns=COLUMNS)



class _Draws:
    """One set of bootstrap draws of the usable segments for every row of a three-rater set: the
    rotations' two-rater means and single ratings re-aggregated per draw (level_draws)."""

    def __init__(self, ratings: np.ndarray, seg_ids: list, usable: np.ndarray, seed: int, draws: int, alpha: float):
        self.plan = resampling_plan(len(ratings[0]), int(usable.sum()), "segments", draws, seed)
        self.counts = self.plan.segment_counts  # draws x usable segments
        self.full_counts = np.zeros((draws, len(seg_ids)), dtype=np.int64)  # draws x every segment
        self.full_counts[:, usable] = self.counts
        self.rotations = list(rotations(ratings, seed=seed))
        self.seed, self.alpha = seed, alpha
        # Per rotation, the system means over the segments rated for every system (as _system_vectors).
        self.rated = [np.isfinite(gold).all(axis=0) for _, gold in self.rotations]
        self.gold_means = [system_means(gold[:, rated], self.counts[:, rated])
                           for (_, gold), rated in zip(self.rotations, self.rated, strict=True)]

    def system(self, name: str, metric_draws_of) -> np.ndarray:
        """The statistic per draw averaged over the rotations; ``metric_draws_of(r)``: the system scores
        per draw in rotation r (draws x systems)."""
        key = {"system_pearson": "pearson", "system_kendall": "kendall", "system_accuracy": "accuracy"}[name]
        return np.mean([resampled_values(self.gold_means[r], metric_draws_of(r), self.plan, key)
                        for r in range(len(self.rotations))], axis=0)

    def human(self, name: str) -> np.ndarray:
        if name.startswith("system"):
            singles = [system_means(single[:, rated], self.counts[:, rated])
                       for (single, _), rated in zip(self.rotations, self.rated, strict=True)]
            return self.system(name, lambda r: singles[r])
        values = []
        for single, gold in self.rotations:
            filled = np.where(np.isnan(gold), 0.0, single)
            epsilon = calibrate_ties(gold, filled, average_by="item").epsilon
            values.append(weighted_item_means(item_values(gold, filled, epsilon), self.counts))
        return np.mean(values, axis=0)


def _chance(name: str, ratings: np.ndarray, metric: np.ndarray, seed: int, draws: int, draws_of: _Draws | None = None,
            reaggregate=None) -> tuple[dict, np.ndarray | None, np.ndarray | None]:
    """(the chance level against each rotation's two-rater mean, averaged over the rotations; the
    metric's values per bootstrap draw; its chance level's values per draw: None without draws).
    Rotation r permutes with seed ``seed + r``, so that the rotations' estimates are independent and
    the standard error of their mean is sqrt(sum of squared errors) / rotations."""
    values, errors = [], []
    used = metric if metric.ndim == 1 else metric[:, rater_slots(ratings)[1]]
    metric_draws = chance_draws = None
    if draws_of is not None and name.startswith("system"):
        if reaggregate is not None:
            corpus_draws = reaggregate(draws_of.full_counts)
        else:  # no statistics: the metric's scores are fixed
            corpus_draws = np.broadcast_to(used, (draws_of.plan.draws, len(used)))
        metric_draws = draws_of.system(name, lambda r: corpus_draws)
        chance_draws = (np.mean([expected_accuracy_draws(g, corpus_draws) for g in draws_of.gold_means], axis=0)
                        if name == "system_accuracy" else np.zeros(draws_of.plan.draws))
    item_metric, item_chance = [], []
    for rotation, (_, gold) in enumerate(rotations(ratings, seed=seed)):
        if name == "system_accuracy":
            gold_means, metric_vector = _system_vectors(gold, used)
            values.append(chance.expected_pairwise_accuracy(gold_means, metric_vector))
        elif name in ("system_kendall", "system_pearson"):
            values.append(chance.expected_correlation(*_system_vectors(gold, used), statistic=name.split("_")[1]))
        elif name in ("segment_pearson", "segment_kendall"):
            values.append(chance.expected_correlation(gold, used, statistic=name.split("_")[1]))
        else:
            estimate, per_item = chance.permutation_item_values(gold, used, draws=draws, seed=seed + rotation)
            values.append(estimate.value)
            errors.append(estimate.standard_error)
            if draws_of is not None:
                epsilon = calibrate_ties(gold, used, average_by="item").epsilon
                item_metric.append(weighted_item_means(item_values(gold, used, epsilon), draws_of.counts))
                item_chance.append(weighted_item_means(per_item, draws_of.counts).mean(axis=1))
    if item_metric:
        metric_draws, chance_draws = np.mean(item_metric, axis=0), np.mean(item_chance, axis=0)
    se = math.sqrt(sum(e * e for e in errors)) / len(errors) if errors else 0.0
    return ({"value": float(np.mean(values)), "standard_error": se, "draws": draws if errors else None},
            metric_draws, chance_draws)
