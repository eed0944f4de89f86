"""Rule bootstrap_system_level: confidence intervals of each metric's system-level correlations,
for each dataset x lp."""

import logging

import pandas as pd

from mtmeta.data.corpus import target_language
from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.bootstrap import bootstrap_table
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    draws, seed, pairs = snakemake.params.bootstrap["draws"], snakemake.params.bootstrap["seed"], snakemake.params.pairs
    for number, pair in enumerate(pairs):
        logging.getLogger("mtmeta").info("[%d/%d] %s %s: %d draws", number + 1, len(pairs), pair["dataset"], pair["lp"],
                                         draws)
        specs = [MetricSpec.of(entry) for entry in pair["metrics"]]
        tables = {spec.id: pd.read_parquet(path) for spec, path in zip(specs, pair["files"], strict=True)}
        objects = {spec.id: spec.build(target_language(pair["lp"]), pair["tokenized"]) for spec in specs}
        table = bootstrap_table(read_json(snakemake.input.summaries[number]),
                                pd.read_parquet(snakemake.input.comparisons[number]),
                                read_tsv(snakemake.input.human_scores[number]), tables, objects, draws=draws, seed=seed)
        write_tsv(table, snakemake.output[number])


main(snakemake)  # noqa: F821
