"""The six WMT21 MQM eval sets in mt-metrics-eval's layout, assembled from three public repositories.

=================  ======  =====================================================================
eval set           pair    from
=================  ======  =====================================================================
wmt21.news         en-de   wmt21-news-systems (source, references A C D, outputs); Google's MQM
                           per segment (``avg_seg_scores``)
wmt21.news         zh-en   wmt21-news-systems (source, reference A, outputs); Google's MQM per
                           segment; WMT21 DA (raw and z, per segment and per system)
wmt21.news         en-ru   wmt21-news-systems (source, references A B, outputs); wmt21-en-ru-mqm
                           (outputs of metricsystem1-5; Unbabel's MQM, DA raw and z)
wmt21.tedtalks     en-de   Google's MQM annotation: outputs and the ``ref`` rows' text (reference
                           A) with their marks stripped, source, documents, MQM scored from the
                           errors (:mod:`mtmeta.data.mqm`)
wmt21.tedtalks     zh-en   the same, with the ``refB`` rows as reference B
wmt21.tedtalks     en-ru   wmt21-en-ru-mqm (source, reference A, outputs, Unbabel's MQM)
=================  ======  =====================================================================

Every name a repository spells differently is translated through :data:`SYSTEM_NAMES`, the one
place that knows them. References are named as mt-metrics-eval names them (``refA`` ...) and each is
also a system (a human translation). Everything left out or changed is a row of the report, with
a count: systems with MQM but no output (metricsystem1-5 of news en-de and zh-en, reference B of
news en-de and zh-en), trailing whitespace removed from an output (mt-metrics-eval strips it when
reading), TED segments left out because some system's annotation lacks them (none in WMT21: every
system has every annotated segment; a missing output is never an empty string), documents unknown
(the news and Unbabel files have none: one document per set), and the standard reference of news
zh-en (mt-metrics-eval's ``refB`` is not public; ``refA`` is used).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.data import mqm
from mtmeta.data.evalset import EvalSet, standard_reference, write_evalset
from mtmeta.data.mtme_scores import read_score_file
from mtmeta.data.neural_scores import as_external_scores, read_neural_scores
from mtmeta.data.report import COLUMNS as REPORT_COLUMNS
from mtmeta.data.textio import read_lines
from mtmeta.data.wmt_da import da_system_scores, read_da_segment_scores
from mtmeta.errors import InputError
from mtmeta.io import write_tsv

NEWS, TED = "wmt21.news", "wmt21.tedtalks"
EVALSETS = ((NEWS, "en-de"), (NEWS, "zh-en"), (NEWS, "en-ru"), (TED, "en-de"), (TED, "zh-en"), (TED, "en-ru"))

# A name as a repository spells it -> the name in the eval sets (the news task's submission names,
# mt-metrics-eval's reference names). Names not listed are the same everywhere.
SYSTEM_NAMES = {
    "Nemo": "NVIDIA-NeMo",  # Google's MQM files and wmt21-en-ru-mqm; wmt21-news-systems says NVIDIA-NeMo
    "ref": "refA",  # Google's TED annotation: reference A
    "refB": "refB",
    "ref-A": "refA", "ref-B": "refB", "ref-C": "refC", "ref-D": "refD",  # avg_seg_scores, wmt21-en-ru-mqm files
    # WMT21 DA (zh-en): the human translation is reference A (Google's README lists HUMAN's DA z
    # score, 0.019, beside ref-A in its newstest2021 zh-en table).
    "HUMAN": "refA",
}

# The catalogue's sources of the three repositories (config/sources.yaml), by role: what a dataset
# with `evalset: {assemble: wmt21}` needs (mtmeta.app.config checks that they are declared).
SOURCES = {"google": "wmt_mqm_human_evaluation", "news": "wmt21_news_systems", "unbabel": "wmt21_en_ru_mqm"}

NEWS_REFERENCES = {"en-de": ("A", "C", "D"), "zh-en": ("A",), "en-ru": ("A", "B")}
# mt-metrics-eval's standard reference where this data cannot follow it.
STD_REF_HERE = {(NEWS, "zh-en"): "refA"}
GOOGLE_LP = {"en-de": "ende", "zh-en": "zhen"}
NEWS_DOC, TED_DOMAIN, NEWS_DOMAIN = "newstest2021", "ted", "news"


def system_name(name: str) -> str:
    return SYSTEM_NAMES.get(name, name)


@dataclass
class Assembly:
    """The six eval sets, with what was left out or changed (``report``: evalset, lp, kind, detail,
    count, action, file), the text comparisons between repositories (``text_checks``), and for the
    TED sets with Google's annotation the error table (``mqm_errors``: seg_id is the eval set's
    segment, ``annotation_seg_id`` the annotation's)."""

    evalsets: dict[tuple[str, str], EvalSet]
    report: pd.DataFrame
    text_checks: pd.DataFrame
    mqm_errors: dict[str, pd.DataFrame] = field(default_factory=dict)


class _Log:
    """Report rows and text checks of one eval set. Files are named by repository and path inside it
    (``wmt21-news-systems/txt/...``), whatever folder the repository was read from, so that the report
    is the same for the mirror and for a download."""

    def __init__(self, evalset: str, lp: str, roots: dict[str, Path]):
        self.evalset, self.lp, self.roots = evalset, lp, roots
        self.rows: list[dict] = []
        self.checks: list[dict] = []

    def name(self, path: str | Path) -> str:
        path = Path(path)
        for repository, root in self.roots.items():
            if path == root or root in path.parents:
                return f"{repository}/{path.relative_to(root).as_posix()}".rstrip("/.")
        return str(path)

    def add(self, kind: str, detail: str, count: int, action: str, file: str | Path = "") -> None:
        self.rows.append({"evalset": self.evalset, "lp": self.lp, "kind": kind, "detail": detail,
                          "count": int(count), "action": action, "file": self.name(file) if file else ""})

    def check(self, what: str, compared: int, matching: int, used: str | Path, other: str | Path) -> None:
        self.checks.append({"evalset": self.evalset, "lp": self.lp, "what": what, "segments": int(compared),
                            "matching": int(matching), "used": self.name(used), "compared_with": self.name(other)})


def assemble_wmt21(google: str | Path, news: str | Path, unbabel: str | Path) -> Assembly:
    """The six eval sets from the three repositories' folders (each a repository's root: the mirror's
    ``wmt21/<name>`` or the fetched ``resources/<source>/files``)."""
    google, news, unbabel = Path(google), Path(news), Path(unbabel)
    roots = {"wmt-mqm-human-evaluation": google, "wmt21-news-systems": news, "wmt21-en-ru-mqm": unbabel}
    evalsets, logs, errors = {}, [], {}
    for name, lp in EVALSETS:
        record = _Log(name, lp, roots)
        if name == NEWS:
            evalset = _news(lp, news, google, unbabel, record)
        elif lp == "en-ru":
            evalset = _ted_en_ru(unbabel, record)
        else:
            evalset, errors[lp] = _ted_google(lp, google, record)
        _systems_without_scores(evalset, record)
        evalsets[(name, lp)] = evalset
        logs.append(record)
    report = pd.DataFrame([row for record in logs for row in record.rows], columns=["evalset", "lp", *REPORT_COLUMNS])
    checks = pd.DataFrame([row for record in logs for row in record.checks],
                          columns=["evalset", "lp", "what", "segments", "matching", "used", "compared_with"])
    return Assembly(evalsets, report, checks, errors)


def _systems_without_scores(evalset: EvalSet, record: _Log) -> None:
    """Systems with an output but no system score of a human score name (kept: metrics can score them,
    correlations leave them out)."""
    table = evalset.human["sys"].dropna(subset=["score"])
    for name, rows in table.groupby("name", sort=True):
        missing = sorted(set(evalset.systems) - set(rows["system"]))
        if missing:
            record.add("outputs_without_scores", f"systems with an output but no {name} score: " + ", ".join(missing),
                       len(missing), "kept in the eval set (mt-metrics-eval's correlations leave them out)")


def write_wmt21(assembly: Assembly, root: str | Path) -> None:
    """The eval sets under ``root`` (``root/wmt21.news``, ``root/wmt21.tedtalks``), beside them
    ``wmt21_report.tsv`` and ``wmt21_text_checks.tsv``, and the TED error tables as
    ``wmt21.tedtalks/mqm-errors/<lp>.tsv`` (not part of mt-metrics-eval's layout; it ignores them)."""
    root = Path(root)
    for evalset in assembly.evalsets.values():
        write_evalset(evalset, root)
    write_tsv(assembly.report, root / "wmt21_report.tsv")
    write_tsv(assembly.text_checks, root / "wmt21_text_checks.tsv")
    for lp, table in assembly.mqm_errors.items():
        (root / TED / "mqm-errors").mkdir(parents=True, exist_ok=True)
        write_tsv(table, root / TED / "mqm-errors" / f"{lp}.tsv")


def has_error_table(testset: str, lp: str) -> bool:
    """Whether the assembly writes an MQM error table for this pair (the TED sets Google annotated)."""
    return testset == TED and lp in GOOGLE_LP


ERROR_TABLE_COLUMNS = ["line", "system", "seg_id", "annotation_seg_id", "rater", "category", "subcategory",
                       "severity", "weight"]


def read_mqm_errors(path: str | Path) -> pd.DataFrame:
    """A TED error table as :func:`write_wmt21` wrote it (names and an empty sub-category kept as
    strings, never read as missing values), ready for :func:`mtmeta.data.mqm.segment_scores`."""
    table = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, quoting=3)
    if list(table.columns) != ERROR_TABLE_COLUMNS:
        raise InputError(path, f"columns {list(table.columns)}", line=1, expected=", ".join(ERROR_TABLE_COLUMNS))
    for column in ("line", "seg_id", "annotation_seg_id"):
        table[column] = table[column].astype(np.int64)
    table["weight"] = table["weight"].astype(np.float64)
    return table


# ------------------------------------------------------------------------------------------ texts


def _lines(path: Path, record: _Log, label: str) -> list[str]:
    """A text file's lines without trailing whitespace (mt-metrics-eval strips it when it reads a
    file, so the layout cannot keep it); how many lines lost some is reported."""
    lines = read_lines(path)
    stripped = [line.rstrip() for line in lines]
    changed = sum(a != b for a, b in zip(lines, stripped, strict=True))
    if changed:
        record.add("trailing_whitespace", f"{label}: lines ending in whitespace", changed,
                   "whitespace removed (as mt-metrics-eval reads the file)", path)
    empty = sum(not line for line in stripped)
    if empty:
        record.add("empty_output", f"{label}: empty lines", empty, "kept: an empty translation is an output", path)
    return stripped


def _texts(sources: list[str], docs: list[str], domain: str) -> pd.DataFrame:
    n = len(sources)
    return pd.DataFrame({"seg_id": np.arange(1, n + 1), "source": pd.Series(sources, dtype=object),
                         "domain": pd.Series([domain] * n, dtype=object), "doc": pd.Series(docs, dtype=object)})


def _references(refs: dict[str, list[str]]) -> pd.DataFrame:
    return pd.concat([pd.DataFrame({"reference": pd.Series([name] * len(text), dtype=object),
                                    "seg_id": np.arange(1, len(text) + 1), "text": pd.Series(text, dtype=object)})
                      for name, text in sorted(refs.items())], ignore_index=True)


def _outputs(outputs: dict[str, list[str]]) -> pd.DataFrame:
    return pd.concat([pd.DataFrame({"system": pd.Series([name] * len(text), dtype=object),
                                    "seg_id": np.arange(1, len(text) + 1), "hypothesis": pd.Series(text, dtype=object)})
                      for name, text in sorted(outputs.items())], ignore_index=True)


def _same_length(path: Path, lines: list, n: int) -> None:
    if len(lines) != n:
        raise InputError(path, f"{len(lines)} lines", expected=f"{n}, as the source file has")


def _compare(record: _Log, what: str, used: Path, other: Path) -> None:
    """How many lines of two copies of a text file are identical (as published: nothing stripped)."""
    ours, theirs = read_lines(used), read_lines(other)
    record.check(what, max(len(ours), len(theirs)), sum(a == b for a, b in zip(ours, theirs, strict=False)), used,
                 other)


# ------------------------------------------------------------------------------------------- news


def _news(lp: str, news: Path, google: Path, unbabel: Path, record: _Log) -> EvalSet:
    src, tgt = lp.split("-")
    txt = news / "txt"
    source_path = txt / "sources" / f"newstest2021.{lp}.src.{src}"
    sources = _lines(source_path, record, "source")
    n = len(sources)
    refs = {}
    for letter in NEWS_REFERENCES[lp]:
        path = txt / "references" / f"newstest2021.{lp}.ref.{letter}.{tgt}"
        refs[f"ref{letter}"] = _lines(path, record, f"reference {letter}")
        _same_length(path, refs[f"ref{letter}"], n)
    outputs = {}
    prefix, suffix = f"newstest2021.{lp}.hyp.", f".{tgt}"
    for path in sorted((txt / "system-outputs").glob(f"{prefix}*{suffix}")):
        system = system_name(path.name[len(prefix): -len(suffix)])
        outputs[system] = _lines(path, record, f"output {system}")
        _same_length(path, outputs[system], n)
    if lp == "en-ru":
        _unbabel_news_outputs(unbabel, n, source_path, refs, outputs, record)
    outputs.update(refs)  # each reference is also scored as a system: a human translation
    record.add("documents", "document boundaries are not in the plain-text files of the repositories", n,
               f"every segment is in one document {NEWS_DOC!r}, domain {NEWS_DOMAIN!r}", source_path)
    std_ref = STD_REF_HERE.get((NEWS, lp), standard_reference(NEWS, lp))
    if std_ref != standard_reference(NEWS, lp):
        record.add("standard_reference", f"mt-metrics-eval's standard reference {standard_reference(NEWS, lp)} is "
                   "not public", 1, f"{std_ref} is the standard reference here")
    human = {"seg": [], "sys": []}
    if lp == "en-ru":
        _unbabel_scores(unbabel / "Data/WMT21-data/evaluation/newstest2021", lp, n, outputs, human, record)
    else:
        path = google / "newstest2021" / GOOGLE_LP[lp] / f"mqm_newstest2021_{GOOGLE_LP[lp]}.avg_seg_scores.tsv"
        _google_avg_scores(path, n, outputs, human, record)
    if lp == "zh-en":
        _da_scores(news / "humaneval/newstest2021-toen/ad-seg-scores-zh-en.csv", n, outputs, human, record)
    return EvalSet(NEWS, lp, std_ref, _texts(sources, [NEWS_DOC] * n, NEWS_DOMAIN), _references(refs),
                   _outputs(outputs), {level: pd.concat(tables, ignore_index=True) for level, tables in human.items()})


def _unbabel_news_outputs(unbabel: Path, n: int, source_path: Path, refs: dict, outputs: dict,
                          record: _Log) -> None:
    """en-ru: wmt21-en-ru-mqm's copies compared with the news task's files; its outputs of the systems
    the news task lacks (metricsystem1-5) added."""
    data = unbabel / "Data/WMT21-data"
    _compare(record, "source", source_path, data / "sources/newstest2021.en-ru.src.en")
    for ref in refs:
        official = source_path.parents[1] / "references" / f"newstest2021.en-ru.ref.{ref[-1]}.ru"
        for path in (data / f"references/newstest2021.en-ru.ref.ref-{ref[-1]}.ru",
                     data / f"system-outputs/newstest2021/newstest2021.en-ru.ref.ref-{ref[-1]}.ru"):
            _compare(record, f"reference {ref}", official, path)
    prefix, suffix = "newstest2021.en-ru.hyp.", ".ru"
    official_outputs = {system_name(p.name[len(prefix): -len(suffix)]): p
                        for p in (source_path.parents[1] / "system-outputs").glob(f"{prefix}*{suffix}")}
    for path in sorted((data / "system-outputs/newstest2021").glob(f"{prefix}*{suffix}")):
        system = system_name(path.name[len(prefix): -len(suffix)])
        if system in outputs:
            _compare(record, f"output {system}", official_outputs[system], path)
        else:
            outputs[system] = _lines(path, record, f"output {system}")
            _same_length(path, outputs[system], n)
            record.add("output_elsewhere", f"output {system} is not in wmt21-news-systems", 1,
                       "taken from wmt21-en-ru-mqm", path)


def _keep_systems_with_outputs(table: pd.DataFrame, outputs: dict, name: str, path: Path, record: _Log) -> pd.DataFrame:
    table = table.assign(system=table["system"].replace(SYSTEM_NAMES))
    without = sorted(set(table["system"]) - set(outputs))
    for system in without:
        rated = int(table.loc[table["system"] == system, "score"].notna().sum())
        record.add("scores_without_output", f"{name} scores of {system}, which has no output in the repositories",
                   rated, "excluded (segments with a score)", path)
    return table[table["system"].isin(outputs)]


def _check_seg_ids(table: pd.DataFrame, n: int, path: Path) -> None:
    bad = table[(table["seg_id"] < 1) | (table["seg_id"] > n)]
    if len(bad):
        raise InputError(path, f"segment {bad['seg_id'].iloc[0]} of {bad['system'].iloc[0]}",
                         expected=f"segments 1..{n} of the test set")


def _full_grid(table: pd.DataFrame, n: int) -> pd.DataFrame:
    """Every system's scores of segments 1..n (NaN where it has none)."""
    index = pd.MultiIndex.from_product([sorted(table["system"].unique()), range(1, n + 1)], names=["system", "seg_id"])
    return table.set_index(["system", "seg_id"])["score"].reindex(index).reset_index()


def _google_avg_scores(path: Path, n: int, outputs: dict, human: dict, record: _Log) -> None:
    table = mqm.read_avg_seg_scores(path)
    _check_seg_ids(table, n, path)
    table = _keep_systems_with_outputs(table, outputs, "MQM", path, record)
    seg = _full_grid(table, n)
    human["seg"].append(seg.assign(name="mqm"))
    human["sys"].append(mqm.system_scores(seg).drop(columns="segments").assign(name="mqm"))
    record.add("mqm_segments", "system-segments with an MQM score", int(seg["score"].notna().sum()),
               "mqm: a system's score is the mean over its scored segments (the README's tables)", path)


def _da_scores(path: Path, n: int, outputs: dict, human: dict, record: _Log) -> None:
    segments = read_da_segment_scores(path)
    segments = segments.assign(system=segments["system"].replace(SYSTEM_NAMES))
    _check_seg_ids(segments, n, path)
    systems = da_system_scores(segments)
    for column, name in (("raw", "wmt-raw"), ("z", "wmt-z")):
        table = _keep_systems_with_outputs(segments.rename(columns={column: "score"}), outputs, name, path, record)
        human["seg"].append(_full_grid(table, n).assign(name=name))
        sys_table = systems[systems["system"].isin(outputs)].rename(columns={column: "score"})
        human["sys"].append(sys_table[["system", "score"]].assign(name=name))
    record.add("da_segments", "system-segments with DA scores", len(segments),
               "wmt-raw, wmt-z: system score = mean over the system's segments, as WMT's system file", path)


def _unbabel_scores(folder: Path, lp: str, n: int, outputs: dict, human: dict, record: _Log) -> None:
    """Unbabel's mqm, wmt-raw and wmt-z files (seg and sys), as given."""
    for path in sorted(folder.glob(f"{lp}.*.seg.score")):
        name = path.name[len(lp) + 1: -len(".seg.score")]
        seg = read_score_file(path, "seg", human=True).rename(columns={"item": "seg_id"})
        counts = seg.groupby("system").size()
        if (counts != n).any():
            raise InputError(path, f"system {counts[counts != n].index[0]!r} has {counts[counts != n].iloc[0]} scores",
                             expected=f"{n}, one per segment")
        seg = _keep_systems_with_outputs(seg, outputs, name, path, record)
        human["seg"].append(seg[["system", "seg_id", "score"]].assign(name=name))
        sys_path = path.with_name(f"{lp}.{name}.sys.score")
        sys = read_score_file(sys_path, "sys", human=True)
        sys = _keep_systems_with_outputs(sys, outputs, name, sys_path, record)
        human["sys"].append(sys[["system", "score"]].assign(name=name))
        means = mqm.system_scores(seg).set_index("system")["score"]
        worst = float((sys.set_index("system")["score"] - means).abs().max())
        record.add("system_score_check", f"{name}: system file vs the mean of each system's segment scores: largest "
                   f"difference {worst:.1e}", len(sys), "the system file is used as given", sys_path)


# -------------------------------------------------------------------------------------------- TED


def _ted_google(lp: str, google: Path, record: _Log) -> tuple[EvalSet, pd.DataFrame]:
    code = GOOGLE_LP[lp]
    path = google / "ted" / code / f"mqm_ted_{code}.tsv"
    annotation = mqm.read_mqm_tsv(path)
    for row in annotation.report.rows:
        record.add(row["kind"], row["detail"], row["count"], row["action"], row["file"])
    segments = annotation.segments.assign(system=annotation.segments["system"].replace(SYSTEM_NAMES))
    systems = sorted(segments["system"].unique())
    have = segments.groupby("seg_id")["system"].nunique()
    kept = sorted(have[have == len(systems)].index)
    lacking = sorted(set(have.index) - set(kept))
    record.add("ted_segment_lacking", "annotated segments some system's annotation lacks (no output for it)",
               len(lacking), "segment left out for every system (a missing output is never an empty string)", path)
    line_of = {seg: line for line, seg in enumerate(kept, start=1)}
    segments = segments[segments["seg_id"].isin(line_of)].assign(line=lambda t: t["seg_id"].map(line_of))
    first = segments.drop_duplicates("seg_id").sort_values("line")
    docs = list(first["doc"])
    refs = {system: list(rows.sort_values("line")["target"]) for system, rows in segments.groupby("system")
            if re.fullmatch("ref[A-Z]", system)}
    outputs = {system: list(rows.sort_values("line")["target"]) for system, rows in segments.groupby("system")}
    record.add("ted_segments", f"annotated segments kept (of the {annotation.segments['seg_id'].max()} the test set "
               "numbers at most)", len(kept), "eval set segments 1..n in annotation order; the errors table keeps "
               "annotation_seg_id", path)
    record.check("MQM annotation text", 0, 0, path, "(no official output file of the TED talks in the mirror)")

    errors = annotation.errors.assign(system=annotation.errors["system"].replace(SYSTEM_NAMES))
    errors = errors[errors["seg_id"].isin(line_of)].rename(columns={"seg_id": "annotation_seg_id"})
    errors.insert(2, "seg_id", errors["annotation_seg_id"].map(line_of))
    seg = mqm.segment_scores(errors)
    # The repository's own averages, every segment: the scores here must equal them.
    averages = mqm.read_avg_seg_scores(path.with_name(f"mqm_ted_{code}.avg_seg_scores.tsv"))
    ours = mqm.segment_scores(annotation.errors.assign(system=annotation.errors["system"].replace(SYSTEM_NAMES)))
    compared = mqm.compare_segment_scores(ours, averages.assign(system=averages["system"].replace(SYSTEM_NAMES)))
    for status, count in compared["status"].value_counts().sort_index().items():
        record.add("avg_seg_scores_check", f"segment scores vs the repository's avg_seg_scores: {status}", count,
                   "expected: equal, or unrated in both", path.with_name(f"mqm_ted_{code}.avg_seg_scores.tsv"))
    seg = _full_grid(seg[["system", "seg_id", "score"]], len(kept))
    human = {"seg": seg.assign(name="mqm"),
             "sys": mqm.system_scores(seg).drop(columns="segments").assign(name="mqm")}
    std_ref = standard_reference(TED, lp)
    evalset = EvalSet(TED, lp, std_ref, _texts(list(first["source"]), docs, TED_DOMAIN), _references(refs),
                      _outputs(outputs), human)
    return evalset, errors.reset_index(drop=True)


def _ted_en_ru(unbabel: Path, record: _Log) -> EvalSet:
    data = unbabel / "Data/WMT21-data"
    source_path = data / "sources/tedtalks.en-ru.src.en"
    sources = _lines(source_path, record, "source")
    n = len(sources)
    ref_path = data / "references/tedtalks.en-ru.ref.ref-A.ru"
    refs = {"refA": _lines(ref_path, record, "reference A")}
    _same_length(ref_path, refs["refA"], n)
    outputs = {}
    prefix, suffix = "tedtalks.en-ru.", ".ru"
    for path in sorted((data / "system-outputs/tedtalks").glob(f"{prefix}*{suffix}")):
        kind, _, name = path.name[len(prefix): -len(suffix)].partition(".")
        if kind == "ref":
            _compare(record, f"reference {system_name(name)}", ref_path, path)
            continue
        system = system_name(name)
        outputs[system] = _lines(path, record, f"output {system}")
        _same_length(path, outputs[system], n)
    record.check("outputs", 0, 0, data / "system-outputs/tedtalks", "(no other copy of the TED en-ru outputs in the "
                 "mirror)")
    outputs.update(refs)
    record.add("documents", "document boundaries are not in wmt21-en-ru-mqm's files", n,
               f"every segment is in one document 'tedtalks', domain {TED_DOMAIN!r}", source_path)
    human = {"seg": [], "sys": []}
    _unbabel_scores(unbabel / "Data/WMT21-data/evaluation/tedtalks", "en-ru", n, outputs, human, record)
    return EvalSet(TED, "en-ru", standard_reference(TED, "en-ru"), _texts(sources, ["tedtalks"] * n, TED_DOMAIN),
                   _references(refs), _outputs(outputs),
                   {level: pd.concat(tables, ignore_index=True) for level, tables in human.items()})


# --------------------------------------------------------------------------------- neural scores


def neural_external_scores(unbabel: str | Path, metric: str, datasets: dict[str, str], *,
                           reference: str = "A") -> pd.DataFrame:
    """A neural metric's scores of en-ru as a "bring your own scores" segment table, for the given
    dataset ids: ``{"newstest2021": <dataset id of news en-ru>, "tedtalks": <dataset id of TED en-ru>}``
    (either may be left out). ``reference`` picks the column of the news files that have one per
    reference. System names as in the eval sets (Nemo -> NVIDIA-NeMo)."""
    tables = [as_external_scores(read_neural_scores(unbabel, domain, metric, reference=reference), dataset, "en-ru",
                                 SYSTEM_NAMES) for domain, dataset in datasets.items()]
    return pd.concat(tables, ignore_index=True)
