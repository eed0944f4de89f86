"""Rule correlate_system_level: every metric vs each human system score, for each dataset x lp."""

import json

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.metaeval.system_level import system_level_correlations


def main(snakemake):
    configure(snakemake.log[0])
    for number, pair in enumerate(snakemake.params.pairs):
        summary = json.loads(open(snakemake.input.summaries[number]).read())
        human = pd.read_csv(snakemake.input.human_scores[number], sep="\t")
        tables = [
            system_level_correlations(summary, human, pd.read_csv(path, sep="\t"), spec["id"],
                                      higher_is_better=metrics.metric_class(spec["name"]).higher_is_better)
            for spec, path in zip(pair["metrics"], pair["files"], strict=True)
        ]
        pd.concat(tables, ignore_index=True).to_csv(snakemake.output[number], sep="\t", index=False,
                                                     float_format="%.17g")


main(snakemake)  # noqa: F821
