"""Rule correlate_paraphrased: Pearson with the human "> others" score for every metric with the
original and with each setting's references, and Meng's test against the original references."""

from pathlib import Path

from mtmeta.io import read_json, read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.parmesan.study import correlate_paraphrased


def main(snakemake):
    configure(snakemake.log[0])
    inputs = snakemake.input
    original = {Path(p).name.removesuffix(".sys.tsv"): read_tsv(p) for p in inputs.original}
    paraphrased = [(setting, metric, read_tsv(path))
                   for (setting, metric), path in zip(snakemake.params.runs, inputs.paraphrased, strict=True)]
    table = correlate_paraphrased(read_tsv(inputs.human_scores), read_json(inputs.summary),
                                  [read_json(path) for path in inputs.summaries], original, paraphrased)
    write_tsv(table, snakemake.output.table)


main(snakemake)  # noqa: F821
