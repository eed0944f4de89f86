"""Rule table_seed003: every metric x every dataset and language pair (system and segment level)."""

import pandas as pd

from mtmeta.logsetup import configure
from mtmeta.paper.figures import overview_figure
from mtmeta.paper.overview import overview_markdown, seed003_overview


def read_all(paths) -> pd.DataFrame:
    return pd.concat([pd.read_csv(path, sep="\t") for path in paths], ignore_index=True)


def main(snakemake):
    configure(snakemake.log[0])
    table = seed003_overview(pd.read_csv(snakemake.input.system_level, sep="\t"),
                             pd.read_csv(snakemake.input.segment_level, sep="\t"), read_all(snakemake.input.ranks),
                             snakemake.params.tau_variant, read_all(snakemake.input.bootstrap))
    table.to_csv(snakemake.output.tsv, sep="\t", index=False, float_format="%.17g")
    with open(snakemake.output.markdown, "w") as handle:
        handle.write(overview_markdown(table, "pearson", "System-level Pearson with \"> others\" "
                                       "(bold: the top Williams group, one-sided p <= 0.05 starts a new group; "
                                       "otherwise the group number; 95% bootstrap intervals are in the TSV)"))
        handle.write("\n")
        handle.write(overview_markdown(table.drop(columns="williams_rank"), "segment_tau",
                                       "Segment-level Kendall tau (each year's WMT variant; on the evaluator set, "
                                       "tau_wmt14; its three-way accuracy is in the TSV)"))
    overview_figure(table, [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
