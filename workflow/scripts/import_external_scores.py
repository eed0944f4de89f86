"""Rule score_<id> of an external_scores id: the user's score files as the study's score tables."""

from mtmeta.app.evaluate import import_scores
from mtmeta.io import write_parquet, write_tsv
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    pairs = [tuple(pair) for pair in snakemake.params.pairs]
    segment_files = dict(zip(pairs, snakemake.input.segments, strict=True))
    tables = import_scores(snakemake.config, snakemake.params.metric_id, segment_files)
    for number, pair in enumerate(pairs):
        segments, systems = tables[pair]
        write_parquet(segments, snakemake.output.segments[number])
        write_tsv(systems, snakemake.output.systems[number])


main(snakemake)  # noqa: F821
