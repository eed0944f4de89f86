"""WMT21 direct assessment (DA) scores as the news task published them (wmt21-news-systems,
``humaneval/newstest2021-toen/``).

``ad-seg-scores-<lp>.csv``: one row per system and segment, ``SYS SID RAW.SCR Z.SCR N``: the mean raw
score (0-100) and the mean z-score (each judge's scores standardised by that judge's mean and
standard deviation) of the segment's ``N`` judgments. ``ad-sys-scores-<lp>.csv``: per system
``RAW.SCR Z.SCR N SYS N.ALL``, the means over the system's segments (WMT's "micro average over
segments, before an overall average per system"), the number of segments and of judgments. Both
files are space-separated with a trailing space. System ids are ``<name>.<submission id>``
(``HUMAN.0`` is the human translation).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.data.mqm import positive_ints
from mtmeta.data.mtme_scores import frame, parse_scores
from mtmeta.data.numbers import parse_integer, parse_number
from mtmeta.data.textio import read_lines
from mtmeta.errors import InputError

SEGMENT_HEADER = ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]
SYSTEM_HEADER = ["RAW.SCR", "Z.SCR", "N", "SYS", "N.ALL"]


def da_system_name(system_id: str) -> str:
    """The system name of a DA system id: ``XMU.17`` -> ``XMU`` (the submission id dropped)."""
    return re.sub(r"\.[0-9]+$", "", system_id)


def _rows(path, header: list[str]) -> list[tuple[int, list[str]]]:
    lines = read_lines(path)
    if not lines or lines[0].split() != header:
        raise InputError(path, f"unexpected header {lines[0] if lines else ''!r}", line=1,
                         expected="the space-separated columns " + " ".join(header))
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split()
        if len(fields) != len(header):
            raise InputError(path, f"found {len(fields)} fields", line=number, expected=f"{len(header)} fields: "
                             + " ".join(header))
        rows.append((number, fields))
    if not rows:
        raise InputError(path, "no rows below the header", line=2, expected="one row per system (and segment)")
    return rows


def _number(value: str, path, line: int, column: str, kind=float):
    if kind is int:
        return parse_integer(value, path, line, column)
    return parse_number(value, path, line, column)


def read_da_segment_scores(path: str | Path) -> pd.DataFrame:
    """``ad-seg-scores-*.csv``: system_id, system, seg_id, raw, z, n (one row per system and segment)."""
    rows = _rows(path, SEGMENT_HEADER)
    line = np.array([number for number, _ in rows])
    table = frame([fields for _, fields in rows], ["system_id", "seg_id", "raw", "z", "n"])
    table["seg_id"] = positive_ints(table["seg_id"], path, line, "SID")
    table["n"] = positive_ints(table["n"], path, line, "N")
    for column, label in (("raw", "RAW.SCR"), ("z", "Z.SCR")):
        table[column] = parse_scores(table[column], path, line, human=False, expected=f"{label} as a finite number")
    repeated = table.duplicated(["system_id", "seg_id"])
    if repeated.any():
        i = int(np.flatnonzero(repeated)[0])
        raise InputError(path, f"{table['system_id'].iloc[i]} segment {table['seg_id'].iloc[i]} is given twice",
                         line=int(line[i]), expected="one row per system and segment")
    table.insert(1, "system", table["system_id"].str.replace(r"\.[0-9]+$", "", regex=True))
    return table


def read_da_system_scores(path: str | Path) -> pd.DataFrame:
    """``ad-sys-scores-*.csv``: system_id, system, raw, z, n (segments), n_all (judgments), and the raw
    and z fields as written (``raw_text``, ``z_text``: 15 significant digits, for comparison)."""
    out = []
    for number, (raw, z, n, system_id, n_all) in _rows(path, SYSTEM_HEADER):
        out.append((system_id, da_system_name(system_id), _number(raw, path, number, "RAW.SCR"),
                    _number(z, path, number, "Z.SCR"), _number(n, path, number, "N", int),
                    _number(n_all, path, number, "N.ALL", int), raw, z))
    table = pd.DataFrame(out, columns=["system_id", "system", "raw", "z", "n", "n_all", "raw_text", "z_text"])
    if table["system_id"].duplicated().any():
        raise InputError(path, f"system {table.loc[table['system_id'].duplicated(), 'system_id'].iloc[0]!r} twice",
                         expected="one row per system")
    return table


def r_mean(values) -> float:
    """The mean as R's ``mean()`` computes it (WMT's scripts are R): the sum in long double divided by
    n, plus the mean of the residuals, rounded to a double. numpy's longdouble is x87 extended
    precision on x86-64, as R's; elsewhere it may be a plain double and the last digit may differ."""
    x = np.asarray(values, dtype=np.longdouble)
    mean = x.sum() / len(x)
    return float(mean + (x - mean).sum() / len(x))


def da_system_scores(segments: pd.DataFrame) -> pd.DataFrame:
    """Per system (sorted by id): the means (:func:`r_mean`) of its segments' raw and z scores, its
    number of segments (n) and of judgments (n_all), as WMT computed the system file."""
    rows = [(system_id, system, r_mean(group["raw"]), r_mean(group["z"]), len(group), int(group["n"].sum()))
            for (system_id, system), group in segments.groupby(["system_id", "system"], sort=True)]
    return pd.DataFrame(rows, columns=["system_id", "system", "raw", "z", "n", "n_all"])


def compare_da_system_scores(ours: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Ours beside the published file, per system: whether n and n_all are equal, and whether raw and z
    print the same at the file's precision (15 significant digits), with the absolute differences."""
    merged = published.merge(ours, on=["system_id", "system"], how="outer", suffixes=("_published", "_ours"),
                             indicator=True)
    merged["counts_equal"] = (merged["n_published"] == merged["n_ours"]) & (merged["n_all_published"]
                                                                             == merged["n_all_ours"])
    for column in ("raw", "z"):
        merged[f"{column}_printed_equal"] = [
            isinstance(text, str) and isinstance(value, float) and f"{value:.15g}" == text
            for text, value in zip(merged[f"{column}_text"], merged[f"{column}_ours"], strict=True)]
        merged[f"{column}_difference"] = (merged[f"{column}_ours"] - merged[f"{column}_published"]).abs()
    return merged
