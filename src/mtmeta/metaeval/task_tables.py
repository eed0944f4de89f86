"""A task set's results as tables: MTME's ``tasks.MetricsTable`` (text, TSV, LaTeX: one row per
metric, a column per task and the average first, each cell the value and the significance cluster)
and long TSV tables (one row per task x metric; one per metric for the average) with every
attribute of the task, the run's k and seed, and the notes.

The three formats follow ``MetricsTable`` and its helpers ``_TextTable``, ``_TsvTable``,
``_LatexTable`` (``mt_metrics_eval/tasks.py``) with ``rerank`` off: text cells are ``rank value``
(``f'{rank}{value:6.3f}'``), TSV cells ``rank<TAB>value`` (``f'{rank:d}\\t{value:f}'``), LaTeX cells
``rank & value`` with the first cluster in bold; a metric missing from a task is ``--``. A metric
that is not a primary submission carries MTME's '*' prefix, a reference-free one '[noref]'.
"""

from __future__ import annotations

import math

import pandas as pd

from mtmeta.metaeval.task_levels import CHANCE, FLOOR, HUMAN
from mtmeta.metaeval.tasks import NICKNAMES, TaskSetResult

AVERAGE_HEADER = "avg-corr"
# The reference levels (mtmeta.metaeval.task_levels) under the ranked metrics: never ranked.
LEVELS = ((CHANCE, "chance"), (FLOOR, "floor"), (HUMAN, "human"))
FLOOR_MARK = " ‡"  # a value equal to its task's all-tied floor


def _on_floor(task, value: float) -> bool:
    """Whether a metric's value is its task's all-tied floor (tie calibration declared every pair a tie)."""
    return not math.isnan(task.floor.value) and abs(value - task.floor.value) <= 1e-12


def _columns(result: TaskSetResult) -> tuple[list[dict], list[list[str]]]:
    columns = [dict(result.average)]
    for task in result.tasks:
        ranking = task.ranking
        columns.append({} if ranking is None else
                       {n: (v, r) for n, v, r in zip(ranking.names, ranking.values, ranking.ranks, strict=True)})
    headers = [["lang:", ""] + [t.task.lang for t in result.tasks],
               ["level:", ""] + [t.task.level for t in result.tasks],
               ["corr_fcn:", ""] + [NICKNAMES.get(t.task.corr_fcn, t.task.corr_fcn) for t in result.tasks],
               ["metric", AVERAGE_HEADER] + [f"task{i}" for i in range(1, len(result.tasks) + 1)]]
    return columns, headers


def metric_order(result: TaskSetResult) -> list[str]:
    """The average's order, then metrics missing from some task, alphabetically."""
    listed = list(result.average)
    rest = sorted({n for t in result.tasks if t.ranking for n in t.ranking.names} - set(listed))
    return listed + rest


def metrics_table(metrics: list[str], columns: list[dict], headers: list[list[str]], fmt: str = "text") -> str:
    """MTME's ``MetricsTable(metrics, columns, column_headers, fmt)`` with ``which_metrics='listed'``."""
    if fmt not in ("text", "tsv", "latex"):
        raise ValueError(f"format {fmt!r} is not text, tsv or latex")
    rows = [[c.get(m, (None, None)) for c in columns] for m in metrics]
    if fmt == "tsv":
        out = ""
        for row in headers:
            out += "\t".join(row[:1] + [x + "\t" for x in row[1:-1]] + row[-1:]) + "\n"
        for m, row in zip(metrics, rows, strict=True):
            out += "\t".join([m] + ["--\t--" if r is None else f"{r:d}\t{c:f}" for c, r in row]) + "\n"
        return out
    if fmt == "text":
        cells = [[m] + ["--" if c is None else f"{r}{c:6.3f}" for c, r in row] for m, row in zip(metrics, rows,
                                                                                                strict=True)]
        widths = []
        for i in range(len(cells[0]) if cells else len(headers[0])):
            sign = 1 if i > 0 else -1
            widths.append(sign * max(len(s[i]) for s in headers + cells))

        def just(s, w):
            return f"{s:>{w}}" if w >= 0 else f"{s:<{-w}}"
        out = ""
        for header in headers:
            out += "  ".join(just(h, w) for h, w in zip(header, widths, strict=True)) + "\n"
        if headers:
            out += "  ".join("-" * abs(w) for w in widths) + "\n"
        for row in cells:
            out += "  ".join(just(r, w) for r, w in zip(row, widths, strict=True)) + "\n"
        return out

    def esc(s: str) -> str:
        return s.replace("_", "\\_")

    def cell(c, r):
        if c is None:
            return "-- & --"
        value, rank = f"{c:0.3f}", f"{r:d}"
        if r == 1:
            value, rank = f"\\textbf{{{value}}}", f"\\textbf{{{rank}}}"
        return f"{rank} & {value}"
    out = "\\begin{tabular}{l" + "|rr" * len(columns) + "}\n\\toprule\n"
    for h in headers:
        h = [esc(x) for x in h]
        out += h[0] + " & " + " & ".join(f"\\multicolumn{{2}}{{|l}}{{{x}}}" for x in h[1:]) + " \\\\\n"
    if headers:
        out += "\\midrule\n"
    for m, row in zip(metrics, rows, strict=True):
        name = esc(m)
        if name.startswith("*"):
            name = f"\\textit{{{name[1:]}}}"
        out += f"{name} & " + " & ".join(cell(c, r) for c, r in row) + " \\\\\n"
    return out + "\\bottomrule\n\\end{tabular}\n"


def _settings_line(result: TaskSetResult) -> str:
    return (f"task set {result.task_set.name} ({result.task_set.source}); k={result.k}, seed={result.seed} "
            f"(task i draws with seed+i); clusters at p <= {result.task_set.tasks[0].pval}")


def _task_lines(result: TaskSetResult) -> list[str]:
    lines = []
    for i, (task, weight) in enumerate(zip(result.tasks, result.task_set.weights, strict=True), start=1):
        t = task.task
        lines.append(f"task{i}: {t.test_set} {t.lang} {t.level} {t.corr_fcn} avg_by={t.avg_by} "
                     f"human={'yes' if task.human_used else 'no'} gold={task.gold} refs={','.join(task.refs)} "
                     f"outliers={'kept' if t.use_outliers else 'left out'} primary={t.primary} "
                     f"systems={task.n_systems} items={task.n_items} weight={weight:.4f}")
    return lines


def _level_cells(result: TaskSetResult, attribute: str) -> list[str]:
    """Each task's level as text (``--`` where the task has none), ± its standard error if estimated."""
    cells = []
    for task in result.tasks:
        level = getattr(task, attribute)
        if math.isnan(level.value):
            cells.append("--")
        else:
            cells.append(f"{level.value:.3f}" + (f" ± {level.standard_error:.3f}" if level.standard_error else ""))
    return cells


def _level_rows(result: TaskSetResult) -> list[tuple[str, str, list[str]]]:
    """(name, average, task cells) of each level some task has."""
    rows = []
    for name, attribute in LEVELS:
        cells = _level_cells(result, attribute)
        if all(c == "--" for c in cells):
            continue
        average = result.levels.get(name, math.nan)
        rows.append((name, "--" if math.isnan(average) else f"{average:.3f}", cells))
    return rows


def _level_lines(result: TaskSetResult) -> list[str]:
    return [f"level {name} (not ranked): {AVERAGE_HEADER} {average}; "
            + "; ".join(f"task{i} {c}" for i, c in enumerate(cells, start=1))
            for name, average, cells in _level_rows(result)]


def render(result: TaskSetResult, fmt: str = "text", command: str | None = None) -> str:
    """The whole result as MTME's notebook prints it, the run's settings and notes after it (and the
    command that made it, when given). ``markdown``: the same as a Markdown table with lists."""
    if fmt == "markdown":
        return markdown(result, command)
    columns, headers = _columns(result)
    metrics = metric_order(result)
    if not metrics:
        body = "(no metric could be ranked)\n"
    else:
        body = metrics_table(metrics, columns, headers, fmt)
    comment = {"text": "", "tsv": "# ", "latex": "% "}[fmt]
    lines = [*_level_lines(result), _settings_line(result), *_task_lines(result),
             *(f"note: {n}" for n in result.notes)]
    if command:
        lines.append(f"command: {command}")
    return body + "".join(f"{comment}{line}\n" for line in lines)


def markdown(result: TaskSetResult, command: str | None = None) -> str:
    """The table in Markdown: a row per metric (the average's order), each cell the value and its
    significance cluster (1 = top, in bold), ``--`` where a metric is not in a task; the settings, the
    tasks and the notes as lists."""
    columns, _ = _columns(result)
    metrics = metric_order(result)
    heads = ["metric", "average"] + [f"task{i}: {t.task.label}" for i, t in enumerate(result.tasks, start=1)]
    out = f"{_settings_line(result)}.\n\n"
    if not metrics:
        out += "No metric could be ranked.\n"
    else:
        out += "| " + " | ".join(heads) + " |\n|" + "---|" + "---:|" * (len(heads) - 1) + "\n"
        for m in metrics:
            cells = []
            for i, column in enumerate(columns):
                value, rank = column.get(m, (None, None))
                cells.append("--" if value is None else
                             (f"**{value:.3f}** (1)" if rank == 1 else f"{value:.3f} ({rank})")
                             + (FLOOR_MARK if i and _on_floor(result.tasks[i - 1], value) else ""))
            out += "| " + " | ".join([m.replace("*", "\\*").replace("|", "\\|"), *cells]) + " |\n"
        for name, average, cells in _level_rows(result):
            out += "| " + " | ".join([f"_{name}_", average, *cells]) + " |\n"
    out += "\nEach cell: value (significance cluster; 1 = top, in bold). '*' before a name: not a primary " \
           "submission (mt-metrics-eval's marker); average: each task's value rescaled to [0, 1] by its " \
           "range, weighted (mt-metrics-eval's `AverageCorrs`), over the metrics in every task. Rows in " \
           "italics are reference levels, not ranked (see the notes; ± a Monte-Carlo standard error); " \
           f"{FLOOR_MARK.strip()}: the value of tying every pair (the all-tied floor).\n\n"
    out += "Tasks:\n\n" + "".join(f"- {line}\n" for line in _task_lines(result))
    if result.notes:
        out += "\nNotes (departures from mt-metrics-eval's set-up, exclusions):\n\n"
        out += "".join(f"- {note}\n" for note in result.notes)
    if command:
        out += f"\nCommand:\n\n```text\n{command}\n```\n"
    return out


def ranking_rows(result: TaskSetResult) -> pd.DataFrame:
    """MTME's ``MetricsTable`` as a plain table: a row per metric (the average's order, then those
    missing from some task), its average and cluster, each task's value and cluster (empty where the
    metric is not in the task), and the run's k, seed and task set."""
    columns, _ = _columns(result)
    names = ["average"] + [f"task{i} {t.task.label}" for i, t in enumerate(result.tasks, start=1)]
    rows = []
    for m in metric_order(result):
        row = {"metric": m}
        for name, column in zip(names, columns, strict=True):
            value, rank = column.get(m, (math.nan, None))
            row[name], row[f"{name} rank"] = value, rank
        rows.append({**row, "k": result.k, "seed": result.seed, "task_set": result.task_set.name})
    header = ["metric", *(c for name in names for c in (name, f"{name} rank")), "k", "seed", "task_set"]
    table = pd.DataFrame(rows, columns=header)
    for name in names:
        table[f"{name} rank"] = table[f"{name} rank"].astype("Int64")
    return table


TASK_COLUMNS = ["task", "test_set", "lang", "level", "corr_fcn", "avg_by", "human_translations", "gold", "refs",
                "outliers", "primary", "weight", "metric", "value", "rank", "n_systems", "n_items", "k", "seed",
                "method"]


def task_rows(result: TaskSetResult) -> pd.DataFrame:
    rows = []
    for i, (task, weight) in enumerate(zip(result.tasks, result.task_set.weights, strict=True), start=1):
        t = task.task
        base = {"task": i, "test_set": t.test_set, "lang": t.lang, "level": t.level, "corr_fcn": t.corr_fcn,
                "avg_by": t.avg_by, "human_translations": "included" if task.human_used else "excluded",
                "gold": task.gold, "refs": ",".join(task.refs), "outliers": "kept" if t.use_outliers else "left out",
                "primary": t.primary, "weight": weight, "n_systems": task.n_systems, "n_items": task.n_items,
                "k": t.k, "seed": result.seed + i - 1}
        if task.ranking is None:
            rows.append({**base, "metric": "", "value": math.nan, "rank": None, "method": "not run"})
            continue
        for name, value, rank in zip(task.ranking.names, task.ranking.values, task.ranking.ranks, strict=True):
            rows.append({**base, "metric": name, "value": value, "rank": rank, "method": task.ranking.method})
    return pd.DataFrame(rows, columns=TASK_COLUMNS)


def average_rows(result: TaskSetResult) -> pd.DataFrame:
    return pd.DataFrame([{"metric": m, "average": v, "rank": r, "k": result.k, "seed": result.seed,
                          "task_set": result.task_set.name} for m, (v, r) in result.average.items()],
                        columns=["metric", "average", "rank", "k", "seed", "task_set"])


LEVEL_COLUMNS = ["level", "task", "label", "value", "standard_error", "draws", "method", "seed", "task_set"]


def level_rows(result: TaskSetResult) -> pd.DataFrame:
    """Every reference level: one row per level and task (task 0: the average over the tasks)."""
    rows = []
    for name, attribute in LEVELS:
        levels = [getattr(task, attribute) for task in result.tasks]
        if all(math.isnan(level.value) for level in levels):
            continue
        rows.append({"level": name, "task": 0, "label": "average", "value": result.levels.get(name, math.nan),
                     "standard_error": math.nan, "draws": 0, "method": "AverageCorrs of the task levels"})
        for i, (task, level) in enumerate(zip(result.tasks, levels, strict=True), start=1):
            rows.append({"level": name, "task": i, "label": task.task.label, "value": level.value,
                         "standard_error": level.standard_error, "draws": level.draws, "method": level.method})
    return pd.DataFrame([{**r, "seed": result.seed, "task_set": result.task_set.name} for r in rows],
                        columns=LEVEL_COLUMNS)


def p_value_rows(result: TaskSetResult) -> pd.DataFrame:
    """Every test: task (0 for the average), the better and the worse metric, the p-value of "better
    beats worse" and the draws it used."""
    rows = []
    for i, task in enumerate(result.tasks, start=1):
        ranking = task.ranking
        if ranking is None:
            continue
        for a in range(len(ranking.names)):
            for b in range(a + 1, len(ranking.names)):
                rows.append({"task": i, "better": ranking.names[a], "worse": ranking.names[b],
                             "p_value": ranking.p_values[a, b], "draws": int(ranking.draws[a, b])})
    names = list(result.average)
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            rows.append({"task": 0, "better": names[a], "worse": names[b], "p_value": result.p_values[a, b],
                         "draws": result.k})
    return pd.DataFrame(rows, columns=["task", "better", "worse", "p_value", "draws"])
