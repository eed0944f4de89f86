"""Rule assemble_wmt21: the WMT21 MQM eval sets in mt-metrics-eval's layout, from the three
repositories, with the report of what was left out and the text checks; and the en-ru neural metrics'
scores as "bring your own scores" files for the config's dataset ids."""

import logging
from pathlib import Path

from mtmeta.data.neural_scores import METRICS as NEURAL_METRICS
from mtmeta.data.wmt21 import assemble_wmt21, neural_external_scores, write_wmt21
from mtmeta.io import write_tsv
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    inputs, out = snakemake.input, Path(snakemake.output.evalsets)
    roots = {role: Path(path).parent / "files" for role, path in inputs.items()}
    assembly = assemble_wmt21(roots["google"], roots["news"], roots["unbabel"])
    write_wmt21(assembly, out)
    datasets = {domain: snakemake.params.datasets[testset]
                for testset, domain in (("wmt21.news", "newstest2021"), ("wmt21.tedtalks", "tedtalks"))
                if testset in snakemake.params.datasets}
    for metric, path in zip(NEURAL_METRICS, snakemake.output.external, strict=True):
        write_tsv(neural_external_scores(roots["unbabel"], metric, datasets), path)
    for row in assembly.report.itertuples():
        logging.getLogger("mtmeta").info("report: %s %s | %s | %s | %d | %s", row.evalset, row.lp, row.kind,
                                         row.detail, row.count, row.action)


main(snakemake)  # noqa: F821
