"""Check the study's headline numbers against the values of a reference run (``expected.yaml``).

    .venv/bin/python tests/headline/check_results.py [--results results] [--expected tests/headline/expected.yaml]
                                                     [--extended]

Each entry names a result table, the row (column = value filters), the column and the expected value
to 4 decimals. Every entry is checked and reported; the exit code is 1 if any differs by more than
half a unit in the 4th decimal or cannot be found. The expected values were copied from full runs
of the study; a commit that changes one must say why in its message. ``checks`` are the default
study's; ``--extended`` also checks ``extended_checks``, the additions of config/extended.yaml.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd
import yaml

HERE = Path(__file__).resolve().parent
TOLERANCE = 5e-5


def read_table(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path, sep="\t")


def check(entry: dict, results: Path) -> tuple[bool, str]:
    path = results / entry["file"]
    if not path.is_file():
        return False, f"{path}: missing"
    table = read_table(path)
    rows = table
    for column, value in entry.get("where", {}).items():
        if column not in rows.columns:
            return False, f"{path}: no column {column!r}"
        rows = rows[rows[column].astype(str) == str(value)]
    if len(rows) != 1:
        return False, f"{path}: {len(rows)} rows match {entry.get('where')} (expected exactly one)"
    found = float(rows.iloc[0][entry["column"]])
    ok = abs(found - float(entry["expected"])) <= TOLERANCE
    return ok, f"{found:.4f} (expected {float(entry['expected']):.4f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", default="results", help="the study's results folder")
    parser.add_argument("--expected", default=str(HERE / "expected.yaml"))
    parser.add_argument("--extended", action="store_true",
                        help="also check the extended study's additions (config/extended.yaml)")
    args = parser.parse_args(argv)
    expected = yaml.safe_load(Path(args.expected).read_text())
    if args.extended and "extended_checks" not in expected:
        parser.error(f"{args.expected}: no extended_checks, which --extended checks")
    entries = expected["checks"] + (expected["extended_checks"] if args.extended else [])
    failed = 0
    for entry in entries:
        ok, message = check(entry, Path(args.results))
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {entry['name']}: {message}")
    print(f"{len(entries) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
