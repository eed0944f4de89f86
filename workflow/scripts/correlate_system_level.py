"""Rule correlate_system_level: one metric vs each human system score, for one dataset x lp."""

import json

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.tables import system_level_correlations


def main(snakemake):
    configure(snakemake.log[0])
    spec = snakemake.params.metric
    summary = json.loads(open(snakemake.input.summary).read())
    table = system_level_correlations(
        summary,
        pd.read_csv(snakemake.input.human_scores, sep="\t"),
        pd.read_csv(snakemake.input.systems, sep="\t"),
        spec["id"],
        higher_is_better=metrics.metric_class(spec["name"]).higher_is_better,
    )
    table.to_csv(snakemake.output[0], sep="\t", index=False, float_format="%.17g")


main(snakemake)  # noqa: F821
