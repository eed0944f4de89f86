"""Rule resample_human_scores: the human scores' bootstrap draws of each pair with pairwise judgments,
read by every metric's evaluate_metric job."""

import pandas as pd

from mtmeta.io import read_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.bootstrap import human_draws, write_human_draws


def main(snakemake):
    configure(snakemake.log[0])
    inputs, bootstrap = snakemake.input, snakemake.params.bootstrap
    for number, output in enumerate(snakemake.output):
        seg_ids = pd.read_parquet(inputs.segments[number], columns=["seg_id"])["seg_id"].unique()
        found = human_draws(pd.read_parquet(inputs.comparisons[number]), read_tsv(inputs.human_scores[number]),
                            seg_ids, bootstrap["draws"], bootstrap["seed"])
        write_human_draws(found, output)


main(snakemake)  # noqa: F821
