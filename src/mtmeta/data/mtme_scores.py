"""mt-metrics-eval's score files: one ``[DOMAIN] SYSNAME SCORE`` line per score.

As mt-metrics-eval's README specifies them (and its ``ReadScoreFile`` reads them: the line split on
whitespace): a system-level (``sys``) file has one line per system; a segment-level (``seg``) or
document-level (``doc``) file a block of lines per system, one per segment (document) in order; a
``domain`` file one line per domain and system, with the domain first. A human score may be
``None`` (missing: never a zero); a metric score may not. Unbabel's en-ru evaluation files
(``system<TAB>score``, one block per system) are the same format without a domain.

Written files put one tab between the fields, the systems in sorted order, and each score as the
shortest decimal that reads back as the same double.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.data.names import RULES, name_problem
from mtmeta.data.numbers import parse_numbers
from mtmeta.data.textio import read_lines
from mtmeta.errors import InputError

LEVELS = ("sys", "domain", "doc", "seg")
NONE = "None"


def frame(rows: list[list[str]], columns: list[str]) -> pd.DataFrame:
    """Rows of equally many string fields as a table of object columns (built column by column: much
    faster than from the rows)."""
    array = np.empty((len(rows), len(columns)), dtype=object)
    if rows:
        array[:] = rows
    return pd.DataFrame({c: array[:, i] for i, c in enumerate(columns)})


def read_score_file(path: str | Path, level: str, *, human: bool) -> pd.DataFrame:
    """The scores of one file, in file order: columns ``system``, ``item`` (the position in the
    system's block, from 1; 1 at the system level), ``score`` (NaN for ``None``), ``line``; a domain
    file has ``domain`` instead of ``item``. Every malformed line is an error naming it."""
    if level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of {LEVELS}")
    lines = read_lines(path)
    if not lines:
        raise InputError(path, "file is empty", line=1, expected=_expected(level, human))
    width = 3 if level == "domain" else 2
    fields = [line.split() for line in lines]
    bad = next((i for i, f in enumerate(fields) if len(f) != width), None)
    if bad is not None:
        raise InputError(path, f"found {len(fields[bad])} whitespace-separated fields", line=bad + 1,
                         expected=_expected(level, human))
    table = frame(fields, ["domain", "system", "value"] if level == "domain" else ["system", "value"])
    table["line"] = np.arange(1, len(table) + 1)
    table["score"] = parse_scores(table["value"], path, table["line"], human=human, expected=_expected(level, human))
    table = table.drop(columns="value")
    if level == "domain":
        repeated = table.duplicated(["domain", "system"], keep="first")
        if repeated.any():
            row = table[repeated].iloc[0]
            raise InputError(path, f"domain {row['domain']!r} system {row['system']!r} is given twice",
                             line=int(row["line"]), expected="one score per domain and system")
        return table[["domain", "system", "score", "line"]]
    systems = table["system"]
    starts = systems.ne(systems.shift())
    second = starts & systems.duplicated(keep="first")
    if second.any():
        row = table[second].iloc[0]
        raise InputError(path, f"system {row['system']!r} starts a second block", line=int(row["line"]),
                         expected="one contiguous block of lines per system")
    table["item"] = table.groupby("system", sort=False).cumcount() + 1
    if level == "sys" and (table["item"] > 1).any():
        row = table[table["item"] > 1].iloc[0]
        raise InputError(path, f"system {row['system']!r} has a second score", line=int(row["line"]),
                         expected="one score per system in a sys file")
    return table[["system", "item", "score", "line"]]


def parse_scores(values: pd.Series, path, lines, *, human: bool, expected: str) -> np.ndarray:
    """Score fields as doubles: ``None`` is NaN where ``human`` (an error otherwise); anything that is
    not a finite number is an error naming the line (``lines``: the line number of each value)."""
    values = values.astype(object)
    missing = (values == NONE).to_numpy()
    if missing.any() and not human:
        i = int(np.flatnonzero(missing)[0])
        raise InputError(path, "metric score None", line=int(np.asarray(lines)[i]),
                         expected="a number: only human scores may be None")
    return parse_numbers(values.to_numpy(), path, lines, "score", missing=NONE if human else None, expected=expected)


def _expected(level: str, human: bool) -> str:
    score = "a number" + (" or None" if human else "")
    return ("DOMAIN SYSNAME SCORE" if level == "domain" else "SYSNAME SCORE") + f" (SCORE {score})"


def format_score(value, *, human: bool) -> str:
    """A score as written: the shortest decimal that reads back as the same double; ``None`` for a
    missing human score (a missing metric score is an error)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        if not human:
            raise ValueError("a metric score is missing (NaN or None); mt-metrics-eval does not allow them")
        return NONE
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"score {value} is not finite")
    return repr(value + 0.0)  # + 0.0: a zero is written 0.0, never -0.0


def check_name(name: str, what: str) -> str:
    """A system or domain name as a score file can hold it (:mod:`mtmeta.data.names`: non-empty, no
    whitespace, which the reader splits lines on, no control character)."""
    if name_problem(name):
        raise ValueError(f"{what} {name!r} cannot be written to an mt-metrics-eval score file: it must be "
                         f"{RULES}")
    return name


def score_lines(table: pd.DataFrame, level: str, *, human: bool) -> list[str]:
    """The lines of a score file for ``table`` (``system``, ``score``; ``item`` for seg and doc, in block
    order; ``domain`` for domain): systems (then domains) in sorted order."""
    if level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of {LEVELS}")
    keys = {"sys": ["system"], "seg": ["system", "item"], "doc": ["system", "item"], "domain": ["system", "domain"]}
    ordered = table.sort_values(keys[level], kind="stable")
    columns = ["domain", "system"] if level == "domain" else ["system"]
    fields = []
    for column in columns:
        values = ordered[column].to_numpy(dtype=object)
        for name in set(values):
            check_name(name, f"{column} name")
        fields.append(values)
    scores = ordered["score"].to_numpy(dtype=float)
    missing = np.isnan(scores)
    if missing.any() and not human:
        raise ValueError("a metric score is missing (NaN); mt-metrics-eval does not allow them")
    if np.isinf(scores).any():
        raise ValueError("a score is not finite")
    # repr: the shortest decimal that reads back as the same double; + 0.0 turns -0.0 into 0.0.
    texts = [NONE if gone else repr(value) for value, gone in zip((scores + 0.0).tolist(), missing.tolist(),
                                                                   strict=True)]
    fields.append(texts)
    return ["\t".join(parts) for parts in zip(*fields, strict=True)]
