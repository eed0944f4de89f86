"""Rule table_seed002: seed 002's BLEU and Meteor-variant correlations on English->Czech, with Meng's test."""

import json

import pandas as pd
import yaml

from mtmeta.io import markdown_table
from mtmeta.logsetup import configure
from mtmeta.paper.parmesan import seed002_table


def main(snakemake):
    configure(snakemake.log[0])
    summary = json.loads(open(snakemake.input.summary).read())
    specs = snakemake.params.metrics
    systems = {spec["id"]: pd.read_csv(path, sep="\t")
               for spec, path in zip(specs, snakemake.input.systems, strict=True)}
    table = seed002_table(snakemake.params.label, pd.read_csv(snakemake.input.human_scores, sep="\t"), systems,
                          yaml.safe_load(open(snakemake.input.reported)), summary)
    table.to_csv(snakemake.output.tsv, sep="\t", index=False, float_format="%.17g")
    title = (f"Seed 002 ({snakemake.params.label}): Pearson correlation with \"> others\" on {summary['description']}, "
             f"{table['n_systems'].iloc[0]} systems; Meng's test of each Meteor setting against BLEU")
    with open(snakemake.output.markdown, "w") as handle:
        handle.write(f"**{title}**\n\n" + markdown_table(table.drop(columns=["description", "data", "signature"])))


main(snakemake)  # noqa: F821
