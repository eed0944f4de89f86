"""Rule train_embeddings: word2vec on the tokenised corpus (or pre-trained vectors), and a
nearest-neighbour sanity table."""

import json
import logging

from mtmeta.embeddings.training import build_vectors
from mtmeta.embeddings.vectors import neighbour_table
from mtmeta.io import write_csv, write_text
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    wildcards, output = snakemake.wildcards, snakemake.output
    summary = build_vectors(snakemake.params.spec, wildcards.lang, wildcards.model, snakemake.input[0], output.vectors)
    table = neighbour_table(output.vectors, snakemake.params.probes)
    for probe, rows in table.groupby("probe", sort=False):
        neighbours = ", ".join(f"{w} {s:.2f}" for w, s in zip(rows["neighbour"], rows["cosine"], strict=True))
        logging.getLogger("mtmeta").info("neighbours of %s: %s", probe, neighbours)
    write_csv(table, output.neighbours, sep="\t", index=False, float_format="%.6f")  # a sanity table: 6 digits
    write_text(output.summary, json.dumps(summary, indent=1))


main(snakemake)  # noqa: F821
