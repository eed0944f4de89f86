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

from mtmeta.data.tables import read_table
from mtmeta.data.textio import check_input_file
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
    return hashlib.sha256(check_input_file(path, "a score file").read_bytes()).hexdigest()


def pairs_in(path: str | Path) -> list[tuple[str, str]]:
    """The (dataset, lp) pairs a score file has rows for, in file order (only those two columns are
    read: the workflow asks when it builds its job graph)."""
    stat = Path(path).stat()
    return list(_pairs_in(str(path), stat.st_mtime_ns, stat.st_size))


@cache
def _pairs_in(path: str, mtime: int, size: int) -> tuple[tuple[str, str], ...]:
    table = read_table(path, {"dataset": "name", "lp": "name"}, what=_what("segment"))
    return tuple(dict.fromkeys(zip(table["dataset"], table["lp"], strict=True)))


def read_score_file(path: str | Path, level: str) -> pd.DataFrame:
    """The rows of a user's score file (``level``: ``system`` or ``segment``) with a ``line`` column
    (the file's line number, the header being line 1); every malformed row is an error."""
    keys = KEYS[level]
    columns = {**dict.fromkeys(["dataset", "lp", "system"], "name"), **({"seg_id": "integer"} if level == "segment"
                                                                         else {}), "score": "number"}
    table = read_table(path, columns, what=_what(level))
    if not np.isfinite(table["score"]).all():
        bad = table.loc[~np.isfinite(table["score"])].iloc[0]
        raise InputError(path, f"score {bad['score']} is not a finite number", line=int(bad["line"]),
                         expected="a finite number (a metric that cannot score a segment must say so in its own "
                                  "way; mtmeta does not drop rows)")
    if level == "segment":
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


def _what(level: str) -> str:
    return f"a {level}-level score file (columns " + ", ".join([*KEYS[level], "score"]) + ")"


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
