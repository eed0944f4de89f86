"""Rule bootstrap_system_level: confidence intervals of each metric's system-level correlations,
for each dataset x lp."""

import json
import logging

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.metaeval.bootstrap import bootstrap_table


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("bootstrap_system_level")
    draws, seed = snakemake.params.bootstrap["draws"], snakemake.params.bootstrap["seed"]
    for number, pair in enumerate(snakemake.params.pairs):
        log.info("[%d/%d] %s %s: %d draws", number + 1, len(snakemake.params.pairs), pair["dataset"], pair["lp"],
                 draws)
        summary = json.loads(open(snakemake.input.summaries[number]).read())
        trg = pair["lp"].split("-")[1]
        specs = pair["metrics"]
        tables = {spec["id"]: pd.read_parquet(path) for spec, path in zip(specs, pair["files"], strict=True)}
        objects = {spec["id"]: metrics.get_for_dataset(spec["name"], trg, spec["params"], pair["tokenized"])
                   for spec in specs}
        table = bootstrap_table(summary, pd.read_parquet(snakemake.input.comparisons[number]),
                                pd.read_csv(snakemake.input.human_scores[number], sep="\t"), tables, objects,
                                draws=draws, seed=seed)
        table.to_csv(snakemake.output[number], sep="\t", index=False, float_format="%.17g")


main(snakemake)  # noqa: F821
