"""Rule assemble_wmt23: WMT23 side-by-side MQM en-de and zh-en (three raters per segment) in
mt-metrics-eval's layout, gold `mqm` only in its human scores; every single rating, the line mapping
and the report of what was dropped beside it (mtmeta.data.wmt23)."""

import logging
from pathlib import Path

from mtmeta.data.wmt23 import assemble_wmt23_sxs, write_sxs
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    roots = {role: Path(path).parent / "files" for role, path in snakemake.input.items()}
    sets = assemble_wmt23_sxs(roots["google"], roots["news"])
    write_sxs(sets, Path(snakemake.output.evalsets), rater_scores=False)
    for sxs in sets.values():
        for row in sxs.report.itertuples():
            logging.getLogger("mtmeta").info("report: %s %s | %s | %s | %d | %s", row.evalset, row.lp, row.kind,
                                             row.detail, row.count, row.action)


main(snakemake)  # noqa: F821
