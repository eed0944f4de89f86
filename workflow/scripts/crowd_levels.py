"""Rule crowd_levels: on a set with both WMT's crowd DA and MQM, each DA variant scored as a metric
against MQM, every metric on the same systems and segments, and the chance level of each
(mtmeta.metaeval.crowd.crowd_levels), from the prepared human scores and the study's score tables,
with bootstrap intervals over the segments (each metric's corpus score re-aggregated from its
statistics in every draw)."""

import logging

import pandas as pd

from mtmeta.data.corpus import target_language
from mtmeta.io import read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.crowd import crowd_levels, crowd_systems
from mtmeta.metaeval.level_draws import corpus_reaggregation
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    inputs, params, wildcards = snakemake.input, snakemake.params, snakemake.wildcards
    human, human_segments = read_tsv(inputs.human_scores), pd.read_parquet(inputs.human_segments)
    seg_ids = sorted(human_segments["seg_id"].unique())
    metrics = {}
    for entry, path, systems in zip(params.metrics, inputs.segments, inputs.systems, strict=True):
        spec = MetricSpec.of(entry)
        sign = 1.0 if spec.higher_is_better else -1.0
        segments = pd.read_parquet(path)
        grid = segments.pivot(index="system", columns="seg_id", values="score") * sign
        metrics[spec.id] = (read_tsv(systems).set_index("system")["score"] * sign, grid)
    systems, _ = crowd_systems(human, metrics)
    for entry, path in zip(params.metrics, inputs.segments, strict=True):  # corpus scores re-aggregated per draw
        spec = MetricSpec.of(entry)
        metrics[spec.id] += (corpus_reaggregation(spec.build(target_language(wildcards.lp)),
                                                  1.0 if spec.higher_is_better else -1.0, pd.read_parquet(path),
                                                  systems, seg_ids),)
    table = crowd_levels(wildcards.lp, human, human_segments, metrics, seed=params.seed, draws=params.draws,
                         bootstrap=params.bootstrap)
    left_out = table["left_out"].iloc[0] if len(table) else ""
    logging.getLogger("mtmeta").info("%s %s: %d systems with MQM and DA, %d segments with both%s", wildcards.dataset,
                                     wildcards.lp, table["systems"].iloc[0], table["segments"].iloc[0],
                                     f"; MQM but no DA or no metric score (left out): {left_out}" if left_out else "")
    table.insert(0, "dataset", wildcards.dataset)
    write_tsv(table, snakemake.output[0])


main(snakemake)  # noqa: F821
