"""Rule score_paraphrased_<metric>: one metric against each system's own (paraphrased) references,
for every target x setting it is configured for."""

import logging

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.metrics.scoring import preload_tokens, score_segments

log = logging.getLogger("score_paraphrased")


def main(snakemake):
    configure(snakemake.log[0])
    spec = snakemake.params.metric
    runs = snakemake.params.runs
    inputs, outputs = snakemake.input, snakemake.output
    made = {}  # one metric object per target language: its resources load once per job
    for number, run in enumerate(runs):
        trg = run["lp"].split("-")[1]
        if trg not in made:
            made[trg] = metrics.get_for_dataset(spec["name"], trg, spec["params"])
        log.info("[%d/%d] %s %s, %s references, with %s", number + 1, len(runs), run["dataset"], run["lp"],
                 run["setting"], spec["id"])
        preload_tokens(inputs.tokens[number])  # the outputs' (the references are new)
        segments = pd.read_parquet(inputs.segments[number])
        segment_table, system_table = score_segments(segments, made[trg], own_references=True)
        segment_table.to_parquet(outputs.segments[number], index=False)
        system_table.insert(1, "metric", spec["id"])
        system_table.insert(2, "references", run["setting"])
        system_table.to_csv(outputs.systems[number], sep="\t", index=False, float_format="%.17g")


main(snakemake)  # noqa: F821
