"""The ranking figure of a task set (``mtmeta tasks --figure``, rule official_tasks): the WMT metrics
task's average with its significance clusters, beside every task's value and cluster."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mtmeta.metaeval.task_levels import CHANCE, HUMAN
from mtmeta.metaeval.tasks import NICKNAMES, TaskSetResult
from mtmeta.paper.figures import MIN_FONT, line_height, plt, save, text_color_on, top_title, wrapped
from mtmeta.paper.mqm_figures import CLUSTER_COLOURS

CELL_WIDTH = 0.62  # inches per task column
LEVEL_STYLE = {CHANCE: ("0.45", ":"), HUMAN: ("#7a3b8f", "--")}  # colour, line style of a level's line
ROW_HEIGHT = 0.24  # inches per metric


def _colour(rank) -> str:
    return CLUSTER_COLOURS[(int(rank) - 1) % len(CLUSTER_COLOURS)]


def _nickname(task) -> str:
    return NICKNAMES.get(task.corr_fcn, task.corr_fcn)


def _light(colour: str, share: float = 0.6) -> tuple:
    """The cluster colour mixed with white (a table cell's background: its text stays readable)."""
    rgb = np.array([int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    return tuple(share * rgb + (1 - share))


def ranking_figure(result: TaskSetResult, outputs: list[str | Path], title: str | None = None):
    """Left: each averaged metric's average (best at the top), its dot coloured and numbered by the
    average's significance cluster (MTME's ``AverageCorrMatrix``). Right: each task's value, the cell
    coloured by that task's cluster (the number in brackets), ``--`` where the metric is not in the
    task. Metrics missing from some task are not averaged: they follow, below a line, with their task
    values. The notes are in the tables, not here."""
    averaged = list(result.average)
    left_out = sorted({n for t in result.tasks if t.ranking for n in t.ranking.names} - set(averaged))
    metrics = averaged + left_out
    n_tasks = len(result.tasks)
    left, grid_w = 3.6, CELL_WIDTH * n_tasks
    width = max(7.0, left + 0.25 + grid_w + 0.35)
    footer = [f"Average: each task's value rescaled to [0, 1] by its range, weighted; clusters at p <= "
              f"{result.task_set.tasks[0].pval} from k = {result.k} permutation draws (seed {result.seed})."]
    if any(value == value for name, value in result.levels.items() if name in LEVEL_STYLE):
        footer.append("Lines: the average of each task's chance level (a metric without information) and, where "
                      "several raters rated the outputs, of one rater against the others (human); not ranked.")
    if left_out:
        footer.append(f"Below the line: not in every task, so not averaged ({', '.join(left_out)}).")
    footer_lines = [line for text in footer for line in wrapped(text, width - 0.4, MIN_FONT + 1)]
    footer_h = line_height(MIN_FONT + 1) * len(footer_lines) + 0.25
    labels = ["\n".join([f"task{i}", *t.task.pairs, t.task.level + " " + _nickname(t.task)])
              for i, t in enumerate(result.tasks, start=1)]
    head = 0.55 + line_height(MIN_FONT) * max((label.count("\n") + 1 for label in labels), default=1)
    height = head + ROW_HEIGHT * max(len(metrics), 1) + 0.9 + footer_h
    fig = plt.figure(figsize=(width, height))
    bottom = (footer_h + 0.55) / height
    top = 1 - head / height
    ax = fig.add_axes((1.35 / width, bottom, (left - 1.5) / width, top - bottom))
    grid = fig.add_axes(((left + 0.25) / width, bottom, grid_w / width, top - bottom))
    y = np.arange(len(metrics))[::-1]
    rows = dict(zip(metrics, y, strict=True))
    values = np.array([result.average[m][0] for m in averaged], dtype=float)
    ranks = [result.average[m][1] for m in averaged]
    colours = [_colour(r) for r in ranks]
    ax.scatter(values, [rows[m] for m in averaged], c=colours, s=24, zorder=3)
    levels = {name: value for name, value in result.levels.items() if value == value and name in LEVEL_STYLE}
    finite = np.concatenate([values[np.isfinite(values)], list(levels.values())])
    low, high = (finite.min(), finite.max()) if len(finite) else (0.0, 1.0)
    pad = 0.08 * (high - low) if high > low else 0.05
    ax.set_xlim(low - pad, high + 3.6 * pad)
    for metric, value, rank, colour in zip(averaged, values, ranks, colours, strict=True):
        # On white: a level's line may run through the number.
        ax.annotate(f"{value:.3f} ({rank})", (value, rows[metric]), xytext=(5, 0), textcoords="offset points",
                    va="center", fontsize=MIN_FONT + 0.5, color=colour, zorder=4,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.3})
    for name, value in levels.items():  # the reference levels of the average: lines, never ranked
        colour, style = LEVEL_STYLE[name]
        ax.axvline(value, color=colour, linestyle=style, linewidth=1.0, zorder=2)
        # Named above the frame, clear of the metrics' numbers.
        ax.text(value, 1.01, f"{name}\n{value:.3f}", transform=ax.get_xaxis_transform(), va="bottom",
                ha="center", fontsize=MIN_FONT, color=colour)
    for metric in left_out:
        ax.text(0.03, rows[metric], "not averaged", transform=ax.get_yaxis_transform(), va="center",
                fontsize=MIN_FONT + 0.5, color="0.35", zorder=4,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.3})
    ax.set_yticks(y, metrics, fontsize=MIN_FONT + 1)
    for axis in (ax, grid):
        axis.set_ylim(-0.6, len(metrics) - 0.4)
        if left_out and averaged:
            axis.axhline(len(left_out) - 0.5, color="0.3", linewidth=0.8)
    ax.set_xlabel("average (avg-corr)", fontsize=MIN_FONT + 1)
    ax.tick_params(axis="x", labelsize=MIN_FONT + 1)
    ax.grid(axis="x", linewidth=0.3)
    # Room above the frame for the levels' names.
    ax.set_title("average and its cluster", fontsize=MIN_FONT + 1.5, pad=6 + (2.2 * MIN_FONT if levels else 0))
    # The per-task table: value and cluster of each metric in each task.
    grid.set_xlim(-0.5, n_tasks - 0.5)
    for col, task in enumerate(result.tasks):
        ranking = task.ranking
        where = {} if ranking is None else {n: (v, r) for n, v, r in zip(ranking.names, ranking.values,
                                                                          ranking.ranks, strict=True)}
        for metric in metrics:
            yi = rows[metric]
            if metric not in where:
                grid.text(col, yi, "--", ha="center", va="center", fontsize=MIN_FONT)
                continue
            value, rank = where[metric]
            background = _light(_colour(rank))
            grid.add_patch(plt.Rectangle((col - 0.48, yi - 0.45), 0.96, 0.9, color=background, linewidth=0))
            grid.text(col, yi, f"{value:.3f} ({rank})", ha="center", va="center", fontsize=MIN_FONT,
                      color=text_color_on(background))
    grid.set_xticks(range(n_tasks), labels, fontsize=MIN_FONT)
    grid.xaxis.tick_top()
    grid.set_yticks([])
    for side in ("left", "right", "bottom", "top"):
        grid.spines[side].set_visible(False)
    grid.tick_params(axis="x", length=0)
    # The title names the data and the human signal: a design's name alone does not say what it ran on.
    test_sets = ", ".join(dict.fromkeys(t.task.test_set for t in result.tasks))
    golds = ", ".join(dict.fromkeys(str(g) for t in result.tasks for g in str(t.gold).split(",")))
    top_title(fig, title or f"{result.task_set.name} design on {test_sets} (human scores: {golds}): metrics ranked "
                             f"by the weighted average of {n_tasks} tasks; (n) and colour: significance cluster "
                             f"(1 = top)", MIN_FONT + 2)
    fig.text(0.5, 0.1 / height, "\n".join(footer_lines), ha="center", va="bottom", fontsize=MIN_FONT + 1,
             color="0.25")
    save(fig, outputs)
    return fig
