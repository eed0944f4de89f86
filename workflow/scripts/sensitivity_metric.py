"""Rule sensitivity_metric: how far one changed setting moves one metric's system-level Pearson on one
target (mtmeta.paper.sensitivity): its rows of the target's sensitivity table."""

import logging

import pandas as pd

from mtmeta.io import read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metrics.spec import MetricSpec
from mtmeta.paper.sensitivity import TEXT_KINDS, sensitivity_table

log = logging.getLogger("sensitivity_metric")


def main(snakemake):
    configure(snakemake.log[0])
    inputs, params, wildcards = snakemake.input, snakemake.params, snakemake.wildcards
    lang = wildcards.lp.split("-")[1]
    spec = MetricSpec.of(params.metric)

    def rebuild(metric_id, changes, tokenized):
        return MetricSpec(spec.id, spec.name, {**spec.params, **changes}).build(lang, tokenized=tokenized)

    # The default's 95% interval: the metric's bootstrap against "> others" (evaluate_metric's piece).
    bootstrap = read_tsv(inputs.bootstrap)
    row = bootstrap[(bootstrap["dataset"] == wildcards.dataset) & (bootstrap["lp"] == wildcards.lp)
                    & (bootstrap["human_score"] == "gt_others")].iloc[0]
    preprocessed = {kind: pd.read_parquet(path) for kind, path in zip(TEXT_KINDS, inputs.preprocessed, strict=False)}
    table = sensitivity_table(
        wildcards.dataset, wildcards.lp, pd.read_parquet(inputs.segments), pd.read_parquet(inputs.comparisons),
        {spec.id: pd.read_parquet(inputs.scores)}, {spec.id: spec.build(lang)}, rebuild,
        [spec.id] if params.rescored else [], {spec.id: (spec.name, spec.params)}, lang,
        {spec.id: (row["pearson_low"], row["pearson_high"])}, progress=log.info, preprocessed=preprocessed)
    write_tsv(table, snakemake.output[0])


main(snakemake)  # noqa: F821
