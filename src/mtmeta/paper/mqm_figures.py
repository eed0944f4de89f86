"""Figures of the MQM tables (matplotlib, Agg): the metrics ranked with their significance clusters,
what human translations do, and where metrics go blind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.paper.figures import MIN_FONT, fixed_tight_layout, plt, save, text_color_on, top_title
from mtmeta.paper.mqm import MIN_ITEMS

# One colour per significance cluster (Okabe-Ito, colour-blind safe), repeating after the sixth.
CLUSTER_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"]


def ranking_figure(panels: list[dict], outputs: list[str | Path]):
    """One panel per ranking: each metric's value (a dot, with its interval where there is one), best
    at the top, coloured and numbered by its significance cluster (WMT22's style). ``panels``: dicts
    with ``title``, ``xlabel`` and ``table`` (metric, value, rank, optional low/high)."""
    heights = [max(2.2, 0.22 * len(p["table"]) + 1.0) for p in panels]
    columns = 2
    rows = -(-len(panels) // columns)
    row_heights = [max(heights[r * columns:(r + 1) * columns]) for r in range(rows)]
    fig, axes = plt.subplots(rows, columns, figsize=(11, sum(row_heights)), squeeze=False,
                             gridspec_kw={"height_ratios": row_heights})
    for ax, panel in zip(axes.flat, panels, strict=False):
        table = panel["table"].reset_index(drop=True)
        y = np.arange(len(table))[::-1]
        colours = [CLUSTER_COLOURS[(int(r) - 1) % len(CLUSTER_COLOURS)] if pd.notna(r) else "0.6"
                   for r in table["rank"]]  # grey, "(-)": an undefined value has no cluster
        if "low" in table and table["low"].notna().any():
            ax.hlines(y, table["low"], table["high"], colors=colours, linewidth=1.2)
        ax.scatter(table["value"], y, c=colours, s=22, zorder=3)
        ax.set_yticks(y, [f"{m} ({int(r) if pd.notna(r) else '-'})" for m, r in zip(table["metric"], table["rank"],
                                                                             strict=True)],
                      fontsize=MIN_FONT + 1)
        ax.set_title(panel["title"], fontsize=MIN_FONT + 2)
        ax.set_xlabel(panel["xlabel"], fontsize=MIN_FONT + 1)
        ax.tick_params(axis="x", labelsize=MIN_FONT + 1)
        ax.grid(axis="x", linewidth=0.3)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    # At a fixed distance below the top edge: matplotlib's default height fraction sinks into the first
    # row of panels of a tall figure (seven rankings).
    top_title(fig, "Metrics ranked on the MQM sets; (n) and colour: significance cluster (1 = top; permutation "
                   "tests, p <= 0.05); lines: 95% intervals (systems and segments resampled)", MIN_FONT + 2)
    fixed_tight_layout(fig)
    save(fig, outputs)
    return fig


def human_translations_figure(table: pd.DataFrame, outputs: list[str | Path]):
    """Per MQM set with human translations: each metric's system-level Pearson without them (dot) and
    with them (cross), joined by a line."""
    table = table[table["statistic"] == "pearson"]
    sets = list(dict.fromkeys(zip(table["dataset"], table["lp"], strict=True)))
    fig, axes = plt.subplots(1, max(1, len(sets)), figsize=(max(7.0, 3.6 * len(sets)), 5.6), squeeze=False,
                             sharey=False)
    for ax, (dataset, lp) in zip(axes.flat, sets, strict=False):
        rows = table[(table["dataset"] == dataset) & (table["lp"] == lp)].sort_values("excluded")
        y = np.arange(len(rows))
        ax.hlines(y, rows["excluded"], rows["included"], colors="grey", linewidth=0.8)
        ax.scatter(rows["excluded"], y, color="#0072B2", s=18, label="MT systems only", zorder=3)
        ax.scatter(rows["included"], y, color="#D55E00", marker="x", s=22, label="with human translations", zorder=3)
        ax.set_yticks(y, rows["metric"], fontsize=MIN_FONT + 1)
        ax.set_title(f"{dataset} {lp}\n(+ {rows['human_translations'].iloc[0]})", fontsize=MIN_FONT + 2)
        ax.set_xlabel("system-level Pearson with MQM", fontsize=MIN_FONT + 1)
        ax.tick_params(axis="x", labelsize=MIN_FONT + 1)
        ax.grid(axis="x", linewidth=0.3)
    if sets:
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, fontsize=MIN_FONT + 1, loc="lower center", ncols=2, frameon=False)
    top_title(fig, "What human translations do to each metric's correlation\n(references other than the standard "
                   "one, scored as systems)", MIN_FONT + 2)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.set_layout_engine(None)
    save(fig, outputs)
    return fig


def categories_figure(table: pd.DataFrame, outputs: list[str | Path]):
    """Per pair: metrics x restrictions heatmap of item-grouped Kendall with MQM restricted to one kind
    of error; thin restrictions (fewer than MIN_ITEMS items) n/a. Each panel's colour scale spans its
    own values, centred on 0 (a diverging map), and the colour bar says so."""
    pairs = list(dict.fromkeys(zip(table["dataset"], table["lp"], strict=True)))
    metrics = list(dict.fromkeys(table["metric"]))
    fig, axes = plt.subplots(1, max(1, len(pairs)), figsize=(5.5 * max(1, len(pairs)), 0.3 * len(metrics) + 2.6),
                             squeeze=False)
    for ax, (dataset, lp) in zip(axes.flat, pairs, strict=False):
        rows = table[(table["dataset"] == dataset) & (table["lp"] == lp)]
        restrictions = list(dict.fromkeys(rows["restriction"]))
        grid = rows.assign(value=rows["value"].where(rows["n_items"] >= MIN_ITEMS)).pivot(
            index="metric", columns="restriction", values="value").reindex(index=metrics, columns=restrictions)
        limit = max(0.05, float(np.nanmax(np.abs(grid.to_numpy()))) if grid.notna().any().any() else 0.05)
        image = ax.imshow(grid.to_numpy(dtype=float), cmap="RdBu", vmin=-limit, vmax=limit, aspect="auto")
        cmap = image.get_cmap()
        for (i, j), value in np.ndenumerate(grid.to_numpy(dtype=float)):
            if np.isnan(value):
                ax.text(j, i, "n/a", ha="center", va="center", fontsize=MIN_FONT, color="black")
            else:
                colour = cmap(image.norm(value))
                ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=MIN_FONT,
                        color=text_color_on(colour))
        ax.set_xticks(range(len(restrictions)), restrictions, rotation=35, ha="right", fontsize=MIN_FONT + 1)
        ax.set_yticks(range(len(metrics)), metrics, fontsize=MIN_FONT + 1)
        ax.set_title(f"{dataset} {lp}", fontsize=MIN_FONT + 2)
        bar = fig.colorbar(image, ax=ax, shrink=0.8)
        bar.set_label(f"Kendall tau-b, item-grouped (scale ±{limit:.2f})", fontsize=MIN_FONT + 1)
        bar.ax.tick_params(labelsize=MIN_FONT)
    top_title(fig, f"Where metrics go blind: agreement with MQM counting one kind of error only (n/a: varies "
                   f"within fewer than {MIN_ITEMS} source segments)", MIN_FONT + 2)
    fixed_tight_layout(fig)
    save(fig, outputs)
    return fig
