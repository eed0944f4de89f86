"""Rule paper_meteor_tuning: METEOR's alpha, gamma and module tables on the evaluator set, and the figure."""

import pandas as pd
import yaml

from mtmeta.io import read_tsv, write_titled_table
from mtmeta.logsetup import configure
from mtmeta.metrics.spec import MetricSpec
from mtmeta.paper.figures import meteor_tuning_figure
from mtmeta.paper.meteor_tuning import TITLES, tables_from_results


def main(snakemake):
    configure(snakemake.log[0])
    params, inputs, outputs = snakemake.params, snakemake.input, snakemake.output
    metric = MetricSpec.of(params.metric).build(params.lang, tokenized=params.tokenized)
    module_bests = {label: read_tsv(path).iloc[0]
                    for label, path in zip(params.module_labels, inputs.module_bests, strict=True)}
    baseline = read_tsv(inputs.baseline)  # the baseline's segment-level rows, one per pair it is scored on
    baseline = baseline[(baseline["dataset"] == params.dataset) & (baseline["lp"] == params.lp)].set_index("metric")
    tables = tables_from_results(read_tsv(inputs.sweep), module_bests, baseline,
        pd.read_parquet(inputs.segments), pd.read_parquet(inputs.comparisons), metric,
        yaml.safe_load(open(inputs.reported)), params.baseline, params.dataset)
    for name, table in tables.items():
        write_titled_table(table, outputs[name], outputs[f"{name}_md"], TITLES[name])
    meteor_tuning_figure(tables["alpha"], tables["gamma"], [outputs.png, outputs.pdf])


main(snakemake)  # noqa: F821
