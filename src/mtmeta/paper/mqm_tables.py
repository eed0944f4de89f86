"""The MQM tables: mt-metrics-eval's protocols on the MQM sets, what human translations do to each
metric, where metrics go blind (agreement with MQM restricted to one kind of error), and how the
2012-14 conclusions fare on MQM. Pure functions over the study's tables; the rule's script does I/O.
"""

from __future__ import annotations

import math

import pandas as pd

from mtmeta.io import markdown_table
from mtmeta.stats.ceiling import headroom_share

# The protocols of the summary table: (column, level, statistic, grouping, aggregation), all with the
# human translations left out (the WMT21 metrics task's primary setting).
SUMMARY_PROTOCOLS = [
    ("sys_pearson", "system", "pearson", "none", "corpus"),
    ("sys_pearson_mean", "system", "pearson", "none", "segment_mean"),
    ("sys_accuracy", "system", "accuracy", "none", "corpus"),
    ("soft_accuracy", "system", "soft_accuracy", "none", "segment_mean"),
    ("seg_kendall", "segment", "kendall", "none", "segment"),
    ("seg_acc_eq", "segment", "acc_eq", "item", "segment"),
]
# Which cluster ranks (results/significance/clusters.tsv) go beside which column.
CLUSTERED = {"sys_pearson": ("system", "pearson"), "sys_accuracy": ("system", "accuracy"),
             "seg_acc_eq": ("segment", "acc_eq")}
MIN_ITEMS = 30  # a restriction with fewer items (segments where it varies) is too thin to read
# The summary columns the human ceiling covers (metaeval.ceiling_levels' statistic of the same protocol).
CEILING = {"sys_pearson": "system_pearson", "sys_accuracy": "system_accuracy", "seg_kendall": "segment_kendall",
           "seg_acc_eq": "segment_acc_eq"}
FLOOR_TOLERANCE = 0.001  # an acc_eq this close to the every-pair-tied floor sits on it
TWO_RATERS = "one rater held out: mean of the other two"
ONE_RATER = "one rater vs mean of two"  # the human level's ``who`` in the ceiling tables
CROWD = "mqm, on the systems and segments DA covers"  # the gold of the DA-against-MQM rows
CROWD_HUMAN = "wmt-z"  # the DA variant whose value is the human level of the headroom share


def _primary(protocols: pd.DataFrame, summaries: dict) -> pd.DataFrame:
    """The rows with each pair's primary human score."""
    primary = protocols.apply(lambda r: summaries[(r["dataset"], r["lp"])]["human_scores"][0], axis=1)
    return protocols[protocols["human_score"] == primary]


def protocols_table(protocols: pd.DataFrame, clusters: pd.DataFrame, summaries: dict,
                    ceilings: pd.DataFrame | None = None, crowds: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per MQM set x metric: each summary protocol's value (human translations left out), its
    chance level (``<column>_chance``; acc_eq's with its standard error and the every-pair-tied
    floor) and, where the study ranks it, the metric's significance cluster. With ``ceilings``
    (:func:`mtmeta.metaeval.ceiling_levels.rater_levels` rows with a dataset column), each set that has
    several raters gets per metric a second row, against the two-rater means (gold
    :data:`TWO_RATERS`): the metric's value, its chance level, the human ceiling
    (``<column>_human``) and the share of the headroom it closes (``<column>_share``). With
    ``crowds`` (:func:`mtmeta.metaeval.crowd.crowd_levels` rows with a dataset column), a set with
    WMT's DA gets one row per DA variant (``human`` True: DA scored as a metric) and per metric a
    row against MQM on the systems and segments DA covers (gold :data:`CROWD`), the human level
    being DA's :data:`CROWD_HUMAN`."""
    table = _primary(protocols[protocols["dataset"].isin({d for d, _ in summaries})
                               & (protocols["human_translations"] == "excluded")], summaries)
    rows = []
    for (dataset, lp, metric), group in table.groupby(["dataset", "lp", "metric"], sort=False):
        row = {"dataset": dataset, "lp": lp, "metric": metric, "human_score": group["human_score"].iloc[0],
               "gold": group["human_score"].iloc[0], "reference": summaries[(dataset, lp)].get("reference", "")}
        for column, level, statistic, grouping, aggregation in SUMMARY_PROTOCOLS:
            hit = group[(group["level"] == level) & (group["statistic"] == statistic)
                        & (group["grouping"] == grouping) & (group["aggregation"] == aggregation)]
            row[column] = float(hit["value"].iloc[0]) if len(hit) else math.nan
            row[f"{column}_chance"] = float(hit["chance"].iloc[0]) if len(hit) and "chance" in hit else math.nan
            if column == "seg_acc_eq":
                for key in ("chance_se", "floor"):
                    row[f"{column}_{key}"] = float(hit[key].iloc[0]) if len(hit) and key in hit else math.nan
            if column in CLUSTERED:
                level_, statistic_ = CLUSTERED[column]
                rank = clusters[(clusters["dataset"] == dataset) & (clusters["lp"] == lp)
                                & (clusters["metric"] == metric) & (clusters["level"] == level_)
                                & (clusters["statistic"] == statistic_)]
                # no rank where the value is undefined (an empty cell of clusters.tsv)
                row[f"{column}_rank"] = (int(rank["rank"].iloc[0]) if len(rank) and pd.notna(rank["rank"].iloc[0])
                                         else math.nan)
        row["n_systems"] = int(group.loc[group["level"] == "system", "n_systems"].max())
        rows.append(row)
        if ceilings is not None:
            rows += _two_rater_rows(row, ceilings)
    if crowds is not None:
        rows = _with_crowd_rows(rows, crowds)
    return pd.DataFrame(rows)


def ranking_panels(protocols: pd.DataFrame, clusters: pd.DataFrame, global_accuracy: pd.DataFrame) -> list[dict]:
    """The panels of the ranking figure (:func:`mtmeta.paper.mqm_figures.ranking_figure`): the global
    pairwise accuracy with its interval, then each MQM set's system-level Pearson with its cluster
    and interval (MT systems; human translations left out)."""
    from mtmeta.paper.overview import signal_name

    panels = []
    if len(global_accuracy):
        intervals = [c for c in ("low", "high") if c in global_accuracy]
        panels.append({"title": "global pairwise accuracy with MQM, all MQM sets", "xlabel": "pairwise accuracy",
                       "table": global_accuracy[["metric", "value", "rank", *intervals]]})
    pearson = protocols[(protocols["level"] == "system") & (protocols["statistic"] == "pearson")
                        & (protocols["aggregation"] == "corpus") & (protocols["human_translations"] == "excluded")]
    ranked = clusters[(clusters["level"] == "system") & (clusters["statistic"] == "pearson")]
    for (dataset, lp), group in ranked.groupby(["dataset", "lp"], sort=False):
        if dataset not in set(protocols["dataset"]):
            continue
        intervals = pearson[(pearson["dataset"] == dataset) & (pearson["lp"] == lp)
                            & (pearson["human_score"] == group["human_score"].iloc[0])]
        rows = group.merge(intervals[["metric", "low", "high"]], on="metric", how="left")
        signal = signal_name(group["human_score"].iloc[0])
        panels.append({"title": f"{dataset} {lp}: system-level Pearson with {signal}",
                       "xlabel": "Pearson (MT systems)", "table": rows[["metric", "value", "rank", "low", "high"]]})
    return panels


def _two_rater_rows(row: dict, ceilings: pd.DataFrame) -> list[dict]:
    """The metric against the two-rater means beside the human ceiling, if the set has raters."""
    mine = ceilings[(ceilings["dataset"] == row["dataset"]) & (ceilings["lp"] == row["lp"])]
    if not (mine["who"] == row["metric"]).any():
        return []
    out = {key: row[key] for key in ("dataset", "lp", "metric", "human_score", "reference", "n_systems")}
    out["gold"] = TWO_RATERS
    return [_level_columns(out, row["metric"], mine, ONE_RATER)]


def _level_columns(out: dict, who: str, mine: pd.DataFrame, human_who: str) -> dict:
    """``out`` with, per summary column the levels table covers, ``who``'s value, its chance level,
    the human level (``human_who``'s value) and the share of the headroom ``who`` closes."""
    for column, statistic in CEILING.items():
        levels = mine[mine["statistic"] == statistic].set_index("who")
        if not len(levels):
            continue
        value = float(levels.at[who, "value"])
        level = float(levels.at[f"permuted {who}", "value"])
        human = float(levels.at[human_who, "value"])
        out.update({column: value, f"{column}_chance": level, f"{column}_human": human,
                    f"{column}_share": headroom_share(value, level, human)})
        # The intervals (bootstrap over the segments) where the levels table has them.
        for key, row_who, bound in ((column, who, "low"), (column, who, "high"),
                                    (f"{column}_chance", f"permuted {who}", "low"),
                                    (f"{column}_chance", f"permuted {who}", "high"),
                                    (f"{column}_human", human_who, "low"), (f"{column}_human", human_who, "high"),
                                    (f"{column}_share", who, "share_low"), (f"{column}_share", who, "share_high")):
            if bound in levels:
                out[f"{key}_{bound.removeprefix('share_')}"] = float(levels.at[row_who, bound])
        if column == "seg_acc_eq":
            out[f"{column}_chance_se"] = float(levels.at[f"permuted {who}", "standard_error"])
            if "every pair tied" in levels.index:
                out[f"{column}_floor"] = float(levels.at["every pair tied", "value"])
    return out


def _with_crowd_rows(rows: list[dict], crowds: pd.DataFrame) -> list[dict]:
    """``rows`` with, after each set's rows, its DA-against-MQM block: one row per DA variant
    (``human`` True), then each metric against MQM on the systems and segments DA covers."""
    out = []
    for index, row in enumerate(rows):
        out.append(row)
        last = index + 1 == len(rows) or (rows[index + 1]["dataset"], rows[index + 1]["lp"]) != (row["dataset"],
                                                                                                   row["lp"])
        mine = crowds[(crowds["dataset"] == row["dataset"]) & (crowds["lp"] == row["lp"])]
        if not last or not len(mine):
            continue
        first = mine.iloc[0]
        base = {key: row[key] for key in ("dataset", "lp", "human_score", "reference")}
        base.update(gold=CROWD, n_systems=int(first["systems"]), n_segments=int(first["segments"]),
                    left_out=first["left_out"] if isinstance(first["left_out"], str) else "")
        humans = list(dict.fromkeys(mine.loc[mine["level"] == "human", "who"]))
        metrics = list(dict.fromkeys(mine.loc[mine["level"] == "metric", "who"]))
        for who in humans:
            out.append(_level_columns({**base, "metric": who, "human": True}, who, mine, CROWD_HUMAN))
        for who in metrics:
            out.append(_level_columns({**base, "metric": who, "human": False}, who, mine, CROWD_HUMAN))
    return out


def protocols_markdown(table: pd.DataFrame, global_accuracy: pd.DataFrame | None) -> str:
    """One block per MQM set (metrics by system-level Pearson), then the global accuracy ranking."""
    lines = ["# mt-metrics-eval's protocols on the MQM sets", "",
             "Human translations left out; system scores as the study computes them (`corpus`), and as the mean of",
             "segment scores where marked; (n) = significance cluster (PERM-BOTH, or the pairwise permutation test",
             "for tie-calibrated acc_eq; 1 = top; results/significance/clusters.tsv). Every other protocol, the",
             "intervals and the rows with human translations: results/correlations/protocols.tsv.", "",
             "[c] = the chance level: the expected value of the metric's own scores permuted within the protocol's",
             "groups, the gold's ties kept (exact; for tie-calibrated acc_eq from seeded permutations, the",
             "calibration redone on each, ± its standard error). `floor` marks an acc_eq within "
             f"{FLOOR_TOLERANCE} of the value a", "metric tying every pair scores (the share of gold-tied pairs "
             "per item), which tie calibration can always reach.", ""]
    labels = {"sys_pearson": "sys Pearson", "sys_pearson_mean": "sys Pearson (mean of seg)",
              "sys_accuracy": "pairwise accuracy", "soft_accuracy": "soft pairwise acc.",
              "seg_kendall": "seg Kendall", "seg_acc_eq": "seg acc_eq (item, calibrated)"}
    for (dataset, lp), both in table.groupby(["dataset", "lp"], sort=False):
        two = both[both["gold"] == TWO_RATERS] if "gold" in both else both.iloc[0:0]
        crowd = both[both["gold"] == CROWD] if "gold" in both else both.iloc[0:0]
        group = both.drop(two.index).drop(crowd.index).sort_values("sys_pearson", ascending=False, kind="stable")
        first = group.iloc[0]
        lines += [f"## {dataset} {lp} ({first['human_score']}, reference {first['reference']}, "
                  f"{int(first['n_systems'])} MT systems)", "",
                  "| metric | " + " | ".join(labels.values()) + " |", "|---|" + "---:|" * len(labels)]
        for _, row in group.iterrows():
            cells = []
            for column in labels:
                value = row[column]
                text = "n/a" if pd.isna(value) else f"{value:.3f}"
                if column in CLUSTERED and not pd.isna(row.get(f"{column}_rank", math.nan)):
                    rank = int(row[f"{column}_rank"])
                    text = f"**{text}**" if rank == 1 else f"{text} ({rank})"
                cells.append(text + _chance_text(row, column))
            lines.append(f"| {row['metric']} | " + " | ".join(cells) + " |")
        lines.append("")
        if len(two):
            lines += _two_rater_markdown(two.sort_values("sys_pearson", ascending=False, kind="stable"), labels)
        if len(crowd):
            lines += _crowd_markdown(crowd, labels)
    if global_accuracy is not None and len(global_accuracy):
        pairs = global_accuracy["lp"].iloc[0].replace("+", ", ")
        lines += [f"## Global pairwise accuracy over {pairs}", "",
                  "System pairs pooled over the sets (Kocmi et al. 2021), the metrics scored on all of them; "
                  "(n) = cluster (PERM-BOTH)" + ("; 95% interval: systems resampled within each set." if
                                                 "low" in global_accuracy else "."), ""]
        with_interval = "low" in global_accuracy
        lines += (["| rank | metric | accuracy | 95% interval |", "|---:|---|---:|---:|"] if with_interval
                  else ["| rank | metric | accuracy |", "|---:|---|---:|"])
        for _, row in global_accuracy.iterrows():
            rank = "-" if pd.isna(row["rank"]) else int(row["rank"])  # "-": undefined, not ranked
            interval = f" [{row['low']:.3f}, {row['high']:.3f}] |" if with_interval else ""
            lines.append(f"| {rank} | {row['metric']} | {row['value']:.3f} |{interval}")
        lines.append("")
    return "\n".join(lines)


def _chance_text(row, column: str) -> str:
    """`` [c]`` after a value (`` [c ± se]`` for a permutation level) and ``floor`` where acc_eq sits on it."""
    level = row.get(f"{column}_chance", math.nan)
    if pd.isna(level):
        return ""
    se = row.get(f"{column}_chance_se", math.nan)
    text = f" [{level:.3f}" + (f" ± {se:.3f}]" if not pd.isna(se) and se > 0 else "]")
    floor = row.get(f"{column}_floor", math.nan)
    if not pd.isna(floor) and not pd.isna(row[column]) and abs(row[column] - floor) <= FLOOR_TOLERANCE:
        text += f" floor {floor:.3f}"
    return text


def _share_text(share: float, low: float = math.nan, high: float = math.nan) -> str:
    """`` 42%`` after a value (nothing where the share is undefined; a share that rounds to zero is 0%),
    with its interval `` (30–55%)`` where there is one."""
    if pd.isna(share):
        return ""
    return f" {round(share, 2) + 0.0:.0%}" + _interval_text(low, high, "{:.0%}")


def _interval_text(low: float, high: float, form: str = "{:.3f}") -> str:
    """`` (low–high)``, nothing where the interval is undefined."""
    if pd.isna(low) or pd.isna(high):
        return ""
    return f" ({form.format(round(low, 3) + 0.0)}–{form.format(round(high, 3) + 0.0)})"


def _metric_cell(row, column: str) -> str:
    """A metric's value [chance] and share of the headroom with its interval, in a levels block."""
    value = row[column]
    if pd.isna(value):
        return "n/a"
    return (f"{value:.3f}" + _chance_text(row, column)
            + _share_text(row.get(f"{column}_share", math.nan), row.get(f"{column}_share_low", math.nan),
                          row.get(f"{column}_share_high", math.nan)))


def _human_cell(row, column: str, key: str) -> str:
    """A human level in bold with its interval."""
    value = row.get(key, math.nan)
    if pd.isna(value):
        return "n/a"
    return f"**{value:.3f}**" + _interval_text(row.get(f"{key}_low", math.nan), row.get(f"{key}_high", math.nan))


def _two_rater_markdown(two: pd.DataFrame, labels: dict) -> list[str]:
    """Against a second human: one rater vs the mean of the other two (the ceiling), and each metric
    against the same two-rater means, with its chance level and the share of the headroom it closes."""
    columns = [c for c in CEILING if f"{c}_human" in two]
    first = two.iloc[0]
    lines = ["Against a second human: each segment's three raters, one held out (seeded rule, the three rotations "
             "averaged); the", "human row is the held-out rater against the mean of the other two, each metric is "
             "scored against the", "same means; value [c] and the share of the headroom it closes, (metric - c) / "
             "(human - c); (low–high): 95%", "percentile interval over bootstrap draws of the segments (the same draws "
             "for every row; none for seg Kendall, which is not grouped).", "",
             "| against the mean of two raters | " + " | ".join(labels[c] for c in columns) + " |",
             "|---|" + "---:|" * len(columns),
             "| **human: one rater** | " + " | ".join(_human_cell(first, c, f"{c}_human") for c in columns) + " |"]
    for _, row in two.iterrows():
        lines.append(f"| {row['metric']} | " + " | ".join(_metric_cell(row, c) for c in columns) + " |")
    return lines + [""]


def _crowd_markdown(crowd: pd.DataFrame, labels: dict) -> list[str]:
    """Against MQM with WMT's DA scored as a metric: the DA rows, then each metric on the same systems
    and segments, with its chance level and the share of the headroom up to DA's level it closes."""
    columns = [c for c in CEILING if f"{c}_human" in crowd]
    first = crowd.iloc[0]
    left_out = first.get("left_out", "")
    humans = crowd[crowd["human"].astype(bool)]
    metrics = crowd[~crowd["human"].astype(bool)].sort_values("sys_pearson", ascending=False, kind="stable")
    lines = [f"Crowd against experts: WMT's direct assessment (DA) scored as a metric against MQM (as Freitag et al. "
             f"2021), on the {int(first['n_systems'])} MT systems with both",
             ("" if not isinstance(left_out, str) or not left_out else f"(left out, MQM without DA: {left_out}) ")
             + f"and, at segment level, the {int(first['n_segments'])} segments with both (only the cells with both);",
             "each metric is scored on the same systems and cells. `wmt-z`: each judge's scores standardised, then "
             f"averaged (WMT21's official DA); `wmt-raw`: the 0-100 scores averaged. value [c] and the share of "
             f"the headroom up to DA's level ({CROWD_HUMAN}), (metric - c) / (DA - c); DA is no ceiling (a share "
             "above 100% is a metric agreeing with MQM better than the crowd); (low–high): 95% percentile interval "
             "over bootstrap draws of the segments (none for seg Kendall).", "",
             "| against MQM | " + " | ".join(labels[c] for c in columns) + " |", "|---|" + "---:|" * len(columns)]
    for _, row in humans.iterrows():
        cells = ["n/a" if pd.isna(row[c]) else f"**{row[c]:.3f}**" + _chance_text(row, c)
                 + _interval_text(row.get(f"{c}_low", math.nan), row.get(f"{c}_high", math.nan)) for c in columns]
        lines.append(f"| **human: DA ({row['metric']})** | " + " | ".join(cells) + " |")
    for _, row in metrics.iterrows():
        lines.append(f"| {row['metric']} | " + " | ".join(_metric_cell(row, c) for c in columns) + " |")
    return lines + [""]


def human_translations_table(protocols: pd.DataFrame, summaries: dict) -> pd.DataFrame:
    """Per MQM set with human translations and metric: system-level Pearson and pairwise accuracy
    without and with them, and the change; each value's 95% interval (``excluded_low`` ...) where the
    protocols have intervals."""
    table = _primary(protocols[(protocols["level"] == "system") & (protocols["aggregation"] == "corpus")
                               & protocols["statistic"].isin(["pearson", "accuracy"])], summaries)
    columns = ["dataset", "lp", "metric", "statistic", "excluded", "included", "change", "human_translations"]
    bounds = [c for c in ("low", "high") if c in table]
    keys = ["dataset", "lp", "metric", "statistic"]
    wide = table.pivot_table(index=keys, columns="human_translations", values="value", sort=False)
    if "included" not in wide:
        return pd.DataFrame(columns=columns)
    wide = wide.dropna(subset=["included"]).reset_index()
    wide["change"] = wide["included"] - wide["excluded"]
    wide["human_translations"] = [", ".join(summaries[(d, lp)].get("human_translations", []))
                                  for d, lp in zip(wide["dataset"], wide["lp"], strict=True)]
    # Each value's interval (the protocols' bootstrap), where the protocols have them: excluded_low ...
    intervals = []
    for bound in bounds:
        part = table.pivot_table(index=keys, columns="human_translations", values=bound, sort=False, dropna=False)
        part.columns = [f"{c}_{bound}" for c in part.columns]
        intervals.append(part)
    if intervals:
        wide = wide.merge(pd.concat(intervals, axis=1).reset_index(), on=keys, how="left")
    extra = [f"{side}_{bound}" for side in ("excluded", "included") for bound in bounds if f"{side}_{bound}" in wide]
    return wide[columns + extra]


def categories_table(categories: pd.DataFrame, counts: pd.DataFrame) -> pd.DataFrame:
    """The category analysis with each restriction's error and segment counts."""
    return categories.merge(counts, on=["dataset", "lp", "restriction"], how="left")


CATEGORY_COLUMNS = ["dataset", "lp", "metric", "restriction", "statistic", "grouping", "value", "n_items", "n_systems",
                    "low", "high", "interval_method", "draws", "seed", "metric_signature", "errors", "segments"]


def no_categories_table() -> pd.DataFrame:
    """The category table of a study without an MQM error annotation: its columns, no rows."""
    return pd.DataFrame(columns=CATEGORY_COLUMNS)


def no_categories_markdown(pairs: list[tuple[str, str]]) -> str:
    """The category page of a study without an MQM error annotation: why there is no analysis."""
    listed = ", ".join(f"{d} {lp}" for d, lp in pairs)
    return "\n".join([
        "# Where metrics go blind: agreement with MQM restricted to one kind of error", "",
        f"No error-category analysis: none of the study's MQM pairs ({listed}) has an MQM error annotation.",
        "The analysis needs each error's category and severity (an eval set's `mqm-errors/<lp>.tsv`, which",
        "mtmeta's assembly of the WMT21 TED sets writes from Google's annotation); mt-metrics-eval's layout",
        "holds segment scores only. Config `paper.mqm.categories` names pairs that have one.", ""])


def categories_markdown(table: pd.DataFrame) -> str:
    """Per pair: metrics (rows) x restrictions (columns), item-grouped Kendall with its interval."""
    lines = ["# Where metrics go blind: agreement with MQM restricted to one kind of error", "",
             "Item-grouped Kendall tau-b (each source segment's MT outputs ranked against each other) between the",
             "metric's segment scores and MQM counting only the errors of one top-level category, or only Major or",
             "Minor errors, or all (the usual MQM); 95% interval resampling items. Restrictions whose score varies",
             f"within fewer than {MIN_ITEMS} items are too thin to read (n/a below; their values are in the TSV).", ""]
    for (dataset, lp), group in table.groupby(["dataset", "lp"], sort=False):
        restrictions = list(dict.fromkeys(group["restriction"]))
        counts = group.drop_duplicates("restriction").set_index("restriction")
        header = " | ".join(f"{r} ({int(counts.at[r, 'errors'])} errors)" for r in restrictions)
        lines += [f"## {dataset} {lp}", "", f"| metric | {header} |", "|---|" + "---:|" * len(restrictions)]
        for metric, rows in group.groupby("metric", sort=False):
            rows = rows.set_index("restriction")
            cells = []
            for r in restrictions:
                row = rows.loc[r]
                if row["n_items"] < MIN_ITEMS or pd.isna(row["value"]):
                    cells.append("n/a")
                else:
                    cells.append(f"{row['value']:.3f} [{row['low']:.3f}, {row['high']:.3f}]")
            lines.append(f"| {metric} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def eras_table(system_level: pd.DataFrame, ranks: pd.DataFrame, mtme_datasets: set[str]) -> pd.DataFrame:
    """Per metric, in each era (the 2012-14 relative rankings; the MQM sets): the pairs it is scored
    on, the share of them where it is in the top significance group (Williams, one-sided, with each
    pair's primary human score, as the overview draws it), its mean system-level Pearson and its mean
    rank among the metrics of each pair."""
    from mtmeta.paper.overview import primary_rows

    table = primary_rows(system_level).merge(ranks[["dataset", "lp", "metric", "rank"]], on=["dataset", "lp", "metric"],
                                             how="left").rename(columns={"rank": "williams_rank"})
    table = table.dropna(subset=["pearson"]).copy()
    table["era"] = table["dataset"].map(lambda d: "MQM (WMT21)" if d in mtme_datasets else "2012-14 rankings")
    table["order"] = table.groupby(["dataset", "lp"])["pearson"].rank(ascending=False, method="min")
    rows = []
    for (era, metric), group in table.groupby(["era", "metric"], sort=False):
        rows.append({"metric": metric, "era": era, "pairs": len(group),
                     "top_group": int((group["williams_rank"] == 1).sum()),
                     "top_group_share": float((group["williams_rank"] == 1).mean()),
                     "mean_pearson": float(group["pearson"].mean()), "mean_rank": float(group["order"].mean())})
    return pd.DataFrame(rows)


def eras_markdown(table: pd.DataFrame) -> str:
    wide = table.pivot_table(index="metric", columns="era", values=["top_group_share", "mean_pearson", "pairs"],
                             sort=False)
    eras = list(dict.fromkeys(table["era"]))
    lines = ["# Both eras: the 2012-14 relative rankings and WMT21 MQM", "",
             "Per metric and era: the share of the language pairs it is scored on where it is in the top Williams",
             "group (system-level Pearson with the primary human score; one-sided p <= 0.05 starts a new group), its",
             "mean Pearson, and the pairs; sorted by the MQM share.", "",
             "| metric | " + " | ".join(f"{e}: top group | {e}: mean r" for e in eras) + " |",
             "|---|" + "---:|---:|" * len(eras)]
    key = ("top_group_share", eras[-1])
    for metric, row in wide.sort_values(key, ascending=False, na_position="last").iterrows():
        cells = []
        for era in eras:
            share, mean, pairs = row[("top_group_share", era)], row[("mean_pearson", era)], row[("pairs", era)]
            cells += ["n/a", "n/a"] if pd.isna(share) else [f"{share:.0%} of {int(pairs)}", f"{mean:.3f}"]
        lines.append(f"| {metric} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_markdown_table(table: pd.DataFrame, title: str) -> str:
    return f"**{title}**\n\n" + markdown_table(table)
