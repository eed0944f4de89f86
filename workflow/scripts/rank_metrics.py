"""Rules rank_metrics and rank_metrics_pooled: significance clusters of every metric by mt-metrics-eval's
permutation tests, on one pair (system-level Pearson and pairwise accuracy; segment-level tie-calibrated
acc_eq on an MQM/DA set), or global pairwise accuracy over several pairs."""

import pandas as pd

from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.clusters import PairMetrics, oriented, pair_clusters, pooled_clusters
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.metrics.spec import MetricSpec


def read_pair(inputs, pair: dict, number: int) -> PairMetrics:
    specs = [MetricSpec.of(entry) for entry in pair["metrics"]]
    systems = {spec.id: read_tsv(path) for spec, path in zip(specs, pair["systems"], strict=True)}
    segments = {spec.id: pd.read_parquet(path, columns=["system", "seg_id", "score"])
                for spec, path in zip(specs, pair["segments"], strict=False)}  # none for the pooled ranking
    systems, segments = oriented(systems, segments, {spec.id: spec.higher_is_better for spec in specs})
    return PairMetrics(read_json(inputs.summaries[number]), read_tsv(inputs.human_scores[number]),
                       pd.read_parquet(inputs.human_segments[number]), systems, segments)


def main(snakemake):
    configure(snakemake.log[0])
    params = snakemake.params
    pairs = [read_pair(snakemake.input, pair, number) for number, pair in enumerate(params.pairs)]
    human_score = primary_human_score(pairs[0].human)
    if params.pooled:
        table = pooled_clusters(pairs, human_score, k=params.draws, seed=params.seed, level=params.level)
    else:
        table = pair_clusters(pairs[0], human_score, k=params.draws, seed=params.seed, level=params.level)
    write_tsv(table, snakemake.output[0])


main(snakemake)  # noqa: F821
