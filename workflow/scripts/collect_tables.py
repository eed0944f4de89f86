"""Rules collect_*: every metric's piece of a table joined into the study-wide table (TSV, and
Markdown where the rule writes one), rows in the study's order."""

from mtmeta.io import markdown_table, read_tsv, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.by_metric import join_pieces


def main(snakemake):
    configure(snakemake.log[0])
    table = join_pieces([read_tsv(path) for path in snakemake.input], [tuple(key) for key in snakemake.params.order])
    write_tsv(table, snakemake.output.tsv)
    if "markdown" in snakemake.output.keys():
        write_text(snakemake.output.markdown, markdown_table(table))


main(snakemake)  # noqa: F821
