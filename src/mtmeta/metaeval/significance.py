"""Significance of differences between metrics' system-level correlations.

- :func:`williams_table` and :func:`clusters`: every ordered pair of metrics compared by Williams'
  test on system-level Pearson, and WMT-style groups of metrics not significantly worse.
- :func:`correlation_rows`: Pearson of several variants and Meng's test of each against a baseline.

Degenerate data gets a value or a stated reason, never a silent number (the ``note`` columns): a pair
with fewer judged systems than a test needs is not tested, and says so with the pair named; a metric
whose Pearson is undefined (:func:`mtmeta.stats.correlation.undefined_reason`) is not tested and not
ranked, and is listed after every ranked metric; a metric whose system scores lack judged systems is
an error (:class:`mtmeta.errors.MissingSystemsError`), not a correlation over fewer systems. Every
Pearson here is :func:`mtmeta.stats.correlation.correlation`'s, the routine of every other table.
"""

from __future__ import annotations

import math

import pandas as pd

from mtmeta.errors import MissingSystemsError
from mtmeta.stats.correlation import correlation, undefined_reason
from mtmeta.stats.dependent import meng_test, williams_test

MIN_SYSTEMS = 4  # Williams' and Meng's tests have n - 3 degrees of freedom

WILLIAMS_COLUMNS = ["dataset", "lp", "human_score", "metric_1", "metric_2", "r_1", "r_2", "r_12", "n_systems", "t",
                    "p_one_sided", "note"]
RANKS_COLUMNS = ["dataset", "lp", "metric", "pearson", "rank", "human_score", "test", "note"]


def oriented_scores(summary: dict, human: pd.DataFrame, system_scores: dict[str, pd.DataFrame],
                    directions: dict[str, bool], human_score: str) -> tuple[pd.Series, pd.DataFrame]:
    """The judged systems' human scores and each metric's scores of them (columns; negated where lower
    is better). A metric without a score for some judged system is a :class:`MissingSystemsError`."""
    judged = human.dropna(subset=[human_score]).set_index("system")[human_score].astype(float)
    columns = {}
    for metric, table in system_scores.items():
        scores = table.set_index("system")["score"].astype(float)
        missing = set(judged.index) - set(scores.dropna().index)
        if missing:
            raise MissingSystemsError(f"{summary['dataset']} {summary['lp']}", metric, missing, len(judged))
        columns[metric] = scores.loc[judged.index] * (1.0 if directions[metric] else -1.0)
    return judged, pd.DataFrame(columns, index=judged.index)


def metric_pearsons(summary: dict, human: pd.DataFrame, system_scores: dict[str, pd.DataFrame],
                    directions: dict[str, bool], human_score: str = "gt_others") -> pd.DataFrame:
    """Each metric's system-level Pearson with ``human_score`` (metric, pearson, note: why it is
    undefined, empty when it is defined)."""
    return _pearson_rows(*oriented_scores(summary, human, system_scores, directions, human_score), human_score)


def _pearson_rows(judged: pd.Series, frame: pd.DataFrame, human_score: str) -> pd.DataFrame:
    rows = []
    for metric in frame:
        reason = undefined_reason(frame[metric].to_numpy(), judged.to_numpy())
        rows.append({"metric": metric, "pearson": correlation(frame[metric].to_numpy(), judged.to_numpy(), "pearson"),
                     "human_score": human_score, "n_systems": len(judged),
                     "note": f"Pearson undefined: {reason}" if reason else ""})
    return pd.DataFrame(rows, columns=["metric", "pearson", "human_score", "n_systems", "note"])


def williams_table(summary: dict, human: pd.DataFrame, system_scores: dict[str, pd.DataFrame],
                   directions: dict[str, bool], human_score: str = "gt_others") -> pd.DataFrame:
    """Williams' test for every ordered pair of metrics (one-sided: the first correlates better). A pair
    that cannot be tested (fewer than :data:`MIN_SYSTEMS` judged systems, an undefined Pearson, two
    metrics that agree exactly) has NaN t and p and says why in ``note``."""
    judged, frame = oriented_scores(summary, human, system_scores, directions, human_score)
    n = len(judged)
    pearsons = _pearson_rows(judged, frame, human_score).set_index("metric")
    # Plain lookups: a pair's row is built for every ordered pair of metrics of every language pair.
    r, notes = pearsons["pearson"].to_dict(), pearsons["note"].to_dict()
    scores = {metric: frame[metric].to_numpy() for metric in frame}
    pair = f"{summary['dataset']} {summary['lp']}"
    rows = []
    for m1 in frame:
        for m2 in frame:
            if m1 == m2:
                continue
            r1, r2 = r[m1], r[m2]
            r12 = correlation(scores[m1], scores[m2], "pearson")
            t = p = math.nan
            if n < MIN_SYSTEMS:
                note = f"not tested: Williams' test needs at least {MIN_SYSTEMS} judged systems; {pair} has {n}"
            elif notes[m1] or notes[m2]:
                note = "not tested: " + "; ".join(f"{m}: {notes[m]}" for m in (m1, m2) if notes[m])
            else:
                test = williams_test(r1, r2, r12, n)
                t, p = test.statistic, test.p_one_sided
                note = "" if math.isfinite(t) else f"not tested: {m1} and {m2} give the same ranking (r_12 = {r12:g})"
            rows.append({"dataset": summary["dataset"], "lp": summary["lp"], "human_score": human_score,
                         "metric_1": m1, "metric_2": m2, "r_1": r1, "r_2": r2, "r_12": r12, "n_systems": n, "t": t,
                         "p_one_sided": p, "note": note})
    return pd.DataFrame(rows, columns=WILLIAMS_COLUMNS)


def clusters(pearson: dict[str, float], p_values: dict[tuple[str, str], float], level: float = 0.05) -> dict[str, int]:
    """WMT-style ranks (as mt-metrics-eval's AssignRanks): metrics sorted by correlation; a new rank
    starts at a metric that some metric of the current rank beats significantly (p <= level). A
    metric whose correlation is NaN is left out (it has no rank, never the first)."""
    order = sorted((m for m in pearson if not math.isnan(pearson[m])), key=lambda m: -pearson[m])
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
    (seed 002's comparison: a metric setting, or new references, against the baseline); ``note`` says
    why a Pearson or a test is missing.

    ``scores``: variant name -> system table (system, score, signature); judged systems only count.
    """
    judged = human.dropna(subset=[human_score]).set_index("system")[human_score]
    frame = pd.DataFrame({name: table.set_index("system")["score"] for name, table in scores.items()})
    missing = sorted(set(judged.index) - set(frame.index))
    if missing:
        raise ValueError(f"judged systems without scores: {missing}")
    frame = frame.loc[judged.index]
    n = len(judged)
    human_values = judged.to_numpy(dtype=float)
    r = {name: correlation(frame[name].to_numpy(dtype=float), human_values, "pearson") for name in frame}
    reasons = {name: undefined_reason(frame[name].to_numpy(dtype=float), human_values) for name in frame}
    rows = []
    for name in frame:
        row = {"variant": name, "n_systems": n, "pearson": r[name], "meng_z": math.nan, "meng_p_two_sided": math.nan,
               "meng_p_one_sided": math.nan}
        notes = [f"Pearson undefined: {reasons[name]}"] if reasons[name] else []
        if name != baseline:
            if n < MIN_SYSTEMS:
                notes.append(f"Meng's test not run: it needs at least {MIN_SYSTEMS} judged systems; there are {n}")
            elif reasons[name] or reasons[baseline]:
                notes.append(f"Meng's test not run: {'this' if reasons[name] else 'the baseline'}'s Pearson is "
                             "undefined")
            else:
                r23 = correlation(frame[name].to_numpy(dtype=float), frame[baseline].to_numpy(dtype=float), "pearson")
                test = meng_test(r[name], r[baseline], r23, n)
                row.update(meng_z=test.statistic, meng_p_two_sided=test.p_two_sided, meng_p_one_sided=test.p_one_sided)
        row["signature"] = scores[name]["signature"].iloc[0]
        row["note"] = "; ".join(notes)
        rows.append(row)
    return pd.DataFrame(rows)


def ranks_table(summary: dict, pairs: pd.DataFrame, level: float, pearsons: pd.DataFrame | None = None) -> pd.DataFrame:
    """WMT-style ranks (:func:`clusters`) of the metrics in a :func:`williams_table`; ``pearsons``
    (:func:`metric_pearsons`) gives every metric's Pearson, which a study with one metric (no pairs)
    needs. A metric with an undefined Pearson, and every metric of a pair too small for Williams' test,
    has no rank (empty) and a note saying why; unranked metrics come after the ranked ones."""
    if pearsons is None:
        pearsons = pd.DataFrame({"metric": pairs["metric_1"], "pearson": pairs["r_1"],
                                 "human_score": pairs["human_score"], "n_systems": pairs["n_systems"],
                                 "note": ""}).drop_duplicates("metric")
    pearson = dict(zip(pearsons["metric"], pearsons["pearson"].astype(float), strict=True))
    notes = dict(zip(pearsons["metric"], pearsons["note"].fillna(""), strict=True))
    p_values = {(a, b): p for a, b, p in zip(pairs["metric_1"], pairs["metric_2"], pairs["p_one_sided"], strict=True)}
    human_score = pearsons["human_score"].iloc[0] if len(pearsons) else ""
    n = int(pearsons["n_systems"].iloc[0]) if len(pearsons) else 0
    pair = f"{summary['dataset']} {summary['lp']}"
    if len(pearson) > 1 and n < MIN_SYSTEMS:
        ranks: dict[str, int] = {}
        small = f"Williams' test needs at least {MIN_SYSTEMS} judged systems; {pair} has {n}"
        notes = {m: "not ranked: " + "; ".join(filter(None, (small, note))) for m, note in notes.items()}
    else:
        ranks = clusters(pearson, p_values, level)
        notes = {m: (f"not ranked: {note}" if m not in ranks else note) for m, note in notes.items()}
        if len(pearson) == 1:
            notes = {m: note or f"the only metric of {pair}: no Williams' test (it compares two metrics)"
                     for m, note in notes.items()}
    order = [*ranks, *(m for m in pearson if m not in ranks)]
    return pd.DataFrame({"dataset": summary["dataset"], "lp": summary["lp"], "metric": order,
                         "pearson": [pearson[m] for m in order],
                         "rank": pd.array([ranks.get(m) for m in order], dtype="Int64"),
                         "human_score": human_score, "test": f"williams|one-sided|level:{level}",
                         "note": [notes[m] for m in order]}, columns=RANKS_COLUMNS)
