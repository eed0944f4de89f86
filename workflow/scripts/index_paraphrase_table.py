"""Rule index_paraphrase_table: a Meteor paraphrase table as the integer arrays of METEOR's compiled matcher."""

from mtmeta.data.prepare import source_file
from mtmeta.lexicons.paraphrases import read_meteor_paraphrases
from mtmeta.logsetup import configure
from mtmeta.metrics.meteor.indexes import build_paraphrase_index


def main(snakemake):
    configure(snakemake.log[0])
    table = source_file("resources", snakemake.wildcards.source)[0]
    build_paraphrase_index(((a, b) for a, b, _ in read_meteor_paraphrases(table)), snakemake.output[0])


main(snakemake)  # noqa: F821
