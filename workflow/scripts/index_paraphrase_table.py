"""Rule index_paraphrase_table: a paraphrase table (Meteor's, or a MyThes thesaurus read as one) as
the integer arrays of METEOR's compiled matcher."""

from mtmeta.data.prepare import source_file
from mtmeta.logsetup import configure
from mtmeta.metrics.meteor.indexes import build_paraphrase_index, paraphrase_index_entries


def main(snakemake):
    configure(snakemake.log[0])
    source = snakemake.wildcards.source
    build_paraphrase_index(paraphrase_index_entries(source, source_file("resources", source)[0]), snakemake.output[0])


main(snakemake)  # noqa: F821
