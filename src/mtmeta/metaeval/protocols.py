"""One metric on one language pair, by mt-metrics-eval's protocols (the field's since WMT21).

System level: Pearson, Spearman and Kendall (MTME's ``average_by='none'``) and pairwise accuracy
(Kocmi et al. 2021), over the MT systems, and where an mt-metrics-eval set has human translations
(its references other than the standard one, scored as systems) also with them; each with the metric's
system score as the study computes it (``corpus``: BLEU's corpus statistic ...) and as the mean of
its segment scores (``segment_mean``, what mt-metrics-eval's data holds for segment-level metrics);
soft pairwise accuracy (WMT24) from segment scores. Intervals resample systems and segments
(``boot-both``; Deutsch et al. 2021) where the human side can be re-aggregated from segments (an
MQM or DA set), systems only (``boot-systems``) where it cannot (WMT12-14's human scores come from
pairwise rankings, re-aggregated by the study's other bootstrap).

Segment level (an mt-metrics-eval set, MT systems only, segments with a human score): Pearson and
Kendall without grouping, Kendall grouped by item (source segment), and acc_eq grouped by item
with tie calibration (Deutsch, Foster & Freitag 2023: the epsilon is in the row), with an interval
for the item-grouped statistics that resamples items.

Lower-is-better metrics are negated first, as everywhere in the study. Every row names its human
score, level, statistic, grouping, whether human translations are in, the aggregation, and the
interval's method, draws and seed.

Beside every value, its chance level (:mod:`mtmeta.stats.chance`): what the metric's own scores,
randomly permuted within the protocol's groups, score in expectation, the gold's ties kept. Exact
where a formula exists (``chance_se`` 0): the correlations 0, pairwise accuracy from the gold's and
the metric's ties, soft pairwise accuracy with the metric's systems relabelled. Tie-calibrated
acc_eq has none: ``chance_draws`` seeded permutations within items, the calibration redone on each,
``chance_se`` their Monte-Carlo standard error; beside it ``floor``, the acc_eq of a metric that
ties every pair (the share of gold-tied pairs per item), which calibration can always reach. The
costly two (soft pairwise accuracy, calibrated acc_eq) are computed against the pair's primary
human score only (the first of ``human_scores``); the other rows' ``chance`` is empty there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mtmeta.metrics.base import Metric
from mtmeta.metrics.score_tables import stat_columns
from mtmeta.stats import chance, system_pairs, two_level_bootstrap
from mtmeta.stats.grouped import group_values, grouped_correlation, layout
from mtmeta.stats.tie_calibration import calibrate_ties

PROTOCOL_COLUMNS = [
    "dataset", "lp", "metric", "human_score", "level", "statistic", "grouping", "human_translations",
    "aggregation", "value", "epsilon", "n_systems", "n_items", "low", "high", "interval_method", "draws", "seed",
    "reference", "metric_signature", "chance", "chance_se", "chance_draws", "floor",
]  # fmt: skip
CHANCE_DRAWS = 100  # permutation draws for the chance level of tie-calibrated acc_eq
SYSTEM_STATISTICS = ("pearson", "spearman", "kendall", "accuracy")
INTERVAL_STATISTICS = ("pearson", "accuracy")


@dataclass
class PairScores:
    """One pair's inputs to the protocols: the metric's segment and system scores and the human ones."""

    summary: dict
    human: pd.DataFrame  # MT systems' system-level human scores (human_scores.tsv)
    human_translations: pd.DataFrame  # the human translations' (human_translations.tsv)
    human_segments: pd.DataFrame  # segment-level human scores (empty for pairwise judgments)
    segments: pd.DataFrame  # the metric's segment table
    systems: pd.DataFrame  # the metric's system table


def protocol_rows(metric_id: str, metric: Metric, pair: PairScores, human_scores: list[str], draws: int = 1000,
                  seed: int = 12345, alpha: float = 0.05, chance_draws: int = CHANCE_DRAWS) -> pd.DataFrame:
    """Every protocol's value for one metric on one pair, against each of ``human_scores``, with its
    chance level (permutation levels against the first of ``human_scores`` only; see the module)."""
    sign = 1.0 if metric.higher_is_better else -1.0
    summary = pair.summary
    base = {"dataset": summary["dataset"], "lp": summary["lp"], "metric": metric_id,
            "reference": summary.get("reference", ""), "metric_signature": _signature(pair.systems)}
    corpus = pair.systems.set_index("system")["score"] * sign
    seg = pair.segments.pivot(index="system", columns="seg_id", values="score") * sign
    stats = {system: rows.sort_values("seg_id")[stat_columns(pair.segments)].to_numpy()
             for system, rows in pair.segments.groupby("system")}
    rows, cache = [], _Draws(metric, sign, seg, stats, draws, seed)
    for number, name in enumerate(human_scores):
        primary = number == 0
        translations = (pair.human_translations.dropna(subset=[name]) if name in pair.human_translations
                        else pair.human_translations.iloc[0:0].assign(**{name: []}))
        gold = pd.concat([pair.human.set_index("system")[name], translations.set_index("system")[name]])
        mt = [s for s in pair.human.dropna(subset=[name])["system"] if s in corpus.index]
        humans = list(translations["system"])
        segment_gold = (pair.human_segments.pivot(index="system", columns="seg_id", values=name)
                        .reindex(columns=seg.columns) if name in pair.human_segments else None)
        for with_human in (False, True) if humans else (False,):
            systems = mt + (humans if with_human else [])
            label = "included" if with_human else "excluded"
            missing = [s for s in systems if s not in corpus.index]
            for aggregation, scores in (("corpus", corpus), ("segment_mean", seg.mean(axis=1))):
                for statistic in SYSTEM_STATISTICS:
                    row = {**base, "human_score": name, "level": "system", "statistic": statistic, "grouping": "none",
                           "human_translations": label, "aggregation": aggregation}
                    if missing:  # a user's metric without scores of the human translations
                        rows.append({**row, "value": math.nan, "n_systems": len(systems)})
                        continue
                    value, used = system_pairs.system_level(
                        gold.loc[systems].to_numpy(), scores.loc[systems].to_numpy(), statistic,
                        is_human=np.zeros(len(systems), bool), include_human=True)
                    row.update(value=value, n_systems=used,
                               **_system_chance(statistic, gold.loc[systems].to_numpy(dtype=float),
                                                scores.loc[systems].to_numpy(dtype=float)))
                    if not with_human and statistic in INTERVAL_STATISTICS and len(systems) < 3:
                        row.update(interval_method=f"undefined: {summary['dataset']} {summary['lp']} has "
                                   f"{len(systems)} system(s) with {name}; a system-level interval needs at least 3")
                    elif not with_human and statistic in INTERVAL_STATISTICS:
                        row.update(_system_interval(statistic, aggregation, systems, gold, scores, segment_gold, cache,
                                                    alpha))
                    rows.append(row)
            if segment_gold is not None and not missing:
                rows.append({**base, "human_score": name, "level": "system", "statistic": "soft_accuracy",
                             "grouping": "none", "human_translations": label, "aggregation": "segment_mean",
                             **_soft_accuracy(segment_gold.loc[systems], seg.loc[systems], primary)})
        if segment_gold is not None:
            rows += _segment_rows(base, name, segment_gold.loc[mt], seg.loc[mt], draws, seed, alpha,
                                  chance_draws if primary else 0)
    return pd.DataFrame(rows, columns=PROTOCOL_COLUMNS)


def _signature(systems: pd.DataFrame) -> str:
    return str(systems["signature"].iloc[0]) if "signature" in systems and len(systems) else ""


class _Draws:
    """One pair's bootstrap draws, each computed once: the plan per (systems, method), and the metric's
    re-aggregated system scores per (systems, aggregation) (the costly part: a corpus statistic per
    system per draw), shared by every statistic and human score that resamples the same systems."""

    def __init__(self, metric: Metric, sign: float, seg: pd.DataFrame, stats: dict, draws: int, seed: int):
        self.metric, self.sign, self.seg, self.stats, self.draws, self.seed = metric, sign, seg, stats, draws, seed
        self._plans: dict = {}
        self._metric: dict = {}

    def plan(self, systems: list[str], method: str):
        key = (tuple(systems), method)
        if key not in self._plans:
            self._plans[key] = two_level_bootstrap.resampling_plan(len(systems), self.seg.shape[1], method, self.draws,
                                                                   self.seed)
        return self._plans[key]

    def metric_draws(self, systems: list[str], aggregation: str) -> np.ndarray:
        key = (tuple(systems), aggregation)
        if key not in self._metric:
            counts = self.plan(systems, "both").segment_counts
            if aggregation == "segment_mean":
                self._metric[key] = two_level_bootstrap.system_means(self.seg.loc[systems].to_numpy(dtype=float),
                                                                     counts)
            else:
                weighted = self.metric.corpus_scores_weighted
                self._metric[key] = np.column_stack([self.sign * weighted(self.stats[s], counts) for s in systems])
        return self._metric[key]


def _system_interval(statistic, aggregation, systems, gold, scores, segment_gold, cache: _Draws, alpha) -> dict:
    """The two-level bootstrap interval: systems and segments resampled where the human scores are
    means of segment scores (both sides re-aggregated), systems only otherwise."""
    both = segment_gold is not None
    plan = cache.plan(systems, "both" if both else "systems")
    if both:
        gold_draws = two_level_bootstrap.system_means(segment_gold.loc[systems].to_numpy(dtype=float),
                                                      plan.segment_counts)
        metric_draws = cache.metric_draws(systems, aggregation)
    else:
        gold_draws = gold.loc[systems].to_numpy(dtype=float)
        metric_draws = scores.loc[systems].to_numpy(dtype=float)
    interval = two_level_bootstrap.system_level_interval(gold_draws, metric_draws, plan, statistic, alpha)
    return {"low": interval.low, "high": interval.high, "interval_method": interval.method, "draws": interval.draws,
            "seed": interval.seed}


def _system_chance(statistic: str, gold: np.ndarray, metric: np.ndarray) -> dict:
    """The exact chance level of a system-level statistic (the metric's system scores permuted)."""
    known = np.isfinite(gold) & np.isfinite(metric)
    if statistic == "accuracy":
        level = chance.expected_pairwise_accuracy(gold[known], metric[known])
    else:
        level = chance.expected_correlation(gold[known], metric[known], statistic=statistic)
    return {"chance": level, "chance_se": 0.0}


def _soft_accuracy(gold: pd.DataFrame, metric: pd.DataFrame, with_chance: bool = True) -> dict:
    try:
        value = system_pairs.soft_pairwise_accuracy(gold.to_numpy(dtype=float), metric.to_numpy(dtype=float))
        level = (chance.expected_soft_pairwise_accuracy(gold.to_numpy(dtype=float), metric.to_numpy(dtype=float))
                 if with_chance else math.nan)
    except ValueError:  # systems rated on different segments: undefined (mt-metrics-eval would misalign them)
        value = level = math.nan
    return {"value": value, "n_systems": len(gold), "n_items": int(gold.notna().all(axis=0).sum()),
            "chance": level, "chance_se": 0.0 if with_chance else math.nan}


def _segment_rows(base: dict, name: str, gold: pd.DataFrame, metric: pd.DataFrame, draws: int, seed: int,
                  alpha: float, chance_draws: int = CHANCE_DRAWS) -> list[dict]:
    """Segment-level statistics over the MT systems' rated segments, with their chance levels (that of
    calibrated acc_eq by ``chance_draws`` permutations; none with 0)."""
    gold_m, metric_m = gold.to_numpy(dtype=float), metric.to_numpy(dtype=float)
    rated = int(np.isfinite(gold_m).any(axis=0).sum())
    row = {**base, "human_score": name, "level": "segment", "human_translations": "excluded",
           "aggregation": "segment", "n_systems": len(gold), "n_items": rated}
    rows = []
    for statistic, grouping in (("pearson", "none"), ("kendall", "none"), ("kendall", "item")):
        result = grouped_correlation(gold_m, metric_m, statistic, average_by=grouping)
        entry = {**row, "statistic": statistic, "grouping": grouping, "value": result.value, "chance_se": 0.0,
                 "chance": chance.expected_correlation(gold_m, metric_m, statistic=statistic, average_by=grouping)}
        if grouping == "item":
            entry.update(_item_interval(gold_m, metric_m, statistic, 0.0, draws, seed, alpha))
        rows.append(entry)
    calibrated = calibrate_ties(gold_m, metric_m, average_by="item", variant="acc_eq")
    level = (chance.permutation_level(gold_m, metric_m, chance.CALIBRATED, average_by="item", draws=chance_draws,
                                      seed=seed) if chance_draws >= 2 else None)
    rows.append({**row, "statistic": "acc_eq", "grouping": "item", "value": calibrated.value,
                 "epsilon": calibrated.epsilon, "floor": chance.all_tied_acc_eq(gold_m, average_by="item"),
                 **({} if level is None else {"chance": level.value, "chance_se": level.standard_error,
                                              "chance_draws": level.draws}),
                 **_item_interval(gold_m, metric_m, "acc_eq", calibrated.epsilon, draws, seed, alpha)})
    return rows


def _item_interval(gold, metric, statistic: str, epsilon: float, draws: int, seed: int, alpha: float) -> dict:
    """Items (source segments) resampled: each draw averages the drawn items' values (an item-grouped
    statistic is a mean over items; acc_eq at the calibrated epsilon, not re-calibrated per draw)."""
    values = group_values(layout(gold, metric, "item"), statistic, epsilon)
    values = values[np.isfinite(values)]
    if not len(values):
        return {}
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), size=(draws, len(values)))].mean(axis=1)
    return {"low": float(np.quantile(means, alpha / 2)), "high": float(np.quantile(means, 1 - alpha / 2)),
            "interval_method": "boot-items" + ("" if statistic != "acc_eq" else " (epsilon fixed)"),
            "draws": draws, "seed": seed}


CATEGORY_COLUMNS = ["dataset", "lp", "metric", "restriction", "statistic", "grouping", "value", "n_items",
                    "n_systems", "low", "high", "interval_method", "draws", "seed", "metric_signature"]


def category_rows(metric_id: str, metric: Metric, pair: PairScores, categories: pd.DataFrame, draws: int = 1000,
                  seed: int = 12345, alpha: float = 0.05) -> pd.DataFrame:
    """The metric's segment-level agreement with MQM counting one kind of error only (``categories``:
    system, seg_id and one column per restriction, as :func:`mtmeta.data.mqm.restricted_scores` makes
    it): Kendall tau-b grouped by item (each source segment's MT outputs ranked against each other,
    so that a system's overall quality does not count), averaged over the items where the restricted
    score varies, with an interval resampling items."""
    sign = 1.0 if metric.higher_is_better else -1.0
    mt = [s for s in pair.human["system"] if s in set(categories["system"])]
    metric_grid = (pair.segments.pivot(index="system", columns="seg_id", values="score") * sign).loc[mt]
    rows = []
    for restriction in [c for c in categories.columns if c not in ("system", "seg_id")]:
        gold = categories.pivot(index="system", columns="seg_id", values=restriction).reindex(
            index=mt, columns=metric_grid.columns).to_numpy(dtype=float)
        result = grouped_correlation(gold, metric_grid.to_numpy(dtype=float), "kendall", average_by="item")
        rows.append({"dataset": pair.summary["dataset"], "lp": pair.summary["lp"], "metric": metric_id,
                     "restriction": restriction, "statistic": "kendall", "grouping": "item", "value": result.value,
                     "n_items": result.groups - result.undefined, "n_systems": len(mt),
                     "metric_signature": _signature(pair.systems),
                     **_item_interval(gold, metric_grid.to_numpy(dtype=float), "kendall", 0.0, draws, seed, alpha)})
    return pd.DataFrame(rows, columns=CATEGORY_COLUMNS)
