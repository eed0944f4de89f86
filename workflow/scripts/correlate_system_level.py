"""Rule correlate_system_level: every metric vs each human system score, for one dataset x lp."""

import json

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.tables import system_level_correlations


def main(snakemake):
    configure(snakemake.log[0])
    summary = json.loads(open(snakemake.input.summary).read())
    human = pd.read_csv(snakemake.input.human_scores, sep="\t")
    tables = [
        system_level_correlations(summary, human, pd.read_csv(path, sep="\t"), spec["id"],
                                  higher_is_better=metrics.metric_class(spec["name"]).higher_is_better)
        for spec, path in zip(snakemake.params.metrics, snakemake.input.systems, strict=True)
    ]
    pd.concat(tables, ignore_index=True).to_csv(snakemake.output[0], sep="\t", index=False, float_format="%.17g")


main(snakemake)  # noqa: F821
