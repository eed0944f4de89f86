"""Confidence intervals of system-level correlations: the bootstrap, from segment resampling that
re-aggregates both the metric (from its statistics) and the human scores; and, for an official human
score (read, not computed from judgments, so it cannot be re-aggregated), Fisher's z interval."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mtmeta.metrics.base import Metric
from mtmeta.metrics.scoring import stat_columns
from mtmeta.stats.correlation import bootstrap_intervals, correlations, fisher_z_interval, resample_weights
from mtmeta.stats.human import OFFICIAL, SCORE_COLUMNS, score_draws


def bootstrap_table(summary: dict, comparisons: pd.DataFrame, human: pd.DataFrame,
                    seg_tables: dict[str, pd.DataFrame], metric_objects: dict[str, Metric], draws: int = 1000,
                    seed: int = 12345, alpha: float = 0.05) -> pd.DataFrame:
    """One row per metric x human score: the observed correlations and their intervals
    (``interval_method``: ``bootstrap`` for the scores computed from judgments, ``fisher-z`` for the
    official score, whose interval covers Pearson only)."""
    rows = []
    if not comparisons.empty:
        rows += _bootstrap_rows(summary, comparisons, human, seg_tables, metric_objects, draws, seed, alpha)
    if OFFICIAL in human and human[OFFICIAL].notna().any():
        rows += _fisher_rows(summary, human, seg_tables, metric_objects, alpha)
    return pd.DataFrame(rows)


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
                 metric_objects: dict[str, Metric], alpha: float) -> list[dict]:
    official = human.dropna(subset=[OFFICIAL]).set_index("system")[OFFICIAL]
    rows = []
    for metric_id, table in seg_tables.items():
        metric = metric_objects[metric_id]
        sign = 1.0 if metric.higher_is_better else -1.0
        per_system = _system_statistics(metric_id, table, list(official.index))
        observed = np.array([metric.corpus_score(per_system[s]) for s in official.index])
        point = correlations(sign * observed, official.to_numpy(dtype=float))
        low, high = fisher_z_interval(point["pearson"], len(official), alpha)
        rows.append({"dataset": summary["dataset"], "lp": summary["lp"], "metric": metric_id, "human_score": OFFICIAL,
                     "n_systems": len(official), "pearson": point["pearson"], "spearman": point["spearman"],
                     "kendall": point["kendall"], "draws": 0, "pearson_low": low, "pearson_high": high,
                     "pearson_undefined_draws": 0, "spearman_low": np.nan, "spearman_high": np.nan,
                     "spearman_undefined_draws": 0, "kendall_low": np.nan, "kendall_high": np.nan,
                     "kendall_undefined_draws": 0, "seed": "", "confidence": 1 - alpha,
                     "interval_method": "fisher-z"})
    return rows


def _bootstrap_rows(summary: dict, comparisons: pd.DataFrame, human: pd.DataFrame,
                    seg_tables: dict[str, pd.DataFrame], metric_objects: dict[str, Metric], draws: int,
                    seed: int, alpha: float) -> list[dict]:
    judged = sorted(set(human.dropna(subset=["gt_others"])["system"]))
    if len(judged) < 2:
        raise ValueError(f"{summary['dataset']} {summary['lp']}: {len(judged)} system(s) with a human score "
                         f"({', '.join(judged) or 'none'}); a bootstrap of system-level correlations needs systems "
                         "with human scores (an evaluator-kind pair has items, not systems: segment level only)")
    seg_ids = np.sort(next(iter(seg_tables.values()))["seg_id"].unique())
    weights = resample_weights(len(seg_ids), draws, seed)
    human_draws = score_draws(comparisons, judged, weights, seg_ids)
    observed_human = human.set_index("system").loc[judged]
    rows = []
    for metric_id, table in seg_tables.items():
        metric = metric_objects[metric_id]
        sign = 1.0 if metric.higher_is_better else -1.0
        per_system = _system_statistics(metric_id, table, judged)
        observed = np.array([metric.corpus_score(per_system[s]) for s in judged])
        metric_draws = np.column_stack([metric.corpus_scores_weighted(per_system[s], weights) for s in judged])
        for score in SCORE_COLUMNS:
            point = correlations(sign * observed, observed_human[score].to_numpy(dtype=float))
            intervals = bootstrap_intervals(sign * metric_draws, human_draws[score], alpha)
            rows.append({"dataset": summary["dataset"], "lp": summary["lp"], "metric": metric_id, "human_score": score,
                         "n_systems": len(judged), "pearson": point["pearson"], "spearman": point["spearman"],
                         "kendall": point["kendall"], **intervals, "seed": seed, "confidence": 1 - alpha,
                         "interval_method": "bootstrap"})
    return rows
