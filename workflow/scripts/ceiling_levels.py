"""Rule ceiling_levels: on a set with three raters per segment, the human ceiling (one rater against
the mean of the other two, three rotations), every metric against the same two-rater means and its
chance level (mtmeta.metaeval.ceiling_levels.rater_levels), from the ratings and the study's score tables,
with bootstrap intervals over the segments (each metric's corpus score re-aggregated from its
statistics in every draw)."""

import logging
from pathlib import Path

import pandas as pd

from mtmeta.data.corpus import target_language
from mtmeta.io import read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.ceiling_levels import ALL_STATISTICS, rater_levels
from mtmeta.metaeval.level_draws import corpus_reaggregation
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    inputs, params, wildcards = snakemake.input, snakemake.params, snakemake.wildcards
    raters = read_tsv(Path(inputs.evalsets) / params.testset / f"{wildcards.lp}.raters.tsv")
    seg_ids = sorted(raters["seg_id"].unique())
    tables = {}
    for entry, segments, systems in zip(params.metrics, inputs.segments, inputs.systems, strict=True):
        spec = MetricSpec.of(entry)
        tables[spec.id] = (spec, pd.read_parquet(segments), read_tsv(systems).set_index("system")["score"])
    # The MT systems: those the metrics scored (the standard reference, rated in en-de, is not one).
    scored = set.intersection(*(set(corpus.index) for _, _, corpus in tables.values()))
    systems = sorted(set(raters["system"]) & scored)
    left_out = sorted(set(raters["system"]) - scored)
    if left_out:
        logging.getLogger("mtmeta").info("rated but not scored as systems (left out): %s", ", ".join(left_out))
    metrics = {}
    for metric_id, (spec, segments, corpus) in tables.items():
        sign = 1.0 if spec.higher_is_better else -1.0
        grid = segments.pivot(index="system", columns="seg_id", values="score") * sign
        metrics[metric_id] = (corpus * sign, grid,
                              corpus_reaggregation(spec.build(target_language(wildcards.lp)), sign, segments, systems,
                                                   seg_ids))
    per_rotation = max(2, params.draws // 3)  # the chance level's draws, split over the three rotations
    table = rater_levels(wildcards.lp, raters, systems, seg_ids, metrics, seed=params.seed, draws=per_rotation,
                         statistics=ALL_STATISTICS, bootstrap=params.bootstrap)
    table.insert(0, "dataset", wildcards.dataset)
    write_tsv(table, snakemake.output[0])


main(snakemake)  # noqa: F821
