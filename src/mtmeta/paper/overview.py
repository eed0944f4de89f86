"""The metric overview (seed 003): every metric x every dataset and language pair."""

from __future__ import annotations

import math

import pandas as pd


def overview_table(system_level: pd.DataFrame, segment_level: pd.DataFrame, ranks: pd.DataFrame,
                     tau_variant: dict[str, str], bootstrap: pd.DataFrame | None = None) -> pd.DataFrame:
    """Pearson and Spearman with > others (with their intervals; for a pair without judgments, with
    its official human score), the segment-level tau of each year's variant, and the Williams rank groups."""
    sys_part = primary_rows(system_level)[
        ["dataset", "lp", "metric", "human_score", "n_systems", "pearson", "pearson_p", "spearman", "spearman_p"]]
    if bootstrap is not None:
        intervals = bootstrap[["dataset", "lp", "metric", "human_score", "pearson_low", "pearson_high",
                               "spearman_low", "spearman_high", "draws", "interval_method"]]
        sys_part = sys_part.merge(intervals.rename(columns={"draws": "bootstrap_draws"}),
                                  on=["dataset", "lp", "metric", "human_score"], how="left")
    seg = segment_level.copy()
    seg["tau_variant"] = seg["dataset"].map(tau_variant).fillna("wmt14")
    seg["segment_tau"] = [row[f"tau_{row['tau_variant']}"] for _, row in seg.iterrows()]
    seg_part = seg[["dataset", "lp", "metric", "n_comparisons", "tau_variant", "segment_tau",
                    "three_way_accuracy"]]
    table = sys_part.merge(seg_part, on=["dataset", "lp", "metric"], how="outer")
    table = table.merge(ranks[["dataset", "lp", "metric", "rank"]], on=["dataset", "lp", "metric"], how="left")
    return in_study_order(table, [sys_part, seg_part]).rename(columns={"rank": "williams_rank"})


def in_study_order(table: pd.DataFrame, parts: list[pd.DataFrame]) -> pd.DataFrame:
    """``table``'s rows in the order of ``parts``: pairs and metrics as they first appear there (the
    study's order, system-level pairs first), not sorted by name as an outer merge sorts them (which
    put the evaluator set's segment-only rows, their system-level cells empty, at the top)."""
    pairs: dict[tuple[str, str], int] = {}
    metrics: dict[str, int] = {}
    for part in parts:
        for pair in zip(part["dataset"], part["lp"], strict=True):
            pairs.setdefault(pair, len(pairs))
        for metric in part["metric"]:
            metrics.setdefault(metric, len(metrics))
    key = pd.DataFrame({"pair": [pairs[p] for p in zip(table["dataset"], table["lp"], strict=True)],
                        "metric": table["metric"].map(metrics)}, index=table.index)
    return table.loc[key.sort_values(["pair", "metric"], kind="stable").index].reset_index(drop=True)


def primary_rows(system_level: pd.DataFrame) -> pd.DataFrame:
    """Each pair's rows with its primary human score: "> others"; for a pair without judgments the
    official score; for an mt-metrics-eval set its primary score (MQM), the first of its rows."""
    def primary(scores: pd.Series) -> str:
        for name in ("gt_others", "official"):
            if (scores == name).any():
                return name
        return scores.iloc[0]

    chosen = system_level.groupby(["dataset", "lp"], sort=False)["human_score"].transform(primary)
    return system_level[system_level["human_score"] == chosen]


# What a pair lacks where a metric has no value of each level (the overview says so when it leaves
# a pair or a metric out): the evaluator set has no system-level human score, and WMT14's
# out-of-English pairs have official system scores but no segment-level judgments.
LEVELS = {"pearson": "no system-level human score", "segment_tau": "no segment-level judgments"}
# The human scores computed from the WMT relative rankings (pairwise judgments of segments), and the
# official score a dataset reads; any other primary score is an mt-metrics-eval set's (MQM, DA).
RANKING_SCORES = ("gt_others", "ge_others", "expected_wins")
OFFICIAL = "official"
SIGNAL_NAMES = {"gt_others": "> others", "ge_others": "≥ others", "expected_wins": "expected wins",
                OFFICIAL: "the official score", "mqm": "MQM"}


def signal_name(human_score: str) -> str:
    """A human score as a title names it ("> others", "MQM")."""
    return SIGNAL_NAMES.get(human_score, human_score)


def column_signals(table: pd.DataFrame) -> dict[str, str | None]:
    """Each "dataset lp" column's primary human score (the table's ``human_score``), None where the
    pair has no system-level human score (the evaluator set)."""
    signals: dict[str, str | None] = {}
    for dataset, lp, score in zip(table["dataset"], table["lp"], table.get("human_score", [None] * len(table)),
                                  strict=True):
        column = f"{dataset} {lp}"
        if isinstance(score, str) and score:
            signals[column] = score
        else:
            signals.setdefault(column, None)
    return signals


def is_mtme_signal(human_score: str | None) -> bool:
    """Whether a primary human score is an mt-metrics-eval set's (MQM, DA), not one of the scores
    of the relative rankings or an official score."""
    return bool(human_score) and human_score not in RANKING_SCORES and human_score != OFFICIAL


def missing_reason(value: str, human_score: str | None) -> str:
    """Why a pair with primary human score ``human_score`` has no ``value`` (``LEVELS``): an MQM
    set's segment level is not a relative-ranking tau; its segment-level agreement is in the MQM
    tables."""
    if value == "segment_tau" and is_mtme_signal(human_score):
        return (f"{signal_name(human_score)} is segment-level, but not pairwise rankings: its segment-level "
                "agreement is in the MQM tables")
    return LEVELS.get(value, "no value")


def compact_columns(columns: list[str], all_columns: list[str]) -> str:
    """Columns named compactly: a dataset whose every column is in ``columns`` by its name alone
    ("wmt21"), the others as "wmt14 en-cs, en-de"."""
    by_dataset: dict[str, list[str]] = {}
    for item in all_columns:
        by_dataset.setdefault(item.partition(" ")[0], []).append(item)
    whole = [d for d, items in by_dataset.items() if set(items) <= set(columns)]
    rest = [c for c in columns if c.partition(" ")[0] not in whole]
    return "; ".join([*(whole and [", ".join(whole)]), *([compact_pairs(rest)] if rest else [])])


def signals_text(table: pd.DataFrame, columns: list[str]) -> str:
    """Which human score each of ``columns`` uses, grouped: "> others on wmt12, wmt13; MQM on wmt21"."""
    signals = column_signals(table)
    all_columns = list(signals)
    groups: dict[str, list[str]] = {}
    for column in columns:
        groups.setdefault(signals.get(column) or "none", []).append(column)
    if len(groups) == 1:
        return signal_name(next(iter(groups)))
    return "; ".join(f"{signal_name(score)} on {compact_columns(cols, all_columns)}" for score, cols in groups.items())


def panel_title(table: pd.DataFrame, value: str, columns: list[str]) -> str:
    """The title of the overview's panel (and Markdown table) of ``value``, naming the human signal
    each of its ``columns`` is compared with."""
    if value == "pearson":
        return f"System-level Pearson with the human score of each pair: {signals_text(table, columns)}"
    return ("Segment-level Kendall tau with pairwise human rankings of segments (the WMT12-14 relative "
            "rankings, each year's WMT variant; the evaluator set's judgments, tau_wmt14)")


def compact_pairs(items: list[str]) -> str:
    """Dataset/lp columns named compactly: "wmt14 en-cs, en-de" for one dataset's pairs."""
    by_dataset: dict[str, list[str]] = {}
    for item in items:
        dataset, _, lp = item.partition(" ")
        by_dataset.setdefault(dataset, []).append(lp)
    return "; ".join(f"{dataset} {', '.join(lps)}" for dataset, lps in by_dataset.items())


def left_out_note(table: pd.DataFrame, kept_metrics: list[str], kept_columns: list[str], value: str) -> str:
    """What a table or heatmap of ``value`` leaves out and why: the columns (``table``'s "dataset lp")
    not in ``kept_columns``, grouped by what such a pair lacks (:func:`missing_reason`), and the
    metrics not in ``kept_metrics`` (they have no value on the pairs they are scored on; named with
    those pairs)."""
    parts = []
    signals = column_signals(table)
    table = table.assign(column=table["dataset"] + " " + table["lp"])
    columns = [c for c in dict.fromkeys(table["column"]) if c not in kept_columns]
    by_reason: dict[str, list[str]] = {}
    for column in columns:
        by_reason.setdefault(missing_reason(value, signals.get(column)), []).append(column)
    for reason, group in by_reason.items():
        parts.append(f"columns left out ({reason}): {compact_pairs(group)}")
    by_pairs: dict[tuple[str, ...], list[str]] = {}
    for metric, rows in table.groupby("metric", sort=False):
        if metric not in kept_metrics:
            by_pairs.setdefault(tuple(dict.fromkeys(rows["column"])), []).append(metric)
    for pairs, metrics in by_pairs.items():
        named = compact_pairs(list(pairs))
        if set(pairs) <= set(columns):
            reasons = "; ".join(dict.fromkeys(missing_reason(value, signals.get(p)) for p in pairs))
            parts.append(f"rows left out: {', '.join(metrics)} (scored on {named} only: {reasons} there)")
        else:
            parts.append(f"rows left out: {', '.join(metrics)} (no value on the pairs scored: {named})")
    return "; ".join(parts)


def overview_markdown(table: pd.DataFrame, value: str, title: str) -> str:
    """Metrics (rows) x dataset/lp (columns); cells "value (rank)", rank 1 in bold. Columns and rows
    without a value are left out, and a line under the table names them and says why. ``title`` may
    hold "{signals}": the human scores of the columns shown (:func:`panel_title`)."""
    table = table.copy()
    table["column"] = table["dataset"] + " " + table["lp"]

    def cell(row) -> str:
        v = row[value]
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return ""
        text = f"{v:.3f}"
        rank = row.get("williams_rank")
        if rank is not None and not (isinstance(rank, float) and math.isnan(rank)):
            text = f"**{text}**" if int(rank) == 1 else f"{text} ({int(rank)})"
        return text

    table["cell"] = table.apply(cell, axis=1)
    wide = table.pivot(index="metric", columns="column", values="cell").fillna("")
    # Columns in the table's order, without those this value leaves empty (e.g. no system level).
    columns = [c for c in dict.fromkeys(table["column"]) if (wide[c] != "").any()]
    metrics = [m for m in wide.index if (wide.loc[m] != "").any()]
    wide = wide.loc[metrics, columns]
    title = title.replace("{signals}", signals_text(table, columns))
    lines = [f"**{title}**", "", "| metric | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for metric, row in wide.iterrows():
        lines.append(f"| {metric} | " + " | ".join(row[c] for c in columns) + " |")
    note = left_out_note(table, metrics, columns, value)
    return "\n".join(lines) + "\n" + (f"\n{note[0].upper()}{note[1:]}.\n" if note else "")


def overview_report(table: pd.DataFrame) -> str:
    """The overview's Markdown: system-level Pearson with Williams groups, then segment-level tau."""
    return (overview_markdown(table, "pearson", "System-level Pearson with the human score of each pair: {signals} "
                              "(bold: the top Williams group, one-sided p <= 0.05 starts a new group; "
                              "otherwise the group number; 95% intervals are in the TSV)")
            + "\n"
            + overview_markdown(table.drop(columns="williams_rank"), "segment_tau",
                                panel_title(table, "segment_tau", []) + "; on the evaluator set its three-way "
                                "accuracy is in the TSV"))
