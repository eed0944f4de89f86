"""One checked reader for the tab-separated tables a user hands to mtmeta: score files
(``mtmeta evaluate``, config's ``external_scores``), comparisons (``mtmeta human-scores``) and
system scores (``mtmeta correlate``). The CLI and the workflow read them through :func:`read_table`.

Every problem is an :class:`~mtmeta.errors.InputError` naming the file and, where there is one, the
line: a missing file or a directory, invalid UTF-8 or a NUL byte (:mod:`mtmeta.data.textio`), an
empty file, a header without a required column (with the header's nearest spelling when a column
looks renamed) or with a column twice, a row with fewer or more fields than the header, a header
without rows, an empty name, a value that is not a number. Empty lines carry no row and are skipped.

Cells are split on tabs only (no quoting, as the study writes its tables) and stay strings until a
column's kind converts them: a system called ``NA``, ``nan``, ``null`` or ``None`` is that name.
"""

from __future__ import annotations

import difflib
from operator import methodcaller
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.data.names import expected as names_expected
from mtmeta.data.names import name_problem
from mtmeta.data.numbers import integer_expected, integer_problem, parse_numbers
from mtmeta.data.textio import decode_utf8, read_bytes, split_lines
from mtmeta.errors import InputError

# What a column holds:
#   name     a non-empty string taken as written (systems, datasets, language pairs)
#   text     any string
#   number   a number; "nan" and "inf" are numbers here (callers that need finite ones say so)
#   number?  a number, or an empty cell for a missing value (NaN)
#   integer  an integer (within a 64-bit integer's range)
# Numbers and integers are plain ASCII decimals, read by mtmeta.data.numbers as by every other reader.
KINDS = ("name", "text", "number", "number?", "integer")


def read_table(path: str | Path, columns: dict[str, str], *, what: str, optional: dict[str, str] | None = None,
               rows_required: bool = True) -> pd.DataFrame:
    """The ``columns`` (name -> kind, :data:`KINDS`) of a TSV file with a header, and those of
    ``optional`` the header has, converted; first a ``line`` column (the file's line number of each
    row, the header being line 1). ``what`` says what the file should be, for the messages. Other
    columns of the file are ignored."""
    optional = optional or {}
    for kind in [*columns.values(), *optional.values()]:
        if kind not in KINDS:
            raise ValueError(f"unknown column kind {kind!r}; known: {', '.join(KINDS)}")
    expected = f"{what}: a tab-separated header with {', '.join(columns)}, then one row per line"
    lines = split_lines(decode_utf8(read_bytes(path, what), path), path)
    if not lines or (len(lines) == 1 and not lines[0].strip()):
        raise InputError(path, "file is empty", line=1, expected=expected)
    header = lines[0].split("\t")
    _check_header(path, header, list(columns), expected)
    width = len(header)
    if "" in lines:  # empty lines hold no row: skipped, the others keep their line numbers
        numbers = [number for number, line in enumerate(lines[1:], start=2) if line]
        body = [lines[number - 1] for number in numbers]
    else:
        numbers, body = range(2, len(lines) + 1), lines[1:]
    if not body and rows_required:
        raise InputError(path, "no rows below the header", line=2, expected=expected)
    fields = np.fromiter(map(methodcaller("count", "\t"), body), dtype=np.int64, count=len(body)) + 1
    wrong = np.flatnonzero(fields != width)
    if len(wrong):
        first = int(wrong[0])
        raise InputError(path, f"found {fields[first]} tab-separated field{'s' if fields[first] != 1 else ''}",
                         line=int(numbers[first]),
                         expected=f"{width}, one per column of the header ({', '.join(header)})")
    cells = np.array("\t".join(body).split("\t") if body else [], dtype=object).reshape(len(body), width)
    wanted = {**columns, **{c: k for c, k in optional.items() if c in header and c not in columns}}
    table = pd.DataFrame({"line": np.asarray(numbers, dtype=np.int64)})
    for column, kind in wanted.items():
        values = pd.Series(cells[:, header.index(column)], dtype=object)
        table[column] = _convert(path, values, table["line"], column, kind)
    return table


def _check_header(path, header: list[str], required: list[str], expected: str) -> None:
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise InputError(path, f"column {name!r} appears twice in the header", line=1, expected=expected)
        seen.add(name)
    missing = [c for c in required if c not in seen]
    if not missing:
        return
    extra = [name for name in header if name not in required]
    hints = []
    for name in missing:
        near = [c for c in extra if c.strip().lower() == name.lower()] or difflib.get_close_matches(name, extra, 1, 0.7)
        if near:
            hints.append(f"{near[0]!r} for {name!r}?")
    hint = f" (renamed? the header has {', '.join(hints)})" if hints else ""
    raise InputError(path, f"no {', '.join(map(repr, missing))} column{'s' if len(missing) > 1 else ''}{hint} "
                           f"(header: {header})", line=1, expected=expected)


def _convert(path, values: pd.Series, lines: pd.Series, column: str, kind: str) -> pd.Series:
    """A column's cells as its kind, or an error at the first bad cell. Names and integers repeat (a
    few systems, a few thousand segments): each distinct value is checked once. Numbers are
    converted by Python's float (correctly rounded) in one pass; the bad cell is looked for only
    when that fails."""
    if kind == "text":
        return values
    if kind in ("name", "integer"):
        codes, distinct = pd.factorize(values.to_numpy(dtype=object), use_na_sentinel=False)
        for position, value in enumerate(distinct):
            problem = _bad_name(value, column) if kind == "name" else _bad_integer(value, column)
            if problem:
                first = int(np.argmax(codes == position))
                raise InputError(path, problem[0], line=int(lines.iloc[first]), expected=problem[1])
        if kind == "name":
            return values
        return pd.Series(np.array([int(v) for v in distinct], dtype=np.int64)[codes], index=values.index)
    expected = "a number in ASCII digits (like 12, -0.5 or 1e-3)" + (
        " or an empty cell (no value)" if kind == "number?" else "")
    numbers = parse_numbers(values.to_numpy(dtype=object), path, lines.to_numpy(), column, special=True,
                            missing="" if kind == "number?" else None, expected=expected)
    return pd.Series(numbers, index=values.index)


def _bad_name(value: str, column: str) -> tuple[str, str] | None:
    if not value.strip():
        return f"empty {column}", f"a {column} name (any text but an empty one)"
    problem = name_problem(value)
    if problem:
        return f"{column} {value[:60]!r} {problem}", names_expected(f"{column} name")
    return None


def _bad_integer(value: str, column: str) -> tuple[str, str] | None:
    problem = integer_problem(value)
    if problem is None:
        return None
    return f"{column} {value[:60]!r} {problem}", integer_expected()


def first_line(table: pd.DataFrame, mask) -> int:
    """The line number of the first row of ``table`` where ``mask`` holds."""
    return int(table.loc[mask, "line"].iloc[0])


def read_system_score_file(path: str | Path, column: str, what: str | None = None) -> pd.DataFrame:
    """A TSV with one row per system: ``system`` (a name) and ``column`` (a number, or empty for none);
    a system given twice is an error naming the file and both lines. Columns ``line``, ``system``,
    ``column``."""
    table = read_table(path, {"system": "name", column: "number?"},
                       what=what or f"a table of system scores (columns system and {column})")
    repeated = table["system"].duplicated(keep=False)
    if repeated.any():
        first = table.loc[repeated, "system"].iloc[0]
        lines = [str(n) for n in table.loc[table["system"] == first, "line"]]
        raise InputError(path, f"system {first!r} is given {len(lines)} times (lines {', '.join(lines)})",
                         line=int(lines[1]), expected="one row per system")
    return table
