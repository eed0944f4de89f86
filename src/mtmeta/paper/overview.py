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
    return table.rename(columns={"rank": "williams_rank"})


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


def compact_pairs(items: list[str]) -> str:
    """Dataset/lp columns named compactly: "wmt14 en-cs, en-de" for one dataset's pairs."""
    by_dataset: dict[str, list[str]] = {}
    for item in items:
        dataset, _, lp = item.partition(" ")
        by_dataset.setdefault(dataset, []).append(lp)
    return "; ".join(f"{dataset} {', '.join(lps)}" for dataset, lps in by_dataset.items())


def left_out_note(table: pd.DataFrame, kept_metrics: list[str], kept_columns: list[str], missing: str) -> str:
    """What a table or heatmap of one value leaves out and why: the columns (``table``'s "dataset lp")
    not in ``kept_columns``, and the metrics not in ``kept_metrics`` (they have no value on the pairs
    they are scored on; named with those pairs). ``missing`` says what such a pair lacks
    (``LEVELS``)."""
    parts = []
    table = table.assign(column=table["dataset"] + " " + table["lp"])
    columns = [c for c in dict.fromkeys(table["column"]) if c not in kept_columns]
    if columns:
        parts.append(f"columns left out ({missing}): {compact_pairs(columns)}")
    by_pairs: dict[tuple[str, ...], list[str]] = {}
    for metric, rows in table.groupby("metric", sort=False):
        if metric not in kept_metrics:
            by_pairs.setdefault(tuple(dict.fromkeys(rows["column"])), []).append(metric)
    for pairs, metrics in by_pairs.items():
        named = compact_pairs(list(pairs))
        if set(pairs) <= set(columns):
            parts.append(f"rows left out: {', '.join(metrics)} (scored on {named} only: {missing} there)")
        else:
            parts.append(f"rows left out: {', '.join(metrics)} (no value on the pairs scored: {named})")
    return "; ".join(parts)


def overview_markdown(table: pd.DataFrame, value: str, title: str) -> str:
    """Metrics (rows) x dataset/lp (columns); cells "value (rank)", rank 1 in bold. Columns and rows
    without a value are left out, and a line under the table names them and says why."""
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
    lines = [f"**{title}**", "", "| metric | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for metric, row in wide.iterrows():
        lines.append(f"| {metric} | " + " | ".join(row[c] for c in columns) + " |")
    note = left_out_note(table, metrics, columns, LEVELS.get(value, "no value"))
    return "\n".join(lines) + "\n" + (f"\n{note[0].upper()}{note[1:]}.\n" if note else "")


def overview_report(table: pd.DataFrame) -> str:
    """The overview's Markdown: system-level Pearson with Williams groups, then segment-level tau."""
    return (overview_markdown(table, "pearson", "System-level Pearson with \"> others\" "
                              "(for pairs without judgments, WMT14 out of English: with the official human "
                              "score; bold: the top Williams group, one-sided p <= 0.05 starts a new group; "
                              "otherwise the group number; 95% intervals are in the TSV)")
            + "\n"
            + overview_markdown(table.drop(columns="williams_rank"), "segment_tau",
                                "Segment-level Kendall tau (each year's WMT variant; on the evaluator set, "
                                "tau_wmt14; its three-way accuracy is in the TSV)"))
