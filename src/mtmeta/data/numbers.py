"""One number parser for every reader of numbers in a file: plain ASCII decimals.

What the files mtmeta reads hold (mt-metrics-eval's score files, WMT's tables, a user's TSV) are
plain decimals: an optional sign, ASCII digits, an optional fraction and exponent (``12``, ``-0.5``,
``.25``, ``1e-3``). Python's ``float`` and ``int`` read more: ``1_000`` (digit groups) as 1000 and
``١٢`` (Arabic-Indic digits) as 12, which pandas' parser refuses, so that one reader would take a
value another refuses. Every reader goes through this module instead, and refuses both, naming the
file, the line and why.

``nan`` and ``inf`` (any case, with a sign) are numbers only where a reader allows them
(``special=True``); surrounding spaces and tabs are allowed. An integer is a sign and ASCII digits,
within the bounds the reader gives (by default those of a 64-bit integer, which every id column
is stored as): ``99999999999999999999`` is an error naming the bounds, not an overflow.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.errors import InputError

DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
SPECIAL = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
INTEGER = re.compile(r"[+-]?[0-9]+")
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
SPACE = " \t"
EXPECTED_NUMBER = "a plain decimal number in ASCII digits (like 12, -0.5 or 1e-3)"


def _why(text: str) -> str:
    """What makes ``text`` unreadable as a plain decimal, when it is one of the usual suspects."""
    if "_" in text and DECIMAL.fullmatch(text.strip(SPACE).replace("_", "")):
        return " (digit-group separators such as '_' are not read)"
    if not text.isascii() and any(c.isdigit() for c in text):
        return " (only the ASCII digits 0-9 are read)"
    if not text.isascii() and not text.strip():
        return " (only spaces and tabs may surround a number)"
    return ""


def _shown(text: str, limit: int = 60) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text):,} characters)"


def number_problem(text: str, *, special: bool = False) -> str | None:
    """Why ``text`` is not a number (None if it is one); without ``special``, a number too large for a
    double (``1e999``) is not one either."""
    stripped = text.strip(SPACE)
    if DECIMAL.fullmatch(stripped):
        return None if special or math.isfinite(float(stripped)) else "is not a finite number (too large)"
    if SPECIAL.fullmatch(stripped):
        return None if special else "is not a finite number"
    return "is not a number" + _why(text)


def parse_number(text: str, path: str | Path, line: int, column: str, *, special: bool = False,
                 expected: str = EXPECTED_NUMBER) -> float:
    """``text`` as a float, or an :class:`InputError` at ``path:line`` naming ``column``."""
    problem = number_problem(text, special=special)
    if problem:
        raise InputError(path, f"{column} {_shown(text)} {problem}", line=line, expected=expected)
    return float(text)


def parse_numbers(values, path: str | Path, lines, column: str, *, special: bool = False,
                  missing: str | None = None, expected: str = EXPECTED_NUMBER) -> np.ndarray:
    """Many fields as float64 (``lines``: the line number of each); a field equal to ``missing`` (e.g.
    ``None``, or an empty cell ``""``) is NaN. An error names the first field that is not a number."""
    cells = np.asarray(values, dtype=object)
    gone = (cells == missing) if missing is not None else np.zeros(len(cells), dtype=bool)
    if missing == "":
        gone = np.array([not cell.strip(SPACE) for cell in cells], dtype=bool) if len(cells) else gone
    present = np.where(gone, "0", cells)
    joined = "".join(present.tolist())
    numbers = None
    if joined.isascii() and "_" not in joined:  # what float reads beyond DECIMAL is then only nan/inf
        try:
            numbers = present.astype(np.float64)
        except ValueError:
            numbers = None
    if numbers is None or (not special and not np.isfinite(numbers).all()):
        for position, cell in enumerate(present.tolist()):
            problem = number_problem(cell, special=special)
            if problem:
                raise InputError(path, f"{column} {_shown(cell)} {problem}", line=int(np.asarray(lines)[position]),
                                 expected=expected)
        if numbers is None:
            numbers = np.array([float(cell) for cell in present.tolist()], dtype=np.float64)
    numbers[gone] = np.nan
    return numbers


def integer_problem(text: str, minimum: int = INT64_MIN, maximum: int = INT64_MAX) -> str | None:
    """Why ``text`` is not an integer from ``minimum`` to ``maximum`` (None if it is one)."""
    stripped = text.strip(SPACE)
    kind = "a positive integer" if minimum == 1 else "an integer"
    if not INTEGER.fullmatch(stripped):
        return f"is not {kind}" + _why(text)
    value = int(stripped)
    if value < minimum and minimum == 1:
        return f"is not {kind}"
    if not minimum <= value <= maximum:
        return "is out of range"
    return None


def integer_expected(minimum: int = INT64_MIN, maximum: int = INT64_MAX) -> str:
    if minimum == 1 and maximum == INT64_MAX:
        return "an integer 1, 2, ... (ASCII digits)"
    return f"an integer from {minimum} to {maximum} (ASCII digits)"


def parse_integer(text: str, path: str | Path, line: int, column: str, *, minimum: int = INT64_MIN,
                  maximum: int = INT64_MAX) -> int:
    problem = integer_problem(text, minimum, maximum)
    if problem:
        raise InputError(path, f"{column} {_shown(text)} {problem}", line=line,
                         expected=integer_expected(minimum, maximum))
    return int(text.strip(SPACE))


def parse_integers(values, path: str | Path, lines, column: str, *, minimum: int = INT64_MIN,
                   maximum: int = INT64_MAX) -> np.ndarray:
    """Many fields as int64, each distinct value checked once (ids repeat); an error names the first
    bad one."""
    codes, distinct = pd.factorize(np.asarray(values, dtype=object), use_na_sentinel=False)
    parsed = np.empty(len(distinct), dtype=np.int64)
    for position, value in enumerate(distinct):
        problem = integer_problem(value, minimum, maximum)
        if problem:
            first = int(np.argmax(codes == position))
            raise InputError(path, f"{column} {_shown(value)} {problem}", line=int(np.asarray(lines)[first]),
                             expected=integer_expected(minimum, maximum))
        parsed[position] = int(value.strip(SPACE))
    return parsed[codes]
