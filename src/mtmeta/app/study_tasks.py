"""The official task sets in the study (rule official_tasks): the ``mtmeta tasks`` command a table is
made with, from the study's config, and what the study knows about its data that the command cannot
see, passed to it as notes.

The rule runs the command's own code (:func:`mtmeta.app.tasks_cli.run_tasks` and ``write_out``) on the
arguments built here, and records the command in every output, so that running it in the study's
directory writes the same files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

# The assembly reports' kind for human-scored systems the study has no output of (mtmeta.data.wmt21).
SCORED_WITHOUT_OUTPUT = "scores_without_output"


def tasks_argv(spec: Mapping, scores: Sequence[str] = (), notes: Sequence[str] = ()) -> list[str]:
    """``mtmeta tasks`` arguments of one table. ``spec`` (the rule's params): design, root, testset,
    pairs, gold (the human score), std_refs (lp -> reference), metric_scores (folders), k, seed;
    ``scores``: NAME=FILE items of the user metrics; ``notes``: statements to list first among the notes."""
    argv = ["tasks", spec["design"], "--root", str(spec["root"]), "--testset", spec["testset"],
            "--pairs", ",".join(spec["pairs"]), "--gold", spec["gold"]]
    for lp, ref in sorted(spec.get("std_refs", {}).items()):
        argv += ["--std-ref", f"{lp}={ref}"]
    for folder in spec.get("metric_scores", []):
        argv += ["--metric-scores", str(folder)]
    for item in scores:
        argv += ["--scores", item]
    argv += ["--all-metrics", "--k", str(spec["k"]), "--seed", str(spec["seed"])]
    for note in notes:
        argv += ["--note", note]
    return argv


REPORT_COLUMNS = {"evalset", "lp", "kind", "detail"}


def assembly_reports(root: str | Path) -> list[Path]:
    """The reports the study's assembly wrote into an eval-set root (``<root>/<name>_report.tsv``,
    ``<root>/<test set>/report.tsv``); none in a root of another origin."""
    root = Path(root)
    candidates = sorted(root.glob("*_report.tsv")) + sorted(root.glob("*/report.tsv"))
    return [path for path in candidates
            if REPORT_COLUMNS <= set(path.read_text(encoding="utf-8").split("\n", 1)[0].split("\t"))]


def missing_system_notes(root: str | Path, testset: str, lps: Sequence[str], human: str) -> list[str]:
    """Per pair, the systems with human scores that the study's eval set has no output of (the
    assembly reports' ``scores_without_output`` rows): systems of the official set-up that no task here
    can have."""
    frames = [pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False) for path in assembly_reports(root)]
    if not frames:
        return []
    table = pd.concat(frames, ignore_index=True)
    notes = []
    for lp in lps:
        rows = table[(table["evalset"] == testset) & (table["lp"] == lp) & (table["kind"] == SCORED_WITHOUT_OUTPUT)]
        systems = sorted({detail.split(" of ", 1)[1].split(",")[0] for detail in rows["detail"] if " of " in detail})
        if systems:
            notes.append(f"{testset} {lp}: {len(systems)} system(s) with {human} scores but no output in the public "
                         f"sources of the eval set, so in no task here: {', '.join(systems)}")
    return notes


def user_score_files(folder: str | Path, metrics: Mapping[str, Mapping]) -> list[str]:
    """Write the scores of the user's metrics (the study's ``external_scores``) as ``mtmeta tasks
    --scores`` files: ``folder/<metric>.seg.tsv`` (lp, system, seg_id, score) and ``<metric>.sys.tsv``
    (lp, system, score), negated for a metric whose lower scores are better. ``metrics``: id ->
    {higher_is_better, pairs, segments: per pair its seg.parquet, systems: per pair its sys.tsv}.
    Returns the NAME=FILE items."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    items = []
    for metric, spec in metrics.items():
        sign = 1.0 if spec.get("higher_is_better", True) else -1.0
        seg = pd.concat([pd.read_parquet(path, columns=["system", "seg_id", "score"]).assign(lp=lp)
                         for lp, path in zip(spec["pairs"], spec["segments"], strict=True)], ignore_index=True)
        sys = pd.concat([pd.read_csv(path, sep="\t", usecols=["system", "score"], dtype={"system": str}).assign(lp=lp)
                         for lp, path in zip(spec["pairs"], spec["systems"], strict=True)], ignore_index=True)
        for level, table, columns in (("seg", seg, ["lp", "system", "seg_id", "score"]),
                                      ("sys", sys, ["lp", "system", "score"])):
            path = folder / f"{metric}.{level}.tsv"
            table.assign(score=sign * table["score"])[columns].to_csv(path, sep="\t", index=False, float_format="%.17g")
            items.append(f"{metric}={path}")
    return items


def write_official_tasks(spec: Mapping, out: str | Path, table: str | Path, markdown: str | Path,
                         figures: Sequence[str | Path]):
    """One table of the study (rule official_tasks): the user metrics' score files, the notes, then
    ``mtmeta tasks`` by its own code (:func:`mtmeta.app.tasks_cli.run_tasks`, ``write_out``) into ``out``;
    ``table`` and ``markdown`` are copies of its ranking.tsv and table.md, ``figures`` its ranking figure.
    Returns the run (its ``command`` writes the same files)."""
    import shutil

    from mtmeta.app.cli import build_parser
    from mtmeta.app.tasks_cli import run_tasks, write_out
    from mtmeta.paper.task_figures import ranking_figure

    out = Path(out)
    scores = user_score_files(out / "scores", spec["external"])
    notes = [*spec["notes"], *missing_system_notes(spec["root"], spec["testset"], spec["pairs"], spec["gold"])]
    run = run_tasks(build_parser().parse_args(tasks_argv(spec, scores, notes)))
    write_out(run, out)
    shutil.copyfile(out / "ranking.tsv", table)
    shutil.copyfile(out / "table.md", markdown)
    ranking_figure(run.result, list(figures))
    return run
