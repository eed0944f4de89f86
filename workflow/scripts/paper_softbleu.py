"""Rule paper_softbleu: BLEU against the embedding-softened variants on every dataset, and the
word2vec models behind them."""

from pathlib import Path

from mtmeta.io import read_json, read_tsv, read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.paper.figures import softbleu_figure
from mtmeta.paper.softbleu import embeddings_markdown, softbleu_markdown, softbleu_table


def main(snakemake):
    configure(snakemake.log[0])
    inputs, outputs, params = snakemake.input, snakemake.output, snakemake.params
    table = softbleu_table(read_tsv(inputs.system_level), read_tsv(inputs.segment_level), read_tsvs(inputs.williams),
                           params.metrics, params.tau_variant, baseline=params.baseline)
    write_tsv(table, outputs.tsv)
    write_text(outputs.markdown, softbleu_markdown(table))
    models = [(read_json(path), read_tsv(Path(path).with_name("neighbours.tsv"))) for path in inputs.embeddings]
    write_text(outputs.embeddings, embeddings_markdown(models))
    # The figure draws each Pearson with its bootstrap interval (the study's system_bootstrap.tsv).
    softbleu_figure(table, [outputs.png, outputs.pdf], bootstrap=read_tsvs(inputs.bootstrap),
                    baseline=params.baseline)


main(snakemake)  # noqa: F821
