"""Rule test_significance: Williams' test for every pair of metrics, and WMT-style ranks, for each
dataset x lp. A pair whose files are unchanged since the last run keeps its tables
(mtmeta.table_cache)."""

import logging
from functools import partial
from pathlib import Path

from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.significance import metric_pearsons, ranks_table, williams_table
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.metrics.spec import MetricSpec
from mtmeta.table_cache import TableCache


def pair_tables(inputs, pair: dict, number: int, level: float, outputs: tuple[str, str]) -> None:
    summary = read_json(inputs.summaries[number])
    specs = [MetricSpec.of(entry) for entry in pair["metrics"]]
    systems = {spec.id: read_tsv(path) for spec, path in zip(specs, pair["files"], strict=True)}
    human = read_tsv(inputs.human_scores[number])
    directions = {spec.id: spec.higher_is_better for spec in specs}
    # "> others" where the pair has judgments; the official score where it has only that.
    human_score = primary_human_score(human)
    pairs = williams_table(summary, human, systems, directions, human_score)
    write_tsv(pairs, outputs[0])
    pearsons = metric_pearsons(summary, human, systems, directions, human_score)
    write_tsv(ranks_table(summary, pairs, level, pearsons), outputs[1])


def main(snakemake):
    configure(snakemake.log[0])
    inputs, output, level = snakemake.input, snakemake.output, snakemake.params.level
    cache = TableCache(Path(snakemake.scriptdir) / "test_significance.py")
    for number, pair in enumerate(snakemake.params.pairs):
        files = [inputs.summaries[number], inputs.human_scores[number], *pair["files"]]
        outputs = (output.pairs[number], output.ranks[number])
        cache.files(cache.key(files, {"pair": pair, "level": level}), list(outputs),
                    partial(pair_tables, inputs, pair, number, level, outputs))
    cache.prune()
    logging.getLogger("mtmeta").info("%s", cache.summary())


main(snakemake)  # noqa: F821
