"""Rule paper_sensitivity: the target's sensitivity table (every metric's rows, joined), its markdown
and its figure."""

from mtmeta.io import read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.paper.figures import sensitivity_figure
from mtmeta.paper.sensitivity import sensitivity_markdown


def main(snakemake):
    configure(snakemake.log[0])
    table = read_tsvs(snakemake.input)
    write_tsv(table, snakemake.output.tsv)
    write_text(snakemake.output.markdown, sensitivity_markdown(table))
    sensitivity_figure(table, snakemake.output.png, metrics=list(snakemake.params.rescored))


main(snakemake)  # noqa: F821
