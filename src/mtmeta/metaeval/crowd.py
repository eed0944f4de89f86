"""Crowd against experts: WMT's direct assessment (DA) scored as if it were a metric against MQM.

Freitag et al. (2021, "Experts, Errors, and Context") compared WMT21's crowd DA with expert MQM on
the same systems. Where a set has both (WMT21 news zh-en: DA from WMT21's news task; en-ru: the DA
mt-metrics-eval keeps), :func:`crowd_levels` scores each DA variant as a metric under the protocols
of the MQM table, and every metric beside it on the same systems and segments, so the numbers are
comparable:

- systems: the MT systems with an MQM score and every DA variant's score (and scored by every
  metric); the others are named (``left_out``: e.g. en-ru's metricsystem1-5 have MQM but no DA);
- system level: MQM's system scores (the set's ``<lp>.mqm.sys.score``) against the DA variant's
  published system scores, or the metric's corpus score: Pearson, Kendall (MTME's ``none``) and
  pairwise accuracy;
- segment level: the cells (system, segment) with both MQM and DA, every other cell's gold left
  out: Pearson and Kendall without grouping, acc_eq grouped by item with tie calibration;
- beside each value its chance level (:mod:`mtmeta.stats.chance`: exact where a formula exists,
  seeded permutation within items for calibrated acc_eq, the calibration redone on each draw) and
  acc_eq's every-pair-tied floor.

The DA variants are mt-metrics-eval's ``wmt-z`` (each judge's scores standardised, then averaged:
WMT21's official ranking) and ``wmt-raw`` (the 0-100 scores averaged). DA is not a ceiling: a
metric can agree with MQM better than the crowd does (a headroom share above 100%).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mtmeta.metaeval.ceiling_levels import ALL_STATISTICS, statistic
from mtmeta.metaeval.level_draws import (
    expected_accuracy_draws,
    interval_columns,
    item_values,
    share_interval_columns,
    weighted_item_means,
)
from mtmeta.stats import chance
from mtmeta.stats.system_pairs import system_level
from mtmeta.stats.tie_calibration import calibrate_ties
from mtmeta.stats.two_level_bootstrap import resampled_values, resampling_plan, system_means

CROWD = ("wmt-z", "wmt-raw")  # the DA variants, the first the human level of the headroom share
GOLD = "mqm"
# low / high: the percentile interval over bootstrap draws of the segments (interval_draws of them;
# mtmeta.metaeval.level_draws); share_low / share_high: that of a metric's share of the headroom.
COLUMNS = ["lp", "statistic", "level", "who", "value", "standard_error", "systems", "segments", "seed", "draws",
           "left_out", "low", "high", "share_low", "share_high", "interval_draws"]
SYSTEM_STATISTICS = {"system_pearson": "pearson", "system_kendall": "kendall", "system_accuracy": "accuracy"}


def crowd_systems(human: pd.DataFrame, metrics: dict, gold: str = GOLD, crowd=CROWD) -> tuple[list[str], list[str]]:
    """(systems, left out): the MT systems with a gold score, every crowd score and every metric's
    score, in the table's order; and the systems with a gold score that lack one of them."""
    needed = [gold, *crowd]
    missing = [name for name in needed if name not in human]
    if missing:
        raise ValueError(f"no human score {', '.join(missing)} (the set has {', '.join(human.columns[1:])}); "
                         f"DA scored against MQM needs {', '.join(needed)}")
    scored = set.intersection(*(set(scores[0].dropna().index) for scores in metrics.values())) if metrics else None
    systems, left_out = [], []
    for _, row in human.dropna(subset=[gold]).iterrows():
        complete = row[list(crowd)].notna().all() and (scored is None or row["system"] in scored)
        (systems if complete else left_out).append(row["system"])
    return systems, left_out


def crowd_levels(lp: str, human: pd.DataFrame, human_segments: pd.DataFrame, metrics: dict, *, gold: str = GOLD,
                 crowd=CROWD, seed: int = 12345, draws: int = 100, statistics=ALL_STATISTICS, bootstrap: int = 0,
                 alpha: float = 0.05) -> pd.DataFrame:
    """Each DA variant (``level`` human), each metric (``metric``) and the chance level of each
    (``chance``, who ``permuted <name>``) against MQM, and acc_eq's floor; ``metrics`` maps a metric
    id to its (corpus scores per system, systems x seg_id segment scores[, reaggregate]), higher is
    better, ``reaggregate(counts)`` its corpus scores (draws x systems) under segment counts (draws x
    the pair's seg_ids, sorted). ``bootstrap`` > 0: that many draws of the pair's segments for the
    intervals (:mod:`mtmeta.metaeval.level_draws`: ``low``/``high``; a metric's ``share_low``/
    ``share_high`` of the headroom up to the first DA variant)."""
    systems, left_out = crowd_systems(human, metrics, gold, crowd)
    if len(systems) < 2:
        raise ValueError(f"{lp}: {len(systems)} system(s) with both {gold} and {', '.join(crowd)}; need at least 2")
    table = human.set_index("system").loc[systems]
    seg_ids = np.sort(human_segments["seg_id"].unique())
    grids = {name: human_segments.pivot(index="system", columns="seg_id", values=name).reindex(index=systems,
                                                                                             columns=seg_ids)
             for name in (gold, *crowd)}
    both = np.isfinite(grids[gold].to_numpy(float))
    for name in crowd:
        both &= np.isfinite(grids[name].to_numpy(float))
    kept = both.any(axis=0)
    columns = seg_ids[kept]
    keep = both[:, kept]
    gold_grid = np.where(keep, grids[gold][columns].to_numpy(float), np.nan)
    inputs = {name: (table[name].to_numpy(float), np.where(keep, grids[name][columns].to_numpy(float), 0.0))
              for name in crowd}
    for metric_id, scores in metrics.items():
        corpus, grid = scores[0], scores[1]
        inputs[metric_id] = (corpus.loc[systems].to_numpy(float),
                             grid.reindex(index=systems, columns=columns).to_numpy(float))
    draws_of = None
    if bootstrap:
        plan = resampling_plan(len(systems), len(seg_ids), "segments", bootstrap, seed)
        gold_draws = system_means(grids[gold].to_numpy(float), plan.segment_counts)
        system_draws = {name: system_means(grids[name].to_numpy(float), plan.segment_counts) for name in crowd}
        for metric_id, scores in metrics.items():
            system_draws[metric_id] = (scores[2](plan.segment_counts) if len(scores) > 2 and scores[2] is not None
                                       else np.broadcast_to(inputs[metric_id][0], (bootstrap, len(systems))))
        draws_of = (plan, gold_draws, system_draws, plan.segment_counts[:, kept])
    base = {"lp": lp, "systems": len(systems), "segments": len(columns), "seed": seed,
            "left_out": ", ".join(left_out)}
    gold_vector = table[gold].to_numpy(float)
    rows = []
    for name in statistics:
        human_draws = None
        for who, (vector, grid) in inputs.items():
            level = "human" if who in crowd else "metric"
            if name in SYSTEM_STATISTICS:
                value = system_level(gold_vector, vector, SYSTEM_STATISTICS[name], is_human=np.zeros(len(systems)),
                                     include_human=True)[0]
                level_of, value_draws, chance_draws = _system_chance(name, gold_vector, vector, who, draws_of)
            else:
                value = statistic(name)(gold_grid, grid)
                level_of, value_draws, chance_draws = _segment_chance(name, gold_grid, grid, seed, draws, draws_of)
            if who == crowd[0]:
                human_draws = value_draws
            shares = {} if level == "human" else share_interval_columns(value_draws, chance_draws, human_draws, alpha)
            rows.append({**base, "statistic": name, "level": level, "who": who, "value": value,
                         **interval_columns(value_draws, alpha), **shares})
            rows.append({**base, "statistic": name, "level": "chance", "who": f"permuted {who}", **level_of,
                         **interval_columns(chance_draws, alpha)})
        if name == "segment_acc_eq":
            rows.append({**base, "statistic": name, "level": "floor", "who": "every pair tied",
                         "value": chance.all_tied_acc_eq(gold_grid, average_by="item"), "standard_error": 0.0})
    return pd.DataFrame(rows, columns=COLUMNS)



def _system_chance(name: str, gold: np.ndarray, metric: np.ndarray, who: str, draws_of) -> tuple:
    """(the exact chance level, the statistic's bootstrap draws, the chance level's draws: None without)."""
    key = SYSTEM_STATISTICS[name]
    if name == "system_accuracy":
        level = {"value": chance.expected_pairwise_accuracy(gold, metric), "standard_error": 0.0}
    else:
        level = {"value": chance.expected_correlation(gold, metric, statistic=key), "standard_error": 0.0}
    if draws_of is None:
        return level, None, None
    plan, gold_draws, system_draws, _ = draws_of
    value_draws = resampled_values(gold_draws, system_draws[who], plan, key)
    chance_draws = (expected_accuracy_draws(gold_draws, system_draws[who]) if name == "system_accuracy"
                    else np.zeros(plan.draws))
    return level, value_draws, chance_draws


def _segment_chance(name: str, gold: np.ndarray, metric: np.ndarray, seed: int, draws: int, draws_of) -> tuple:
    """(the chance level, the statistic's bootstrap draws over items, the chance level's: None without)."""
    if name == "segment_acc_eq":
        estimate, per_item = chance.permutation_item_values(gold, metric, draws=draws, seed=seed)
        level = {"value": estimate.value, "standard_error": estimate.standard_error, "draws": estimate.draws}
        if draws_of is None:
            return level, None, None
        counts = draws_of[3]
        epsilon = calibrate_ties(gold, metric, average_by="item").epsilon
        return (level, weighted_item_means(item_values(gold, metric, epsilon), counts),
                weighted_item_means(per_item, counts).mean(axis=1))
    if name in ("segment_pearson", "segment_kendall"):
        return ({"value": chance.expected_correlation(gold, metric, statistic=name.split("_")[1]),
                 "standard_error": 0.0}, None, None)
    return {"value": math.nan}, None, None
