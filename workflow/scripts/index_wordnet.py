"""Rule index_wordnet: WordNet's synsets per lemma, its exception lists and morphology rules, for METEOR."""

import logging

from mtmeta.data.prepare import source_file
from mtmeta.logsetup import configure
from mtmeta.metrics.meteor.indexes import build_synonym_index, sha256_file


def main(snakemake):
    configure(snakemake.log[0])
    build_synonym_index(source_file("resources", "wordnet")[0], snakemake.output[0])
    logging.getLogger("mtmeta").info("synonym index sha256 %s", sha256_file(snakemake.output[0]))


main(snakemake)  # noqa: F821
