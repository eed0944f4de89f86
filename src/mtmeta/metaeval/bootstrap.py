"""Confidence intervals of system-level correlations: the bootstrap, from segment resampling that
re-aggregates both the metric (from its statistics) and the human scores; and, for an official human
score (read, not computed from judgments, so it cannot be re-aggregated), Fisher's z interval."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mtmeta.metrics.base import Metric
from mtmeta.metrics.score_tables import stat_columns
from mtmeta.stats.correlation import bootstrap_intervals, correlations, fisher_z_interval, resample_weights
from mtmeta.stats.human import OFFICIAL, SCORE_COLUMNS, score_draws
from mtmeta.stats.two_level_bootstrap import system_means

log = logging.getLogger(__name__)

BOOTSTRAP_COLUMNS = [
    "dataset", "lp", "metric", "human_score", "n_systems", "pearson", "spearman", "kendall", "draws",
    "pearson_low", "pearson_high", "pearson_undefined_draws", "spearman_low", "spearman_high",
    "spearman_undefined_draws", "kendall_low", "kendall_high", "kendall_undefined_draws", "seed", "confidence",
    "interval_method",
]  # fmt: skip


@dataclass(frozen=True)
class HumanDraws:
    """The three human scores computed from judgments (:data:`SCORE_COLUMNS`) of a pair's judged
    systems in every bootstrap draw of its segments. They do not depend on the metric, so the workflow
    computes them once per pair (rule ``resample_human_scores``) for every metric's bootstrap."""

    systems: list[str]  # the judged systems, sorted; fewer than 3: no draws (``scores`` empty)
    seg_ids: np.ndarray  # the pair's segments, sorted: the columns of the resampling weights
    draws: int
    seed: int
    scores: dict[str, np.ndarray]  # human score -> draws x systems

    def fits(self, systems: list[str], seg_ids: np.ndarray, draws: int, seed: int) -> bool:
        """Whether these are the draws a bootstrap of ``systems`` over ``seg_ids`` would compute."""
        return (self.systems == list(systems) and self.draws == draws and self.seed == seed
                and np.array_equal(self.seg_ids, seg_ids))


def human_draws(comparisons: pd.DataFrame, human: pd.DataFrame, seg_ids: np.ndarray, draws: int = 1000,
                seed: int = 12345) -> HumanDraws:
    """The human scores' bootstrap draws of one pair, as :func:`bootstrap_table` resamples them."""
    judged = _judged_systems(human)
    seg_ids = np.sort(np.asarray(seg_ids))
    scores = {}
    if len(judged) >= 3 and not comparisons.empty:
        scores = score_draws(comparisons, judged, resample_weights(len(seg_ids), draws, seed), seg_ids)
    return HumanDraws(judged, seg_ids, draws, seed, scores)


def write_human_draws(found: HumanDraws, path) -> None:
    """``found`` as a parquet table (human_score, draw, one column per system, in ``systems``' order,
    named by position: s0, s1 ...); the systems, segments, draws and seed in its metadata."""
    from mtmeta.io import write_parquet

    columns = [f"s{k}" for k in range(len(found.systems))]
    frames = [pd.DataFrame(values, columns=columns).assign(human_score=name, draw=np.arange(len(values)))
              for name, values in found.scores.items()]
    table = (pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns).assign(
        human_score=pd.Series(dtype=str), draw=pd.Series(dtype="int64")))[["human_score", "draw", *columns]]
    table.attrs = {"mtmeta_human_draws": json.dumps(
        {"systems": found.systems, "seg_ids": [int(seg) for seg in found.seg_ids], "draws": found.draws,
         "seed": found.seed})}
    write_parquet(table, path)


def read_human_draws(path) -> HumanDraws:
    """What :func:`write_human_draws` wrote; a file without its metadata is an error naming it."""
    table = pd.read_parquet(path)
    if "mtmeta_human_draws" not in table.attrs:
        raise ValueError(f"{path}: not a file of human-score draws (no mtmeta_human_draws metadata)")
    meta = json.loads(table.attrs["mtmeta_human_draws"])
    columns = [f"s{k}" for k in range(len(meta["systems"]))]
    scores = {name: rows.sort_values("draw")[columns].to_numpy(dtype=float)
              for name, rows in table.groupby("human_score", sort=False)}
    return HumanDraws(meta["systems"], np.asarray(meta["seg_ids"], dtype=np.int64), int(meta["draws"]),
                      int(meta["seed"]), scores)


def bootstrap_table(summary: dict, comparisons: pd.DataFrame, human: pd.DataFrame,
                    seg_tables: dict[str, pd.DataFrame], metric_objects: dict[str, Metric], draws: int = 1000,
                    seed: int = 12345, alpha: float = 0.05,
                    human_segments: pd.DataFrame | None = None,
                    shared_draws: HumanDraws | None = None) -> pd.DataFrame:
    """One row per metric x human score: the observed correlations and their intervals
    (``interval_method``: ``bootstrap`` for the scores computed from judgments and for segment-level
    human scores (``human_segments``: an mt-metrics-eval set's MQM, DA ...; each system's score
    re-aggregated as the mean of its resampled rated segments), ``fisher-z`` for the official score
    and for a human score known at system level only, whose interval covers Pearson only).
    ``shared_draws``: the judgments' human-score draws computed before (:func:`human_draws`), used
    when they are those of these systems, segments, draws and seed, else computed here."""
    rows = []
    if not comparisons.empty:
        rows += _bootstrap_rows(summary, comparisons, human, seg_tables, metric_objects, draws, seed, alpha,
                                shared_draws)
    if OFFICIAL in human and human[OFFICIAL].notna().any():
        rows += _fisher_rows(summary, human, seg_tables, metric_objects, alpha)
    for name in summary.get("human_scores", []) if summary.get("kind") == "mtme" else []:
        if human_segments is not None and name in human_segments:
            rows += _segment_score_rows(summary, human, human_segments, name, seg_tables, metric_objects, draws,
                                        seed, alpha)
        else:
            rows += _fisher_rows(summary, human, seg_tables, metric_objects, alpha, name)
    return pd.DataFrame(rows, columns=BOOTSTRAP_COLUMNS)


def _system_statistics(metric_id: str, table: pd.DataFrame, systems: list[str]) -> dict[str, np.ndarray]:
    """Each of ``systems``' segment statistics (in seg_id order) from a metric's segment table; a
    system without statistics is an error."""
    columns = stat_columns(table)
    per_system = {s: rows.sort_values("seg_id")[columns].to_numpy()
                  for s, rows in table[table["system"].isin(systems)].groupby("system")}
    missing = sorted(set(systems) - set(per_system))
    if missing:
        raise ValueError(f"{metric_id}: no statistics for judged systems {missing}")
    return per_system


def _fisher_rows(summary: dict, human: pd.DataFrame, seg_tables: dict[str, pd.DataFrame],
                 metric_objects: dict[str, Metric], alpha: float, name: str = OFFICIAL) -> list[dict]:
    official = human.dropna(subset=[name]).set_index("system")[name]
    rows = []
    for metric_id, table in seg_tables.items():
        metric = metric_objects[metric_id]
        sign = 1.0 if metric.higher_is_better else -1.0
        per_system = _system_statistics(metric_id, table, list(official.index))
        observed = np.array([metric.corpus_score(per_system[s]) for s in official.index])
        point = correlations(sign * observed, official.to_numpy(dtype=float))
        low, high = fisher_z_interval(point["pearson"], len(official), alpha)
        rows.append({"dataset": summary["dataset"], "lp": summary["lp"], "metric": metric_id, "human_score": name,
                     "n_systems": len(official), "pearson": point["pearson"], "spearman": point["spearman"],
                     "kendall": point["kendall"], "draws": 0, "pearson_low": low, "pearson_high": high,
                     "pearson_undefined_draws": 0, "spearman_low": np.nan, "spearman_high": np.nan,
                     "spearman_undefined_draws": 0, "kendall_low": np.nan, "kendall_high": np.nan,
                     "kendall_undefined_draws": 0, "seed": "", "confidence": 1 - alpha,
                     "interval_method": "fisher-z"})
    return rows


def _bootstrap_rows(summary: dict, comparisons: pd.DataFrame, human: pd.DataFrame,
                    seg_tables: dict[str, pd.DataFrame], metric_objects: dict[str, Metric], draws: int,
                    seed: int, alpha: float, shared: HumanDraws | None = None) -> list[dict]:
    judged = _judged_systems(human)
    if len(judged) < 3:
        return _too_few_rows(summary, judged, seg_tables, SCORE_COLUMNS, seed, alpha)
    weights = _weights(seg_tables, draws, seed)
    seg_ids = _seg_ids(seg_tables)
    if shared is not None and shared.fits(judged, seg_ids, draws, seed):
        resampled = shared.scores
    else:
        if shared is not None:  # the same values, computed here: slower, never different
            log.warning("%s %s: the shared human-score draws are not those of %d judged systems, %d segments, "
                        "%d draws, seed %d; computing them here", summary["dataset"], summary["lp"], len(judged),
                        len(seg_ids), draws, seed)
        resampled = score_draws(comparisons, judged, weights, seg_ids)
    observed_human = human.set_index("system").loc[judged]
    return _resampled_rows(summary, seg_tables, metric_objects, judged, weights,
                           {score: (observed_human[score].to_numpy(dtype=float), resampled[score])
                            for score in SCORE_COLUMNS}, seed, alpha)


def _judged_systems(human: pd.DataFrame) -> list[str]:
    """The systems with a score computed from judgments, sorted: the bootstrap's systems."""
    return sorted(set(human.dropna(subset=["gt_others"])["system"]))


def _too_few_rows(summary: dict, judged: list[str], seg_tables: dict[str, pd.DataFrame], scores: list[str],
                  seed: int, alpha: float) -> list[dict]:
    """Fewer than three judged systems: no correlation to resample; each row says why, the pair named."""
    reason = (f"undefined: {summary['dataset']} {summary['lp']} has {len(judged)} system(s) with a human score "
              f"({', '.join(judged) or 'none'}); a correlation needs at least 3")
    return [_undefined_row(summary, metric_id, score, len(judged), reason, seed, alpha)
            for metric_id in seg_tables for score in scores]


def _undefined_row(summary: dict, metric_id: str, score: str, n_systems: int, reason: str, seed: int,
                   alpha: float) -> dict:
    """A row without values: ``interval_method`` says why (the reason starts with "undefined: ")."""
    nan = float("nan")
    return {"dataset": summary["dataset"], "lp": summary["lp"], "metric": metric_id, "human_score": score,
            "n_systems": n_systems, "pearson": nan, "spearman": nan, "kendall": nan, "draws": 0, "pearson_low": nan,
            "pearson_high": nan, "pearson_undefined_draws": 0, "spearman_low": nan, "spearman_high": nan,
            "spearman_undefined_draws": 0, "kendall_low": nan, "kendall_high": nan, "kendall_undefined_draws": 0,
            "seed": seed, "confidence": 1 - alpha, "interval_method": reason}


def _segment_score_rows(summary: dict, human: pd.DataFrame, human_segments: pd.DataFrame, name: str,
                        seg_tables: dict[str, pd.DataFrame], metric_objects: dict[str, Metric], draws: int,
                        seed: int, alpha: float) -> list[dict]:
    """Segments resampled; each draw re-aggregates the metric (from its statistics, over all segments)
    and the human score (each system's mean over its resampled rated segments); the point values are
    the study's (the human system scores as the set gives them)."""
    observed_human = human.dropna(subset=[name]).set_index("system")[name]
    judged = sorted(observed_human.index)
    if len(judged) < 3:
        return _too_few_rows(summary, judged, seg_tables, [name], seed, alpha)
    weights = _weights(seg_tables, draws, seed)
    grid = human_segments.pivot(index="system", columns="seg_id", values=name).reindex(
        index=judged, columns=_seg_ids(seg_tables))
    human_draws = system_means(grid.to_numpy(dtype=float), weights)
    return _resampled_rows(summary, seg_tables, metric_objects, judged, weights,
                           {name: (observed_human.loc[judged].to_numpy(dtype=float), human_draws)}, seed, alpha)


def _seg_ids(seg_tables: dict[str, pd.DataFrame]) -> np.ndarray:
    return np.sort(next(iter(seg_tables.values()))["seg_id"].unique())


def _weights(seg_tables: dict[str, pd.DataFrame], draws: int, seed: int) -> np.ndarray:
    """The segment weights of every draw (the same for every metric and human score of a pair)."""
    return resample_weights(len(_seg_ids(seg_tables)), draws, seed)


def _resampled_rows(summary: dict, seg_tables: dict[str, pd.DataFrame], metric_objects: dict[str, Metric],
                    judged: list[str], weights: np.ndarray, humans: dict[str, tuple[np.ndarray, np.ndarray]],
                    seed: int, alpha: float) -> list[dict]:
    """One row per metric x human score: the point correlations and the percentile intervals over the
    draws, each metric re-aggregated from its statistics with each draw's weights (``humans``: per
    human score, the observed system scores and their draws)."""
    rows = []
    for metric_id, table in seg_tables.items():
        metric = metric_objects[metric_id]
        sign = 1.0 if metric.higher_is_better else -1.0
        per_system = _system_statistics(metric_id, table, judged)
        observed = np.array([metric.corpus_score(per_system[s]) for s in judged])
        metric_draws = np.column_stack([metric.corpus_scores_weighted(per_system[s], weights) for s in judged])
        for score, (observed_human, human_draws) in humans.items():
            point = correlations(sign * observed, observed_human)
            intervals = bootstrap_intervals(sign * metric_draws, human_draws, alpha)
            rows.append({"dataset": summary["dataset"], "lp": summary["lp"], "metric": metric_id, "human_score": score,
                         "n_systems": len(judged), "pearson": point["pearson"], "spearman": point["spearman"],
                         "kendall": point["kendall"], **intervals, "seed": seed, "confidence": 1 - alpha,
                         "interval_method": "bootstrap"})
    return rows
