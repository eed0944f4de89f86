"""Rule paper_overview: every metric x every dataset and language pair (system and segment level)."""

from mtmeta.io import read_tsv, read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.paper.figures import overview_figure
from mtmeta.paper.overview import overview_report, overview_table


def main(snakemake):
    configure(snakemake.log[0])
    inputs, outputs = snakemake.input, snakemake.output
    table = overview_table(read_tsv(inputs.system_level), read_tsv(inputs.segment_level), read_tsvs(inputs.ranks),
                           snakemake.params.tau_variant, read_tsv(inputs.bootstrap))
    write_tsv(table, outputs.tsv)
    write_text(outputs.markdown, overview_report(table))
    overview_figure(table, [outputs.png, outputs.pdf])


main(snakemake)  # noqa: F821
