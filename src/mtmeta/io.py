"""Conventions of the files the study reads and writes, in one place.

- Tables: tab-separated, no index, floats with 17 significant digits (every double reads back as
  the same double, so a rerun writes the same bytes and nothing is rounded between steps).
- JSON summaries: UTF-8.
- Markdown: GitHub-flavoured tables; p-values below 0.001 keep three significant digits.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

FLOAT_FORMAT = "%.17g"


def write_tsv(table: pd.DataFrame, path, **options) -> None:
    """A result table in the study's format (``options`` go to ``DataFrame.to_csv``, e.g. compression)."""
    table.to_csv(path, sep="\t", index=False, float_format=FLOAT_FORMAT, **options)


def read_tsv(path, **options) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", **options)


def read_tsvs(paths) -> pd.DataFrame:
    """Several tables with the same columns, one after the other."""
    return pd.concat([read_tsv(path) for path in paths], ignore_index=True)


def read_json(path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_text(path, text: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def write_titled_table(table: pd.DataFrame, tsv, markdown, title: str, columns: list[str] | None = None) -> None:
    """The table as TSV, and as Markdown under a bold title."""
    write_tsv(table, tsv)
    write_text(markdown, f"**{title}**\n\n" + markdown_table(table, columns))


def _format_cell(value) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "n/a"
        return f"{value:.3g}" if abs(value) < 0.001 and value != 0 else f"{value:.3f}"
    return str(value).replace("|", "\\|")


def markdown_table(table: pd.DataFrame, columns: list[str] | None = None) -> str:
    """A GitHub-flavoured Markdown rendering; p-values below 0.001 keep three significant digits."""
    columns = columns or [c for c in table.columns if c not in ("description", "metric_signature")]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for _, row in table[columns].iterrows():
        lines.append("| " + " | ".join(_format_cell(row[c]) for c in columns) + " |")
    return "\n".join(lines) + "\n"
