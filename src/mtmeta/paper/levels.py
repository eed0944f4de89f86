"""Between chance and a human, per era: which metrics are indistinguishable from chance at segment
level on which sets, and how far the best metric is from a human level; one figure per era with the
metrics between the two levels. Pure functions over the study's level tables; rule paper_levels does I/O.

Sources: the WMT12-14 segment-level table with a second annotator (results/correlations/
segment_levels.tsv, :mod:`mtmeta.metaeval.annotators`); the MQM protocols' segment-level rows with
their item-resampled intervals and chance levels (results/correlations/protocols.tsv); the WMT23
three-rater and WMT21 DA-against-MQM level tables (results/metaeval/ceiling/, crowd/).

A metric is *indistinguishable from chance* on a set when its value's 95% interval reaches its chance
level's upper end (the chance level plus 1.96 Monte-Carlo standard errors for a permutation estimate).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mtmeta.io import markdown_table

RANKINGS = "2012-14 relative rankings"
MQM = "MQM (WMT21, WMT23)"
# The WMT12-14 statistic of the figure: WMT13's Kendall (human ties left out, metric ties dropped), the
# one variant a source without ties (the mirror's WMT13/WMT14 files) measures exactly for a second annotator.
RANKINGS_STATISTIC = "tau_wmt13"
# The MQM protocols' segment-level statistics with intervals (item-grouped), and their labels.
MQM_SEGMENT = {("kendall", "item"): "seg Kendall (item)", ("acc_eq", "item"): "seg acc_eq (item, calibrated)"}
# The level tables' statistics shown beside a human level, and their labels.
LEVEL_STATISTICS = {"system_accuracy": "pairwise accuracy", "segment_acc_eq": "seg acc_eq (item, calibrated)"}
HUMAN_OF = {"one rater vs mean of two": "one rater vs mean of two raters", "wmt-z": "WMT DA (wmt-z) against MQM"}
CHANCE_COLUMNS = ["era", "dataset", "lp", "statistic", "metrics", "indistinguishable", "names"]
HEADROOM_COLUMNS = ["era", "dataset", "lp", "human", "statistic", "human_value", "human_low", "human_high",
                    "chance_min", "chance_max", "best_metric", "best_value", "best_share", "best_share_low",
                    "best_share_high", "metrics"]


def _reaches(low: float, chance: float, se: float) -> bool:
    return not math.isnan(low) and low <= chance + 1.96 * (0.0 if math.isnan(se) else se)


def chance_table(segment_levels: pd.DataFrame, protocols: pd.DataFrame) -> pd.DataFrame:
    """Per set and segment-level statistic with intervals: the metrics whose interval reaches their
    chance level (``names``), of ``metrics``."""
    rows = []
    metric_rows = segment_levels[segment_levels["level"] == "metric"]
    for (dataset, lp, statistic), group in metric_rows.groupby(["dataset", "lp", "statistic"], sort=False):
        names = [r.who for r in group.itertuples() if _reaches(r.low, r.chance, r.chance_se)]
        rows.append({"era": RANKINGS, "dataset": dataset, "lp": lp, "statistic": statistic,
                     "metrics": len(group), "indistinguishable": len(names), "names": ", ".join(names)})
    segment = protocols[(protocols["level"] == "segment") & protocols["low"].notna()]
    primary = segment.groupby(["dataset", "lp"], sort=False)["human_score"].transform("first")
    segment = segment[segment["human_score"] == primary]
    for (dataset, lp, statistic, grouping), group in segment.groupby(["dataset", "lp", "statistic", "grouping"],
                                                                     sort=False):
        label = MQM_SEGMENT.get((statistic, grouping))
        if label is None:
            continue
        names = [r.metric for r in group.itertuples() if _reaches(r.low, r.chance, r.chance_se)]
        rows.append({"era": MQM, "dataset": dataset, "lp": lp, "statistic": label, "metrics": len(group),
                     "indistinguishable": len(names), "names": ", ".join(names)})
    return pd.DataFrame(rows, columns=CHANCE_COLUMNS)


def headroom_table(segment_levels: pd.DataFrame, levels: pd.DataFrame | None) -> pd.DataFrame:
    """Per set and statistic with a human level: the human level with its interval, the range of the
    metrics' chance levels, and the metric closing the largest share of the headroom (its value and
    share with the share's interval). ``levels``: the ceiling and crowd level tables (with dataset)."""
    rows = []
    for (dataset, lp, statistic), group in segment_levels.groupby(["dataset", "lp", "statistic"], sort=False):
        human = group[group["level"] == "human"].iloc[0]
        metrics = group[group["level"] == "metric"]
        rows.append(_headroom_row(RANKINGS, dataset, lp, "second annotator", statistic, human, metrics,
                                  metrics["chance"], metrics.rename(columns={"who": "metric"})))
    if levels is not None:
        for (dataset, lp, statistic), group in levels.groupby(["dataset", "lp", "statistic"], sort=False):
            if statistic not in LEVEL_STATISTICS:
                continue
            humans = group[group["level"] == "human"]
            human = humans[humans["who"].isin(HUMAN_OF)].iloc[0]
            metrics = group[group["level"] == "metric"].set_index("who")
            chance = group[group["level"] == "chance"].set_index("who")["value"]
            metrics = metrics.assign(metric=metrics.index, chance=[chance.get(f"permuted {m}", math.nan)
                                                                   for m in metrics.index]).reset_index(drop=True)
            rows.append(_headroom_row(MQM, dataset, lp, HUMAN_OF[human["who"]], LEVEL_STATISTICS[statistic], human,
                                      metrics, metrics["chance"], metrics))
    return pd.DataFrame(rows, columns=HEADROOM_COLUMNS)


def _headroom_row(era, dataset, lp, human_name, statistic, human, metrics, chance, table) -> dict:
    from mtmeta.stats.ceiling import headroom_share

    shares = [headroom_share(v, c, human["value"]) for v, c in zip(table["value"], chance, strict=True)]
    finite = [k for k, s in enumerate(shares) if not math.isnan(s)]
    best = max(finite, key=lambda k: shares[k]) if finite else None
    row = {"era": era, "dataset": dataset, "lp": lp, "human": human_name, "statistic": statistic,
           "human_value": human["value"], "human_low": human.get("low", math.nan),
           "human_high": human.get("high", math.nan), "metrics": len(table),
           "chance_min": float(np.nanmin(chance)) if len(chance) else math.nan,
           "chance_max": float(np.nanmax(chance)) if len(chance) else math.nan}
    if best is not None:
        chosen = table.iloc[best]
        row.update(best_metric=chosen["metric"], best_value=chosen["value"], best_share=shares[best],
                   best_share_low=chosen.get("share_low", math.nan), best_share_high=chosen.get("share_high", math.nan))
    return row


def levels_markdown(chance: pd.DataFrame, headroom: pd.DataFrame) -> str:
    """The two findings tables, generated: chance-level metrics per set, and the headroom per set."""
    lines = ["# Between chance and a human", "",
             "Generated from the study's level tables (results/correlations/segment_levels.tsv, "
             "results/correlations/protocols.tsv,", "results/metaeval/ceiling/, results/metaeval/crowd/); "
             "mtmeta.paper.levels says how.", "",
             "## Segment-level metrics indistinguishable from chance", "",
             "A metric counts when its value's 95% interval (segments or items resampled) reaches its chance level "
             "(its own", "scores permuted; plus 1.96 Monte-Carlo standard errors for a permutation estimate).", ""]
    for era, group in chance.groupby("era", sort=False):
        clear = group[group["indistinguishable"] == 0]
        lines.append(f"{era}: on {len(clear)} of {len(group)} (set, statistic) combinations "
                     f"({group[['dataset', 'lp']].drop_duplicates().shape[0]} sets) every metric is above its chance "
                     f"level; the others:")
        lines.append("")
        shown = group[group["indistinguishable"] > 0]
        if len(shown):
            shown = shown.assign(share=[f"{i} of {m}" for i, m in zip(shown["indistinguishable"], shown["metrics"],
                                                                      strict=True)])
            lines += [markdown_table(shown[["dataset", "lp", "statistic", "share", "names"]]), ""]
        else:
            lines += ["(none)", ""]
    lines += ["## How far the best metric is from a human level", "",
              "Per set and statistic: the human level (its 95% interval), the range of the metrics' chance levels "
              "and the metric", "closing the largest share of the headroom, (metric - chance) / (human - chance), "
              "with the share's interval where", f"the table has one. WMT12-14: {RANKINGS_STATISTIC} with the second "
              "annotator as the human (levels_headroom.tsv has every variant).", ""]
    table = headroom[(headroom["era"] != RANKINGS) | (headroom["statistic"] == RANKINGS_STATISTIC)].copy()
    fmt = lambda v, form="{:.3f}": "" if pd.isna(v) else form.format(round(v, 3) + 0.0)  # noqa: E731
    table["human level"] = [f"{fmt(v)} ({fmt(lo)}–{fmt(hi)})" if not pd.isna(lo) else fmt(v)
                            for v, lo, hi in zip(table["human_value"], table["human_low"], table["human_high"],
                                                 strict=True)]
    table["chance"] = [f"{fmt(a)}–{fmt(b)}" if fmt(a) != fmt(b) else fmt(a)
                       for a, b in zip(table["chance_min"], table["chance_max"], strict=True)]
    table["best metric"] = [f"{m} {fmt(v)}" if isinstance(m, str) else "no share: the human level is not above chance"
                            for m, v in zip(table["best_metric"], table["best_value"], strict=True)]
    table["share"] = [fmt(s, "{:.0%}") + (f" ({fmt(lo, '{:.0%}')}–{fmt(hi, '{:.0%}')})" if not pd.isna(lo) else "")
                      for s, lo, hi in zip(table["best_share"], table["best_share_low"], table["best_share_high"],
                                           strict=True)]
    lines += [markdown_table(table[["era", "dataset", "lp", "human", "statistic", "human level", "chance",
                                    "best metric", "share"]]), ""]
    return "\n".join(lines)


def era_rows(segment_levels: pd.DataFrame, levels: pd.DataFrame | None, era: str) -> list[dict]:
    """The rows of an era's figure: per set (and statistic), the metrics' values, their chance levels,
    and the human level with its interval."""
    rows = []
    if era == RANKINGS:
        table = segment_levels[segment_levels["statistic"] == RANKINGS_STATISTIC]
        for (dataset, lp), group in table.groupby(["dataset", "lp"], sort=False):
            human = group[group["level"] == "human"].iloc[0]
            metrics = group[group["level"] == "metric"]
            rows.append({"label": f"{dataset} {lp}", "values": metrics["value"].to_numpy(float),
                         "names": list(metrics["who"]), "chance": metrics["chance"].to_numpy(float),
                         "human": human["value"], "human_low": human["low"], "human_high": human["high"]})
        return rows
    if levels is None:
        return rows
    for (dataset, lp, statistic), group in levels.groupby(["dataset", "lp", "statistic"], sort=False):
        if statistic not in LEVEL_STATISTICS:
            continue
        humans = group[group["level"] == "human"]
        human = humans[humans["who"].isin(HUMAN_OF)].iloc[0]
        metrics = group[group["level"] == "metric"]
        chance = group[group["level"] == "chance"].set_index("who")["value"]
        rows.append({"label": f"{dataset} {lp}: {LEVEL_STATISTICS[statistic]}",
                     "values": metrics["value"].to_numpy(float), "names": list(metrics["who"]),
                     "chance": np.array([chance.get(f"permuted {m}", math.nan) for m in metrics["who"]]),
                     "human": human["value"], "human_low": human.get("low", math.nan),
                     "human_high": human.get("high", math.nan),
                     "human_name": HUMAN_OF[human["who"]]})
    return rows


def levels_figure(rows: list[dict], title: str, xlabel: str, outputs):
    """One row per set: the range of the metrics' chance levels (grey band), every metric (a dot; the
    best one labelled), and the human level (a black diamond with its interval)."""
    from mtmeta.paper.figures import MIN_FONT, plt, save, top_title

    height = max(2.5, 0.42 * len(rows) + 1.4)
    fig, ax = plt.subplots(figsize=(9.0, height))
    y = np.arange(len(rows))[::-1]
    for position, row in zip(y, rows, strict=True):
        chance = row["chance"][np.isfinite(row["chance"])]
        if len(chance):
            low, high = float(chance.min()), float(chance.max())
            ax.fill_betweenx([position - 0.3, position + 0.3], low - 0.002, high + 0.002, color="0.85", zorder=1)
        ax.scatter(row["values"], np.full(len(row["values"]), position), s=14, color="#0072B2", zorder=3)
        if not pd.isna(row.get("human_low", math.nan)):
            ax.hlines(position, row["human_low"], row["human_high"], colors="black", linewidth=1.2, zorder=2)
        ax.scatter([row["human"]], [position], marker="D", s=34, color="black", zorder=4)
        finite = np.isfinite(row["values"])
        if finite.any():
            best = int(np.nanargmax(np.where(finite, row["values"], -np.inf)))
            ax.annotate(row["names"][best], (row["values"][best], position), xytext=(0, 5),
                        textcoords="offset points", fontsize=MIN_FONT, ha="center", color="#0072B2")
    ax.set_yticks(y, [row["label"] for row in rows], fontsize=MIN_FONT + 1)
    ax.set_ylim(-0.8, len(rows) - 0.2)
    ax.set_xlabel(xlabel, fontsize=MIN_FONT + 1)
    ax.tick_params(axis="x", labelsize=MIN_FONT + 1)
    ax.grid(axis="x", color="0.92", zorder=0)
    top_title(fig, title, MIN_FONT + 3)
    handles = [plt.Line2D([], [], marker="o", linestyle="", color="#0072B2", label="metric (best labelled)"),
               plt.Line2D([], [], marker="D", linestyle="-", color="black", label="human level, 95% interval"),
               plt.Rectangle((0, 0), 1, 1, color="0.85", label="chance levels of the metrics")]
    # The legend in a strip of its own under the axes: inside them it would cover a row.
    fig.tight_layout(rect=(0, 0.35 / height, 1, 1))
    fig.set_layout_engine(None)
    fig.legend(handles=handles, fontsize=MIN_FONT + 1, loc="lower center", bbox_to_anchor=(0.5, 0.02 / height),
               ncol=3, frameon=False)
    save(fig, outputs)
    return fig
