"""Score files of a user's own metric ("bring your own metric"), read and checked against the study's
prepared datasets.

A system-level file has the tab-separated columns ``dataset``, ``lp``, ``system``, ``score``; a
segment-level file adds ``seg_id`` (the line number of the segment in the test set, from 1, as in
``results/datasets/DATASET/LP/segments.parquet``). Other columns are ignored. Every problem is an
error naming the file and line: a missing column, a score that is not a finite number, a row given
twice, a dataset x language pair, system or segment the study does not have, and a system (or a
system's segment) without a score.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.errors import InputError

KEYS = {"system": ["dataset", "lp", "system"], "segment": ["dataset", "lp", "system", "seg_id"]}


@dataclass(frozen=True)
class PairData:
    """What a user's scores of one dataset x language pair are checked against: its systems and
    segment ids (from the prepared segment table)."""

    systems: tuple[str, ...]
    seg_ids: tuple[int, ...]
    # Systems a user's metric may leave without scores: the human translations of an mt-metrics-eval
    # set (published metric scores often cover the MT systems only; the protocols with human
    # translations then say n/a for that metric).
    optional: tuple[str, ...] = ()


def file_digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def pairs_in(path: str | Path) -> list[tuple[str, str]]:
    """The (dataset, lp) pairs a score file has rows for, in file order (only those two columns are
    read: the workflow asks when it builds its job graph)."""
    stat = Path(path).stat()
    return list(_pairs_in(str(path), stat.st_mtime_ns, stat.st_size))


@cache
def _pairs_in(path: str, mtime: int, size: int) -> tuple[tuple[str, str], ...]:
    try:
        table = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, quoting=3, usecols=["dataset", "lp"])
    except ValueError as exc:  # a missing column
        raise InputError(path, f"no dataset and lp columns ({exc})", line=1, expected=_expected("segment")) from None
    return tuple(dict.fromkeys(zip(table["dataset"], table["lp"], strict=True)))


def read_score_file(path: str | Path, level: str) -> pd.DataFrame:
    """The rows of a user's score file (``level``: ``system`` or ``segment``) with a ``line`` column
    (the file's line number, the header being line 1); every malformed row is an error."""
    keys = KEYS[level]
    try:
        table = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, quoting=3)
    except pd.errors.EmptyDataError:
        raise InputError(path, "file is empty", line=1, expected=_expected(level)) from None
    except pd.errors.ParserError as exc:
        raise InputError(path, f"not a tab-separated table ({exc})", expected=_expected(level)) from None
    missing = [c for c in [*keys, "score"] if c not in table.columns]
    if missing:
        raise InputError(path, f"no {', '.join(map(repr, missing))} column (header: {list(table.columns)})", line=1,
                         expected=_expected(level))
    if table.empty:
        raise InputError(path, "no rows below the header", line=2, expected=_expected(level))
    table = table[[*keys, "score"]].copy()
    table.insert(0, "line", np.arange(2, len(table) + 2))
    for column in keys:
        empty = table[column].str.strip() == ""
        if empty.any():
            raise InputError(path, f"empty {column}", line=int(table.loc[empty, "line"].iloc[0]),
                             expected=_expected(level))
    table["score"] = _numbers(path, table, "score", float)
    if not np.isfinite(table["score"]).all():
        bad = table.loc[~np.isfinite(table["score"])].iloc[0]
        raise InputError(path, f"score {bad['score']} is not a finite number", line=int(bad["line"]),
                         expected="a finite number (a metric that cannot score a segment must say so in its own "
                                  "way; mtmeta does not drop rows)")
    if level == "segment":
        table["seg_id"] = _numbers(path, table, "seg_id", int)
        small = table["seg_id"] < 1
        if small.any():
            raise InputError(path, f"seg_id {table.loc[small, 'seg_id'].iloc[0]} is below 1",
                             line=int(table.loc[small, "line"].iloc[0]), expected="segment numbers from 1")
    repeated = table.duplicated(subset=keys, keep=False)
    if repeated.any():
        first = table.loc[repeated].iloc[0]
        same = table.loc[repeated & (table[keys] == first[keys]).all(axis=1), "line"].tolist()
        raise InputError(path, f"{' '.join(str(first[k]) for k in keys)} is given {len(same)} times (lines "
                         f"{', '.join(map(str, same))})", line=int(same[1]), expected=f"one row per {', '.join(keys)}")
    return table


def _expected(level: str) -> str:
    return "a tab-separated header with " + ", ".join([*KEYS[level], "score"])


def _numbers(path, table: pd.DataFrame, column: str, kind) -> pd.Series:
    text = table[column].str.strip()
    if kind is int:
        bad = ~text.str.fullmatch(r"[+-]?[0-9]+")
    else:  # "nan" and "inf" are numbers here; the caller rejects them as not finite
        bad = pd.to_numeric(text, errors="coerce").isna() & ~text.str.lower().str.fullmatch(r"[+-]?nan")
    if bad.any():
        row = table.loc[bad].iloc[0]
        what = "an integer" if kind is int else "a number"
        raise InputError(path, f"{column} {row[column]!r} is not {what}", line=int(row["line"]), expected=what)
    return text.astype(np.int64) if kind is int else text.astype(np.float64)


def check_against(table: pd.DataFrame, path: str | Path, level: str, pairs: dict[tuple[str, str], PairData]) -> None:
    """Every row names a dataset x language pair, system (and segment) of the study, and every system of
    a pair in the file (every segment, at the segment level) has a score."""
    groups = table.groupby(["dataset", "lp"], sort=False)
    for (dataset, lp), rows in groups:
        if (dataset, lp) not in pairs:
            known = ", ".join(f"{d} {p}" for d, p in pairs)
            raise InputError(path, f"dataset {dataset!r} with language pair {lp!r} is not in the study",
                             line=int(rows["line"].iloc[0]), expected=f"one of: {known}")
    for (dataset, lp), rows in groups:
        data = pairs[(dataset, lp)]
        unknown = ~rows["system"].isin(data.systems)
        if unknown.any():
            row = rows.loc[unknown].iloc[0]
            raise InputError(path, f"system {row['system']!r} is not a system of {dataset} {lp}", line=int(row["line"]),
                             expected=f"one of: {', '.join(sorted(data.systems))}")
        absent = sorted(set(data.systems) - set(rows["system"]) - set(data.optional))
        if absent:
            raise InputError(path, f"{dataset} {lp}: {len(absent)} of {len(data.systems)} systems have no score: "
                                   f"{', '.join(absent)}", expected="a score for every system of the pair "
                             "(correlations over a subset would not compare with the built-in metrics')")
        if level == "segment":
            _check_segments(rows, path, dataset, lp, data)


def _check_segments(rows: pd.DataFrame, path, dataset: str, lp: str, data: PairData) -> None:
    known = np.asarray(data.seg_ids)
    outside = ~rows["seg_id"].isin(known)
    if outside.any():
        row = rows.loc[outside].iloc[0]
        raise InputError(path, f"seg_id {row['seg_id']} is not a segment of {dataset} {lp}", line=int(row["line"]),
                         expected=f"seg_id from {known.min()} to {known.max()} ({len(known)} segments)")
    counts = rows.groupby("system").size()
    short = counts[counts < len(known)]
    if len(short):
        system = short.index[0]
        have = set(rows.loc[rows["system"] == system, "seg_id"])
        missing = [int(s) for s in known if s not in have]
        shown = ", ".join(map(str, missing[:5])) + (" ..." if len(missing) > 5 else "")
        raise InputError(path, f"{dataset} {lp} system {system!r} has {short.iloc[0]} of {len(known)} segment scores "
                               f"(missing seg_id {shown})",
                         expected="a score for every segment of every system")
