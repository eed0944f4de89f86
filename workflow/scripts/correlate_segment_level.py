"""Rule correlate_segment_level: every metric's agreement with the pairwise human comparisons of each dataset x lp."""

import json

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.metaeval.segment_level import segment_level_agreement


def main(snakemake):
    configure(snakemake.log[0])
    for number, pair in enumerate(snakemake.params.pairs):
        summary = json.loads(open(snakemake.input.summaries[number]).read())
        comparisons = pd.read_parquet(snakemake.input.comparisons[number])
        rows = []
        for spec, path in zip(pair["metrics"], pair["files"], strict=True):
            direction = metrics.metric_class(spec["name"]).higher_is_better
            rows.append(segment_level_agreement(summary, comparisons, pd.read_parquet(path), spec["id"], direction))
        pd.concat(rows, ignore_index=True).to_csv(snakemake.output[number], sep="\t", index=False,
                                                  float_format="%.17g")


main(snakemake)  # noqa: F821
