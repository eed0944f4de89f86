"""``mtmeta evaluate`` on one eval set without a finished study, timed from a fresh clone.

    .venv/bin/python benchmarks/bench_evaluate.py --pair-from RESULTS/datasets/wmt21news/en-de \\
        [--clone DIR] [--runs 2] [--out benchmarks/results/evaluate.md]

The script clones this repository (its committed HEAD) into ``--clone`` (default: a sibling directory of
this checkout, so that the data mirror ``../shared/data`` is found as in the checkout; it must not
exist), links this checkout's ``.venv`` into it and runs the clone's own code (``PYTHONPATH`` = the
clone's ``src``). The user's metric is seeded noise, one score per system and segment of the pair in
``--pair-from`` (a prepared pair of an earlier study: only its systems and segment ids are read), so
nothing of the clone is made beforehand. Run 1 finds no ``results/``: evaluate builds the pair with the
study's workflow and scores the built-in metrics that need nothing else; the later runs read the
prepared pair. Each run's wall time and peak memory (its process tree, ``wait4``) are recorded; the
clone is removed at the end.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from study_timing import calibrate, machine  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def user_scores(pair: Path, out: Path) -> tuple[str, str]:
    """A segment-score file of seeded noise for every (system, segment) of the prepared pair."""
    dataset, lp = pair.parent.name, pair.name
    segments = pd.read_parquet(pair / "segments.parquet", columns=["system", "seg_id"])
    rng = np.random.default_rng(7)
    segments.assign(dataset=dataset, lp=lp, score=rng.normal(size=len(segments)))[
        ["dataset", "lp", "system", "seg_id", "score"]].to_csv(out, sep="\t", index=False)
    return dataset, lp


def run(command: list[str], cwd: Path, env: dict) -> tuple[float, float, int, str]:
    """(wall s, peak MB of the largest process of its tree, exit status, last stderr line)."""
    log = cwd / "bench-evaluate.stderr"
    with log.open("w") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)  # the child and the descendants it waited for
        wall = time.perf_counter() - start
    lines = log.read_text().strip().splitlines()
    return wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), lines[-1] if lines else ""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pair-from", type=Path, required=True)
    parser.add_argument("--clone", type=Path, default=ROOT.parent / "bench-evaluate-clone")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.clone.exists():
        sys.exit(f"{args.clone} exists; give another --clone")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", str(ROOT), str(args.clone)], check=True)
    try:
        (args.clone / ".venv").symlink_to(ROOT / ".venv")
        scores = args.clone / "mine.seg.tsv"
        dataset, lp = user_scores(args.pair_from, scores)
        env = {**os.environ, "PYTHONPATH": str(args.clone / "src")}
        command = [str(ROOT / ".venv" / "bin" / "mtmeta"), "evaluate", "--segment", scores.name]
        seconds, host = calibrate(), machine()
        rows = []
        for number in range(1, args.runs + 1):
            wall, peak, status, last = run(command, args.clone, env)
            rows.append({"run": number, "results/ before": "none" if number == 1 else "the pair, from run 1",
                         "wall s": round(wall, 1), "peak MB": round(peak), "exit": status, "last line": last})
    finally:
        shutil.rmtree(args.clone)
    table = pd.DataFrame(rows).to_markdown(index=False)
    text = (f"# `mtmeta evaluate` without a finished study\n\n"
            f"Written by `benchmarks/bench_evaluate.py` at {head}: a fresh clone, the user's metric seeded noise "
            f"on {dataset} {lp} (`mtmeta evaluate --segment mine.seg.tsv`), run {args.runs} times in a row. Host: "
            f"{host['cpu']} (family {host['cpu_family']}), {os.cpu_count()} cores; calibration {seconds:.3f} s "
            f"(benchmarks/study_timing.py). "
            f"Target: at most 60 s for run 1.\n\n{table}\n")
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
