"""Rules score_<metric> and score_paraphrased_<metric>: sufficient statistics, segment and system
scores of one metric on each of its runs (dataset x language pair, or target x paraphrase setting)."""

from mtmeta.io import write_parquet, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metrics.score_tables import score_runs


def main(snakemake):
    configure(snakemake.log[0])
    inputs, outputs, params = snakemake.input, snakemake.output, snakemake.params
    runs = score_runs(params.metric, params.runs, inputs.tokens, inputs.segments, params.own_references)
    for number, (segment_table, system_table) in enumerate(runs):
        write_parquet(segment_table, outputs.segments[number])
        write_tsv(system_table, outputs.systems[number])


main(snakemake)  # noqa: F821
