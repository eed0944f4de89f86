"""Rule score_paraphrased: one metric against each system's own (paraphrased) references."""

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.scoring import preload_tokens, score_segments


def main(snakemake):
    configure(snakemake.log[0])
    preload_tokens(snakemake.input.tokens)  # the outputs' (the references are new)
    spec = snakemake.params.metric
    trg = snakemake.wildcards.lp.split("-")[1]
    metric = metrics.get_for_dataset(spec["name"], trg, spec["params"])
    segments = pd.read_parquet(snakemake.input.segments)
    segment_table, system_table = score_segments(segments, metric, own_references=True)
    segment_table.to_parquet(snakemake.output.segments, index=False)
    system_table.insert(1, "metric", spec["id"])
    system_table.insert(2, "references", snakemake.wildcards.setting)
    system_table.to_csv(snakemake.output.systems, sep="\t", index=False, float_format="%.17g")


main(snakemake)  # noqa: F821
