"""Rule categorise_mqm_errors: each segment's MQM counting one kind of error only (per top-level
category, Major, Minor, and all), from the eval set's error table, for the systems the pair scores."""

from pathlib import Path

import pandas as pd

from mtmeta.data.mqm import restricted_scores
from mtmeta.data.prepare import error_annotation_path
from mtmeta.data.wmt21 import read_mqm_errors
from mtmeta.errors import InputError
from mtmeta.io import write_tsv
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    ds, lp = snakemake.params.dataset, snakemake.wildcards.lp
    path = error_annotation_path(ds, lp, Path("resources"))
    if not path.is_file():
        raise InputError(path, "no MQM error table", expected="the error annotation of an assembled TED set "
                         "(config paper.mqm.categories names pairs that have one)")
    systems = set(pd.read_parquet(snakemake.input.segments, columns=["system"])["system"])
    scores, counts = restricted_scores(read_mqm_errors(path))
    scores[scores["system"].isin(systems)].to_parquet(snakemake.output.scores, index=False)
    write_tsv(counts, snakemake.output.counts)


main(snakemake)  # noqa: F821
