"""Rule sweep_parameters: re-score a metric's cached statistics over a grid, on every target."""

import pandas as pd

from mtmeta.io import read_json, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.sweeps import sweep_metric, sweep_title
from mtmeta.paper.figures import sweep_figure


def main(snakemake):
    configure(snakemake.log[0])
    name, sweep, spec, inputs = snakemake.wildcards.sweep, snakemake.params.sweep, snakemake.params.metric, {}
    for seg, comparisons, summary in zip(snakemake.input.segments, snakemake.input.comparisons,
                                         snakemake.input.summaries, strict=True):
        meta = read_json(summary)
        inputs[(meta["dataset"], meta["lp"])] = (pd.read_parquet(seg), pd.read_parquet(comparisons))
    table, best = sweep_metric(name, sweep, spec, inputs)
    write_tsv(table, snakemake.output.table)
    write_tsv(best, snakemake.output.best)
    sweep_figure(table, list(sweep["grid"]), sweep_title(name, sweep, spec["id"]), [snakemake.output.png,
                                                                              snakemake.output.pdf])


main(snakemake)  # noqa: F821
