"""The human scores' bootstrap draws (mtmeta.stats.human.score_draws), which evaluate_metric computes
for every metric on every WMT12-14 pair, timed at this checkout and at an earlier revision, on the
same prepared pairs, in one run; and whether the two give the same bits.

Usage:

    .venv/bin/python benchmarks/bench_human_draws.py --before REV --datasets DIR [DIR ...] \\
        [--draws 1000] [--repeat 3] [--out benchmarks/results/human_draws.md]

``--datasets``: prepared pairs (results/datasets/<dataset>/<lp>/ of a study run, with
comparisons.parquet and human_scores.tsv). ``--before``: a git revision whose src/mtmeta/stats/human.py
is loaded beside this checkout's (git show REV:path). Times are CPU seconds of one process
(time.process_time, BLAS on one thread), the minimum of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from mtmeta.io import read_tsv  # noqa: E402
from mtmeta.stats import human as current  # noqa: E402
from mtmeta.stats.correlation import resample_weights  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from revisions import module_at  # noqa: E402


def timed(function, arguments: tuple, repeat: int):
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = function(*arguments)
        best = min(best, time.process_time() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--datasets", nargs="+", type=Path, required=True)
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    before = module_at(args.before, "src/mtmeta/stats/human.py")
    rows = []
    for folder in args.datasets:
        comparisons = pd.read_parquet(folder / "comparisons.parquet")
        if comparisons.empty:  # a pair with official scores only: no draws to make
            print(f"{folder}: no pairwise judgments, left out", file=sys.stderr)
            continue
        human = read_tsv(folder / "human_scores.tsv")
        systems = sorted(set(human.dropna(subset=["gt_others"])["system"]))
        seg_ids = np.sort(comparisons["seg_id"].unique())
        weights = resample_weights(len(seg_ids), args.draws, 12345)
        arguments = (comparisons, systems, weights, seg_ids)
        old_s, old = timed(before.score_draws, arguments, args.repeat)
        new_s, new = timed(current.score_draws, arguments, args.repeat)
        rows.append({"pair": f"{folder.parent.name}/{folder.name}", "comparisons": len(comparisons),
                     "systems": len(systems), "segments": len(seg_ids), f"{args.before} s": old_s,
                     "now s": new_s, "ratio now / before": new_s / old_s,
                     "same bits": all(np.array_equal(old[k], new[k], equal_nan=True) for k in old)})
    table = pd.DataFrame(rows)
    text = (f"# Human score draws: {args.before} against this checkout\n\n"
            f"Written by `benchmarks/bench_human_draws.py` ({args.draws} draws, minimum CPU seconds of "
            f"{args.repeat} runs, one thread, on a {os.cpu_count()}-core host; the pairs are prepared pairs of "
            f"a study run).\n\n"
            + table.to_markdown(index=False, floatfmt=".3f") + "\n")
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
