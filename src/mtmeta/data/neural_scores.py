"""Per-segment scores of three neural metrics for WMT21 English-Russian, computed by the author of the
wmt21-en-ru-mqm repository (github.com/cltl-students/Natalia-Khaidanova-machine-translation-evaluation)
and published there: ``Data/<domain>/<metric>/<system>_<metric>.tsv``, for the domains
``newstest2021`` and ``tedtalks`` and the metrics BLEURT-20, COMET-MQM_2021 and COMET-QE-MQM_2021.

Each file has a header and one score per segment, in order (two decimals for BLEURT-20, three for
the COMETs). A file has one column named after the metric, or, for a reference-based metric on
newstest2021 (two references), two columns ``<metric>_ref_A`` and ``<metric>_ref_B``. Some files end
their lines in CRLF; that is accepted.

They become mtmeta's "bring your own scores" segment table (:mod:`mtmeta.data.user_scores`): dataset,
lp, system, seg_id, score.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from mtmeta.data.numbers import parse_number
from mtmeta.data.textio import read_lines
from mtmeta.errors import InputError

METRICS = ("BLEURT-20", "COMET-MQM_2021", "COMET-QE-MQM_2021")
DOMAINS = ("newstest2021", "tedtalks")
EXTERNAL_COLUMNS = ["dataset", "lp", "system", "seg_id", "score"]


def read_neural_scores(root: str | Path, domain: str, metric: str, *, reference: str = "A",
                       n_segments: int | None = None) -> pd.DataFrame:
    """system, seg_id, score of every system file of ``metric`` in ``domain`` (under the repository's
    ``root``). ``reference`` picks the column of a two-reference file (``A`` or ``B``); a one-column
    file has no choice (the only reference, or none for a QE metric). Every file must have the same
    number of scores (``n_segments`` if given); every malformed line is an error naming it."""
    if metric not in METRICS or domain not in DOMAINS:
        raise ValueError(f"unknown metric {metric!r} or domain {domain!r}; known: {METRICS}, {DOMAINS}")
    folder = Path(root) / "Data" / domain / metric
    suffix = f"_{metric}.tsv"
    files = sorted(p for p in folder.glob("*.tsv"))
    if not files:
        raise InputError(folder, f"no score files of {metric}", expected=f"files <system>{suffix}")
    tables = []
    for path in files:
        if not path.name.endswith(suffix) or len(path.name) == len(suffix):
            raise InputError(path, "not a score file of this folder's metric", expected=f"<system>{suffix}")
        system = path.name[: -len(suffix)]
        scores = _read_column(path, metric, reference)
        if n_segments is not None and len(scores) != n_segments:
            raise InputError(path, f"{len(scores)} scores", expected=f"{n_segments}, one per segment of {domain}")
        tables.append(pd.DataFrame({"system": system, "seg_id": range(1, len(scores) + 1), "score": scores}))
    lengths = {len(t) for t in tables}
    if len(lengths) > 1:
        raise InputError(folder, f"files with different numbers of scores: {sorted(lengths)}",
                         expected="one score per segment in every file")
    return pd.concat(tables, ignore_index=True)


def _read_column(path: Path, metric: str, reference: str) -> list[float]:
    lines = read_lines(path)
    if not lines:
        raise InputError(path, "file is empty", line=1, expected=f"a header {metric}")
    header = lines[0].split("\t")
    if header == [metric]:
        column = 0
    elif header == [f"{metric}_ref_A", f"{metric}_ref_B"]:
        if reference not in ("A", "B"):
            raise ValueError(f"reference {reference!r}: {path} has columns for references A and B")
        column = "AB".index(reference)
    else:
        raise InputError(path, f"unexpected header {header!r}", line=1,
                         expected=f"{metric}, or {metric}_ref_A and {metric}_ref_B tab-separated")
    scores = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(header):
            raise InputError(path, f"found {len(fields)} tab-separated fields", line=number,
                             expected=f"{len(header)}, as the header has")
        scores.append(parse_number(fields[column], path, number, "score"))
    if not scores:
        raise InputError(path, "no scores below the header", line=2, expected="one score per segment")
    return scores


def as_external_scores(scores: pd.DataFrame, dataset: str, lp: str,
                       names: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The scores as mtmeta's "bring your own scores" segment table (dataset, lp, system, seg_id,
    score), system names translated through ``names`` (e.g. Nemo -> NVIDIA-NeMo)."""
    names = names or {}
    table = scores.assign(dataset=dataset, lp=lp, system=scores["system"].map(lambda s: names.get(s, s)))
    if table.duplicated(["system", "seg_id"]).any():
        raise ValueError(f"{dataset} {lp}: two systems have the same name after renaming")
    return table[EXTERNAL_COLUMNS].sort_values(["system", "seg_id"], ignore_index=True)
