"""Rows of two paper ledgers (``results/paper/ledger.tsv``) whose reproduced values differ: the
measured effect of one setting changed between two runs of the study.

    .venv/bin/python benchmarks/compare_ledgers.py BEFORE.tsv AFTER.tsv --title "..." [--labels B A] [--out FILE.md]

Values are compared at the ledger's three decimals; rows missing on one side are listed too.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

KEY = ["seed", "table", "row", "column"]


def differences(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    merged = before[[*KEY, "reported", "reproduced"]].merge(after[[*KEY, "reproduced"]], on=KEY, how="outer",
                                                              suffixes=("_before", "_after"))
    a = pd.to_numeric(merged["reproduced_before"], errors="coerce").round(3)
    b = pd.to_numeric(merged["reproduced_after"], errors="coerce").round(3)
    changed = ~((a == b) | (a.isna() & b.isna()))
    out = merged.loc[changed, [*KEY, "reported"]].copy()
    out["before"], out["after"], out["change"] = a[changed], b[changed], (b - a)[changed].round(3)
    return out.reset_index(drop=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--title", default="Ledger rows that changed")
    parser.add_argument("--labels", nargs=2, metavar=("BEFORE", "AFTER"), help="how to name the two runs")
    parser.add_argument("--out")
    args = parser.parse_args()
    read = lambda path: pd.read_csv(path, sep="\t", dtype={"seed": str})  # noqa: E731
    before, after = read(args.before), read(args.after)
    diff = differences(before, after)
    names = args.labels or [f"`{args.before}`", f"`{args.after}`"]
    lines = [f"# {args.title}", "", f"Before: {names[0]}. After: {names[1]}.", "",
             f"{len(diff)} of {len(after)} ledger rows "
             "differ at three decimals; every other row is identical.", "",
             "| seed | table | row | column | reported | before | after | change |",
             "|---|---|---|---|---:|---:|---:|---:|"]
    lines += [f"| {r.seed} | {r.table} | {r.row} | {r.column} | {r.reported} | {r.before:.3f} | {r.after:.3f} | "
              f"{r.change:+.3f} |" for r in diff.itertuples()]
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
