"""Rule collect_exclusions: every dataset's exclusion report in one table."""

import pandas as pd

from mtmeta.data.report import COLUMNS
from mtmeta.io import read_json, write_csv
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    frames = []
    for report, summary in zip(snakemake.input.reports, snakemake.input.summaries, strict=True):
        meta = read_json(summary)
        frame = pd.read_csv(report, sep="\t", dtype={"detail": str}, keep_default_na=False)
        frame.insert(0, "lp", meta["lp"])
        frame.insert(0, "dataset", meta["dataset"])
        frames.append(frame)
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["dataset", "lp", *COLUMNS])
    write_csv(table, snakemake.output[0], sep="\t", index=False)


main(snakemake)  # noqa: F821
