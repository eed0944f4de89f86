"""Rule paper_sensitivity: how far one changed setting moves each metric's system-level Pearson
on one target (mtmeta.paper.sensitivity), as a table, its markdown and a figure."""

import logging

import pandas as pd

from mtmeta.io import read_json, read_tsv, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.bootstrap import bootstrap_table
from mtmeta.metrics.spec import MetricSpec
from mtmeta.paper.figures import sensitivity_figure
from mtmeta.paper.sensitivity import sensitivity_markdown, sensitivity_table

log = logging.getLogger("paper_sensitivity")


def main(snakemake):
    configure(snakemake.log[0])
    inputs, params, wildcards = snakemake.input, snakemake.params, snakemake.wildcards
    lang = wildcards.lp.split("-")[1]
    specs = {m: MetricSpec.of(entry) for m, entry in params.metrics.items()}
    metrics = {m: spec.build(lang) for m, spec in specs.items()}

    def rebuild(metric_id, changes, tokenized):
        spec = specs[metric_id]
        return MetricSpec(spec.id, spec.name, {**spec.params, **changes}).build(lang, tokenized=tokenized)

    seg_tables = {m: pd.read_parquet(path) for m, path in zip(params.metrics, inputs.scores, strict=True)}
    comparisons = pd.read_parquet(inputs.comparisons)
    # The study's bootstrap (same function, draws and seed: the same intervals as its bootstrap
    # tables), computed here so that this job need not wait for the study's bootstrap job.
    bootstrap = bootstrap_table(read_json(inputs.summary), comparisons, read_tsv(inputs.human_scores), seg_tables,
                                metrics, draws=params.bootstrap["draws"], seed=params.bootstrap["seed"])
    bootstrap = bootstrap[bootstrap["human_score"] == "gt_others"].set_index("metric")
    intervals = {m: (bootstrap.at[m, "pearson_low"], bootstrap.at[m, "pearson_high"]) for m in bootstrap.index}
    table = sensitivity_table(
        wildcards.dataset, wildcards.lp, pd.read_parquet(inputs.segments), comparisons,
        seg_tables, metrics, rebuild, list(params.rescored), {m: (s.name, s.params) for m, s in specs.items()},
        lang, intervals, progress=log.info)
    write_tsv(table, snakemake.output.tsv)
    write_text(snakemake.output.markdown, sensitivity_markdown(table))
    sensitivity_figure(table, snakemake.output.png, metrics=list(params.rescored))


main(snakemake)  # noqa: F821
