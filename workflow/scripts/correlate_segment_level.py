"""Rule correlate_segment_level: every metric's agreement with the pairwise human comparisons of each dataset x lp."""

import pandas as pd

from mtmeta.io import read_json, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.segment_level import segment_level_agreement
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    for number, pair in enumerate(snakemake.params.pairs):
        summary = read_json(snakemake.input.summaries[number])
        comparisons = pd.read_parquet(snakemake.input.comparisons[number])
        rows = [segment_level_agreement(summary, comparisons, pd.read_parquet(path), spec.id, spec.higher_is_better)
                for spec, path in zip(map(MetricSpec.of, pair["metrics"]), pair["files"], strict=True)]
        write_tsv(pd.concat(rows, ignore_index=True), snakemake.output[number])


main(snakemake)  # noqa: F821
