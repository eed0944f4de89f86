"""Rule paper_parmesan: seed 002's tables on the paraphrased references, beside the reported numbers."""

import yaml

from mtmeta.io import read_tsv, write_text, write_titled_table
from mtmeta.logsetup import configure
from mtmeta.paper.parmesan import PARAPHRASED_TITLES, paraphrased_tables, variants_markdown


def main(snakemake):
    configure(snakemake.log[0])
    params, outputs = snakemake.params, snakemake.output
    correlations = {label: read_tsv(path) for label, path in zip(params.labels, snakemake.input.correlations,
                                                                 strict=True)}
    tables = paraphrased_tables(correlations, yaml.safe_load(open(snakemake.input.reported)), params.settings,
                                params.meteor_setting, params.meteor_settings, params.baseline)
    for name, tsv, markdown in zip(params.names, outputs.tsv, outputs.markdown, strict=True):
        write_titled_table(tables[name], tsv, markdown, PARAPHRASED_TITLES[name])
    write_text(outputs.variants, variants_markdown(correlations))


main(snakemake)  # noqa: F821
