"""Rule paper_softbleu: BLEU against the embedding-softened variants on every dataset, and the
word2vec models behind them."""

from pathlib import Path

import pandas as pd

from mtmeta.io import read_json, read_tsv, read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.significance import williams_table
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.metrics.spec import MetricSpec
from mtmeta.paper.figures import softbleu_figure
from mtmeta.paper.softbleu_table import embeddings_markdown, softbleu_markdown, softbleu_table


def williams_of(inputs, specs: list[MetricSpec]) -> pd.DataFrame:
    """Williams' test between the table's metrics on every system-level pair, as test_significance
    computes it among all metrics (one pair of metrics' test depends on those two and the human score)."""
    tables, systems = [], iter(inputs.systems)
    for summary, human in zip(inputs.summaries, inputs.human_scores, strict=True):
        scores = {spec.id: read_tsv(next(systems)) for spec in specs}
        human = read_tsv(human)
        tables.append(williams_table(read_json(summary), human, scores,
                                     {spec.id: spec.higher_is_better for spec in specs}, primary_human_score(human)))
    return pd.concat(tables, ignore_index=True)


def main(snakemake):
    configure(snakemake.log[0])
    inputs, outputs, params = snakemake.input, snakemake.output, snakemake.params
    specs = [MetricSpec.of(entry) for entry in params.metrics]
    metric_ids = [spec.id for spec in specs]
    table = softbleu_table(read_tsvs(inputs.system_level), read_tsvs(inputs.segment_level), williams_of(inputs, specs),
                           metric_ids, params.tau_variant, baseline=params.baseline)
    write_tsv(table, outputs.tsv)
    write_text(outputs.markdown, softbleu_markdown(table))
    models = [(read_json(path), read_tsv(Path(path).with_name("neighbours.tsv"))) for path in inputs.embeddings]
    write_text(outputs.embeddings, embeddings_markdown(models))
    # The figure draws each Pearson with its bootstrap interval (the metrics' system_bootstrap pieces).
    softbleu_figure(table, [outputs.png, outputs.pdf], bootstrap=read_tsvs(inputs.bootstrap),
                    baseline=params.baseline)


main(snakemake)  # noqa: F821
