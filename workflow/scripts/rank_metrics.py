"""Rule rank_metrics: significance clusters of every metric by mt-metrics-eval's permutation tests on
every pair (system-level Pearson and pairwise accuracy; segment-level tie-calibrated acc_eq on an
MQM/DA set), and the global pairwise accuracy over the MQM sets. A pair whose files are unchanged
since the last run keeps its clusters (mtmeta.table_cache)."""

import logging
from functools import partial
from pathlib import Path

import pandas as pd

from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.clusters import CLUSTER_COLUMNS, PairMetrics, oriented, pair_clusters, pooled_clusters
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.metrics.spec import MetricSpec
from mtmeta.table_cache import TableCache


def pair_files(inputs, pair: dict, number: int) -> list[str]:
    return [inputs.summaries[number], inputs.human_scores[number], inputs.human_segments[number],
            *pair["systems"], *pair["segments"]]


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
    params, inputs, log = snakemake.params, snakemake.input, logging.getLogger("mtmeta")
    options = {"k": params.draws, "seed": params.seed, "level": params.level}
    cache = TableCache(Path(snakemake.scriptdir) / "rank_metrics.py")
    read = {}  # the pairs read so far, by number

    def metrics_of(number: int) -> PairMetrics:
        if number not in read:
            read[number] = read_pair(inputs, params.pairs[number], number)
        return read[number]

    def clusters(number: int, output: str) -> None:
        pair = metrics_of(number)
        write_tsv(pair_clusters(pair, primary_human_score(pair.human), **options), output)

    keys = []
    for number, pair in enumerate(params.pairs):
        keys.append(cache.key(pair_files(inputs, pair, number), {"pair": pair, **options}))
        output = snakemake.output.pairs[number]
        reused = cache.files(keys[-1], [output], partial(clusters, number, output))
        log.info("[%d/%d] %s %s: %d metrics%s", number + 1, len(params.pairs), pair["dataset"], pair["lp"],
                 len(pair["metrics"]), " (unchanged: reused)" if reused else "")

    def pooled() -> None:
        pairs = [metrics_of(k) for k in params.pooled]
        table = (pooled_clusters(pairs, primary_human_score(pairs[0].human), **options) if pairs
                 else pd.DataFrame(columns=CLUSTER_COLUMNS))
        write_tsv(table, snakemake.output.pooled)

    cache.files(cache.key([], {"pooled": [keys[k] for k in params.pooled], **options}),
                [snakemake.output.pooled], pooled)
    cache.prune()
    log.info("%s", cache.summary())


main(snakemake)  # noqa: F821
