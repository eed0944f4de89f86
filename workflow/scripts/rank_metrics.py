"""Rule rank_metrics: significance clusters of every metric by mt-metrics-eval's permutation tests on
every pair (system-level Pearson and pairwise accuracy; segment-level tie-calibrated acc_eq on an
MQM/DA set), and the global pairwise accuracy over the MQM sets."""

import logging

import pandas as pd

from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.clusters import CLUSTER_COLUMNS, PairMetrics, oriented, pair_clusters, pooled_clusters
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.metrics.spec import MetricSpec


def read_pair(inputs, pair: dict, number: int) -> PairMetrics:
    specs = [MetricSpec.of(entry) for entry in pair["metrics"]]
    systems = {spec.id: read_tsv(path) for spec, path in zip(specs, pair["systems"], strict=True)}
    segments = {spec.id: pd.read_parquet(path, columns=["system", "seg_id", "score"])
                for spec, path in zip(specs, pair["segments"], strict=False)}  # none for a WMT12-14 pair
    systems, segments = oriented(systems, segments, {spec.id: spec.higher_is_better for spec in specs})
    return PairMetrics(read_json(inputs.summaries[number]), read_tsv(inputs.human_scores[number]),
                       pd.read_parquet(inputs.human_segments[number]), systems, segments)


def main(snakemake):
    configure(snakemake.log[0])
    params, log = snakemake.params, logging.getLogger("mtmeta")
    options = {"k": params.draws, "seed": params.seed, "level": params.level}
    pairs = []
    for number, pair in enumerate(params.pairs):
        pairs.append(read_pair(snakemake.input, pair, number))
        log.info("[%d/%d] %s %s: %d metrics", number + 1, len(params.pairs), pair["dataset"], pair["lp"],
                 len(pair["metrics"]))
        write_tsv(pair_clusters(pairs[-1], primary_human_score(pairs[-1].human), **options),
                  snakemake.output.pairs[number])
    pooled = [pairs[k] for k in params.pooled]
    table = (pooled_clusters(pooled, primary_human_score(pooled[0].human), **options) if pooled
             else pd.DataFrame(columns=CLUSTER_COLUMNS))
    write_tsv(table, snakemake.output.pooled)


main(snakemake)  # noqa: F821
