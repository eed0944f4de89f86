"""Rule bootstrap_system_level: confidence intervals of each metric's system-level correlations."""

import json

import pandas as pd

from mtmeta import metrics
from mtmeta.analysis import bootstrap_table
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    summary = json.loads(open(snakemake.input.summary).read())
    trg = snakemake.wildcards.lp.split("-")[1]
    specs = snakemake.params.metrics
    tables = {spec["id"]: pd.read_parquet(path) for spec, path in zip(specs, snakemake.input.segments, strict=True)}
    objects = {spec["id"]: metrics.get_for_dataset(spec["name"], trg, spec["params"], snakemake.params.tokenized)
               for spec in specs}
    table = bootstrap_table(summary, pd.read_parquet(snakemake.input.comparisons),
                            pd.read_csv(snakemake.input.human_scores, sep="\t"), tables, objects,
                            draws=snakemake.params.bootstrap["draws"], seed=snakemake.params.bootstrap["seed"])
    table.to_csv(snakemake.output[0], sep="\t", index=False, float_format="%.17g")


main(snakemake)  # noqa: F821
