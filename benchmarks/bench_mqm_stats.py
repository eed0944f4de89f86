"""Speed of the MQM-era meta-evaluation statistics (mtmeta.stats) on random data of the study's shapes.

Usage:

    .venv/bin/python benchmarks/bench_mqm_stats.py [--out benchmarks/results/mqm_stats.md] [--systems 15]
        [--segments 1000] [--metrics 25] [--draws 1000] [--pairs N]

One eval set of ``--systems`` x ``--segments`` gold scores (10% missing) and ``--metrics`` metrics
correlated with it; every protocol is timed once on one core after a warm-up call (numba's cache
loaded, the permutation signs drawn). Rankings over all metric pairs are timed on ``--pairs`` pairs
(default: all) and scaled to all pairs. The table says per eval set what each protocol costs, and
the last lines add it up for the study's six MQM sets plus 25 system-level language pairs.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from mtmeta.stats import grouped, permutation, system_pairs, tie_calibration, two_level_bootstrap  # noqa: E402


def data(systems: int, segments: int, metrics: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=(systems, 1))
    gold = quality + rng.normal(size=(systems, segments))
    gold[rng.random(gold.shape) < 0.1] = np.nan
    scores = {f"m{k:02d}": np.nan_to_num(gold) + rng.normal(scale=0.5 + k / 10, size=gold.shape)
              for k in range(metrics)}
    return gold, scores


def timed(function, repeats: int = 1) -> float:
    function()  # warm-up
    start = time.perf_counter()
    for _ in range(repeats):
        function()
    return (time.perf_counter() - start) / repeats


def ranking_time(gold, scores, statistic, pairs: int | None, **kw) -> tuple[float, int]:
    """Seconds for a full ranking, measured on the first ``pairs`` metric pairs and scaled."""
    names = list(scores)
    all_pairs = len(names) * (len(names) - 1) // 2
    subset = names
    while pairs is not None and len(subset) > 2 and len(subset) * (len(subset) - 1) // 2 > pairs:
        subset = subset[:-1]
    measured = len(subset) * (len(subset) - 1) // 2
    seconds = timed(lambda: permutation.rank_metrics(gold, {n: scores[n] for n in subset}, statistic, **kw))
    return seconds * all_pairs / measured, measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=None)
    parser.add_argument("--systems", type=int, default=15)
    parser.add_argument("--segments", type=int, default=1000)
    parser.add_argument("--metrics", type=int, default=25)
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=None)
    args = parser.parse_args()
    gold, scores = data(args.systems, args.segments, args.metrics)
    complete_gold = np.where(np.isnan(gold), 0.0, gold)  # soft pairwise accuracy needs every cell
    metric = scores["m00"]
    system_gold = np.nanmean(gold, axis=1)
    system_scores = {name: m.mean(axis=1) for name, m in scores.items()}
    k = args.draws
    rows = []

    def per_metric(label, function):
        seconds = timed(function, repeats=3)
        rows.append((label, "per metric", seconds, seconds * args.metrics))

    for statistic, average_by in (("pearson", "none"), ("pearson", "item"), ("kendall", "none"),
                                  ("kendall", "item"), ("spearman", "item"), ("tau_eq", "item")):
        per_metric(f"{statistic}, average_by {average_by}",
                   lambda s=statistic, a=average_by: grouped.grouped_correlation(gold, metric, s, average_by=a))
    per_metric("acc_eq tie calibration, item-grouped",
               lambda: tie_calibration.calibrate_ties(gold, metric, average_by="item"))
    per_metric("acc_eq tie calibration, no grouping, sample_rate 0.1",
               lambda: tie_calibration.calibrate_ties(gold, metric, average_by="none", sample_rate=0.1, seed=1))
    per_metric("soft pairwise accuracy (1000 permutations)",
               lambda: system_pairs.soft_pairwise_accuracy(complete_gold, metric))
    for method in two_level_bootstrap.METHODS:
        per_metric(f"bootstrap interval, Pearson of segment means, boot-{method} ({k} draws)",
                   lambda m=method: two_level_bootstrap.segment_mean_interval(gold, metric, "pearson", method=m,
                                                                              n_draws=k))
    for label, statistic, target, kw in (
        ("system-level Pearson", "pearson", (system_gold, system_scores), {}),
        ("system-level pairwise accuracy", "accuracy", (system_gold, system_scores), {}),
        ("segment-level Pearson, no grouping", "pearson", (gold, scores), {}),
        ("segment-level tie-calibrated acc_eq, item-grouped (pairwise test)", "acc_eq_calibrated", (gold, scores),
         {"average_by": "item"}),
    ):
        seconds, measured = ranking_time(*target, statistic, args.pairs, k=k, **kw)
        pairs = args.metrics * (args.metrics - 1) // 2
        rows.append((f"ranking with clusters: {label} (k = {k})", f"per pair ({measured} timed)", seconds / pairs,
                     seconds))
    for label, statistic, average_by in (("segment-level Kendall, item-grouped", "kendall", "item"),
                                         ("segment-level Kendall, no grouping", "kendall", "none")):
        seconds = timed(lambda s=statistic, a=average_by: permutation.perm_both(gold, metric, scores["m01"], s,
                                                                                average_by=a, k=min(k, 100)))
        seconds *= k / min(k, 100)
        pairs = args.metrics * (args.metrics - 1) // 2
        rows.append((f"PERM-BOTH one pair: {label} (k = {k}, timed at 100)", "per pair", seconds, seconds * pairs))
    seconds = timed(lambda: permutation.perm_both(complete_gold, metric, scores["m01"], "spa", k=10)) * k / 10
    rows.append((f"PERM-BOTH one pair: soft pairwise accuracy (k = {k}, timed at 10)", "per pair", seconds,
                 seconds * args.metrics * (args.metrics - 1) // 2))

    lines = [f"# MQM-era statistics: time on random data ({args.systems} systems x {args.segments} segments, "
             f"{args.metrics} metrics, {k} draws)", "",
             "Measured by `benchmarks/bench_mqm_stats.py` on one core (OMP/OpenBLAS threads 1), after a warm-up "
             "call. \"per eval set\" is the per-metric time times the number of metrics, or the time of a whole "
             "ranking over all metric pairs.", "",
             "| protocol | measured | seconds | seconds per eval set |", "|---|---|---:|---:|"]
    lines += [f"| {label} | {unit} | {seconds:.4f} | {total:.2f} |" for label, unit, seconds, total in rows]
    print("\n".join(lines))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
