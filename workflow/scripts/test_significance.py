"""Rule test_significance: Williams' test for every pair of metrics, and WMT-style ranks, for each
dataset x lp."""

import json

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.metaeval.significance import clusters, williams_table


def main(snakemake):
    configure(snakemake.log[0])
    level = snakemake.params.level
    for number, pair in enumerate(snakemake.params.pairs):
        summary = json.loads(open(snakemake.input.summaries[number]).read())
        specs = pair["metrics"]
        systems = {spec["id"]: pd.read_csv(path, sep="\t") for spec, path in zip(specs, pair["files"], strict=True)}
        directions = {spec["id"]: metrics.metric_class(spec["name"]).higher_is_better for spec in specs}
        pairs = williams_table(summary, pd.read_csv(snakemake.input.human_scores[number], sep="\t"), systems,
                               directions)
        pairs.to_csv(snakemake.output.pairs[number], sep="\t", index=False, float_format="%.17g")
        pearson = dict(zip(pairs["metric_1"], pairs["r_1"], strict=False))
        p_values = {(a, b): p for a, b, p in zip(pairs["metric_1"], pairs["metric_2"], pairs["p_one_sided"],
                                                 strict=True)}
        ranks = clusters(pearson, p_values, level)
        pd.DataFrame({"dataset": summary["dataset"], "lp": summary["lp"], "metric": list(ranks),
                      "pearson": [pearson[m] for m in ranks], "rank": list(ranks.values()),
                      "test": f"williams|one-sided|level:{level}"}).to_csv(
            snakemake.output.ranks[number], sep="\t", index=False, float_format="%.17g")


main(snakemake)  # noqa: F821
