"""Bootstrap intervals of the levels beside a metric (the human level, the metric, its chance level and
the share of the headroom it closes) on the MQM sets' level tables (:mod:`mtmeta.metaeval.ceiling_levels`,
:mod:`mtmeta.metaeval.crowd`).

One plan of draws per table: the segments resampled with replacement
(:func:`mtmeta.stats.two_level_bootstrap.resampling_plan`, method ``segments``, the bootstrap's seed),
the same draws for every row, so that the share's draws pair each metric with the human and chance
levels of the same draw.

- System level (Pearson, Kendall, pairwise accuracy): every system score re-aggregated from the
  drawn segments: a human score as the mean of its drawn rated segments, a metric's corpus score from
  its sufficient statistics (``reaggregate``; held fixed where none is given, as for a user's metric
  whose statistics are not known). The
  chance level of pairwise accuracy (its formula from the drawn scores' ties) is recomputed in each
  draw; that of a correlation is 0 in every draw.
- Segment-level acc_eq grouped by item with tie calibration: each item's acc_eq at the calibrated
  epsilon (not re-calibrated per draw, as the protocols' item interval), the drawn items' mean; the
  chance level from each permutation draw's per-item values at its own calibrated epsilon
  (:func:`mtmeta.stats.chance.permutation_item_values`), the drawn items' mean averaged over the
  permutation draws.
- Segment-level Pearson and Kendall without grouping have no interval here (every draw would recount
  every pair of cells; the protocols have none either).
"""

from __future__ import annotations

import math

import numpy as np

from mtmeta.stats.grouped import group_values, layout

INTERVAL_STATISTICS = ("system_pearson", "system_kendall", "system_accuracy", "segment_acc_eq")


def percentiles(values: np.ndarray, alpha: float = 0.05) -> tuple[float, float]:
    """The percentile interval of the finite draws (NaN, NaN if none)."""
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    if not len(finite):
        return math.nan, math.nan
    return float(np.quantile(finite, alpha / 2)), float(np.quantile(finite, 1 - alpha / 2))


def interval_columns(values, alpha: float) -> dict:
    """A level table's ``low``, ``high`` and ``interval_draws`` from a level's draws ({} without draws)."""
    if values is None:
        return {}
    low, high = percentiles(values, alpha)
    return {"low": low, "high": high, "interval_draws": len(values)}


def share_interval_columns(metric_draws, chance_draws, human_draws, alpha: float) -> dict:
    """A level table's ``share_low`` and ``share_high``: the interval of the headroom share
    (:func:`share_draws`), {} where one of the three has no draws."""
    if metric_draws is None or chance_draws is None or human_draws is None:
        return {}
    low, high = percentiles(share_draws(metric_draws, chance_draws, human_draws), alpha)
    return {"share_low": low, "share_high": high}


def item_values(gold, metric, epsilon: float) -> np.ndarray:
    """Each item's (column's) acc_eq at ``epsilon`` (NaN for an item with fewer than two rated cells)."""
    return group_values(layout(gold, metric, "item"), "acc_eq", epsilon)


def weighted_item_means(values, counts: np.ndarray) -> np.ndarray:
    """(draws,) or (draws x rows): the mean over the drawn items of ``values`` (items, or rows x items;
    NaN items left out) under each draw's item counts (draws x items)."""
    values = np.asarray(values, dtype=float)
    single = values.ndim == 1
    values = np.atleast_2d(values)
    known = np.isfinite(values)
    counts = np.asarray(counts, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = (counts @ np.where(known, values, 0.0).T) / (counts @ known.T)
    return means[:, 0] if single else means


def expected_accuracy_draws(gold_draws: np.ndarray, metric_draws: np.ndarray) -> np.ndarray:
    """The chance level of pairwise accuracy in every draw (draws x systems scores; a gold NaN leaves the
    system out): (T_g q + (P - T_g)(1 - q) / 2) / P from the draw's gold ties T_g and metric ties q."""
    gold, metric = np.atleast_2d(gold_draws), np.broadcast_to(np.atleast_2d(metric_draws), np.shape(gold_draws))
    i, j = np.triu_indices(gold.shape[1], k=1)
    counted = ~np.isnan(gold[:, i]) & ~np.isnan(gold[:, j])
    pairs = counted.sum(axis=1)
    gold_ties = ((gold[:, i] == gold[:, j]) & counted).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = ((metric[:, i] == metric[:, j]) & counted).sum(axis=1) / pairs
        return np.where(pairs > 0, (gold_ties * q + (pairs - gold_ties) * (1 - q) / 2) / pairs, np.nan)


def share_draws(metric: np.ndarray, chance: np.ndarray, human: np.ndarray) -> np.ndarray:
    """(metric - chance) / (human - chance) per draw; NaN where the human is not above chance."""
    with np.errstate(invalid="ignore", divide="ignore"):
        headroom = human - chance
        return np.where(headroom > 0, (metric - chance) / headroom, np.nan)


def corpus_reaggregation(metric, sign: float, segments, systems: list[str], seg_ids) -> callable:
    """``reaggregate(counts)``: the metric's corpus score of each of ``systems`` (times ``sign``) under
    segment counts (draws x ``seg_ids``), from the sufficient statistics of its segment table (as the
    protocols' intervals re-aggregate it); a segment of ``seg_ids`` the table lacks is an error."""
    from mtmeta.metrics.score_tables import stat_columns

    columns = stat_columns(segments)
    stats = {}
    for system, rows in segments[segments["system"].isin(systems)].groupby("system"):
        rows = rows.set_index("seg_id")
        missing = [seg for seg in seg_ids if seg not in rows.index]
        if missing:
            raise ValueError(f"{system}: no statistics for segments {missing[:5]}")
        stats[system] = rows.loc[list(seg_ids), columns].to_numpy()

    def reaggregate(counts: np.ndarray) -> np.ndarray:
        return np.column_stack([sign * metric.corpus_scores_weighted(stats[s], counts) for s in systems])

    return reaggregate
