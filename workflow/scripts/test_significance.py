"""Rule test_significance: Williams' test for every pair of metrics, and WMT-style ranks, for each
dataset x lp."""

from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.significance import metric_pearsons, ranks_table, williams_table
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    for number, pair in enumerate(snakemake.params.pairs):
        summary = read_json(snakemake.input.summaries[number])
        specs = [MetricSpec.of(entry) for entry in pair["metrics"]]
        systems = {spec.id: read_tsv(path) for spec, path in zip(specs, pair["files"], strict=True)}
        human = read_tsv(snakemake.input.human_scores[number])
        directions = {spec.id: spec.higher_is_better for spec in specs}
        # "> others" where the pair has judgments; the official score where it has only that.
        human_score = primary_human_score(human)
        pairs = williams_table(summary, human, systems, directions, human_score)
        write_tsv(pairs, snakemake.output.pairs[number])
        pearsons = metric_pearsons(summary, human, systems, directions, human_score)
        write_tsv(ranks_table(summary, pairs, snakemake.params.level, pearsons), snakemake.output.ranks[number])


main(snakemake)  # noqa: F821
