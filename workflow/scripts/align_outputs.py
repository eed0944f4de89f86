"""Rule align_outputs: eflomal word alignment of each reference with each system output, trained
on every ordered pair of the test set's texts (seed 002)."""

import pandas as pd

from mtmeta.data.tokenize import tokenizer
from mtmeta.io import write_parquet
from mtmeta.logsetup import configure
from mtmeta.parmesan.alignment import align_segments


def main(snakemake):
    configure(snakemake.log[0])
    segments = pd.read_parquet(snakemake.input.segments)
    table = align_segments(segments, tokenizer(snakemake.params.tokenize), seed=snakemake.params.seed,
                           lowercase=snakemake.params.lowercase, samplers=snakemake.params.samplers)
    write_parquet(table, snakemake.output[0])


main(snakemake)  # noqa: F821
