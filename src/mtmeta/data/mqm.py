"""Google's MQM annotation (github.com/google/wmt-mqm-human-evaluation): its error rows, the outputs
they annotate, and segment scores with the repository's weights.

The annotation file is a TSV with the header ``system doc doc_id seg_id rater source target category
severity`` and, in some files, a tenth column ``comment``. The WMT23 side-by-side files name the
columns ``system doc docSegId globalSegId rater source target category severity metadata`` (read as
doc_id and seg_id; the metadata JSON is not used), and their header has an eleventh cell, a comment
starting with ``#``, that the data rows do not have. It is read without quoting (as
mt-metrics-eval's ``score_mqm`` reads it: a ``"`` is text). Each row is one error a rater marked in
one output (the span between ``<v>`` and ``</v>``, in the target or, for an omission, in the
source), or a ``No-error`` row saying the rater found none. Every line is checked: the field
count, a positive integer ``seg_id`` and ``doc_id``, a known severity, a known top-level category,
``No-error`` as category exactly when it is the severity; and the text: every row of a system's
segment must show the same output once the marks are stripped, every row of a segment the same
source, document and position.

Weights (the repository's README; mt-metrics-eval's ``score_mqm`` defaults): Major 5, Minor 1,
Neutral 0, No-error 0, Major Non-translation 25, Minor Fluency/Punctuation 0.1. A row takes the
weight of the most specific ``severity[/category[/sub-category]]`` key that matches. A segment's
score is minus the mean over its raters of each rater's sum of weights (0 or negative, higher is
better); a segment no rater rated has no score (missing, never 0). The README's "at most five
errors per segment" was an instruction to the raters: nothing is capped here, as in
``score_mqm``; the reader counts rater-segments with more than five errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.data.mtme_scores import frame, parse_scores
from mtmeta.data.numbers import parse_integer, parse_integers
from mtmeta.data.report import Report
from mtmeta.data.textio import read_lines
from mtmeta.errors import ConfigError, InputError

HEADER = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]
COMMENT = "comment"
SXS_HEADER = ["system", "doc", "docSegId", "globalSegId", "rater", "source", "target", "category", "severity",
              "metadata"]
NO_ERROR = "No-error"
SEVERITIES = ("Major", "Minor", "Neutral", NO_ERROR)
# Top-level categories of Google's WMT20-21 error typology. "Non-translation!" (the spelling in some
# files) is read as "Non-translation".
CATEGORIES = ("Accuracy", "Fluency", "Terminology", "Style", "Locale convention", "Other", "Non-translation",
              "Source error")
WEIGHTS = {
    "Major": 5.0,
    "Minor": 1.0,
    "Neutral": 0.0,
    NO_ERROR: 0.0,
    "Major/Non-translation": 25.0,
    "Minor/Fluency/Punctuation": 0.1,
}
OPEN, CLOSE = "<v>", "</v>"
ERROR_COLUMNS = ["line", "system", "seg_id", "rater", "category", "subcategory", "severity", "weight"]
CHECK_COLUMNS = ["line", "system", "seg_id", "rater", "category"]
SEGMENT_COLUMNS = ["system", "seg_id", "doc", "doc_id", "source", "target"]
MAX_ERRORS = 5  # the README's instruction to raters: the five most severe errors of a segment


def strip_marks(text: str) -> str:
    """The text without the ``<v>``/``</v>`` marks of an error span."""
    return text.replace(OPEN, "").replace(CLOSE, "")


def error_weight(severity: str, category: str, subcategory: str = "", weights: Mapping[str, float] = WEIGHTS) -> float:
    """The weight of the most specific ``severity[/category[/subcategory]]`` key of ``weights`` (0 if
    none matches, as in mt-metrics-eval's score_mqm)."""
    parts = [severity, category, *([subcategory] if subcategory else [])]
    while parts:
        key = "/".join(parts)
        if key in weights:
            return float(weights[key])
        parts.pop()
    return 0.0


@dataclass(frozen=True)
class MqmAnnotation:
    """An MQM annotation file, checked.

    ``errors``: one row per file row (``line``, system, seg_id, rater, top-level ``category``,
    ``subcategory`` (may be empty), severity, weight); a ``No-error`` row has category and severity
    ``No-error`` and weight 0, and records that the rater rated the segment.
    ``segments``: one row per system and segment: system, seg_id, doc, doc_id, and the source and the
    output with the marks stripped.
    ``attention_checks``: the rows of the ``attention_checks`` severity, dropped (line, system, seg_id,
    rater, category); empty unless the reader was asked to drop them.
    """

    path: str
    errors: pd.DataFrame
    segments: pd.DataFrame
    report: Report
    attention_checks: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=CHECK_COLUMNS))


def read_mqm_tsv(path: str | Path, *, weights: Mapping[str, float] = WEIGHTS,
                 severities: Iterable[str] = SEVERITIES, categories: Iterable[str] = CATEGORIES,
                 attention_checks: str | None = None, spacing: bool = False) -> MqmAnnotation:
    """Read and check an MQM annotation file; every malformed line is an error naming it.

    ``attention_checks``: a severity (WMT23's ``HOTW-test``) whose rows are attention checks, not
    ratings of the translation (an error planted in it, found or missed): they are dropped before the
    text checks, kept apart in ``attention_checks`` and counted in the report.

    ``spacing``: the rows of a segment may show its source, and the rows of a system's segment its
    output, with different whitespace (WMT23: a marked span can carry an extra space); the texts are
    then compared with all whitespace removed, the first row's text is kept, and the rows that
    differed in whitespace only are counted."""
    lines = read_lines(path)
    severities, categories = tuple(severities), tuple(categories)
    if not lines:
        raise InputError(path, "file is empty", line=1, expected="a header " + " ".join(HEADER))
    header = lines[0].split("\t")
    if header[:len(SXS_HEADER)] == SXS_HEADER and (len(header) == len(SXS_HEADER) or (
            len(header) == len(SXS_HEADER) + 1 and header[-1].startswith("#"))):
        width = len(SXS_HEADER)
    elif header in (HEADER, [*HEADER, COMMENT]):
        width = len(header)
    else:
        raise InputError(path, f"unexpected header {header!r}", line=1,
                         expected="the tab-separated columns " + " ".join(HEADER) + f" [{COMMENT}], or "
                         + " ".join(SXS_HEADER) + " [# comment]")
    errors, texts, checks = [], {}, []
    seg_info: dict[int, tuple[int, str, str, str]] = {}  # seg_id -> (first line, doc, doc_id, source)
    unbalanced, source_spans, respaced = [], 0, {"source": [], "output": []}
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != width:
            raise InputError(path, f"found {len(fields)} tab-separated fields", line=number,
                             expected=f"{width} fields, as the header has")
        system, doc, doc_id, seg_id, rater, source, target, category, severity = fields[:9]
        for name, value in (("system", system), ("doc", doc), ("rater", rater)):
            if not value.strip():
                raise InputError(path, f"empty {name}", line=number, expected=f"a {name} name")
        seg = _positive_int(seg_id, path, number, "seg_id")
        _positive_int(doc_id, path, number, "doc_id")
        if attention_checks is not None and severity == attention_checks:
            checks.append((number, system, seg, rater, category))
            continue
        if severity not in severities:
            raise InputError(path, f"unknown severity {severity!r}", line=number,
                             expected="one of " + ", ".join(severities))
        top, _, sub = category.partition("/")
        top = top.removesuffix("!") if top.startswith("Non-translation") else top
        if (category == NO_ERROR) != (severity == NO_ERROR):
            raise InputError(path, f"category {category!r} with severity {severity!r}", line=number,
                             expected=f"{NO_ERROR} as both category and severity, or neither")
        if category != NO_ERROR and top not in categories:
            raise InputError(path, f"unknown error category {category!r}", line=number,
                             expected=f"{NO_ERROR} or a category under one of " + ", ".join(categories))
        output, src = strip_marks(target), strip_marks(source)
        if target.count(OPEN) != target.count(CLOSE) or source.count(OPEN) != source.count(CLOSE):
            unbalanced.append(number)
        source_spans += OPEN in source
        known = texts.setdefault((system, seg), (number, output))
        if spacing and known[1] != output and "".join(known[1].split()) == "".join(output.split()):
            respaced["output"].append(number)
            output = known[1]
        if known[1] != output:
            raise InputError(path, f"system {system!r} segment {seg}: the output differs from line {known[0]}'s "
                             "once the <v> marks are stripped", line=number,
                             expected="the same output text in every row of a system's segment")
        info = seg_info.setdefault(seg, (number, doc, doc_id, src))
        if spacing and info[3] != src and "".join(info[3].split()) == "".join(src.split()):
            respaced["source"].append(number)
            src = info[3]
        if info[1:] != (doc, doc_id, src):
            what = "source text" if info[3] != src else "doc or doc_id"
            raise InputError(path, f"segment {seg}: {what} differs from line {info[0]}'s", line=number,
                             expected="the same doc, doc_id and source in every row of a segment")
        weight = 0.0 if category == NO_ERROR else error_weight(severity, top, sub, weights)
        errors.append((number, system, seg, rater, top if category != NO_ERROR else NO_ERROR, sub, severity, weight))
    if not errors:
        raise InputError(path, "no rows below the header", line=2, expected="one row per error or No-error rating")
    table = pd.DataFrame(errors, columns=ERROR_COLUMNS)
    check_table = pd.DataFrame(checks, columns=CHECK_COLUMNS)
    segments = pd.DataFrame(
        [(system, seg, seg_info[seg][1], int(seg_info[seg][2]), seg_info[seg][3], output)
         for (system, seg), (_, output) in texts.items()], columns=SEGMENT_COLUMNS,
    ).sort_values(["system", "seg_id"], kind="stable", ignore_index=True)
    report = _report(table, unbalanced, source_spans, str(path))
    for what, numbers in respaced.items() if spacing else ():
        report.add(f"mqm_{what}_spacing", f"rows whose {what} differs from the first row's in whitespace only"
                   + (" (lines " + ", ".join(map(str, numbers[:10])) + (" ...)" if len(numbers) > 10 else ")")
                      if numbers else ""), len(numbers), f"the first row's {what} kept", str(path))
    if attention_checks is not None:
        per_rater = check_table.groupby("rater").size()
        report.add("mqm_attention_checks", f"{attention_checks} rows (attention checks: an error planted in the "
                   "translation, found or missed), by rater: " + ", ".join(f"{r} {n}" for r, n in per_rater.items()),
                   len(check_table), "dropped before scoring", str(path))
    return MqmAnnotation(str(path), table, segments, report, check_table)


def _positive_int(value: str, path, line: int, column: str) -> int:
    return parse_integer(value, path, line, column, minimum=1)


def _report(errors: pd.DataFrame, unbalanced: list[int], source_spans: int, path: str) -> Report:
    report = Report()
    counted = errors[errors["category"] != NO_ERROR]
    report.add("mqm_rows", f"{len(errors)} rows: {len(counted)} errors, {len(errors) - len(counted)} No-error ratings",
               len(errors), "read", path)
    for severity, count in counted["severity"].value_counts().sort_index().items():
        report.add("mqm_errors", f"severity {severity}", count, "scored", path)
    if unbalanced:
        report.add("mqm_unbalanced_marks", "rows whose <v> and </v> marks do not pair up (lines "
                   + ", ".join(map(str, unbalanced[:10])) + (" ..." if len(unbalanced) > 10 else "") + ")",
                   len(unbalanced), "marks stripped all the same; the error is scored", path)
    if source_spans:
        report.add("mqm_source_spans", "errors marked in the source (e.g. omissions)", source_spans,
                   "scored like the others", path)
    per_rater = counted.groupby(["system", "seg_id", "rater"]).size()
    over = int((per_rater > MAX_ERRORS).sum())
    report.add("mqm_over_five_errors", f"rater-segments with more than {MAX_ERRORS} errors (the README's cap)",
               over, "scored as given (nothing is capped, as in mt-metrics-eval's score_mqm)", path)
    raters = errors.groupby(["system", "seg_id"])["rater"].nunique()
    report.add("mqm_several_raters", "system-segments rated by more than one rater", int((raters > 1).sum()),
               "mean over raters", path)
    return report


def segment_scores(errors: pd.DataFrame, *, categories: Iterable[str] | None = None,
                   severities: Iterable[str] | None = None) -> pd.DataFrame:
    """Segment scores (system, seg_id, score, raters) from an error table, optionally counting only
    errors of the given top-level ``categories`` and/or ``severities`` (e.g. ``{"Accuracy"}``,
    ``{"Major"}``).

    A segment is scored when some rater rated it (any row, No-error included). Its score is minus the
    mean over those raters of each rater's sum of the counted weights; a rated segment none of whose
    errors is counted scores 0. A segment nobody rated has no row: the caller's missing value, never 0.
    """
    chosen = errors["category"] != NO_ERROR
    if categories is not None:
        categories = set(categories)
        unknown = sorted(categories - set(CATEGORIES))
        if unknown:
            raise ConfigError(f"MQM categories {unknown} are not top-level categories; known: {', '.join(CATEGORIES)}")
        chosen &= errors["category"].isin(categories)
    if severities is not None:
        severities = set(severities)
        unknown = sorted(severities - set(SEVERITIES) - {NO_ERROR})
        if unknown:
            raise ConfigError(f"MQM severities {unknown} are not known; known: {', '.join(SEVERITIES[:-1])}")
        chosen &= errors["severity"].isin(severities)
    keys = ["system", "seg_id", "rater"]
    per_rater = (errors[keys].assign(weight=np.where(chosen, errors["weight"], 0.0))
                 .groupby(keys, sort=True)["weight"].sum())
    per_segment = per_rater.groupby(level=["system", "seg_id"], sort=True).agg(["mean", "size"])
    table = per_segment.reset_index().rename(columns={"size": "raters"})
    # 0.0 - x rather than -x: a segment without errors scores 0.0, not -0.0.
    table["score"] = 0.0 - table.pop("mean")
    return table[["system", "seg_id", "score", "raters"]]


def restricted_scores(errors: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every segment's MQM score counting one kind of error only: one column per top-level category
    that has errors, then ``Major`` and ``Minor``, and ``all`` (every error: the segment's MQM score);
    rated segments only (system, seg_id, ...). Beside it, each restriction's errors and the segments
    with at least one of them (restriction, errors, segments)."""
    restrictions = [(c, {"categories": [c]}) for c in CATEGORIES if (errors["category"] == c).any()]
    restrictions += [(s, {"severities": [s]}) for s in ("Major", "Minor")]
    restrictions.append(("all", {}))
    table, counts = None, []
    for name, restriction in restrictions:
        scores = segment_scores(errors, **restriction)[["system", "seg_id", "score"]].rename(columns={"score": name})
        table = scores if table is None else table.merge(scores, on=["system", "seg_id"], how="outer")
        kind = errors["category"] != NO_ERROR
        if "categories" in restriction:
            kind &= errors["category"].isin(restriction["categories"])
        if "severities" in restriction:
            kind &= errors["severity"].isin(restriction["severities"])
        counts.append({"restriction": name, "errors": int(kind.sum()),
                       "segments": int(errors.loc[kind, ["system", "seg_id"]].drop_duplicates().shape[0])})
    return table.sort_values(["system", "seg_id"], ignore_index=True), pd.DataFrame(counts)


def system_scores(seg_scores: pd.DataFrame) -> pd.DataFrame:
    """Per system: the mean of its segment scores over the segments that have one (missing ones are
    left out, never counted as 0), and how many that is."""
    rated = seg_scores.dropna(subset=["score"])
    table = rated.groupby("system", sort=True)["score"].agg(["mean", "size"]).reset_index()
    return table.rename(columns={"mean": "score", "size": "segments"})


def read_avg_seg_scores(path: str | Path) -> pd.DataFrame:
    """The repository's ``*.avg_seg_scores.tsv``: system, seg_id, score (NaN where the file says
    ``None``: an unrated segment, never 0).

    Its header is ``system mqm_avg_score seg_id`` separated by spaces, and its rows
    ``system<TAB>score<SPACE>seg_id``; any run of whitespace is accepted as a separator.
    """
    lines = read_lines(path)
    expected = ["system", "mqm_avg_score", "seg_id"]
    if not lines or lines[0].split() != expected:
        raise InputError(path, f"unexpected header {lines[0] if lines else ''!r}", line=1,
                         expected="the columns " + " ".join(expected))
    fields = [line.split() for line in lines[1:]]
    if not fields:
        raise InputError(path, "no rows below the header", line=2, expected="one row per system and segment")
    bad = next((i for i, f in enumerate(fields) if len(f) != 3), None)
    if bad is not None:
        raise InputError(path, f"found {len(fields[bad])} whitespace-separated fields", line=bad + 2,
                         expected="system, score (a number or None), seg_id")
    table = frame(fields, ["system", "value", "seg_id"])
    line = np.arange(2, len(table) + 2)
    table["seg_id"] = positive_ints(table["seg_id"], path, line, "seg_id")
    # + 0.0: "-0.000000" reads as 0.0
    table["score"] = parse_scores(table.pop("value"), path, line, human=True,
                                  expected="a number, or None for an unrated segment") + 0.0
    repeated = table.duplicated(["system", "seg_id"])
    if repeated.any():
        i = int(np.flatnonzero(repeated)[0])
        raise InputError(path, f"system {table['system'].iloc[i]!r} segment {table['seg_id'].iloc[i]} is given twice",
                         line=int(line[i]), expected="one score per system and segment")
    return table[["system", "seg_id", "score"]]


def positive_ints(values: pd.Series, path, lines, column: str) -> np.ndarray:
    """Integer fields >= 1 as int64; anything else is an error naming the line."""
    return parse_integers(values.astype(object).to_numpy(), path, lines, column, minimum=1)


def compare_segment_scores(ours: pd.DataFrame, theirs: pd.DataFrame, *, tolerance: float = 5e-7) -> pd.DataFrame:
    """Every (system, seg_id) of either table with both scores and a status: ``equal`` (within
    ``tolerance``, the avg_seg_scores files' six decimals), ``differs``, ``unrated in both``, ``only ours``
    (we score a segment they leave unrated or lack) or ``only theirs``."""
    merged = ours[["system", "seg_id", "score"]].merge(theirs[["system", "seg_id", "score"]], how="outer",
                                                         on=["system", "seg_id"], suffixes=("_ours", "_theirs"))
    a, b = merged["score_ours"], merged["score_theirs"]
    status = np.select(
        [a.notna() & b.notna() & ((a - b).abs() <= tolerance), a.notna() & b.notna(), a.isna() & b.isna(), a.notna()],
        ["equal", "differs", "unrated in both", "only ours"], default="only theirs")
    merged["status"] = status
    return merged.sort_values(["system", "seg_id"], kind="stable", ignore_index=True)
