"""Rules collect_*: every metric's (or pair's) piece of a table joined into the study-wide table (TSV,
and Markdown where the rule writes one), rows in the study's order."""

from pathlib import Path

import pandas as pd

from mtmeta.io import markdown_table, read_tsv, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.by_metric import join_pieces
from mtmeta.metaeval.system_level import summary_markdown


def main(snakemake):
    configure(snakemake.log[0])
    pieces = [read_tsv(path) for path in snakemake.input]
    order = snakemake.params.get("order")
    # Per-metric pieces are sorted into the study's order; per-pair tables (order None) are stacked.
    table = (join_pieces(pieces, [tuple(key) for key in order]) if order is not None
             else pd.concat(pieces, ignore_index=True))
    write_tsv(table, snakemake.output.tsv)
    if "markdown" in snakemake.output.keys():
        # A table with a row per human score (system level, over a thousand rows) is summarised for
        # reading, the TSV beside it named; the others are written out whole.
        summary = snakemake.params.get("summary")
        write_text(snakemake.output.markdown, summary_markdown(table, Path(snakemake.output.tsv).name) if summary
                   else markdown_table(table))


main(snakemake)  # noqa: F821
