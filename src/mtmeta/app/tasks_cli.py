"""``mtmeta tasks``: an official (or a user's) task set of mt-metrics-eval on an MTME data root.

    mtmeta tasks wmt23 --root DIR [--testset wmt21.news --pairs en-de,en-ru,zh-en]
                 [--scores NAME=FILE ...] [--k N] [--seed S] [--format text|tsv|latex|markdown]
                 [--out DIR] [--figure FILE]

Every metric score stored in the root (``metric-scores/<lp>/<NAME>-<REF>.<level>.score``) takes part,
with the user's own (``--scores``: a TSV with columns ``lp``, ``system``, ``score`` and, for segment
scores, ``seg_id``; higher is better; segment scores alone also give the system score as their mean).
It needs nothing of the study (no config, word vectors or Parmesan). The study's rule official_tasks
runs the same code (:func:`run_tasks`, :func:`write_out`) on the arguments it records as the command.
"""

from __future__ import annotations

import json
import math
import shlex
import time
from dataclasses import dataclass, replace
from pathlib import Path

from mtmeta.app import options
from mtmeta.errors import InputError

FORMATS = ("text", "tsv", "latex", "markdown")


def add_tasks_command(add) -> None:
    """Register the command through cli.build_parser's ``add(name, handler, help)``."""
    p = add("tasks", cmd_tasks, "Run an mt-metrics-eval task set (wmt23, wmt24-on-wmt23, wmt24, wmt25 or a YAML "
                                "file) on an mt-metrics-eval data root: values, ranks and significance clusters "
                                "per task and for the weighted average.")
    p.add_argument("task_set", metavar="SET", help="wmt23, wmt24-on-wmt23, wmt24, wmt25, or a task-set YAML file")
    p.add_argument("--root", required=True, help="the data root: ROOT/<test set>/{sources,references,...}")
    p.add_argument("--testset", help="put the design on this test set of the root (e.g. wmt21.news)")
    p.add_argument("--pairs", help="comma-separated pairs for the design (default: the design's own)")
    p.add_argument("--std-ref", action="append", default=[], metavar="LP=REF",
                   help="standard reference of a pair where the root lacks mt-metrics-eval's (e.g. zh-en=refA)")
    p.add_argument("--gold", metavar="NAME",
                   help="human score of every task that names none (default: mt-metrics-eval's standard gold of the "
                        "pair; needed for a test set mt-metrics-eval does not know)")
    p.add_argument("--scores", action="append", default=[], metavar="NAME=FILE",
                   help="a metric of yours: TSV with lp, system, score (+ seg_id for segment scores)")
    p.add_argument("--metric-scores", action="append", default=[], metavar="DIR",
                   help="more stored metric scores: DIR/<lp>/<NAME>-<REF>.<level>.score (e.g. the study's "
                        "results/mtme/<dataset>/metric-scores)")
    p.add_argument("--all-metrics", action="store_true",
                   help="no primary-submission filter (mt-metrics-eval's primary=False)")
    p.add_argument("--k", type=options.count_or_zero, default=1000,
                   help=f"permutation draws per test, 0 to {options.MAX_COUNT} (default 1000; 0: no tests)")
    p.add_argument("--seed", type=options.seed, default=12345,
                   help=f"seed of the draws, 0 to {options.MAX_SEED} (task i uses SEED + i - 1)")
    p.add_argument("--note", action="append", default=[], metavar="TEXT",
                   help="a statement about the data to list first among the notes (e.g. systems it lacks)")
    p.add_argument("--format", choices=FORMATS, default="text", help="printed table (default text)")
    p.add_argument("--out", help="also write tasks.tsv, average.tsv, p_values.tsv, ranking.tsv, "
                                 "table.{txt,tsv,tex,md} and run.json here")
    p.add_argument("--figure", metavar="FILE", help="also draw the ranking figure (.png or .pdf)")


def _pairs_option(text: str, option: str) -> dict:
    out = {}
    for item in text:
        if "=" not in item or not item.split("=", 1)[0] or not item.split("=", 1)[1]:
            raise InputError(option, f"{item!r} is not NAME=VALUE", expected=f"{option} NAME=VALUE")
        key, value = item.split("=", 1)
        out.setdefault(key, []).append(value)
    return out


def read_user_scores(name: str, paths: list[str], pairs: dict) -> dict:
    """A user's metric: lp -> level -> MetricScores, checked against the root's pairs."""
    from mtmeta.data.evalset import metric_matrix
    from mtmeta.data.tables import read_table  # the checked reader: one number parser, one name policy

    out: dict = {}
    for path in paths:
        path = Path(path)
        table = read_table(path, {"lp": "name", "system": "name", "score": "number"}, optional={"seg_id": "integer"},
                           what=f"scores of {name} (columns lp, system, score, and seg_id for segment scores)")
        infinite = table[~table["score"].map(math.isfinite)]
        if len(infinite):  # the reader takes inf and nan as numbers; a correlation cannot
            raise InputError(path, f"score '{float(infinite['score'].iloc[0])}' is not a finite number",
                             line=int(infinite["line"].iloc[0]), expected="a number in every row")
        level = "seg" if "seg_id" in table.columns else "sys"
        for lp, rows in table.groupby("lp", sort=True):
            if lp not in pairs:
                raise InputError(path, f"pair {lp!r} is not a pair of the task set",
                                 expected=f"one of {sorted(pairs)}")
            evalset = pairs[lp].evalset
            if rows.duplicated(["system", "seg_id"] if level == "seg" else ["system"]).any():
                raise InputError(path, f"{lp}: a score is given twice", expected="one score per system (and segment)")
            matrix = metric_matrix(f"{name}-user", (), level, rows, evalset, path)
            matrix = _renamed(matrix, name)
            by_level = out.setdefault(lp, {})
            by_level[level] = matrix
            if level == "seg" and "sys" not in by_level:
                by_level["sys"] = _renamed(type(matrix)(matrix.name, matrix.basename, matrix.refs, "sys",
                                                        matrix.systems, matrix.scores.mean(axis=1, keepdims=True),
                                                        matrix.missing, matrix.path), name)
    return out


def _renamed(matrix, name):
    return replace(matrix, name=name, basename=name)


@dataclass
class TasksRun:
    """A task set run on a root: the result, what it took and the command that reproduces it."""

    result: object  # TaskSetResult
    root: Path
    seconds: float
    user_scores: dict  # metric name -> its files
    command: str


def command_line(args) -> str:
    """The run's command, options in one order (the outputs' options left out: they do not change the
    result), so that the same run is recorded the same way however its options were ordered."""
    words = ["mtmeta", "tasks", args.task_set, "--root", args.root]
    for option, value in (("--testset", args.testset), ("--pairs", args.pairs), ("--gold", args.gold)):
        if value:
            words += [option, value]
    for option, values in (("--std-ref", args.std_ref), ("--metric-scores", args.metric_scores),
                           ("--scores", args.scores)):
        for value in values:
            words += [option, value]
    if args.all_metrics:
        words.append("--all-metrics")
    words += ["--k", str(args.k), "--seed", str(args.seed)]
    for note in args.note:
        words += ["--note", note]
    return shlex.join(words)


def run_tasks(args) -> TasksRun:
    """Read the root, the stored scores and the user's; run the task set (``args``: the parsed options
    of ``mtmeta tasks``)."""
    from mtmeta.metaeval.tasks import load_pair, load_task_set, official_task_set, run_task_set

    if Path(args.task_set).suffix in (".yaml", ".yml") or Path(args.task_set).is_file():
        task_set = load_task_set(args.task_set, k=args.k)
        if args.all_metrics:
            task_set = replace(task_set, tasks=tuple(replace(t, primary=False) for t in task_set.tasks))
    else:
        lps = args.pairs.split(",") if args.pairs else None
        task_set = official_task_set(args.task_set, lps=lps, test_set=args.testset, k=args.k,
                                     primary=not args.all_metrics)
    if args.gold:
        task_set = replace(task_set, tasks=tuple(t if t.gold else replace(t, gold=args.gold) for t in task_set.tasks))
    root = Path(args.root)
    if not root.is_dir():
        raise InputError(root, "no such directory", expected="an mt-metrics-eval data root")
    std_refs = {(t.test_set, lp): ref for t in task_set.tasks
                for lp, refs in _pairs_option(args.std_ref, "--std-ref").items() for ref in refs}
    pairs = {}
    for task in task_set.tasks:
        for lp in task.pairs:
            if lp not in pairs:
                pairs[lp] = load_pair(root, task.test_set, lp, std_ref=std_refs.get((task.test_set, lp)),
                                      metric_dirs=args.metric_scores)
    loaded = {(t.test_set, lp): pairs[lp] for t in task_set.tasks for lp in t.pairs}
    user_scores = _pairs_option(args.scores, "--scores")
    extra = {name: read_user_scores(name, paths, pairs) for name, paths in user_scores.items()}
    started = time.perf_counter()
    result = run_task_set(task_set, root, extra=extra, seed=args.seed, std_refs=std_refs, loaded=loaded,
                          notes=args.note)
    return TasksRun(result, root, time.perf_counter() - started, user_scores, command_line(args))


OUT_FILES = ("tasks.tsv", "average.tsv", "p_values.tsv", "ranking.tsv", "table.txt", "table.tsv", "table.tex",
             "table.md", "run.json")


def write_out(run: TasksRun, out: str | Path) -> None:
    """The files of ``--out``: the long tables (every task x metric, the average, every test's p-value,
    the reference levels),
    the plain ranking table, the table in every format, and the run's settings."""
    from mtmeta.metaeval.task_tables import average_rows, level_rows, p_value_rows, ranking_rows, render, task_rows

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    result = run.result
    task_rows(result).to_csv(out / "tasks.tsv", sep="\t", index=False)
    average_rows(result).to_csv(out / "average.tsv", sep="\t", index=False)
    p_value_rows(result).to_csv(out / "p_values.tsv", sep="\t", index=False)
    level_rows(result).to_csv(out / "levels.tsv", sep="\t", index=False)
    ranking_rows(result).to_csv(out / "ranking.tsv", sep="\t", index=False)
    for fmt, suffix in (("text", "txt"), ("tsv", "tsv"), ("latex", "tex"), ("markdown", "md")):
        (out / f"table.{suffix}").write_text(render(result, fmt, run.command), encoding="utf-8")
    # No run time here: the same run must write the same bytes (the time goes to the log and stderr).
    (out / "run.json").write_text(json.dumps(
        {"task_set": result.task_set.name, "source": result.task_set.source, "root": str(run.root), "k": result.k,
         "seed": result.seed, "notes": result.notes, "user_metrics": run.user_scores,
         "command": run.command}, indent=1) + "\n", encoding="utf-8")


def cmd_tasks(args) -> int:
    from mtmeta.metaeval.task_tables import render

    if args.figure and Path(args.figure).suffix not in (".png", ".pdf"):
        raise InputError(args.figure, "not a figure file name", expected="--figure FILE.png or FILE.pdf")
    run = run_tasks(args)
    print(render(run.result, args.format, run.command), end="")
    if args.out:
        write_out(run, args.out)
    if args.figure:
        from mtmeta.paper.task_figures import ranking_figure

        ranking_figure(run.result, [args.figure])
    return 0
