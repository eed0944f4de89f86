"""What the chance levels and the human ceiling add to the study's time, on its real MQM sets.

Usage:

    .venv/bin/python benchmarks/bench_chance_levels.py --datasets DIR [DIR ...] [--raters EVALSET_DIR]
        [--metrics bleu chrf] [--draws 200] [--out benchmarks/results/chance_levels.md]

``--datasets``: prepared pairs (results/datasets/<dataset>/<lp>/ of a study run: segments.parquet,
summary.json, human_scores.tsv, human_segments.parquet, human_translations.tsv). Each metric is
scored on each pair once (not timed), then mtmeta.metaeval.protocols.protocol_rows is timed with the
chance levels off (``chance_draws=0``, the cheap exact levels still on) and on (``--draws``), the
difference being what evaluate_metric gains per metric and pair. Times are the process's CPU
seconds (time.process_time; one thread), so that other jobs on the host do not inflate them. ``--raters``: the assembled
wmt23.sxs directory (results/evalsets/wmt23/wmt23.sxs); rule ceiling_levels' work
(metaeval.ceiling_levels.rater_levels, draws split over the three rotations) is timed per pair and metric.
``--judgments``: prepared WMT12-14 pairs (with comparisons.parquet); the segment-level table's
permutation levels (mtmeta.stats.chance._judgment_permutations) are timed without and with the chance
level of tie-calibrated acc_eq, which redoes the calibration on every permuted copy.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pandas as pd  # noqa: E402

from mtmeta.io import read_json, read_tsv  # noqa: E402
from mtmeta.metaeval.ceiling_levels import ALL_STATISTICS, rater_levels  # noqa: E402
from mtmeta.metaeval.protocols import PairScores, protocol_rows  # noqa: E402
from mtmeta.metrics import get  # noqa: E402
from mtmeta.metrics.score_tables import score_segments  # noqa: E402


def pair_scores(folder: Path, metric):
    summary = read_json(folder / "summary.json")
    segments, systems = score_segments(pd.read_parquet(folder / "segments.parquet"), metric)
    return PairScores(summary, read_tsv(folder / "human_scores.tsv"), read_tsv(folder / "human_translations.tsv"),
                      pd.read_parquet(folder / "human_segments.parquet"), segments, systems)


def judgment_rows(folder: Path, metrics: list[str], draws: int) -> list[dict]:
    """The WMT12-14 chance levels' permutations of one pair, without and with calibrated acc_eq."""
    from mtmeta.metaeval.segment_level import pairwise_deltas
    from mtmeta.stats import chance

    comparisons = pd.read_parquet(folder / "comparisons.parquet")
    rows = []
    for name in metrics:
        metric = get(name)
        segments, _ = score_segments(pd.read_parquet(folder / "segments.parquet"), metric)
        human, _ = pairwise_deltas(comparisons, segments, metric.higher_is_better)
        grid = segments.pivot(index="system", columns="seg_id", values="score")
        arguments = (grid.to_numpy(float), grid.columns.get_indexer(comparisons["seg_id"]),
                     grid.index.get_indexer(comparisons["sys_a"]), grid.index.get_indexer(comparisons["sys_b"]), human)
        timings = {}
        for names in (["wmt13", "tau_b"], ["wmt13", "tau_b", "acc_eq_calibrated"]):
            start = time.process_time()
            chance._judgment_permutations(*arguments, names, draws, 12345)
            timings[len(names)] = time.process_time() - start
        rows.append({"what": "evaluate_metric: judgment chance", "pair": f"{folder.parent.name}/{folder.name}",
                     "metric": name, "seconds without": timings[2], "seconds with": timings[3],
                     "added": timings[3] - timings[2]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--datasets", nargs="+", type=Path, default=[])
    parser.add_argument("--raters", type=Path)
    parser.add_argument("--judgments", nargs="+", type=Path, default=[])
    parser.add_argument("--metrics", nargs="+", default=["bleu", "chrf"])
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--heading", default="", help="text written above the table (with --out)")
    args = parser.parse_args()
    rows = []
    for folder in args.datasets:
        for name in args.metrics:
            metric = get(name)
            pair = pair_scores(folder, metric)
            names = pair.summary["human_scores"]
            timings = {}
            for draws in (0, args.draws):
                start = time.process_time()
                protocol_rows(name, metric, pair, names, draws=1000, seed=12345, chance_draws=draws)
                timings[draws] = time.process_time() - start
            rows.append({"what": "evaluate_metric: protocol_rows", "pair": f"{folder.parent.name}/{folder.name}",
                         "metric": name, "seconds without": timings[0], "seconds with": timings[args.draws],
                         "added": timings[args.draws] - timings[0]})
    if args.raters:
        for path in sorted(args.raters.glob("*.raters.tsv")):
            lp = path.name.split(".")[0]
            raters = read_tsv(path)
            human = args.datasets and next((f for f in args.datasets if f.name == lp and "wmt23" in str(f)), None)
            for name in args.metrics:
                metric = get(name)
                pair = pair_scores(human, metric) if human else None
                if pair is None:
                    continue
                corpus = pair.systems.set_index("system")["score"]
                grid = pair.segments.pivot(index="system", columns="seg_id", values="score")
                if not metric.higher_is_better:
                    corpus, grid = -corpus, -grid
                systems = sorted(set(raters["system"]) & set(corpus.index))
                start = time.process_time()
                rater_levels(lp, raters, systems, sorted(raters["seg_id"].unique()), {name: (corpus, grid)},
                             draws=max(2, args.draws // 3), statistics=ALL_STATISTICS)
                rows.append({"what": "ceiling_levels: rater_levels", "pair": lp, "metric": name,
                             "seconds without": 0.0, "seconds with": time.process_time() - start,
                             "added": time.process_time() - start})
    for folder in args.judgments:
        rows += judgment_rows(folder, args.metrics, args.draws)
    table = pd.DataFrame(rows)
    text = table.to_markdown(index=False, floatfmt=".2f")
    print(text)
    if args.out:
        args.out.write_text((args.heading + "\n\n" if args.heading else "") + text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
