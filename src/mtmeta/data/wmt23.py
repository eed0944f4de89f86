"""WMT23 side-by-side MQM with three raters per segment (en-de, zh-en) as mt-metrics-eval eval sets.

Google's ``generalMT2023/<lp>/sxs_mqm_generalMT2023_<lp>.3ratingsPerSegment.tsv.tar.gz``
(github.com/google/wmt-mqm-human-evaluation) holds one row per marked error (or ``No-error``) of one
rater on one translation of one segment; every (system, segment) was rated by three different
raters, and the three raters of a segment rated all its translations. The file is read by
:func:`mtmeta.data.mqm.read_mqm_tsv` (its WMT23 header; ``globalSegId`` is the segment, ``docSegId``
its position in the document), with:

- attention checks dropped: ``HOTW-test`` rows (an error planted in the translation, ``Found`` or
  ``Missed``) are not ratings of the real translation; they are counted per rater, and a rater who
  has nothing but attention checks is named;
- a segment's source, and a system's output, compared across rows with whitespace removed (a
  marked span can carry an extra space), the rows that differ in whitespace only counted;
- ``Source issue`` errors (marked in the source, a problem of the source and not of the
  translation) weighted 0 and counted; every other weight is the repository's (Major 5, Minor 1,
  Minor Fluency/Punctuation 0.1, Non-translation 25);
- a system rated twice: a label ``X_with_Y`` is system ``X`` shown beside ``Y``; when one system
  has several labels (en-de GPT4-5shot, rated beside ONLINE-W and beside refA by the same raters,
  so the two ratings are not independent), the ratings under the first label in sorted order are
  kept (en-de: ``GPT4-5shot_with_ONLINE-W``, beside an MT system like every other MT system) and
  the others are dropped, counted, with how many same-rater scores they share exactly;
- per (system, segment): each rater's MQM score (minus the sum of the weights of that rater's
  errors) kept apart, and the gold ``mqm`` = the mean of the three. A cell that does not have
  exactly three raters (a rater missing, a segment rated once), or whose raters are not the
  segment's raters, is counted and named and gets no mean (missing, never averaged in); its
  single ratings stay in the per-rater scores.

Line mapping: a segment's test-set line is found by its source (marks stripped, all whitespace
removed: the zh-en sources in the TSV lost their spaces) among ``txt/sources/generaltest2023.<lp>``
of wmt23-news-systems; a document's segments sit on consecutive lines, so a document is placed where
all of its segments match. The eval set's segments are the rated ones, in ``globalSegId`` order
(seg_id 1..n), with the official source and reference A of their lines; ``lines`` keeps the mapping.
The outputs are the rated translations (trailing whitespace removed, counted). In en-de the
reference A is also a rated translation: it stays a system (a human translation, as mt-metrics-eval
lays references out), with its rated text.

Human scores written: ``mqm`` (seg: the three-rater mean; sys: the mean over the segments with one)
and ``mqm-<rater>`` (seg: that rater's score where the rater rated the segment, missing elsewhere).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.data import mqm
from mtmeta.data.archive import safe_extract
from mtmeta.data.evalset import EvalSet, write_evalset
from mtmeta.data.report import COLUMNS as REPORT_COLUMNS
from mtmeta.data.textio import read_lines
from mtmeta.errors import ConfigError, InputError
from mtmeta.io import write_tsv

EVALSET = "wmt23.sxs"
# The catalogue sources the sets are assembled from, by role (config/sources.yaml).
SOURCES = {"google": "wmt23_mqm_human_evaluation", "news": "wmt23_news_systems"}
PAIRS = {"en-de": "ende", "zh-en": "zhen"}
RATERS_PER_SEGMENT = 3
ATTENTION_CHECK = "HOTW-test"
SOURCE_ISSUE = "Source issue"
WEIGHTS = {**mqm.WEIGHTS, f"Major/{SOURCE_ISSUE}": 0.0, f"Minor/{SOURCE_ISSUE}": 0.0}
CATEGORIES = (*mqm.CATEGORIES, SOURCE_ISSUE)
GOLD = "mqm"
DOMAIN = "news"
RATER_COLUMNS = ["system", "seg_id", "rater", "score"]
LINE_COLUMNS = ["seg_id", "doc", "doc_seg", "line"]
REPORT = ["evalset", "lp", *REPORT_COLUMNS]


def annotation_path(google: str | Path, lp: str) -> Path:
    code = PAIRS[lp]
    return Path(google) / "generalMT2023" / code / f"sxs_mqm_generalMT2023_{code}.3ratingsPerSegment.tsv.tar.gz"


def human_name(rater: str) -> str:
    return f"{GOLD}-{rater}"


def system_of(label: str) -> str:
    """``GPT4-5shot_with_refA`` -> ``GPT4-5shot``: the system, without the partner it was shown beside."""
    return re.sub(r"_with_.*$", "", label)


@dataclass
class SxsSet:
    """One pair's eval set, its per-rater scores (system, seg_id, rater, score: every rating kept),
    the line mapping (seg_id, doc, doc_seg, line: the test-set line, from 1) and the report."""

    evalset: EvalSet
    raters: pd.DataFrame
    lines: pd.DataFrame
    report: pd.DataFrame


class _Log:
    def __init__(self, lp: str):
        self.lp, self.rows = lp, []

    def add(self, kind: str, detail: str, count: int, action: str, file: str | Path = "") -> None:
        self.rows.append({"evalset": EVALSET, "lp": self.lp, "kind": kind, "detail": detail, "count": int(count),
                          "action": action, "file": str(file)})


def read_annotation(path: str | Path) -> mqm.MqmAnnotation:
    """The side-by-side annotation (a ``.tsv``, or the repository's ``.tsv.tar.gz`` holding one),
    attention checks dropped, ``Source issue`` weighted 0."""
    path = Path(path)
    if path.name.endswith(".tar.gz"):
        with tempfile.TemporaryDirectory() as folder:
            names = safe_extract(path, Path(folder) / "x")
            tsv = [n for n in names if n.endswith(".tsv")]
            if len(tsv) != 1:
                raise InputError(path, f"the archive holds {len(tsv)} .tsv files", expected="exactly one")
            try:
                return read_annotation_tsv(Path(folder) / "x" / tsv[0])
            except InputError as error:  # name the archive's member, not the temporary copy
                raise InputError(f"{path}:{tsv[0]}", error.problem, line=error.line, expected=error.expected,
                                 hint=error.hint) from None
    return read_annotation_tsv(path)


def read_annotation_tsv(path: str | Path) -> mqm.MqmAnnotation:
    return mqm.read_mqm_tsv(path, weights=WEIGHTS, categories=CATEGORIES,
                            severities=(*mqm.SEVERITIES, ATTENTION_CHECK), attention_checks=ATTENTION_CHECK,
                            spacing=True)


def assemble_sxs(lp: str, google: str | Path, news: str | Path) -> SxsSet:
    """One pair's eval set from the repositories' roots (wmt-mqm-human-evaluation, wmt23-news-systems)."""
    if lp not in PAIRS:
        raise ConfigError(f"no WMT23 side-by-side MQM for {lp!r}; known: {', '.join(PAIRS)}")
    path = annotation_path(google, lp)
    annotation = read_annotation(path)
    record = _Log(lp)
    for row in annotation.report.rows:
        record.add(row["kind"], row["detail"], row["count"], row["action"], path)
    errors = _one_label_per_system(annotation.errors, record, path)
    _attention_only_raters(annotation, errors, record, path)
    record.add("source_issues", f"{SOURCE_ISSUE} errors (marked in the source)",
               int((errors["category"] == SOURCE_ISSUE).sum()), "weight 0: not an error of the translation", path)
    raters = _rater_scores(errors)
    gold = _three_rater_mean(raters, record, path)
    segments = annotation.segments.assign(system=annotation.segments["system"].map(system_of))
    segments = segments.drop_duplicates(["system", "seg_id"])  # the kept label's text comes first in sort order
    lines = _line_mapping(segments, Path(news), lp, path)
    evalset = _evalset(lp, segments, lines, gold, raters, Path(news), record)
    report = pd.DataFrame(record.rows, columns=REPORT)
    return SxsSet(evalset, raters, lines, report)


def _one_label_per_system(errors: pd.DataFrame, record: _Log, path: Path) -> pd.DataFrame:
    labels = errors[["system"]].drop_duplicates().assign(name=lambda t: t["system"].map(system_of))
    keep = []
    for name, rows in labels.groupby("name", sort=True):
        ordered = sorted(rows["system"])
        keep.append(ordered[0])
        if len(ordered) > 1:
            scores = _rater_scores(errors[errors["system"].isin(ordered)]).pivot_table(
                index=["seg_id", "rater"], columns="system", values="score")
            both = scores.dropna()
            same = int((both.nunique(axis=1) == 1).sum())
            record.add("system_rated_twice", f"{name} is rated under {len(ordered)} labels ({', '.join(ordered)}); "
                       f"{same} of {len(both)} same-rater ratings of a segment are identical",
                       int(errors["system"].isin(ordered[1:]).sum()),
                       f"rows of {', '.join(ordered[1:])} dropped; {ordered[0]}'s ratings kept", path)
    return errors[errors["system"].isin(keep)].assign(system=lambda t: t["system"].map(system_of))


def _attention_only_raters(annotation: mqm.MqmAnnotation, errors: pd.DataFrame, record: _Log, path: Path) -> None:
    only = sorted(set(annotation.attention_checks["rater"]) - set(errors["rater"]))
    record.add("attention_checks_only", "raters with nothing but attention checks"
               + (f": {', '.join(only)}" if only else ""), len(only), "no scores from them", path)


def _rater_scores(errors: pd.DataFrame) -> pd.DataFrame:
    """One row per (system, seg_id, rater) that rated it: minus the sum of the rater's weights."""
    table = errors.groupby(["system", "seg_id", "rater"], sort=True)["weight"].sum().reset_index()
    table["score"] = 0.0 - table.pop("weight")
    return table[RATER_COLUMNS]


def _three_rater_mean(raters: pd.DataFrame, record: _Log, path: Path) -> pd.DataFrame:
    """system, seg_id, score: the mean of exactly three raters, who are the segment's raters; NaN
    (and a report row naming the cells) otherwise."""
    cells = raters.groupby(["system", "seg_id"], sort=True).agg(score=("score", "mean"), n=("rater", "nunique"),
                                                                   who=("rater", lambda r: tuple(sorted(r))))
    cells = cells.reset_index()
    segment_raters = raters.groupby("seg_id")["rater"].agg(lambda r: tuple(sorted(set(r))))
    cells["segment_raters"] = cells["seg_id"].map(segment_raters)
    problems = {
        "rated_once": cells["n"] == 1,
        "rater_missing": (cells["n"] > 1) & (cells["n"] < RATERS_PER_SEGMENT),
        "too_many_raters": cells["n"] > RATERS_PER_SEGMENT,
        "raters_differ": (cells["n"] == RATERS_PER_SEGMENT) & (cells["who"] != cells["segment_raters"]),
    }
    texts = {"rated_once": "(system, segment) rated by one rater only",
             "rater_missing": f"(system, segment) rated by fewer than {RATERS_PER_SEGMENT} raters",
             "too_many_raters": f"(system, segment) rated by more than {RATERS_PER_SEGMENT} raters",
             "raters_differ": "(system, segment) whose raters are not the raters of the segment's other systems"}
    bad = np.zeros(len(cells), bool)
    for kind, mask in problems.items():
        named = ", ".join(f"{s} seg {g}" for s, g in cells.loc[mask, ["system", "seg_id"]].head(10).itertuples(
            index=False)) + (" ..." if mask.sum() > 10 else "")
        record.add(kind, texts[kind] + (f": {named}" if mask.any() else ""), int(mask.sum()),
                   "no three-rater mean (missing); each rating kept in the per-rater scores", path)
        bad |= mask.to_numpy()
    cells.loc[bad, "score"] = np.nan
    return cells[["system", "seg_id", "score"]]


def _squeeze(text: str) -> str:
    return "".join(text.split())


def _line_mapping(segments: pd.DataFrame, news: Path, lp: str, annotation: Path) -> pd.DataFrame:
    """seg_id -> test-set line (from 1): each document placed where all its segments' sources match."""
    source_path = news / "txt" / "sources" / f"generaltest2023.{lp}.src.{lp.split('-')[0]}"
    official = [_squeeze(line) for line in read_lines(source_path)]
    where: dict[str, list[int]] = {}
    for number, text in enumerate(official, start=1):
        where.setdefault(text, []).append(number)
    per_segment = segments.drop_duplicates("seg_id").sort_values("seg_id")
    if list(per_segment["seg_id"]) != list(range(1, len(per_segment) + 1)):
        raise InputError(annotation, "globalSegId does not run 1..n without gaps", expected="1, 2, ..., n")
    rows = []
    for doc, block in per_segment.groupby("doc", sort=False):
        block = block.sort_values("doc_id")
        starts = [line - int(block["doc_id"].iloc[0]) + 1 for line in where.get(_squeeze(block["source"].iloc[0]), [])]
        fits = [start for start in starts if all(
            0 < start + k - 1 <= len(official) and official[start + k - 1 - 1] == _squeeze(text)
            for k, text in zip(block["doc_id"], block["source"], strict=True))]
        if len(fits) != 1:
            raise InputError(annotation, f"document {doc!r}: its sources match {len(fits)} places of {source_path}",
                             expected="exactly one run of consecutive lines")
        rows += [(seg, doc, k, fits[0] + k - 1) for seg, k in zip(block["seg_id"], block["doc_id"], strict=True)]
    return pd.DataFrame(rows, columns=LINE_COLUMNS).sort_values("seg_id", ignore_index=True)


def _evalset(lp: str, segments: pd.DataFrame, lines: pd.DataFrame, gold: pd.DataFrame, raters: pd.DataFrame,
             news: Path, record: _Log) -> EvalSet:
    src, tgt = lp.split("-")
    txt = news / "txt"
    sources = read_lines(txt / "sources" / f"generaltest2023.{lp}.src.{src}")
    reference_path = txt / "references" / f"generaltest2023.{lp}.ref.refA.{tgt}"
    reference = read_lines(reference_path)
    line = lines["line"].to_numpy() - 1
    texts = pd.DataFrame({"seg_id": lines["seg_id"], "source": [sources[i].rstrip() for i in line],
                          "domain": DOMAIN, "doc": lines["doc"]})
    references = pd.DataFrame({"reference": "refA", "seg_id": lines["seg_id"],
                               "text": [reference[i].rstrip() for i in line]})
    outputs = segments[["system", "seg_id", "target"]].rename(columns={"target": "hypothesis"})
    stripped = outputs["hypothesis"].str.rstrip()
    record.add("trailing_whitespace", "rated translations with trailing whitespace",
               int((stripped != outputs["hypothesis"]).sum()), "removed (mt-metrics-eval strips it when reading)")
    outputs = outputs.assign(hypothesis=stripped)
    grid = pd.MultiIndex.from_product([sorted(outputs["system"].unique()), lines["seg_id"]],
                                      names=["system", "seg_id"])
    outputs = outputs.set_index(["system", "seg_id"]).reindex(grid).reset_index()
    missing = outputs["hypothesis"].isna()
    record.add("unrated_outputs", "(system, segment) never rated: no output text", int(missing.sum()),
               "missing output (mt-metrics-eval's no-translation marker), no score")
    outputs["hypothesis"] = outputs["hypothesis"].astype(object).where(~missing, None)
    if "refA" in set(outputs["system"]):
        rated = outputs[outputs["system"] == "refA"].set_index("seg_id")["hypothesis"]
        differ = int((rated != references.set_index("seg_id")["text"]).sum())
        record.add("reference_rated", f"refA is a rated translation; its rated text differs from {reference_path.name} "
                   "in this many segments", differ, "refA kept as a system (a human translation) with its rated text")
    seg_gold = gold.set_index(["system", "seg_id"]).reindex(grid).reset_index().assign(name=GOLD)
    sys_gold = seg_gold.dropna(subset=["score"]).groupby("system", sort=True)["score"].mean().reset_index()
    per_rater = [raters[raters["rater"] == r].set_index(["system", "seg_id"])[["score"]].reindex(grid).reset_index()
                 .assign(name=human_name(r)) for r in sorted(raters["rater"].unique())]
    human = {"seg": pd.concat([seg_gold, *per_rater], ignore_index=True), "sys": sys_gold.assign(name=GOLD)}
    return EvalSet(EVALSET, lp, "refA", texts, references, outputs, human)


def rating_array(raters: pd.DataFrame, systems: list[str], seg_ids) -> tuple[list[str], np.ndarray]:
    """(rater names, raters x systems x segments scores, NaN where a rater did not rate a cell)."""
    names = sorted(raters["rater"].unique(), key=lambda r: (len(r), r))
    seg_ids = list(seg_ids)
    array = np.full((len(names), len(systems), len(seg_ids)), np.nan)
    rows = raters[raters["system"].isin(systems) & raters["seg_id"].isin(seg_ids)]
    r = rows["rater"].map({n: i for i, n in enumerate(names)}).to_numpy()
    s = rows["system"].map({n: i for i, n in enumerate(systems)}).to_numpy()
    g = rows["seg_id"].map({n: i for i, n in enumerate(seg_ids)}).to_numpy()
    array[r, s, g] = rows["score"].to_numpy()
    return names, array


def assemble_wmt23_sxs(google: str | Path, news: str | Path) -> dict[str, SxsSet]:
    """Both pairs (en-de, zh-en), ready for :func:`write_sxs`."""
    return {lp: assemble_sxs(lp, google, news) for lp in PAIRS}


def write_sxs(sets: dict[str, SxsSet], root: str | Path, *, rater_scores: bool = True) -> Path:
    """Write the eval sets under ``root/wmt23.sxs`` in mt-metrics-eval's layout, and beside them, per
    pair, ``<lp>.raters.tsv`` (every rating), ``<lp>.lines.tsv`` (the line mapping) and one
    ``report.tsv`` for all pairs. With ``rater_scores=False`` the layout's human scores are the gold
    ``mqm`` only (each rater's scores stay in ``<lp>.raters.tsv``): what the study meta-evaluates
    against, so that its protocols are not recomputed against every single rater."""
    base = Path(root) / EVALSET
    for lp, sxs in sets.items():
        evalset = sxs.evalset
        if not rater_scores:
            human = {level: table[table["name"] == GOLD] for level, table in evalset.human.items()}
            evalset = EvalSet(evalset.name, evalset.lp, evalset.std_ref, evalset.texts, evalset.references,
                              evalset.outputs, human)
        write_evalset(evalset, root)
        write_tsv(sxs.raters, base / f"{lp}.raters.tsv")
        write_tsv(sxs.lines, base / f"{lp}.lines.tsv")
    write_tsv(pd.concat([s.report for s in sets.values()], ignore_index=True), base / "report.tsv")
    return base
