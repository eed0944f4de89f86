"""Conventions of the files the study writes."""

from __future__ import annotations

import pandas as pd


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
