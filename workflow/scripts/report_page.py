"""Rules report_<caption>: one table or figure of the study as a page of the Snakemake report."""

from mtmeta.logsetup import configure
from mtmeta.paper.report_page import write_page


def main(snakemake):
    configure(snakemake.log[0])
    write_page(snakemake.input.source, snakemake.output[0])


main(snakemake)  # noqa: F821
