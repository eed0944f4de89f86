"""Rule paper_wmt_baselines: the WMT metrics tasks' baselines against each year's official human score."""

from mtmeta.io import read_tsv, read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.paper.wmt_baselines import baselines_markdown, baselines_table


def main(snakemake):
    configure(snakemake.log[0])
    params = snakemake.params
    table = baselines_table(read_tsv(snakemake.input.system_level), read_tsvs(snakemake.input.bootstrap),
                            params.metrics, params.human_scores)
    write_tsv(table, snakemake.output.tsv)
    write_text(snakemake.output.markdown, baselines_markdown(table))


main(snakemake)  # noqa: F821
