"""Rule find_neighbours: nearest neighbours of every reference word, for the softened BLEU variants."""

import logging

import pandas as pd

from mtmeta.embeddings.vectors import Vectors
from mtmeta.logsetup import configure
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    vectors = Vectors.load(snakemake.input.vectors)
    lang = snakemake.wildcards.lang
    for job in snakemake.params.jobs:
        metric = MetricSpec.of(job["metric"]).build(lang, job["tokenized"])
        references = pd.read_parquet(job["segments"], columns=["reference"])["reference"].unique()
        vectors.prefetch_neighbours(metric.reference_words(references), metric.k)
    count = vectors.save_neighbours(snakemake.output[0])
    logging.getLogger("mtmeta").info("%d neighbour lists of %s %s", count, snakemake.wildcards.model, lang)


main(snakemake)  # noqa: F821
