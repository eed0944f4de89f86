"""Rule tokenize_segments: each distinct hypothesis and reference text of a test set, tokenised once."""

import logging

import pandas as pd

from mtmeta.data.tokenize import tokenisations
from mtmeta.io import write_parquet
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    segments = pd.read_parquet(snakemake.input.segments, columns=["hypothesis", "reference"])
    texts = [t for column in ("hypothesis", "reference") for t in segments[column] if t is not None]
    frames = [pd.DataFrame({"tokenizer": name, "line": lines, "tokens": tokens})
              for name, (lines, tokens) in tokenisations(texts, snakemake.params.tokenizers).items()]
    table = pd.concat(frames, ignore_index=True)
    write_parquet(table, snakemake.output.tokens)
    logging.getLogger("mtmeta").info("%d lines tokenised by %s", len(table), ", ".join(snakemake.params.tokenizers))


main(snakemake)  # noqa: F821
