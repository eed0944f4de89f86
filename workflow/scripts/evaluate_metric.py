"""Rule evaluate_metric: one metric's system-level correlations, segment-level agreement and bootstrap
intervals on every dataset x lp it is scored on (the study-wide tables join these pieces)."""

import pandas as pd

from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.bootstrap import read_human_draws
from mtmeta.metaeval.by_metric import PairInputs, evaluate_metric
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    inputs, params = snakemake.input, snakemake.params
    pairs, categories, human_draws = [], iter(inputs.categories), iter(inputs.human_draws)
    for number, pair in enumerate(params.pairs):
        pairs.append(PairInputs(read_json(inputs.summaries[number]), read_tsv(inputs.human_scores[number]),
                                pd.read_parquet(inputs.comparisons[number]), pd.read_parquet(inputs.segments[number]),
                                read_tsv(inputs.systems[number]), pair["system_level"], pair["judged"],
                                pair["tokenized"], pd.read_parquet(inputs.human_segments[number]),
                                read_tsv(inputs.human_translations[number]),
                                pd.read_parquet(next(categories)) if pair["categories"] else None,
                                read_human_draws(next(human_draws)) if pair["human_draws"] else None))
    tables = evaluate_metric(MetricSpec.of(params.metric), pairs, params.bootstrap["draws"], params.bootstrap["seed"],
                             chance_draws=params.chance_draws)
    for name, table in tables.items():
        write_tsv(table, snakemake.output[name])


main(snakemake)  # noqa: F821
