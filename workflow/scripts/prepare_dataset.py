"""Rule prepare_dataset: segment, comparison and human-score tables of one dataset x lp."""

import logging
from pathlib import Path

from mtmeta.data.prepare import prepare, write_prepared
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    w = snakemake.wildcards
    prepared = prepare(w.dataset, snakemake.params.dataset, w.lp, "resources")
    write_prepared(prepared, Path(snakemake.output.segments).parent)
    log = logging.getLogger("mtmeta")
    log.info("summary: %s", prepared.summary)
    for row in prepared.report.rows:
        log.info("report: %(kind)s | %(detail)s | %(count)d | %(action)s", row)


main(snakemake)  # noqa: F821
