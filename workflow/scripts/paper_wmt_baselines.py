"""Rule paper_wmt_baselines: the WMT metrics tasks' baselines against each year's official human score."""

import yaml

from mtmeta.io import read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.paper.wmt_baselines import baselines_markdown, baselines_table, official_comparison, reported_values


def main(snakemake):
    configure(snakemake.log[0])
    params = snakemake.params
    system_level = read_tsvs(snakemake.input.system_level)  # its metrics' pieces
    record = yaml.safe_load(open(snakemake.input.record, encoding="utf-8")) if snakemake.input.record else {}
    table = baselines_table(system_level, read_tsvs(snakemake.input.bootstrap), params.metrics, params.human_scores,
                            reported_values(record, params.official_ids))
    comparison = official_comparison(system_level, params.metrics, params.human_scores)
    write_tsv(table, snakemake.output.tsv)
    write_tsv(comparison, snakemake.output.official)
    write_text(snakemake.output.markdown, baselines_markdown(table, comparison, params.human_scores))


main(snakemake)  # noqa: F821
