"""Meteor 1.5's function-word lists (``<language>.words``), one word per line."""

from __future__ import annotations

from pathlib import Path

from mtmeta.data.textio import read_lines


def read_function_words(path: str | Path) -> frozenset[str]:
    return frozenset(line.strip().lower() for line in read_lines(path) if line.strip())
