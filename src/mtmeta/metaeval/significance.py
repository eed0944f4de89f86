"""Significance of differences between metrics' system-level correlations.

- :func:`williams_table` and :func:`clusters`: every ordered pair of metrics compared by Williams'
  test on system-level Pearson, and WMT-style groups of metrics not significantly worse.
- :func:`correlation_rows`: Pearson of several variants and Meng's test of each against a baseline.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mtmeta.stats.dependent import meng_test, williams_test


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


def ranks_table(summary: dict, pairs: pd.DataFrame, level: float) -> pd.DataFrame:
    """WMT-style ranks (:func:`clusters`) of the metrics in a :func:`williams_table`."""
    pearson = dict(zip(pairs["metric_1"], pairs["r_1"], strict=False))
    p_values = {(a, b): p for a, b, p in zip(pairs["metric_1"], pairs["metric_2"], pairs["p_one_sided"], strict=True)}
    ranks = clusters(pearson, p_values, level)
    return pd.DataFrame({"dataset": summary["dataset"], "lp": summary["lp"], "metric": list(ranks),
                         "pearson": [pearson[m] for m in ranks], "rank": list(ranks.values()),
                         "human_score": pairs["human_score"].iloc[0] if len(pairs) else "",
                         "test": f"williams|one-sided|level:{level}"})
