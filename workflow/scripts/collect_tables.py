"""Collect per-language-pair tables into one study-wide table (TSV and Markdown)."""

import pandas as pd

from mtmeta.io import markdown_table
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    table = pd.concat([pd.read_csv(path, sep="\t") for path in snakemake.input], ignore_index=True)
    table.to_csv(snakemake.output.tsv, sep="\t", index=False, float_format="%.17g")
    with open(snakemake.output.markdown, "w") as handle:
        handle.write(markdown_table(table))


main(snakemake)  # noqa: F821
