"""Figures of the MQM tables (matplotlib, Agg): the metrics ranked with their significance clusters,
what human translations do, and where metrics go blind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.paper.figures import (
    MIN_FONT,
    figure_title,
    line_height,
    number,
    plt,
    save,
    text_color_on,
    top_title,
    wrapped,
)
from mtmeta.paper.mqm_tables import MIN_ITEMS

# One colour per significance cluster (Okabe-Ito, colour-blind safe), repeating after the sixth.
CLUSTER_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"]


# Why a cluster boundary can fall between two metrics whose intervals overlap: under the figure.
PAIRED_NOTE = ("Clusters come from paired permutation tests: both metrics are scored on the same systems (and "
               "segments) in every draw, so the test sees the spread of their difference, which is much smaller "
               "than the spread of either value when the metrics agree system by system. The lines are each "
               "metric's own (unpaired) interval; two metrics can be in different clusters although their "
               "intervals overlap.")


def shared_limits(panels: list[dict]) -> dict[str, tuple[float, float]]:
    """One x range per kind of value (a panel's ``xlabel``): every panel of a kind spans the smallest to
    the largest value or interval end of all of them, with 4% room on each side, so that panels
    compared with each other are drawn on one scale."""
    limits = {}
    for xlabel in dict.fromkeys(p["xlabel"] for p in panels):
        values = np.concatenate([np.asarray(p["table"][c], dtype=float) for p in panels if p["xlabel"] == xlabel
                                 for c in ("value", "low", "high") if c in p["table"]])
        values = values[np.isfinite(values)]
        low, high = (float(values.min()), float(values.max())) if len(values) else (0.0, 1.0)
        pad = 0.04 * (high - low) if high > low else 0.05
        limits[xlabel] = (low - pad, high + pad)
    return limits


def ranking_figure(panels: list[dict], outputs: list[str | Path]):
    """One panel per ranking: each metric's value (a dot, with its interval where there is one), best
    at the top, coloured and numbered by its significance cluster (WMT22's style). ``panels``: dicts
    with ``title``, ``xlabel`` and ``table`` (metric, value, rank, optional low/high). Panels of one
    ``xlabel`` (e.g. every set's system-level Pearson) share their x range (:func:`shared_limits`);
    a note under the panels says why clusters can separate metrics whose intervals overlap."""
    heights = [max(2.2, 0.22 * len(p["table"]) + 1.0) for p in panels]
    columns = 2
    rows = -(-len(panels) // columns)
    row_heights = [max(heights[r * columns:(r + 1) * columns]) for r in range(rows)]
    width = 11.0
    note = wrapped(PAIRED_NOTE, width - 0.4, MIN_FONT + 1)
    note_h = line_height(MIN_FONT + 1) * len(note) + 0.2
    fig, axes = plt.subplots(rows, columns, figsize=(width, sum(row_heights) + note_h), squeeze=False,
                             gridspec_kw={"height_ratios": row_heights})
    limits = shared_limits(panels)
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
        ax.set_xlim(*limits[panel["xlabel"]])
        ax.set_title(panel["title"], fontsize=MIN_FONT + 2)
        ax.set_xlabel(panel["xlabel"], fontsize=MIN_FONT + 1)
        ax.tick_params(axis="x", labelsize=MIN_FONT + 1)
        ax.grid(axis="x", linewidth=0.3)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    # At a fixed distance below the top edge: matplotlib's default height fraction sinks into the first
    # row of panels of a tall figure (seven rankings).
    shared = [x for x in limits if sum(p["xlabel"] == x for p in panels) > 1]
    top_title(fig, "Metrics ranked on the MQM sets; (n) and colour: significance cluster (1 = top; paired "
                   "permutation tests, p <= 0.05); lines: 95% intervals (per set: systems and segments resampled; "
                   "global accuracy: systems resampled within each set)"
              + "".join(f"; every '{x}' panel on one x range" for x in shared), MIN_FONT + 2)
    fig.text(0.5, 0.08 / fig.get_figheight(), "\n".join(note), ha="center", va="bottom", fontsize=MIN_FONT + 1,
             color="0.25")
    fig.tight_layout(rect=(0, note_h / fig.get_figheight(), 1, 1))
    fig.set_layout_engine(None)
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
        ax.hlines(y, rows["excluded"], rows["included"], colors="0.8", linewidth=0.8)
        # Each value with its 95% interval (where the table has them), the two a little apart.
        for side, shift, colour, marker, label in (("excluded", -0.17, "#0072B2", "o", "MT systems only"),
                                                   ("included", 0.17, "#D55E00", "x", "with human translations")):
            if {f"{side}_low", f"{side}_high"} <= set(rows.columns):
                ax.hlines(y + shift, rows[f"{side}_low"], rows[f"{side}_high"], colors=colour, linewidth=1.0,
                          alpha=0.8)
            ax.scatter(rows[side], y + shift, color=colour, marker=marker, s=18 if marker == "o" else 22,
                       label=label, zorder=3)
        ax.set_yticks(y, rows["metric"], fontsize=MIN_FONT + 1)
        ax.set_title(f"{dataset} {lp}\n(+ {rows['human_translations'].iloc[0]})", fontsize=MIN_FONT + 2)
        ax.set_xlabel("system-level Pearson with MQM", fontsize=MIN_FONT + 1)
        ax.tick_params(axis="x", labelsize=MIN_FONT + 1)
        ax.grid(axis="x", linewidth=0.3)
    if sets:
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, fontsize=MIN_FONT + 1, loc="lower center", ncols=2, frameon=False)
    # Which values have intervals: the protocols bootstrap the MT systems only, not the rows with the
    # human translations, and the title says so rather than leave a reader to look for them.
    sides = [side for side in ("excluded", "included") if f"{side}_low" in table and table[f"{side}_low"].notna().any()]
    intervals = {(): "", ("excluded",): "; lines: 95% intervals of the MT-systems-only values (none with human "
                                        "translations)", ("included",): "; lines: 95% intervals of the values with "
                                        "human translations", ("excluded", "included"): "; lines: 95% intervals"}[
        tuple(sides)]
    top_title(fig, "What human translations do to each metric's correlation\n(references other than the standard "
                   f"one, scored as systems){intervals}", MIN_FONT + 2)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.set_layout_engine(None)
    save(fig, outputs)
    return fig


def _grid(rows: pd.DataFrame, column: str, metrics: list[str], restrictions: list[str]) -> np.ndarray:
    return rows.pivot(index="metric", columns="restriction", values=column).reindex(
        index=metrics, columns=restrictions).to_numpy(dtype=float)


def categories_scale(table: pd.DataFrame) -> float:
    """The colour scale's half-width of the categories figure, one for all its panels: the largest
    absolute value shown (thin restrictions left out), at least 0.05, rounded up to 0.05."""
    shown = table["value"].where(table["n_items"] >= MIN_ITEMS).abs()
    largest = float(shown.max()) if shown.notna().any() else 0.0
    return max(0.05, float(np.ceil(round(largest / 0.05, 9)) * 0.05))


def categories_figure(table: pd.DataFrame, outputs: list[str | Path]):
    """Per pair: metrics x restrictions heatmap of item-grouped Kendall with MQM restricted to one kind
    of error, each cell its value and 95% interval (items resampled); thin restrictions (fewer than
    MIN_ITEMS items) n/a. Every panel is on one colour scale (:func:`categories_scale`), centred on
    0 (a diverging map), with one colour bar, so that a colour means one value across the pairs."""
    from matplotlib.colors import Normalize

    pairs = list(dict.fromkeys(zip(table["dataset"], table["lp"], strict=True)))
    metrics = list(dict.fromkeys(table["metric"]))
    restrictions = max((len(set(table.loc[(table["dataset"] == d) & (table["lp"] == lp), "restriction"]))
                        for d, lp in pairs), default=1)
    limit = categories_scale(table)
    norm = Normalize(vmin=-limit, vmax=limit)
    cell_w, cell_h = 0.72, 0.34  # a value over its interval, two lines at MIN_FONT
    label_w = 0.075 * max(len(m) for m in metrics) + 0.3
    width = len(pairs) * (label_w + cell_w * restrictions + 0.2) + 1.0
    height = cell_h * len(metrics) + 2.4
    fig, axes = plt.subplots(1, max(1, len(pairs)), figsize=(width, height), squeeze=False, layout="constrained")
    has_intervals = {"low", "high"} <= set(table.columns)
    image = None
    for ax, (dataset, lp) in zip(axes.flat, pairs, strict=False):
        rows = table[(table["dataset"] == dataset) & (table["lp"] == lp)]
        shown = rows.assign(value=rows["value"].where(rows["n_items"] >= MIN_ITEMS))
        columns = list(dict.fromkeys(rows["restriction"]))

        values = _grid(shown, "value", metrics, columns)
        low, high = ((_grid(shown, "low", metrics, columns), _grid(shown, "high", metrics, columns)) if has_intervals
                     else (values * np.nan, values * np.nan))
        image = ax.imshow(values, cmap="RdBu", norm=norm, aspect="auto")
        cmap = image.get_cmap()
        for (i, j), value in np.ndenumerate(values):
            if np.isnan(value):
                ax.text(j, i, "n/a", ha="center", va="center", fontsize=MIN_FONT, color="black")
                continue
            interval = f"\n[{number(low[i, j], 2)}, {number(high[i, j], 2)}]" if np.isfinite(low[i, j]) else ""
            ax.text(j, i, f"{number(value, 2)}{interval}", ha="center", va="center", fontsize=MIN_FONT,
                    color=text_color_on(cmap(norm(value))), linespacing=1.0)
        ax.set_xticks(range(len(columns)), columns, rotation=35, ha="right", fontsize=MIN_FONT + 1)
        ax.set_yticks(range(len(metrics)), metrics, fontsize=MIN_FONT + 1)
        ax.set_title(f"{dataset} {lp}", fontsize=MIN_FONT + 2)
    if image is not None:
        bar = fig.colorbar(image, ax=list(axes.flat), shrink=0.8, pad=0.01)
        bar.set_label(f"Kendall tau-b, item-grouped (one scale for every panel, ±{limit:.2f})",
                      fontsize=MIN_FONT + 1)
        bar.ax.tick_params(labelsize=MIN_FONT)
    intervals = "; under each value its 95% interval (items resampled)" if has_intervals else ""
    figure_title(fig, f"Where metrics go blind: agreement with MQM counting one kind of error only{intervals} "
                      f"(n/a: varies within fewer than {MIN_ITEMS} source segments)", MIN_FONT + 2)
    save(fig, outputs)
    return fig
