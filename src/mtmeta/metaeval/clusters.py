"""Significance clusters of metrics by mt-metrics-eval's permutation tests, beside the study's
Williams groups (:mod:`mtmeta.metaeval.significance`).

For every system-level pair: system-level Pearson and pairwise accuracy (the metrics' corpus scores,
MT systems only) ranked with PERM-BOTH (Deutsch et al. 2021; MTME's ``PermutationSigDiff``); for an
mt-metrics-eval set also segment-level acc_eq grouped by item with tie calibration, ranked with the
pairwise permutation test (each metric keeps its own epsilon). Over several sets, the global pairwise
accuracy (Kocmi et al. 2021: system pairs pooled over the sets) of the metrics scored on all of them,
with a bootstrap interval (systems resampled within each set).
A metric's rank is its cluster: a new cluster starts at a metric that some metric of the current one
beats with p <= the level (MTME's ``AssignRanks``). Every row says its test, draws and seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mtmeta.errors import MissingSystemsError
from mtmeta.stats import two_level_bootstrap
from mtmeta.stats.permutation import MetricRanking, rank_metrics

CLUSTER_COLUMNS = ["dataset", "lp", "human_score", "level", "statistic", "grouping", "aggregation", "rank", "metric",
                   "value", "p_beats_next", "n_metrics", "n_systems", "test"]


@dataclass
class PairMetrics:
    """One pair's metrics, as their scores: system scores (system -> score, MT systems of ``human``)
    and segment scores (systems x segments), negated for lower-is-better metrics."""

    summary: dict
    human: pd.DataFrame  # MT systems' human system scores
    human_segments: pd.DataFrame
    systems: dict[str, pd.Series]
    segments: dict[str, pd.DataFrame]


def oriented(system_tables: dict[str, pd.DataFrame], segment_tables: dict[str, pd.DataFrame],
             directions: dict[str, bool]) -> tuple[dict[str, pd.Series], dict[str, pd.DataFrame]]:
    """Each metric's system scores and segment-score matrix, negated where lower is better."""
    systems, segments = {}, {}
    for metric, table in system_tables.items():
        sign = 1.0 if directions[metric] else -1.0
        systems[metric] = table.set_index("system")["score"] * sign
        if metric in segment_tables:
            segments[metric] = segment_tables[metric].pivot(index="system", columns="seg_id", values="score") * sign
    return systems, segments


def pair_clusters(pair: PairMetrics, human_score: str, k: int = 1000, seed: int = 12345,
                  level: float = 0.05) -> pd.DataFrame:
    """The pair's clusters for each protocol (see the module)."""
    judged = [s for s in pair.human.dropna(subset=[human_score])["system"]]
    for metric, scores in pair.systems.items():  # a metric missing judged systems is an error, never left out
        missing = set(judged) - set(scores.dropna().index)
        if missing:
            raise MissingSystemsError(f"{pair.summary['dataset']} {pair.summary['lp']}", metric, missing, len(judged))
    metrics = pair.systems
    gold = pair.human.set_index("system").loc[judged, human_score].to_numpy(dtype=float)
    frames = []
    for statistic in ("pearson", "accuracy"):
        ranking = rank_metrics(gold, {m: s.loc[judged].to_numpy(dtype=float) for m, s in metrics.items()}, statistic,
                               k=k, seed=seed, threshold=level)
        frames.append(_rows(pair.summary, human_score, "system", statistic, "none", "corpus", ranking, len(judged)))
    if human_score in pair.human_segments and pair.segments:
        grid = pair.human_segments.pivot(index="system", columns="seg_id", values=human_score).loc[judged]
        scored = {m: seg.loc[judged, grid.columns].to_numpy(dtype=float) for m, seg in pair.segments.items()
                  if m in metrics}
        ranking = rank_metrics(grid.to_numpy(dtype=float), scored, "acc_eq_calibrated", average_by="item", k=k,
                               seed=seed, threshold=level)
        frames.append(_rows(pair.summary, human_score, "segment", "acc_eq", "item", "segment", ranking, len(judged)))
    return pd.concat(frames, ignore_index=True)[CLUSTER_COLUMNS]


def pooled_clusters(pairs: list[PairMetrics], human_score: str, k: int = 1000, seed: int = 12345,
                    level: float = 0.05) -> pd.DataFrame:
    """Global pairwise accuracy over the pairs, of the metrics scored on every one of them."""
    common = sorted(set.intersection(*(set(p.systems) for p in pairs)), key=list(pairs[0].systems).index)
    golds, scores, sizes = [], {m: [] for m in common}, []
    for pair in pairs:
        judged = list(pair.human.dropna(subset=[human_score])["system"])
        golds.append(pair.human.set_index("system").loc[judged, human_score].to_numpy(dtype=float))
        for metric in common:
            scores[metric].append(pair.systems[metric].loc[judged].to_numpy(dtype=float))
        sizes.append(len(judged))
    ranking = rank_metrics(np.concatenate(golds), {m: np.concatenate(v) for m, v in scores.items()}, "accuracy",
                           k=k, seed=seed, threshold=level, set_sizes=sizes)
    summary = {"dataset": "+".join(dict.fromkeys(p.summary["dataset"] for p in pairs)),
               "lp": "+".join(f"{p.summary['dataset']}/{p.summary['lp']}" for p in pairs)}
    table = _rows(summary, human_score, "system", "global_accuracy", "pooled", "corpus", ranking, int(sum(sizes)))
    intervals = pooled_intervals(golds, scores, k, seed, level)
    return table.assign(**{column: [intervals[m][column] for m in table["metric"]] for column in INTERVAL_COLUMNS})


# The global accuracy's interval (beside its cluster): a percentile bootstrap resampling systems within
# each set, the same draws for every metric.
INTERVAL_COLUMNS = ["low", "high", "interval_method", "draws"]


def pooled_intervals(golds: list[np.ndarray], scores: dict[str, list[np.ndarray]], draws: int, seed: int,
                     level: float) -> dict[str, dict]:
    """Each metric's (1 - ``level``) interval of the pooled pairwise accuracy: the systems of each set
    resampled (set k with seed + k), pairs of copies of one system left out, the pairs pooled."""
    plans = [two_level_bootstrap.resampling_plan(len(gold), 1, "systems", draws, seed + k)
             for k, gold in enumerate(golds)]
    intervals = {}
    for metric, vectors in scores.items():
        interval = two_level_bootstrap.pooled_accuracy_interval(
            [(gold, vector, plan) for gold, vector, plan in zip(golds, vectors, plans, strict=True)], alpha=level)
        intervals[metric] = {"low": interval.low, "high": interval.high, "interval_method": interval.method,
                             "draws": interval.draws}
    return intervals


def _rows(summary: dict, human_score: str, level: str, statistic: str, grouping: str, aggregation: str,
          ranking: MetricRanking, n_systems: int) -> pd.DataFrame:
    n = len(ranking.names)
    beats_next = [float(ranking.p_values[i, i + 1]) if i + 1 < n else np.nan for i in range(n)]
    return pd.DataFrame({"dataset": summary["dataset"], "lp": summary["lp"], "human_score": human_score,
                         "level": level, "statistic": statistic, "grouping": grouping, "aggregation": aggregation,
                         # an undefined value is not ranked (MTME's AssignRanks would put it in a cluster)
                         "rank": pd.array([None if np.isnan(v) else r for r, v in zip(ranking.ranks, ranking.values,
                                                                                      strict=True)], dtype="Int64"),
                         "metric": ranking.names, "value": ranking.values,
                         "p_beats_next": beats_next, "n_metrics": n, "n_systems": n_systems,
                         "test": ranking.method}, columns=CLUSTER_COLUMNS)
