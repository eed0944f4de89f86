"""Rule score_<metric>: sufficient statistics, segment and system scores of one metric on every
dataset x language pair it is configured for."""

import logging

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.metrics.scoring import preload_tokens, score_segments

log = logging.getLogger("score_segments")


def main(snakemake):
    configure(snakemake.log[0])
    spec = snakemake.params.metric
    pairs = snakemake.params.pairs
    inputs, outputs = snakemake.input, snakemake.output
    # One metric object per target language and tokenisation: its resources load once per job.
    made = {}
    for number, pair in enumerate(pairs):
        trg = pair["lp"].split("-")[1]
        key = (trg, pair["tokenized"])
        if key not in made:
            made[key] = metrics.get_for_dataset(spec["name"], trg, spec["params"], tokenized=pair["tokenized"])
        log.info("[%d/%d] %s %s with %s", number + 1, len(pairs), pair["dataset"], pair["lp"], spec["id"])
        preload_tokens(inputs.tokens[number])
        segment_table, system_table = score_segments(pd.read_parquet(inputs.segments[number]), made[key])
        segment_table.to_parquet(outputs.segments[number], index=False)
        system_table.insert(1, "metric", spec["id"])
        system_table.to_csv(outputs.systems[number], sep="\t", index=False, float_format="%.17g")


main(snakemake)  # noqa: F821
