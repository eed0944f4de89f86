"""Rule paper_ledger: every number a seed reports and the study regenerates, side by side."""

from pathlib import Path

from mtmeta.io import markdown_table, read_tsv, write_csv, write_text
from mtmeta.logsetup import configure
from mtmeta.paper.ledger import LEDGER_COLUMNS, ledger_table


def tables(paths) -> dict:
    return {Path(path).name.removesuffix(".tsv"): read_tsv(path) for path in paths}


def main(snakemake):
    configure(snakemake.log[0])
    inputs = snakemake.input
    ledger = ledger_table(tables(inputs.meteor_tuning), tables(inputs.parmesan_settings), tables(inputs.parmesan),
                          tables(inputs.sensitivity), tables(inputs.official))
    write_csv(ledger, snakemake.output.tsv, sep="\t", index=False, float_format="%.6g")  # the ledger reads at 6 digits
    write_text(snakemake.output.markdown, markdown_table(ledger, columns=LEDGER_COLUMNS))


main(snakemake)  # noqa: F821
