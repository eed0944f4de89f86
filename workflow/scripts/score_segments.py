"""Rules score_<metric> and score_paraphrased_<metric>: sufficient statistics, segment and system
scores of one metric on each of its runs (dataset x language pair, or target x paraphrase setting),
the runs shared among the job's threads (one process each)."""

from mtmeta.logsetup import configure
from mtmeta.metrics.score_tables import write_runs


def main(snakemake):
    configure(snakemake.log[0])
    inputs, outputs, params = snakemake.input, snakemake.output, snakemake.params
    write_runs(params.metric, params.runs, inputs.tokens, inputs.segments, outputs.segments, outputs.systems,
               params.own_references, workers=snakemake.threads)


main(snakemake)  # noqa: F821
