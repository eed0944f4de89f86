"""Rule correlate_system_level: every metric vs each human system score, for each dataset x lp."""

import pandas as pd

from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.system_level import system_level_correlations
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    for number, pair in enumerate(snakemake.params.pairs):
        summary, human = read_json(snakemake.input.summaries[number]), read_tsv(snakemake.input.human_scores[number])
        tables = [system_level_correlations(summary, human, read_tsv(path), spec.id, spec.higher_is_better)
                  for spec, path in zip(map(MetricSpec.of, pair["metrics"]), pair["files"], strict=True)]
        write_tsv(pd.concat(tables, ignore_index=True), snakemake.output[number])


main(snakemake)  # noqa: F821
