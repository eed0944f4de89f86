"""Rule official_tasks: one of mt-metrics-eval's task sets on one of the study's MQM sets, by `mtmeta
tasks`' own code on the arguments mtmeta.app.study_tasks builds (write_official_tasks); the
command is recorded in every output, so that running it in the study's directory writes the same
files. The paper's table (TSV, Markdown) is the --out directory's ranking.tsv and table.md."""

import logging

from mtmeta.app.study_tasks import write_official_tasks
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    spec, output = snakemake.params.spec, snakemake.output
    run = write_official_tasks(spec, output.out, output.tsv, output.markdown, [output.png, output.pdf])
    logging.getLogger("mtmeta").info("%s: %.1f s of tests; %s", spec["name"], run.seconds, run.command)


main(snakemake)  # noqa: F821
