"""Readers for every human-judgment format of the study, normalised to pairwise comparisons.

Each reader returns a :class:`Judgments`: a table with one row per pairwise comparison
(``lp, seg_id, sys_a, sys_b, outcome, task``; outcome is ``a``, ``b`` or ``tie``, and ``task``
identifies the ranking task or line it came from) plus a :class:`Report` of what was skipped.
System ids are returned as written in the file; :func:`match_system_names` maps them onto
system-output names.

Formats:

``wmt_ranking_csv``
    WMT 5-way relative ranking (WMT12 ``wmt12.RNK_results.csv``; the upstream WMT13/WMT14 CSVs
    use the same columns). Lower rank is better, ties allowed, ``-1`` is a blank.
``pairwise_tsv``
    ``lp seg_id better worse``: one non-tied preference per row (the mirror's WMT13/WMT14 files).
``cmu_rankings_tsv``
    ``lp seg_id group rank systems``: ordinal ranks within a segment, higher is better; several
    comma-separated systems in one row produced identical text (the WMT13 dev subset).
``cmu_rankings_text``
    The CMU 11-731 upstream files ``group ||| rank ||| reference ||| hypothesis``; segment and
    systems are recovered by matching text against the test set.
``evaluator``
    ``hyp1 ||| hyp2 ||| ref`` lines with labels 1 / 0 / -1 in a separate file.
``wmt_system_scores``
    Not judgments but their outcome: an official system-level human score per system (the WMT14
    metrics task's ``human-2014-05-16.scores``: ``human <lp> <testset> <system> <score>``, no
    header); read by :func:`read_system_scores`.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.data.numbers import number_problem
from mtmeta.data.report import Report
from mtmeta.data.tables import read_table
from mtmeta.data.textio import decode_utf8, iter_tsv, parse_int, read_bytes, read_lines
from mtmeta.errors import ConfigError, InputError

COLUMNS = ["lp", "seg_id", "sys_a", "sys_b", "outcome", "task"]
OUTCOMES = ("a", "b", "tie")

LANGUAGE_CODES = {
    "english": "en", "eng": "en", "en": "en",
    "czech": "cs", "cze": "cs", "ces": "cs", "cs": "cs",
    "german": "de", "ger": "de", "deu": "de", "de": "de",
    "spanish": "es", "spa": "es", "es": "es",
    "french": "fr", "fre": "fr", "fra": "fr", "fr": "fr",
    "russian": "ru", "rus": "ru", "ru": "ru",
    "hindi": "hi", "hin": "hi", "hi": "hi",
}  # fmt: skip


@dataclass
class Judgments:
    comparisons: pd.DataFrame
    report: Report = field(default_factory=Report)
    tasks: dict[str, int] = field(default_factory=dict)  # ranking tasks (or items) per lp
    # Segments given as several candidate lines (the test set repeats a sentence): the rows use the
    # first; the caller must check that the candidates hold identical text. (lp, candidates, line)
    ambiguous: list[tuple[str, tuple[int, ...], int]] = field(default_factory=list)
    # Who judged each task (its ``task`` value -> the annotator's id), where the format records it
    # (the WMT ranking CSV's judgeId); empty otherwise. For inter-annotator agreement.
    judges: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_rows(cls, rows: list[tuple], report: Report, tasks: dict[str, int]) -> Judgments:
        frame = pd.DataFrame(rows, columns=COLUMNS)
        frame["seg_id"] = frame["seg_id"].astype("int32")
        return cls(frame, report, dict(tasks))


def _outcome_lower_better(rank_a: int, rank_b: int) -> str:
    return "a" if rank_a < rank_b else "b" if rank_a > rank_b else "tie"


def language_code(name: str, path: Path, line: int) -> str:
    code = LANGUAGE_CODES.get(name.strip().lower())
    if code is None:
        raise InputError(path, f"unknown language {name!r}", line=line,
                         expected="one of " + ", ".join(sorted({k for k in LANGUAGE_CODES if len(k) > 3})))
    return code


# ---------------------------------------------------------------------------------------------
# WMT 5-way ranking CSV


# The columns of the WMT ranking format (WMT12's README; WMT13 and WMT14 keep them): every one must be
# there, under exactly this name, and no other. A renamed column (``judgeID``) means a file in another
# format, whose columns we could not trust to mean what these names say.
RANKING_COLUMNS = ("srclang", "trglang", "srcIndex", "documentId", "segmentId", "judgeId")
SLOT_COLUMNS = ("system{k}Number", "system{k}Id", "system{k}rank")


def _ranking_slots(path: Path, header: list[str], index: dict[str, int]) -> list[int]:
    """The system slots (1..N) of a WMT ranking CSV header, every column checked (see RANKING_COLUMNS)."""
    slots = sorted({int(m[1]) for name in index if (m := re.fullmatch(r"system(\d+)(?:Number|Id|rank)", name))})
    expected_slots = list(range(1, max(slots, default=0) + 1))
    required = [*RANKING_COLUMNS, *(column.format(k=k) for k in expected_slots for column in SLOT_COLUMNS)]
    missing = [name for name in required if name not in index]
    unknown = [name.strip() for name in header if name.strip() not in required]
    repeated = len(index) != len(header)
    if len(slots) < 2 or missing or unknown or repeated:
        problems = ([f"lacks {', '.join(missing)}"] if missing else []) + (
            [f"has unknown column(s) {', '.join(map(repr, unknown))}"] if unknown else []) + (
            ["names a column twice"] if repeated else []) + (["has fewer than two system slots"] if len(slots) < 2
                                                              else [])
        raise InputError(path, f"WMT ranking header {'; '.join(problems)}", line=1,
                         expected="the WMT columns " + ", ".join(RANKING_COLUMNS) + ", then systemNNumber, "
                                  "systemNId and systemNrank for each slot N = 1, 2, ... (WMT12-14's format)")
    return slots


def read_wmt_ranking_csv(path: str | Path, lps: set[str] | None = None) -> Judgments:
    """Read a WMT relative-ranking CSV; each task of k ranked outputs gives k(k-1)/2 pairs."""
    path = Path(path)
    text = decode_utf8(read_bytes(path), path)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(path, "file is empty", line=1, expected="a WMT ranking CSV header") from None
    index = {name.strip(): i for i, name in enumerate(header)}
    slots = _ranking_slots(path, header, index)
    report = Report()
    rows: list[tuple] = []
    tasks: dict[str, int] = defaultdict(int)
    blanks: dict[str, int] = defaultdict(int)
    seen: set[tuple[str, ...]] = set()
    repeated: dict[str, int] = defaultdict(int)
    judges: dict[str, str] = {}
    for number, record in enumerate(reader, start=2):
        if not record or all(not cell.strip() for cell in record):
            continue
        if len(record) != len(header):
            raise InputError(path, f"found {len(record)} fields", line=number, expected=f"{len(header)} fields")
        lp = language_code(record[index["srclang"]], path, number) + "-" + language_code(
            record[index["trglang"]], path, number
        )
        if lps is not None and lp not in lps:
            continue
        key = tuple(cell.strip() for cell in record)
        if key in seen:
            repeated[lp] += 1
        seen.add(key)
        seg_id = parse_int(record[index["srcIndex"]], path, number, "srcIndex")
        if seg_id < 1:
            raise InputError(path, f"srcIndex {seg_id}", line=number, expected="a 1-based line number")
        ranked: list[tuple[str, int]] = []
        for k in slots:
            system = record[index[f"system{k}Id"]].strip()
            rank = parse_int(record[index[f"system{k}rank"]], path, number, f"system{k}rank")
            if rank == -1 or not system:
                blanks[lp] += 1
                continue
            if not 1 <= rank <= len(slots):
                raise InputError(path, f"system{k}rank is {rank}", line=number,
                                 expected=f"a rank from 1 to {len(slots)}, or -1 for a blank")
            ranked.append((system, rank))
        tasks[lp] += 1
        task = f"line {number}"
        judges[task] = record[index["judgeId"]].strip()
        for (sys_a, rank_a), (sys_b, rank_b) in combinations(ranked, 2):
            rows.append((lp, seg_id, sys_a, sys_b, _outcome_lower_better(rank_a, rank_b), task))
    for lp, count in sorted(blanks.items()):
        report.add("blank_rank", f"{lp}: ranking slots left blank (rank -1 or no system)", count,
                   "excluded: the slot takes part in no comparison", str(path))
    for lp, count in sorted(repeated.items()):
        # The same judge ranking the same systems of the same segment identically, in every field: a
        # resubmitted task, or one judgment written twice; the file cannot tell which.
        report.add("duplicate_row", f"{lp}: ranking rows identical to an earlier row in every field", count,
                   "kept: each counted as the file gives it (no field tells a resubmission from a copy)", str(path))
    judgments = Judgments.from_rows(rows, report, tasks)
    judgments.judges = judges
    return judgments


# ---------------------------------------------------------------------------------------------
# Pairwise preference TSV


def read_pairwise_tsv(path: str | Path, lps: set[str] | None = None) -> Judgments:
    """Read ``lp seg_id better worse`` rows (no ties in this format)."""
    path = Path(path)
    rows: list[tuple] = []
    tasks: dict[str, int] = defaultdict(int)
    for number, (lp, seg, better, worse) in iter_tsv(path, ["lp", "seg_id", "better", "worse"]):
        if lps is not None and lp not in lps:
            continue
        seg_id = parse_int(seg, path, number, "seg_id")
        if seg_id < 1 or not better or not worse:
            raise InputError(path, "empty system name or seg_id < 1", line=number,
                             expected="a 1-based seg_id and two system names")
        tasks[lp] += 1
        rows.append((lp, seg_id, better, worse, "a", f"line {number}"))
    return Judgments.from_rows(rows, Report(), tasks)


# ---------------------------------------------------------------------------------------------
# CMU 11-731 ranks of the WMT13 dev subset


def _ranked_groups_to_pairs(
    groups: dict[tuple[str, int, str], list[tuple[int, list[str], int]]], path: Path
) -> Judgments:
    """Turn per-group lists of ``(rank, systems, line)`` (higher rank = better) into pairs."""
    rows: list[tuple] = []
    tasks: dict[str, int] = defaultdict(int)
    identical: dict[str, int] = defaultdict(int)
    for (lp, seg_id, group), entries in groups.items():
        tasks[lp] += 1
        for _, systems, _ in entries:
            identical[lp] += len(systems) * (len(systems) - 1) // 2
        for (rank_a, systems_a, line_a), (rank_b, systems_b, line_b) in combinations(entries, 2):
            outcome = "a" if rank_a > rank_b else "b" if rank_a < rank_b else "tie"
            task = f"group {group} (lines {line_a},{line_b})"
            for sys_a in systems_a:
                for sys_b in systems_b:
                    rows.append((lp, seg_id, sys_a, sys_b, outcome, task))
    report = Report()
    for lp, count in sorted(identical.items()):
        if count:
            report.add("identical_output", f"{lp}: system pairs sharing one ranked hypothesis", count,
                       "not a comparison: one text was ranked for both systems", str(path))
    return Judgments.from_rows(rows, report, tasks)


def read_cmu_rankings_tsv(path: str | Path, lps: set[str] | None = None) -> Judgments:
    """Read ``lp seg_id group rank systems``; ``seg_id`` may list several candidate lines."""
    path = Path(path)
    groups: dict[tuple[str, int, str], list] = defaultdict(list)
    ambiguous: dict[tuple[str, tuple[int, ...]], int] = {}
    for number, (lp, seg, group, rank, systems) in iter_tsv(path, ["lp", "seg_id", "group", "rank", "systems"]):
        if lps is not None and lp not in lps:
            continue
        names = [name.strip() for name in systems.split(",")]
        if any(not name for name in names):
            raise InputError(path, f"empty system name in {systems!r}", line=number,
                             expected="comma-separated system names")
        candidates = tuple(parse_int(part, path, number, "seg_id") for part in seg.split(","))
        if len(candidates) > 1:
            ambiguous.setdefault((lp, candidates), number)
        groups[(lp, candidates[0], group)].append((parse_int(rank, path, number, "rank"), names, number))
    judgments = _ranked_groups_to_pairs(groups, path)
    judgments.ambiguous = [(lp, candidates, line) for (lp, candidates), line in ambiguous.items()]
    return judgments


def read_cmu_rankings_text(
    path: str | Path, lp: str, references: list[str], outputs: dict[str, list[str]]
) -> Judgments:
    """Read the upstream ``group ||| rank ||| reference ||| hypothesis`` file of one lp.

    The segment is the test-set line whose reference equals the given reference (the one
    whose system outputs contain the hypothesis, if the reference is not unique); the
    systems are all those whose output on that line equals the hypothesis.
    """
    path = Path(path)
    lines_by_reference: dict[str, list[int]] = defaultdict(list)
    for seg_id, ref in enumerate(references, start=1):
        lines_by_reference[ref.strip()].append(seg_id)
    groups: dict[tuple[str, int, str], list] = defaultdict(list)
    unmatched = 0
    for number, line in enumerate(read_lines(path), start=1):
        fields = line.split(" ||| ")
        if len(fields) != 4:
            raise InputError(path, f"found {len(fields)} ' ||| '-separated fields", line=number,
                             expected="group ||| rank ||| reference ||| hypothesis")
        group, rank, ref, hyp = (f.strip() for f in fields)
        candidates = lines_by_reference.get(ref, [])
        if not candidates:
            raise InputError(path, "reference not found in the test set", line=number,
                             expected="a reference line of the configured corpus")
        found = [
            (seg_id, [name for name, out in outputs.items() if out[seg_id - 1].strip() == hyp])
            for seg_id in candidates
        ]
        found = [(seg_id, systems) for seg_id, systems in found if systems]
        if not found:
            unmatched += 1
            continue
        seg_id, systems = found[0]
        groups[(lp, seg_id, group)].append((parse_int(rank, path, number, "rank"), sorted(systems), number))
    judgments = _ranked_groups_to_pairs(groups, path)
    if unmatched:
        judgments.report.add("unmatched_hypothesis", f"{lp}: ranked hypotheses equal to no system output",
                             unmatched, "excluded", str(path))
    return judgments


# ---------------------------------------------------------------------------------------------
# Evaluator set (hyp1 ||| hyp2 ||| ref + labels)

EVALUATOR_LABELS = {"1": "a", "-1": "b", "0": "tie"}


def read_evaluator(
    data_path: str | Path, labels_path: str | Path, limit: int, lp: str
) -> tuple[pd.DataFrame, Judgments]:
    """Read the first ``limit`` evaluator tuples and their labels.

    Returns the segment table (systems ``hyp1`` and ``hyp2``) and the comparisons.
    """
    data_path, labels_path = Path(data_path), Path(labels_path)
    data = read_lines(data_path)
    labels = read_lines(labels_path)
    n = min(limit, len(data))
    if n == 0:
        raise InputError(data_path, "no evaluator tuples", expected="lines 'hyp1 ||| hyp2 ||| ref'")
    if len(labels) < n:
        raise InputError(labels_path, f"has {len(labels)} labels but {data_path} has {n} tuples to label",
                         expected=f"at least {n} lines of 1, 0 or -1")
    report = Report()
    hyp1, hyp2, refs, rows = [], [], [], []
    for number in range(1, n + 1):
        fields = data[number - 1].split(" ||| ")
        if len(fields) != 3:
            raise InputError(data_path, f"found {len(fields)} ' ||| '-separated fields", line=number,
                             expected="hyp1 ||| hyp2 ||| ref")
        label = labels[number - 1].strip()
        if label not in EVALUATOR_LABELS:
            raise InputError(labels_path, f"label {label!r}", line=number, expected="1, 0 or -1")
        a, b, ref = (field.strip() for field in fields)
        hyp1.append(a)
        hyp2.append(b)
        refs.append(ref)
        rows.append((lp, number, "hyp1", "hyp2", EVALUATOR_LABELS[label], f"line {number}"))
    if len(data) > n:
        report.add("beyond_limit", f"tuples after the first {n} (max_items)", len(data) - n,
                   "not used", str(data_path))
    if len(labels) > n:
        report.add("beyond_limit", f"labels after the first {n}: the data file holds only {len(data)} tuples"
                   if len(data) <= n else f"labels after the first {n} (max_items)",
                   len(labels) - n, "not used", str(labels_path))
    seg_ids = list(range(1, n + 1))
    segments = pd.concat(
        [
            pd.DataFrame({"system": name, "seg_id": seg_ids, "hypothesis": hyps, "reference": refs, "source": ""})
            for name, hyps in (("hyp1", hyp1), ("hyp2", hyp2))
        ],
        ignore_index=True,
    )
    segments["seg_id"] = segments["seg_id"].astype("int32")
    return segments, Judgments.from_rows(rows, report, {lp: n})


def read_system_scores(path: str | Path, lp: str, testset: str) -> pd.DataFrame:
    """The official human system scores of one language pair (columns ``system, score``).

    Every line must have five tab-separated fields and a finite score; a line of another test set,
    or a system listed twice for ``lp``, is an error (naming the file and line).
    """
    path = Path(path)
    seen: dict[str, int] = {}
    systems, scores = [], []
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 5:
            raise InputError(path, f"found {len(fields)} tab-separated fields", line=number,
                             expected="5 fields: human, lp, test set, system, score")
        _, pair, test, system, value = fields
        if pair != lp:
            continue
        if test != testset:
            raise InputError(path, f"test set {test!r}", line=number, expected=f"{testset!r} (the dataset's testset)")
        score = math.nan if number_problem(value) else float(value)
        if not system or not math.isfinite(score):
            raise InputError(path, f"system {system!r} with score {value!r}", line=number,
                             expected="a system name and a finite number")
        if system in seen:
            raise InputError(path, f"{lp}: system {system!r} listed again (first on line {seen[system]})",
                             line=number, expected="one score per system")
        seen[system] = number
        systems.append(system)
        scores.append(score)
    return pd.DataFrame({"system": systems, "score": scores})


# ---------------------------------------------------------------------------------------------
# Comparisons as prepare writes them (mtmeta human-scores' input)

COMPARISON_COLUMNS = {"sys_a": "name", "sys_b": "name", "outcome": "text"}
COMPARISON_EXTRAS = {"lp": "name", "seg_id": "integer", "task": "text"}


def read_comparisons(path: str | Path) -> pd.DataFrame:
    """A comparisons table: ``comparisons.parquet`` as prepare writes it, or a TSV with the same columns
    (``sys_a``, ``sys_b``, ``outcome``; ``lp``, ``seg_id`` and ``task`` are kept if present). Every row
    must name two systems and an outcome ``a``, ``b`` or ``tie``; a problem names the file and line
    (TSV) or row (parquet), and a table without rows is an error."""
    what = "comparisons (columns sys_a, sys_b, outcome; as prepare writes comparisons.parquet)"
    if str(path).endswith(".parquet"):
        table, where = _read_comparisons_parquet(path, what), "row"
    else:
        table, where = read_table(path, COMPARISON_COLUMNS, what=what, optional=COMPARISON_EXTRAS), "line"
    bad = ~table["outcome"].isin(OUTCOMES)
    if bad.any():
        row = table.loc[bad].iloc[0]
        number = int(row["line"])
        raise InputError(path, f"{'' if where == 'line' else f'row {number}: '}outcome {row['outcome']!r}",
                         line=number if where == "line" else None, expected="a, b or tie")
    return table


def _read_comparisons_parquet(path: str | Path, what: str) -> pd.DataFrame:
    from mtmeta.data.textio import check_input_file

    check_input_file(path, what)
    try:
        table = pd.read_parquet(path)
    except Exception as exc:  # pyarrow's errors have no common base class but Exception
        raise InputError(path, f"not a readable parquet file ({type(exc).__name__}: {exc})", expected=what) from None
    missing = [c for c in COMPARISON_COLUMNS if c not in table.columns]
    if missing:
        raise InputError(path, f"no {', '.join(map(repr, missing))} column (columns: {list(table.columns)})",
                         expected=what)
    if table.empty:
        raise InputError(path, "no rows", expected=what)
    table = table.reset_index(drop=True)
    table.insert(0, "line", np.arange(1, len(table) + 1))  # parquet has rows, not lines: row numbers from 1
    for column in ("sys_a", "sys_b", "outcome"):
        values = table[column]
        bad = ~values.map(lambda v: isinstance(v, str) and v.strip() != "")
        if bad.any():
            first = int(bad.to_numpy().nonzero()[0][0])
            value = values.iloc[first]
            problem = (f"no {column} (null)" if value is None or value != value else f"empty {column}"
                       if isinstance(value, str) else f"{column} {value!r} is not text")
            raise InputError(path, f"row {first + 1}: {problem}",
                             expected="a non-empty name" if column != "outcome" else "a, b or tie")
    return table


READERS = {
    "wmt_ranking_csv": read_wmt_ranking_csv,
    "pairwise_tsv": read_pairwise_tsv,
    "cmu_rankings_tsv": read_cmu_rankings_tsv,
}


def read_judgments(fmt: str, path: str | Path, lps: set[str]) -> Judgments:
    """Dispatch on a format name from config (formats that need no corpus text)."""
    try:
        reader = READERS[fmt]
    except KeyError:
        raise ConfigError(f"unknown judgment format {fmt!r}; known: {', '.join(sorted(READERS))}") from None
    return reader(path, lps)


# ---------------------------------------------------------------------------------------------
# Matching judgment ids to system outputs

POLICIES = ("exclude", "keep", "error")


def _normalised_candidates(raw: str, lp: str, testset: str | None) -> list[str]:
    """Upstream CSVs may name a system by its file name (``newstest2014.uedin.3023.cs-en``)."""
    candidates = []
    name = raw
    if testset and name.startswith(testset + "."):
        name = name[len(testset) + 1 :]
        candidates.append(name)
    if name.startswith(lp + "."):
        name = name[len(lp) + 1 :]
        candidates.append(name)
    if name.endswith("." + lp):
        candidates.append(name[: -len(lp) - 1])
    return candidates


def match_system_names(
    judgments: Judgments,
    systems: set[str],
    lp: str,
    *,
    aliases: dict[str, str] | None = None,
    reference_ids: tuple[str, ...] = ("_ref", "ref", "reference"),
    unmatched: str = "exclude",
    self_comparisons: str = "exclude",
    testset: str | None = None,
    source_file: str = "",
) -> Judgments:
    """Rename judgment ids to output-file names and apply the unmatched / self-comparison policy."""
    for policy in (unmatched, self_comparisons):
        if policy not in POLICIES:
            raise ConfigError(f"name-matching policy {policy!r}; expected one of {POLICIES}")
    aliases = aliases or {}
    for alias, target in aliases.items():
        if target not in systems:
            raise ConfigError(f"{lp}: alias {alias!r} -> {target!r}, but there is no system output named "
                              f"{target!r} (known: {', '.join(sorted(systems))})")
    frame = judgments.comparisons
    report = Report(list(judgments.report.rows))
    ids = pd.unique(pd.concat([frame["sys_a"], frame["sys_b"]], ignore_index=True))
    mapping: dict[str, str | None] = {}
    for raw in ids:
        if raw in aliases:
            mapping[raw] = aliases[raw]
            uses = int((frame["sys_a"] == raw).sum() + (frame["sys_b"] == raw).sum())
            report.add("alias", f"{raw} -> {aliases[raw]}", uses, "renamed by config aliases", source_file)
        elif raw in systems:
            mapping[raw] = raw
        elif raw in reference_ids:
            mapping[raw] = None
        else:
            match = next((c for c in _normalised_candidates(raw, lp, testset) if c in systems), None)
            mapping[raw] = match if match is not None else ("?" + raw)
    sys_a = frame["sys_a"].map(mapping)
    sys_b = frame["sys_b"].map(mapping)

    keep = pd.Series(True, index=frame.index)
    is_reference = sys_a.isna() | sys_b.isna()
    if is_reference.any():
        report.add("reference_system", f"{lp}: comparisons involving the human reference", int(is_reference.sum()),
                   "excluded: the reference is not a system", source_file)
        keep &= ~is_reference

    unknown_a = sys_a.fillna("").str.startswith("?")
    unknown_b = sys_b.fillna("").str.startswith("?")
    unknown_ids = sorted({raw for raw, target in mapping.items() if target is not None and target.startswith("?")})
    if unknown_ids and unmatched == "error":
        raise InputError(source_file or "judgments", f"{lp}: judgment system ids {unknown_ids} match no system output",
                         expected="ids equal to output-file names (known: " + ", ".join(sorted(systems)) + ")",
                         hint="Add them to the dataset's aliases in config, or set unmatched_ids: exclude")
    for raw in unknown_ids:
        count = int(((sys_a == "?" + raw) | (sys_b == "?" + raw)).sum())
        action = ("excluded" if unmatched == "exclude"
                  else "kept under the judgment id (no system output: absent from metric correlations)")
        report.add("unmatched_id", f"{lp}: {raw}", count, action, source_file)
    if unmatched == "exclude":
        keep &= ~(unknown_a | unknown_b)
    else:
        sys_a = sys_a.where(~unknown_a, sys_a.str[1:])
        sys_b = sys_b.where(~unknown_b, sys_b.str[1:])

    is_self = (sys_a == sys_b) & keep
    if is_self.any():
        if self_comparisons == "error":
            first = frame.loc[is_self].iloc[0]
            raise InputError(source_file or "judgments", f"{lp}: {int(is_self.sum())} comparisons of a system with "
                             f"itself (first: {first['sys_a']} in {first['task']})",
                             expected="two different systems per comparison",
                             hint="Set self_comparisons: exclude to drop them")
        per_system = sys_a[is_self].value_counts().sort_index()
        for name, count in per_system.items():
            report.add("self_comparison", f"{lp}: {name} vs {name}", int(count),
                       "excluded" if self_comparisons == "exclude" else "kept (counted as judged)",
                       source_file)
        if self_comparisons == "exclude":
            keep &= ~is_self

    out = frame.assign(sys_a=sys_a, sys_b=sys_b).loc[keep].reset_index(drop=True)
    return Judgments(out, report, dict(judgments.tasks))
