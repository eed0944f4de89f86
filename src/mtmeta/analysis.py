"""Meta-evaluation of one dataset x language pair across metrics (tables in, tables out; no files).

- :func:`bootstrap_table`: confidence intervals of each metric's system-level correlations, from
  segment resampling that re-aggregates both the metric (from its statistics) and the human scores.
- :func:`williams_table` and :func:`clusters`: every ordered pair of metrics compared by Williams'
  test on system-level Pearson, and WMT-style groups of metrics not significantly worse.
- :func:`correlation_rows`: Pearson of several variants and Meng's test of each against a baseline.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mtmeta.metrics.base import Metric
from mtmeta.stats.correlation import bootstrap_intervals, correlations, resample_weights
from mtmeta.stats.dependent import meng_test, williams_test
from mtmeta.stats.human import SCORE_COLUMNS, score_draws


def _stat_columns(seg_table: pd.DataFrame) -> list[str]:
    return [c for c in seg_table.columns if c not in ("system", "seg_id", "score", "signature")]


def bootstrap_table(summary: dict, comparisons: pd.DataFrame, human: pd.DataFrame,
                    seg_tables: dict[str, pd.DataFrame], metric_objects: dict[str, Metric], draws: int = 1000,
                    seed: int = 12345, alpha: float = 0.05) -> pd.DataFrame:
    """One row per metric x human score: the observed correlations and their bootstrap intervals."""
    judged = sorted(set(human.dropna(subset=["gt_others"])["system"]))
    seg_ids = np.sort(next(iter(seg_tables.values()))["seg_id"].unique())
    weights = resample_weights(len(seg_ids), draws, seed)
    human_draws = score_draws(comparisons, judged, weights, seg_ids)
    observed_human = human.set_index("system").loc[judged]
    rows = []
    for metric_id, table in seg_tables.items():
        metric = metric_objects[metric_id]
        columns = _stat_columns(table)
        sign = 1.0 if metric.higher_is_better else -1.0
        per_system = {s: rows_.sort_values("seg_id")[columns].to_numpy()
                      for s, rows_ in table[table["system"].isin(judged)].groupby("system")}
        missing = sorted(set(judged) - set(per_system))
        if missing:
            raise ValueError(f"{metric_id}: no statistics for judged systems {missing}")
        observed = np.array([metric.corpus_score(per_system[s]) for s in judged])
        metric_draws = np.column_stack([metric.corpus_scores_weighted(per_system[s], weights) for s in judged])
        for score in SCORE_COLUMNS:
            point = correlations(sign * observed, observed_human[score].to_numpy(dtype=float))
            intervals = bootstrap_intervals(sign * metric_draws, human_draws[score], alpha)
            rows.append({"dataset": summary["dataset"], "lp": summary["lp"], "metric": metric_id, "human_score": score,
                         "n_systems": len(judged), "pearson": point["pearson"], "spearman": point["spearman"],
                         "kendall": point["kendall"], **intervals, "seed": seed, "confidence": 1 - alpha})
    return pd.DataFrame(rows)


def williams_table(summary: dict, human: pd.DataFrame, system_scores: dict[str, pd.DataFrame],
                   directions: dict[str, bool], human_score: str = "gt_others") -> pd.DataFrame:
    """Williams' test for every ordered pair of metrics (one-sided: the first correlates better)."""
    judged = human.dropna(subset=[human_score]).set_index("system")[human_score]
    frame = pd.DataFrame({m: t.set_index("system")["score"] * (1.0 if directions[m] else -1.0)
                          for m, t in system_scores.items()}).loc[judged.index]
    n = len(judged)
    r_human = {m: np.corrcoef(frame[m], judged)[0, 1] for m in frame}
    rows = []
    for m1 in frame:
        for m2 in frame:
            if m1 == m2:
                continue
            r23 = np.corrcoef(frame[m1], frame[m2])[0, 1]
            test = williams_test(r_human[m1], r_human[m2], r23, n)
            rows.append({"dataset": summary["dataset"], "lp": summary["lp"], "human_score": human_score,
                         "metric_1": m1, "metric_2": m2, "r_1": r_human[m1], "r_2": r_human[m2], "r_12": r23,
                         "n_systems": n, "t": test.statistic, "p_one_sided": test.p_one_sided})
    return pd.DataFrame(rows)


def clusters(pearson: dict[str, float], p_values: dict[tuple[str, str], float], level: float = 0.05) -> dict[str, int]:
    """WMT-style ranks (as mt-metrics-eval's AssignRanks): metrics sorted by correlation; a new rank
    starts at a metric that some metric of the current rank beats significantly (p <= level)."""
    order = sorted(pearson, key=lambda m: -pearson[m])
    ranks: dict[str, int] = {}
    current, members = 1, []
    for metric in order:
        if any(p_values[(better, metric)] <= level for better in members):
            current += 1
            members = []
        ranks[metric] = current
        members.append(metric)
    return ranks


def correlation_rows(human: pd.DataFrame, scores: dict[str, pd.DataFrame], baseline: str,
                     human_score: str = "gt_others") -> pd.DataFrame:
    """Pearson of each scored variant with the human system score, and Meng's test against ``baseline``
    (seed 002's comparison: a metric setting, or new references, against the baseline).

    ``scores``: variant name -> system table (system, score, signature); judged systems only count.
    """
    judged = human.dropna(subset=[human_score]).set_index("system")[human_score]
    frame = pd.DataFrame({name: table.set_index("system")["score"] for name, table in scores.items()})
    missing = sorted(set(judged.index) - set(frame.index))
    if missing:
        raise ValueError(f"judged systems without scores: {missing}")
    frame = frame.loc[judged.index]
    n = len(judged)
    r = {name: float(np.corrcoef(frame[name], judged)[0, 1]) for name in frame}
    rows = []
    for name in frame:
        row = {"variant": name, "n_systems": n, "pearson": r[name]}
        if name != baseline:
            test = meng_test(r[name], r[baseline], float(np.corrcoef(frame[name], frame[baseline])[0, 1]), n)
            row.update(meng_z=test.statistic, meng_p_two_sided=test.p_two_sided, meng_p_one_sided=test.p_one_sided)
        else:
            row.update(meng_z=math.nan, meng_p_two_sided=math.nan, meng_p_one_sided=math.nan)
        row["signature"] = scores[name]["signature"].iloc[0]
        rows.append(row)
    return pd.DataFrame(rows)
