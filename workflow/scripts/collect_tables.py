"""Collect per-language-pair tables into one study-wide table (TSV and Markdown)."""

from mtmeta.io import markdown_table, read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    table = read_tsvs(snakemake.input)
    write_tsv(table, snakemake.output.tsv)
    write_text(snakemake.output.markdown, markdown_table(table))


main(snakemake)  # noqa: F821
