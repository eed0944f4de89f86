"""Rule export_metric_scores: every metric's scores of one mt-metrics-eval pair in mt-metrics-eval's
layout (results/mtme/<dataset>/metric-scores/<lp>/<NAME>-<REF>.{sys,seg}.score)."""

from pathlib import Path

import pandas as pd

from mtmeta.io import read_json, read_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.export import export_metric
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    summary = read_json(snakemake.input.summary)
    base = Path(snakemake.output[0]).parents[1]  # .../<dataset>: metric-scores/<lp> below it
    for entry, seg, sys in zip(snakemake.params.metrics, snakemake.input.segments, snakemake.input.systems,
                               strict=True):
        spec = MetricSpec.of(entry)
        export_metric(base, summary, spec.id, spec.higher_is_better, pd.read_parquet(seg), read_tsv(sys))


main(snakemake)  # noqa: F821
