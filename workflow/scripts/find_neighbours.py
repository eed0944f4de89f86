"""Rule find_neighbours: nearest neighbours of every reference word, for the softened BLEU variants."""

import logging

import pandas as pd

from mtmeta import metrics
from mtmeta.embeddings.vectors import Vectors
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    vectors = Vectors.load(snakemake.input.vectors)
    lang = snakemake.wildcards.lang
    for job in snakemake.params.jobs:
        spec = job["metric"]
        metric = metrics.get_for_dataset(spec["name"], lang, spec["params"], job["tokenized"])
        segments = pd.read_parquet(f"results/datasets/{job['dataset']}/{job['lp']}/segments.parquet",
                                   columns=["reference"])
        preprocess = metric._bleu._metric._preprocess_segment
        vectors.prefetch_neighbours((w for ref in segments["reference"].unique() for w in preprocess(ref).split()),
                                    metric.k)
    count = vectors.save_neighbours(snakemake.output[0])
    logging.getLogger("mtmeta").info("%d neighbour lists of %s %s", count, snakemake.wildcards.model, lang)


main(snakemake)  # noqa: F821
