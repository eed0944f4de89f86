"""Rule build_ledger: every number a seed reports and the study regenerates, side by side."""

import pandas as pd

from mtmeta.io import markdown_table
from mtmeta.logsetup import configure
from mtmeta.paper.ledger import LEDGER_COLUMNS, ledger_rows


def main(snakemake):
    configure(snakemake.log[0])
    parts = []
    for path in snakemake.input.seed001:
        name = path.rsplit("/", 1)[-1].removesuffix(".tsv")
        parts.append(ledger_rows("001", name, pd.read_csv(path, sep="\t"), "three-way accuracy"))
    for path in snakemake.input.seed002:
        frame = pd.read_csv(path, sep="\t")
        name = path.rsplit("/", 1)[-1].removesuffix(".tsv")
        parts.append(ledger_rows("002", name, frame, "Pearson with > others", value_column="pearson"))
    for path in snakemake.input.parmesan:
        frame = pd.read_csv(path, sep="\t")
        frame["seed"], frame["table"] = "002", path.rsplit("/", 1)[-1].removesuffix(".tsv")
        parts.append(frame[LEDGER_COLUMNS])
    # An empty ledger (a config without the seeds' datasets) is still a valid table.
    ledger = pd.concat([pd.DataFrame(columns=LEDGER_COLUMNS), *parts], ignore_index=True)[LEDGER_COLUMNS]
    ledger.to_csv(snakemake.output.tsv, sep="\t", index=False, float_format="%.6g")
    with open(snakemake.output.markdown, "w") as handle:
        handle.write(markdown_table(ledger, columns=LEDGER_COLUMNS))


main(snakemake)  # noqa: F821
