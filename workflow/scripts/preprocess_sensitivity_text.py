"""Rule preprocess_sensitivity_text: a target's segment table with both sides Moses-tokenised, and as
simplemma lemmas of those tokens: the texts the sensitivity table re-scores its metrics on."""

import pandas as pd

from mtmeta.logsetup import configure
from mtmeta.paper.sensitivity import preprocess


def main(snakemake):
    configure(snakemake.log[0])
    segments = pd.read_parquet(snakemake.input.segments)
    lang = snakemake.wildcards.lp.split("-")[1]
    moses = preprocess(segments, "moses", lang)
    moses.to_parquet(snakemake.output.moses, index=False)
    preprocess(segments, "lemmas", lang, moses).to_parquet(snakemake.output.lemmas, index=False)


main(snakemake)  # noqa: F821
