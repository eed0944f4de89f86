"""Time the whole study, and turn its per-job benchmarks into a table of the most expensive rules.

    .venv/bin/python benchmarks/study_timing.py run -- .venv/bin/snakemake --cores 2
    .venv/bin/python benchmarks/study_timing.py noop [--repeats 3] -- .venv/bin/snakemake --cores 2
    .venv/bin/python benchmarks/study_timing.py table [--top 15] [--out benchmarks/results/study_timing.md]
    .venv/bin/python benchmarks/study_timing.py compare BEFORE_DIR AFTER_DIR [--top 15]

``run`` runs the given command (normally Snakemake on the default config), then writes its wall
time, the peak resident memory of its largest process and the number of jobs Snakemake ran to
``results/benchmarks/study.json``, with the machine it ran on: the processor (model, family, cores)
and a calibration, the best of three runs of a fixed one-core workload (:func:`calibrate`), timed just
before the study. Hosts of "the same machine class" differ: the same code took 20.3-20.8 min on one
and 14.5 min on another, so a wall time is read beside its calibration. ``noop`` times the same
command on a finished study (Snakemake parsing the workflow, building the DAG and finding nothing to
do) and writes
``results/benchmarks/noop.json``; it fails if the command did run jobs. ``table`` reads every
job's ``benchmark:`` file under
``results/benchmarks/<rule>/`` (Snakemake's wall seconds and peak RSS per job) and each job's CPU
time from the last line of its log under ``results/logs/`` (``mtmeta.logsetup`` writes it when the
job's process exits), and writes, per rule, the number of jobs, the summed and the largest job time,
the CPU time and the peak memory: the 15 most expensive
rules and the total, with the run's wall time and peak memory when ``study.json`` exists. ``compare``
puts two finished studies side by side (say the code before and after a change, run one after the
other on one machine): per rule, jobs, summed wall and CPU seconds of each, and the CPU ratio.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import resource
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from mtmeta.logsetup import PROCESS_TIME

BENCHMARKS = Path("results/benchmarks")
SUMMARY = BENCHMARKS / "study.json"
NOOP = BENCHMARKS / "noop.json"
_NOTHING = "Nothing to be done"
_FINISHED = re.compile(r"^(\d+) of (\d+) steps \(100%\) done", re.MULTILINE)


def machine() -> dict:
    """The processor the study runs on, from /proc/cpuinfo (Linux; empty fields elsewhere)."""
    fields = {}
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        text = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key in ("model name", "cpu family", "model", "stepping") and key not in fields:
            fields[key] = value.strip()
    return {"cpu": fields.get("model name", "unknown"), "cpu_family": fields.get("cpu family", "?"),
            "cpu_model": fields.get("model", "?"), "cores": os.cpu_count()}


def calibrate(repeats: int = 3) -> float:
    """Best of ``repeats`` timings of a fixed one-core workload of the kind the study runs (interpreted
    loops over strings and dicts, a sort, a numpy sort and sum): 0.5 s on an AMD EPYC of family 26. The
    ratio of two hosts' calibrations predicts the ratio of their study times roughly, not exactly."""
    import random

    import numpy as np

    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        rng = random.Random(1)
        words = ["".join(rng.choice("abcdefghij") for _ in range(6)) for _ in range(200_000)]
        counts: dict[str, int] = {}
        for word in words * 10:
            counts[word] = counts.get(word, 0) + 1
        sorted(words)
        values = np.random.default_rng(1).random(4_000_000)
        float(np.sort(values).cumsum()[-1])
        best = min(best, time.perf_counter() - start)
    return round(best, 3)


def run(command: list[str]) -> dict:
    """Run the study command, echoing its output, and record wall time, peak memory and job count,
    with the machine and its calibration."""
    host = {**machine(), "calibration_seconds": calibrate()}
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    jobs = None
    for line in process.stdout:
        sys.stdout.write(line)
        match = _FINISHED.match(line)
        if match:
            jobs = int(match.group(1))
    code = process.wait()
    wall = time.perf_counter() - start
    # The largest resident set among the processes the command waited for (Snakemake's jobs included).
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak_mb = usage.ru_maxrss / 1024
    # CPU time of everything the command ran (Snakemake's own scheduling included): on 2 cores the
    # wall time cannot fall below half of it.
    summary = {"command": " ".join(command), "exit_code": code, "wall_seconds": round(wall, 1),
               "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1), "peak_rss_mb": round(peak_mb), "jobs": jobs,
               **host}
    BENCHMARKS.mkdir(parents=True, exist_ok=True)
    SUMMARY.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary), file=sys.stderr)
    return summary


def noop(command: list[str], repeats: int = 3) -> dict:
    """Wall seconds of ``repeats`` runs of the study command with nothing left to do."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        seconds.append(round(time.perf_counter() - start, 2))
        if result.returncode != 0 or _NOTHING not in result.stdout + result.stderr:
            raise SystemExit(f"not a no-op run (exit code {result.returncode}); finish the study first:\n"
                             + (result.stdout + result.stderr)[-2000:])
    summary = {"command": " ".join(command), "seconds": seconds, "median_seconds": sorted(seconds)[len(seconds) // 2]}
    BENCHMARKS.mkdir(parents=True, exist_ok=True)
    NOOP.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary), file=sys.stderr)
    return summary


def job_cpu_seconds(log: Path) -> float | None:
    """A job's CPU time as its log's last line records it (``mtmeta.logsetup``: the job's process from
    its start and the worker processes it waited for); None without such a line."""
    if not log.is_file():
        return None
    found = PROCESS_TIME.findall(log.read_text(encoding="utf-8", errors="replace"))
    return float(found[-1]) if found else None


def rule_costs(root: Path = BENCHMARKS) -> list[dict]:
    """Per rule: jobs, summed and largest wall seconds, CPU seconds, peak RSS (MB), from Snakemake's
    benchmark files and, for CPU time, each job's log (``results/logs/`` mirrors ``results/benchmarks/``)
    where it records it, else the benchmark's sampled CPU time (``exact_jobs`` counts the former)."""
    costs: dict[str, dict] = defaultdict(lambda: {"jobs": 0, "seconds": 0.0, "cpu_seconds": 0.0, "max_seconds": 0.0,
                                                  "peak_mb": 0.0, "exact_jobs": 0})
    logs = root.parent / "logs"
    for path in sorted(root.rglob("*.tsv")):
        rule = path.relative_to(root).parts[0]
        if rule == path.name:  # a file directly under results/benchmarks names its rule
            rule = path.stem
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
        if not rows or "s" not in rows[0]:
            continue
        seconds = float(rows[-1]["s"])
        rss = rows[-1].get("max_rss", "NA")
        entry = costs[rule]
        entry["jobs"] += 1
        entry["seconds"] += seconds
        exact = job_cpu_seconds(logs / path.relative_to(root).with_suffix(".log"))
        cpu = rows[-1].get("cpu_time", "NA") if exact is None else exact
        if cpu not in ("NA", "-", ""):
            entry["cpu_seconds"] += float(cpu)
        entry["exact_jobs"] += exact is not None
        entry["max_seconds"] = max(entry["max_seconds"], seconds)
        if rss not in ("NA", "-", ""):
            entry["peak_mb"] = max(entry["peak_mb"], float(rss))
    return sorted(({"rule": rule, **values} for rule, values in costs.items()), key=lambda r: -r["seconds"])


def table(top: int = 15) -> str:
    costs = rule_costs()
    if not costs:
        raise SystemExit(f"no benchmark files under {BENCHMARKS}; run the study first")
    total = sum(c["seconds"] for c in costs)
    lines = ["# The study's cost by rule", ""]
    run_info: dict = {}
    if SUMMARY.is_file():
        run_info = json.loads(SUMMARY.read_text())
        cpu = f", {run_info['cpu_seconds'] / 60:.1f} min of CPU" if "cpu_seconds" in run_info else ""
        lines += [f"Whole run: **{run_info['wall_seconds'] / 60:.1f} min wall**{cpu}, {run_info['jobs']} jobs, peak "
                  f"memory of the largest process {run_info['peak_rss_mb']} MB (`{run_info['command']}`, exit code "
                  f"{run_info['exit_code']}).", ""]
        if "calibration_seconds" in run_info:
            lines += [f"Machine: {run_info['cpu']} (family {run_info['cpu_family']}, model {run_info['cpu_model']}), "
                      f"{run_info['cores']} cores; calibration {run_info['calibration_seconds']:.3f} s (the best of "
                      "three runs of `study_timing.calibrate`, a fixed one-core workload, just before the study: "
                      "compare wall times of different hosts beside it).", ""]
    if NOOP.is_file():
        info = json.loads(NOOP.read_text())
        lines += [f"A no-op rerun (`{info['command']}` with nothing to do: parsing the workflow and building its DAG): "
                  f"**{info['median_seconds']:.1f} s** median of {len(info['seconds'])} runs "
                  f"({', '.join(f'{s:.1f}' for s in info['seconds'])} s).", ""]
    jobs, exact = sum(c["jobs"] for c in costs), sum(c["exact_jobs"] for c in costs)
    job_cpu = sum(c["cpu_seconds"] for c in costs)
    lines += [f"Job time summed over all jobs: {total:.0f} s in {jobs} jobs "
              "(with 2 cores, wall time is at least half of that). Seconds are each job's wall time from its "
              "`benchmark:` file; memory is the job's peak resident set there. CPU seconds are each job's CPU time "
              "as the last line of its log records it (its process from the interpreter's start, and the worker "
              f"processes it waited for): {exact} of the {jobs} jobs; for the others, Snakemake's benchmark samples, "
              "taken every 30 s after a job's first 15 s (a lower bound). A scoring job (`score_segments`, "
              "`score_paraphrased`) scores its runs in two processes at once when it has two cores: its CPU "
              "seconds can be up to twice its seconds.",
              *(["", f"The jobs' CPU time, {job_cpu:.0f} s, is {100 * job_cpu / run_info['cpu_seconds']:.0f}% of the "
                 f"whole run's {run_info['cpu_seconds']:.0f} s; the rest is Snakemake's own process (parsing the "
                 "workflow, scheduling), this timing wrapper and each job's exit after its log line."]
               if exact == jobs and run_info.get("cpu_seconds") else []),
              "", "| rule | jobs | seconds (sum) | share | CPU s (sum) | largest job s | peak MB |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for c in costs[:top]:
        lines.append(f"| `{c['rule']}` | {c['jobs']} | {c['seconds']:.1f} | {100 * c['seconds'] / total:.1f}% | "
                     f"{c['cpu_seconds']:.1f} | {c['max_seconds']:.1f} | {c['peak_mb']:.0f} |")
    rest = costs[top:]
    if rest:
        lines.append(f"| {len(rest)} other rules | {sum(c['jobs'] for c in rest)} | "
                     f"{sum(c['seconds'] for c in rest):.1f} | {100 * sum(c['seconds'] for c in rest) / total:.1f}% | "
                     f"{sum(c['cpu_seconds'] for c in rest):.1f} | {max(c['max_seconds'] for c in rest):.1f} | "
                     f"{max(c['peak_mb'] for c in rest):.0f} |")
    lines.append(f"| **total** | {sum(c['jobs'] for c in costs)} | {total:.1f} | 100% | "
                 f"{sum(c['cpu_seconds'] for c in costs):.1f} | | |")
    return "\n".join(lines) + "\n"


def compare(before: Path, after: Path, top: int = 15) -> str:
    """Two studies' costs by rule, side by side (rules in the order of the first's wall seconds)."""
    runs = [{c["rule"]: c for c in rule_costs(study / "results" / "benchmarks")} for study in (before, after)]
    if not all(runs):
        raise SystemExit(f"no benchmark files under {before} or {after}; run both studies first")
    empty = {"jobs": 0, "seconds": 0.0, "cpu_seconds": 0.0}
    order = sorted(set(runs[0]) | set(runs[1]), key=lambda rule: -runs[0].get(rule, empty)["seconds"])

    def ratio(old: float, new: float) -> str:
        return f"{new / old:.2f}" if old else ""

    lines = [f"| rule | jobs | wall s, {before.name} | wall s, {after.name} | CPU s, {before.name} | "
             f"CPU s, {after.name} | CPU ratio |", "|---|---:|---:|---:|---:|---:|---:|"]

    def row(name: str, old: dict, new: dict) -> str:
        cpu = ratio(old["cpu_seconds"], new["cpu_seconds"])
        return (f"| {name} | {old['jobs']} / {new['jobs']} | {old['seconds']:.1f} | {new['seconds']:.1f} | "
                f"{old['cpu_seconds']:.1f} | {new['cpu_seconds']:.1f} | {cpu} |")

    def total(rules: list[str], k: int) -> dict:
        return {key: sum(runs[k].get(rule, empty)[key] for rule in rules) for key in empty}

    lines += [row(f"`{rule}`", runs[0].get(rule, empty), runs[1].get(rule, empty)) for rule in order[:top]]
    if order[top:]:
        lines.append(row(f"{len(order[top:])} other rules", total(order[top:], 0), total(order[top:], 1)))
    lines.append(row("**total**", total(order, 0), total(order, 1)))
    for study, run in zip((before, after), runs, strict=True):
        exact = (f" Jobs' CPU seconds from their logs: {sum(c['exact_jobs'] for c in run.values())} of "
                 f"{sum(c['jobs'] for c in run.values())} jobs (the others: Snakemake's benchmark samples).")
        summary = study / "results" / "benchmarks" / "study.json"
        if summary.is_file():
            info = json.loads(summary.read_text())
            cpu = f", {info['cpu_seconds']:.0f} CPU s" if "cpu_seconds" in info else ""
            lines.append(f"\n{study.name}: {info['wall_seconds']:.1f} s wall{cpu}, {info['jobs']} jobs, calibration "
                         f"{info.get('calibration_seconds', float('nan')):.3f} s.{exact}")
        else:
            lines.append(f"\n{study.name}:{exact}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run the study command and record wall time, peak memory and jobs")
    p.add_argument("study", nargs=argparse.REMAINDER, help="the command, after --")
    p = sub.add_parser("noop", help="time the study command on a finished study (nothing to do)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("study", nargs=argparse.REMAINDER, help="the command, after --")
    p = sub.add_parser("table", help="the most expensive rules of the last run, as Markdown")
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--out", help="also write the table to this file")
    p = sub.add_parser("compare", help="two finished studies' costs by rule, side by side, as Markdown")
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    p.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    if args.command == "compare":
        print(compare(args.before, args.after, args.top), end="")
        return
    if args.command == "run":
        command = args.study[1:] if args.study[:1] == ["--"] else args.study
        if not command:
            parser.error("run needs the study command after --")
        sys.exit(run(command)["exit_code"])
    if args.command == "noop":
        command = args.study[1:] if args.study[:1] == ["--"] else args.study
        if not command:
            parser.error("noop needs the study command after --")
        noop(command, args.repeats)
        return
    text = table(args.top)
    if args.out:
        Path(args.out).write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
