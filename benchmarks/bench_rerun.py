"""The researcher's daily loop on a finished study, timed: rerun one metric, add one user's metric.

    .venv/bin/python benchmarks/bench_rerun.py --study DIR [--study-before DIR] --out benchmarks/results/rerun.md

For each study directory (a finished ``make study``; ``--study-before``: one of the code before the
change, for the "before" column), in that directory:

1. ``snakemake --cores 2 metric_bleu --forcerun=score_bleu`` (``make metric METRIC=bleu``): BLEU's scoring
   and its own results (its meta-evaluation pieces and scatter figure), timed, with the jobs Snakemake
   ran by rule; then every result file (but logs, benchmarks and the cache) compared byte for byte with its copy
   from before: a rerun must write the same bytes.
2. ``snakemake --cores 2 -R score_bleu``: BLEU's scoring and everything downstream of it, every table
   that compares metrics included, timed and compared the same way.
3. One ``external_scores`` entry added through a config that extends the study's (its segment file:
   chrF's segment scores of WMT12 en-cs plus seeded noise, as ``mtmeta evaluate``'s docs do), timed,
   with the tables and figures it reached; then the study's own config run again, which puts the tables
   back (timed too, as "remove the entry").

Writes a markdown table (``--out``) with the machine's calibration (benchmarks/study_timing.py).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from study_timing import calibrate, machine  # noqa: E402

SKIPPED = ("results/logs", "results/benchmarks", "results/cache")
# Every job Snakemake finished, by rule (a job with a message prints no "rule <name>:" header).
_JOB = re.compile(r"^Finished jobid: \d+ \(Rule: (\w+)\)", re.MULTILINE)


def snapshot(study: Path) -> dict[str, str]:
    """sha256 of every result file but logs, benchmarks and the table cache (results/cache)."""
    digests = {}
    for path in sorted((study / "results").rglob("*")):
        relative = path.relative_to(study).as_posix()
        if path.is_file() and not relative.startswith(SKIPPED):
            digests[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def run(study: Path, *arguments: str) -> tuple[float, Counter, str]:
    # The study's own virtualenv: its package is an editable install of its own src/, so another
    # study's Snakemake would run this study's rules with the other study's code.
    own = study / ".venv" / "bin" / "snakemake"
    snakemake = str(own if own.exists() else Path(sys.executable).parent / "snakemake")
    start = time.perf_counter()
    result = subprocess.run([snakemake, "--cores", "2", *arguments], cwd=study, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"snakemake {' '.join(arguments)} failed in {study}:\n{result.stderr[-3000:]}")
    return seconds, Counter(_JOB.findall(result.stdout + result.stderr)), result.stdout + result.stderr


def user_scores(study: Path) -> Path:
    """A user's metric: chrF's segment scores of WMT12 en-cs plus N(0, 10) noise (seed 1)."""
    table = pd.read_parquet(study / "results/scores/wmt12/en-cs/chrf.seg.parquet",
                            columns=["system", "seg_id", "score"])
    noise = np.random.default_rng(1).normal(0, 10, len(table))
    out = study / "bench-external" / "mine.seg.tsv"
    out.parent.mkdir(exist_ok=True)
    table.assign(dataset="wmt12", lp="en-cs", score=table["score"] + noise)[
        ["dataset", "lp", "system", "seg_id", "score"]].to_csv(out, sep="\t", index=False)
    config = study / "bench-external" / "config.yaml"
    # A --configfile replaces the study's config since 3bc275f (it `extends` it to add a key); before,
    # Snakemake merged it over config/config.yaml.
    composes = "load_config" in (study / "Snakefile").read_text()
    extends = f"extends: {(study / 'config' / 'config.yaml').resolve()}\n" if composes else ""
    config.write_text(f"{extends}external_scores:\n  mine: {{segment: {out.relative_to(study)}}}\n")
    return config


def rerun(study: Path, row: dict, key: str, *arguments: str) -> None:
    """Time one rerun, its jobs by rule, and the result files it changed (it must change none)."""
    before = snapshot(study)
    row[f"{key}_seconds"], jobs, _ = run(study, *arguments)
    row[f"{key}_jobs"] = sum(jobs.values())
    row[f"{key}_rules"] = ", ".join(f"{rule} {n}" for rule, n in sorted(jobs.items()))
    after = snapshot(study)
    changed = sorted(p for p in before if after.get(p) != before[p])
    row[f"{key}_changed_files"] = len(changed)
    row[f"{key}_changed_examples"] = ", ".join(changed[:5])


def measure(study: Path) -> dict:
    row = {"study": str(study)}
    # The target rule metric_<id> is newer than some studies: those get the full rerun only.
    if "results_rule_name" in (study / "workflow" / "rules" / "metaeval.smk").read_text():
        rerun(study, row, "own", "metric_bleu", "--forcerun=score_bleu")
    rerun(study, row, "rerun", "-R", "score_bleu")
    config = user_scores(study)
    row["external_seconds"], jobs, _ = run(study, "--configfile", str(config))
    row["external_jobs"] = sum(jobs.values())
    row["external_rules"] = ", ".join(f"{rule} {n}" for rule, n in sorted(jobs.items()))
    tables = [p for p in ("results/correlations/system_level.tsv", "results/paper/overview.tsv")
              if (study / p).is_file() and "mine" in set(pd.read_csv(study / p, sep="\t")["metric"])]
    row["external_reaches"] = ", ".join(tables + [p.relative_to(study).as_posix()
                                                  for p in (study / "results/figures").glob("*mine*.png")])
    row["restore_seconds"], jobs, _ = run(study)
    row["restore_jobs"] = sum(jobs.values())
    return row


def markdown(rows: list[dict], calibration: float, host: dict) -> str:
    lines = ["# The daily loop on a finished study", "",
             f"Host: {host['cpu']} (family {host['cpu_family']}), {host['cores']} cores; calibration "
             f"{calibration:.3f} s (benchmarks/study_timing.py). Written by benchmarks/bench_rerun.py.", "",
             "| study | `metric_bleu --forcerun=score_bleu` | jobs | files changed | `-R score_bleu` | jobs | "
             "files changed | add one external_scores entry | jobs | it reaches | remove it again |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    for row in rows:
        own = (f"{row['own_seconds']:.1f} s | {row['own_jobs']} | {row['own_changed_files']}" if "own_seconds" in row
               else "not in this study's workflow | | ")
        lines.append(f"| {row['label']} | {own} | {row['rerun_seconds']:.1f} s | {row['rerun_jobs']} | "
                     f"{row['rerun_changed_files']} | {row['external_seconds']:.1f} s | {row['external_jobs']} | "
                     f"{row['external_reaches']} | {row['restore_seconds']:.1f} s |")
    lines += ["", "Jobs by rule:", ""]
    for row in rows:
        for key, what in (("own", "own results"), ("rerun", "rerun")):
            if f"{key}_rules" in row:
                lines.append(f"- {row['label']}, {what}: {row[f'{key}_rules']}")
                if row[f"{key}_changed_files"]:
                    lines.append(f"- {row['label']}, files the {what} changed (first five): "
                                 f"{row[f'{key}_changed_examples']}")
        lines.append(f"- {row['label']}, add: {row['external_rules']}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--study", required=True, type=Path, help="a finished study of this code")
    parser.add_argument("--study-before", type=Path, help="a finished study of the code before the change")
    parser.add_argument("--out", type=Path, help="markdown table to write")
    args = parser.parse_args(argv)
    calibration, host = calibrate(), machine()
    rows = []
    for label, study in (("before", args.study_before), ("after", args.study)):
        if study is not None:
            rows.append({"label": label, **measure(study.resolve())})
    text = markdown(rows, calibration, host)
    if args.out:
        args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
