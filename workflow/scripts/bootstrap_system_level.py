"""Rule bootstrap_system_level: confidence intervals of each metric's system-level correlations,
for each dataset x lp."""

import logging

import pandas as pd

from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.bootstrap import bootstrap_table
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("bootstrap_system_level")
    draws, seed = snakemake.params.bootstrap["draws"], snakemake.params.bootstrap["seed"]
    for number, pair in enumerate(snakemake.params.pairs):
        log.info("[%d/%d] %s %s: %d draws", number + 1, len(snakemake.params.pairs), pair["dataset"], pair["lp"],
                 draws)
        specs = [MetricSpec.of(entry) for entry in pair["metrics"]]
        tables = {spec.id: pd.read_parquet(path) for spec, path in zip(specs, pair["files"], strict=True)}
        objects = {spec.id: spec.build(pair["lp"].split("-")[1], pair["tokenized"]) for spec in specs}
        table = bootstrap_table(read_json(snakemake.input.summaries[number]),
                                pd.read_parquet(snakemake.input.comparisons[number]),
                                read_tsv(snakemake.input.human_scores[number]), tables, objects, draws=draws, seed=seed)
        write_tsv(table, snakemake.output[number])


main(snakemake)  # noqa: F821
