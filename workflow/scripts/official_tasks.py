"""Rule official_tasks: one of mt-metrics-eval's task sets on one of the study's MQM sets, by `mtmeta
tasks`' own code on the arguments mtmeta.app.study_tasks builds (write_official_tasks); the
command is recorded in every output, so that running it in the study's directory writes the same
files. The paper's table (TSV, Markdown) is the --out directory's ranking.tsv and table.md.

Every metric pair's permutation tests make this the slowest job of a rerun, so a job whose inputs
(the eval-set root, the exported and the user's scores), parameters and code are all unchanged
since the last run copies that run's files (mtmeta.table_cache): a forced rerun of one metric whose
scores did not change recomputes no test here."""

import logging
from pathlib import Path

from mtmeta.logsetup import configure
from mtmeta.table_cache import TableCache


def read_files(spec) -> list[str]:
    """Everything the task set reads: the root (its test set, the assembly's reports), the exported
    metric scores and the user's score files."""
    return [spec["root"], *spec["metric_scores"],
            *(path for metric in spec["external"].values() for path in (*metric["segments"], *metric["systems"]))]


def main(snakemake):
    configure(snakemake.log[0])
    spec, output, log = snakemake.params.spec, snakemake.output, logging.getLogger("mtmeta")
    cache = TableCache(Path(snakemake.scriptdir) / "official_tasks.py", job=spec["name"])

    def compute() -> None:
        from mtmeta.app.study_tasks import write_official_tasks

        run = write_official_tasks(spec, output.out, output.tsv, output.markdown, [output.png, output.pdf])
        log.info("%s: %.1f s of tests; %s", spec["name"], run.seconds, run.command)

    key = cache.key(read_files(spec), spec)
    if cache.files(key, [output.tsv, output.markdown, output.png, output.pdf], compute, directories=(output.out,)):
        log.info("%s: inputs, parameters and code unchanged since the last run: its files copied", spec["name"])
    cache.prune()
    log.info("%s", cache.summary())


main(snakemake)  # noqa: F821
