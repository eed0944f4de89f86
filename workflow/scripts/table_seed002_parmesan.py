"""Rule table_seed002_parmesan: seed 002's tables on the paraphrased references, beside the reported numbers."""

import pandas as pd
import yaml

from mtmeta.io import markdown_table
from mtmeta.logsetup import configure
from mtmeta.paper.parmesan import seed002_parmesan

TITLES = {
    "seed002_parmesan_substitution": "Seed 002 (table corrs13): Pearson of BLEU with > others, new references",
    "seed002_parmesan_replaced": "Seed 002 (table replaced): average replaced words and phrases per sentence",
    "seed002_parmesan_meteor": "Seed 002 (table results:12:13): Meteor settings with the new references",
}


def main(snakemake):
    configure(snakemake.log[0])
    correlations = {label: pd.read_csv(path, sep="\t")
                    for label, path in zip(snakemake.params.labels, snakemake.input.correlations, strict=True)}
    reported = yaml.safe_load(open(snakemake.input.reported))
    tables = seed002_parmesan(correlations, reported, snakemake.params.settings, snakemake.params.meteor_setting)
    for name, tsv, md in zip(snakemake.params.names, snakemake.output.tsv, snakemake.output.markdown, strict=True):
        tables[name].to_csv(tsv, sep="\t", index=False, float_format="%.17g")
        with open(md, "w") as handle:
            handle.write(f"**{TITLES[name]}**\n\n" + markdown_table(tables[name]))
    with open(snakemake.output.variants, "w") as handle:
        for label, table in correlations.items():
            columns = ["metric", "references", "n_systems", "pearson", "meng_z", "meng_p_two_sided",
                       "words_per_sentence", "phrases_per_sentence"]
            handle.write(f"**{label} ({table['dataset'].iloc[0]} {table['lp'].iloc[0]}): every metric with the "
                         "original and every setting's references; Meng's test against the original**\n\n")
            handle.write(markdown_table(table[columns]) + "\n\n")


main(snakemake)  # noqa: F821
