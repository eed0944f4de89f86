"""Prepare one dataset x language pair: segments, comparisons, human scores, exclusion report.

Reads fetched (and extracted) sources under ``resources/<source>/`` as recorded by their
manifests, and writes, under the output directory:

``segments.parquet``     one row per system x segment (system, seg_id, hypothesis, reference, source)
``comparisons.parquet``  one row per pairwise human comparison (lp, seg_id, sys_a, sys_b, outcome, task)
``human_scores.tsv``     one row per judged system: wins, losses, ties, > others, >= others, expected wins,
                         and (for a dataset with ``official_scores``) the official human score
``report.tsv``           everything excluded, renamed or unmatched, with counts and the action taken
``summary.json``         counts (systems, segments, ranking tasks, comparisons) and provenance
``human_segments.parquet``  one row per system x segment with a segment-level human score (system,
                         seg_id, one column per score name, NaN where unrated): MQM, DA ... of an
                         mt-metrics-eval EvalSet (empty for pairwise judgments)
``human_translations.tsv``  the system-level human scores of the human translations scored as
                         systems (an EvalSet's references other than the standard one); they are
                         left out of ``human_scores.tsv``, which holds the MT systems only

A dataset of kind ``mtme`` is an EvalSet of mt-metrics-eval's layout (:mod:`mtmeta.data.evalset`):
a user's download of its data (``evalset.path``), an archive source (``evalset.source``), or one the
workflow assembled (``evalset.assemble``, e.g. the WMT21 MQM sets, :mod:`mtmeta.data.wmt21`).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from mtmeta.data.corpus import Layout, load_segments, split_lp
from mtmeta.data.fetch import read_manifest
from mtmeta.data.judgments import (
    Judgments,
    match_system_names,
    read_cmu_rankings_text,
    read_evaluator,
    read_judgments,
    read_system_scores,
)
from mtmeta.data.report import Report
from mtmeta.errors import FetchError, InputError, OutputError
from mtmeta.io import write_csv, write_parquet, write_text, write_tsv
from mtmeta.stats.human import OFFICIAL, SCORE_COLUMNS, system_scores

log = logging.getLogger(__name__)


COMPARISON_COLUMNS = ["lp", "seg_id", "sys_a", "sys_b", "outcome", "task"]


@dataclass
class Prepared:
    segments: pd.DataFrame
    comparisons: pd.DataFrame
    human_scores: pd.DataFrame
    report: Report
    summary: dict
    human_segments: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["system", "seg_id"]))
    human_translations: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["system"]))



# The judgment formats of WMT's own files (the 5-way ranking CSV, with annotator ids, or the mirror's
# pairwise preferences), whose repeated judgments give a WMT12-14 pair a second annotator (the workflow's
# rule judgment_levels; `mtmeta evaluate` says when that level is missing).
ANNOTATED_FORMATS = ("wmt_ranking_csv", "pairwise_tsv")
# The tokenisers rule tokenize_segments applies to every prepared pair (its tokens.parquet), which the
# scoring rules and `mtmeta evaluate`'s in-process scoring read.
SEGMENT_TOKENIZERS = ("13a",)


def judgment_source(dataset: dict, lp: str) -> str | None:
    """The source id of a dataset's judgments for a language pair (one source, or one per pair);
    None for a pair the mapping leaves out (it has official system scores only)."""
    judgments = dataset["judgments"]
    return judgments.get(lp) if isinstance(judgments, dict) else judgments


def source_file(resources: Path, source_id: str, member: str | None = None) -> tuple[Path, dict]:
    """Local path of a fetched source (an extracted archive's root or member, or the file itself)."""
    folder = Path(resources) / source_id
    manifest = read_manifest(folder)
    if manifest["archive"]:
        root = folder / "extracted"
        if not root.is_dir():
            raise FetchError(f"{root}: archive of source {source_id!r} is not extracted; run rule extract_archive")
        member = member or manifest.get("member")
        return (root / member if member else root), manifest
    return folder / manifest["file"], manifest


def _check_seg_ids(comparisons: pd.DataFrame, n_segments: int, where: str) -> None:
    bad = comparisons.loc[(comparisons["seg_id"] < 1) | (comparisons["seg_id"] > n_segments)]
    if not bad.empty:
        row = bad.iloc[0]
        raise InputError(where, f"{len(bad)} comparisons refer to segments outside 1..{n_segments} "
                         f"(first: seg_id {row['seg_id']} in {row['task']})",
                         expected="seg_id within the test set")


def resolve_ambiguous_segments(judgments: Judgments, segments: pd.DataFrame, path: Path, report: Report) -> None:
    """Accept a judgment given for several candidate lines only if their texts are identical.

    Then every metric scores the candidates identically, so using the first line changes no
    number; the choice is reported. Differing texts are an error.
    """
    if not judgments.ambiguous:
        return
    by_line = segments.set_index(["seg_id", "system"])["hypothesis"].unstack("system")
    references = segments.drop_duplicates("seg_id").set_index("seg_id")["reference"]
    for lp, candidates, line in judgments.ambiguous:
        first = candidates[0]
        for other in candidates[1:]:
            if other not in references.index:
                raise InputError(path, f"seg_id lists line {other}, outside the test set", line=line,
                                 expected=f"lines 1..{len(references)}")
            if references[other] != references[first] or not by_line.loc[other].equals(by_line.loc[first]):
                raise InputError(path, f"seg_id lists lines {candidates}, whose reference or system outputs differ",
                                 line=line, expected="one line, or lines holding identical text")
        count = int((judgments.comparisons["seg_id"] == first).sum())
        report.add("ambiguous_segment", f"{lp}: lines {','.join(map(str, candidates))} hold identical reference and "
                   f"outputs", count, f"comparisons assigned to line {first}", str(path))


def prepare_wmt(name: str, ds: dict, lp: str, resources: Path) -> Prepared:
    report = Report()
    root, corpus_manifest = source_file(resources, ds["corpus"])
    segments = load_segments(root, Layout.from_config(ds["layout"]), lp, tuple(ds["exclude_files"]), report)
    systems = sorted(segments["system"].unique())
    n_segments = int(segments["seg_id"].max())
    log.info("%s %s: %d systems x %d segments", name, lp, len(systems), n_segments)

    source_id = judgment_source(ds, lp)
    if source_id is None:  # config allows this only beside official system scores
        judgments, raw, provenance = Judgments.from_rows([], Report(), {}), None, None
        report.add("no_judgments", f"{lp}: no segment-level human judgments", len(systems),
                   "system level only, against the official human scores", "config")
    else:
        judgments, raw, provenance = _read_judgments(source_id, ds, lp, resources, segments, systems, n_segments,
                                                     report)
    human = system_scores(judgments.comparisons)
    official = ds.get("official_scores")
    official_provenance = None
    if official is not None:
        human, official_provenance = _add_official_scores(human, official, ds, lp, resources, systems, report)
    unjudged = sorted(set(systems) - set(human["system"]))
    for system in unjudged:
        report.add("unjudged_system", f"{lp}: {system}", int((segments["system"] == system).sum()),
                   "scored, but left out of system-level correlations (no human score)", str(root))
    summary = {
        "dataset": name,
        "description": ds["description"],
        "lp": lp,
        "system_level": True,
        "n_systems": len(systems),
        "n_judged_systems": int(len(human)),
        "n_segments": n_segments,
        "n_judged_segments": int(judgments.comparisons["seg_id"].nunique()),
        "n_tasks": int(judgments.tasks.get(lp, 0)),
        "n_comparisons": int(len(judgments.comparisons)),
        "n_comparisons_read": int(len(raw.comparisons)) if raw is not None else 0,
        "judgments": provenance,
        "corpus": {"source": ds["corpus"], "origin": corpus_manifest["origin"],
                   "location": corpus_manifest["location"], "sha256": corpus_manifest["sha256"]},
    }
    # Which human scores this pair has (a pair without judgments has only the official one).
    summary["human_scores"] = [c for c in [*SCORE_COLUMNS, OFFICIAL] if c in human and human[c].notna().any()]
    if official_provenance is not None:
        summary["official_scores"] = official_provenance
    return Prepared(segments, judgments.comparisons, human, report, summary)


def _read_judgments(source_id: str, ds: dict, lp: str, resources: Path, segments: pd.DataFrame,
                    systems: list[str], n_segments: int, report: Report) -> tuple[Judgments, Judgments, dict]:
    """The pair's comparisons (from source ``source_id``), read, checked and matched to system outputs."""
    path, manifest = source_file(resources, source_id)
    fmt = manifest["format"]
    log.info("%s: reading %s judgments from %s", lp, fmt, path)
    if fmt == "cmu_rankings_text":
        first = segments.loc[segments["system"] == systems[0]].sort_values("seg_id")
        outputs = {s: rows.sort_values("seg_id")["hypothesis"].tolist() for s, rows in segments.groupby("system")}
        raw = read_cmu_rankings_text(path, lp, first["reference"].tolist(), outputs)
    else:
        raw = read_judgments(fmt, path, {lp})
    if raw.comparisons.empty:
        raise InputError(path, f"no human judgments for {lp}", expected=f"comparisons of {lp} systems")
    _check_seg_ids(raw.comparisons, n_segments, str(path))
    resolve_ambiguous_segments(raw, segments, path, report)
    judgments: Judgments = match_system_names(
        raw,
        set(systems),
        lp,
        aliases=ds["aliases"].get(lp, {}),
        reference_ids=tuple(ds["reference_ids"]),
        unmatched=ds["unmatched_ids"],
        self_comparisons=ds["self_comparisons"],
        testset=ds["testset"],
        source_file=str(path),
    )
    report.extend(judgments.report)
    provenance = {"source": source_id, "origin": manifest["origin"], "format": fmt,
                  "location": manifest["location"], "sha256": manifest["sha256"]}
    return judgments, raw, provenance


def _add_official_scores(human: pd.DataFrame, official: dict, ds: dict, lp: str, resources: Path,
                         systems: list[str], report: Report) -> tuple[pd.DataFrame, dict]:
    """Join the official system-level human score (column ``official``) onto the pair's human scores.

    Names are matched as judgment ids are: exactly, or through the dataset's aliases. A scored system
    without an output follows ``unmatched_ids`` (reported; an error under ``error``).
    """
    path, manifest = source_file(resources, official["source"])
    scores = read_system_scores(path, lp, ds["testset"])
    if scores.empty:
        raise InputError(path, f"no official human scores for {lp}", expected=f"lines 'human {lp} {ds['testset']} ...'")
    aliases = ds["aliases"].get(lp, {})
    scores["system"] = scores["system"].map(lambda s: aliases.get(s, s))
    unknown = sorted(set(scores["system"]) - set(systems))
    if unknown and ds["unmatched_ids"] == "error":
        raise InputError(path, f"{lp}: official scores for {unknown}, which match no system output",
                         expected="system names equal to output-file names (known: " + ", ".join(systems) + ")",
                         hint="Add them to the dataset's aliases in config, or set unmatched_ids: exclude")
    for system in unknown:
        report.add("unmatched_official", f"{lp}: {system}", 1, "excluded: no system output", str(path))
    scores = scores.loc[scores["system"].isin(systems)].rename(columns={"score": OFFICIAL})
    merged = human.merge(scores, on="system", how="outer", validate="one_to_one")
    merged = merged.sort_values("system", ignore_index=True)
    provenance = {"source": official["source"], "name": official["name"], "origin": manifest["origin"],
                  "location": manifest["location"], "sha256": manifest["sha256"],
                  "n_systems": int(len(scores))}
    return merged, provenance


def prepare_evaluator(name: str, ds: dict, lp: str, resources: Path) -> Prepared:
    data_path, data_manifest = source_file(resources, ds["data"])
    labels_path, labels_manifest = source_file(resources, ds["labels"])
    segments, judgments = read_evaluator(data_path, labels_path, ds["max_items"], lp)
    summary = {
        "dataset": name,
        "description": ds["description"],
        "lp": lp,
        "system_level": False,
        "n_systems": 2,
        "n_judged_systems": 0,
        "n_segments": int(segments["seg_id"].max()),
        "n_judged_segments": int(judgments.comparisons["seg_id"].nunique()),
        "n_tasks": int(judgments.tasks[lp]),
        "n_comparisons": int(len(judgments.comparisons)),
        "n_comparisons_read": int(len(judgments.comparisons)),
        "outcomes": judgments.comparisons["outcome"].value_counts().sort_index().to_dict(),
        "data": {"source": ds["data"], "origin": data_manifest["origin"], "location": data_manifest["location"],
                 "sha256": data_manifest["sha256"]},
        "labels": {"source": ds["labels"], "origin": labels_manifest["origin"],
                   "location": labels_manifest["location"], "sha256": labels_manifest["sha256"]},
    }
    human = system_scores(judgments.comparisons.iloc[0:0])
    return Prepared(segments, judgments.comparisons, human, judgments.report, summary)


def evalset_root(ds: dict, resources: Path, assembled: str | Path = "results/evalsets") -> Path:
    """The directory holding an ``mtme`` dataset's test set (``<root>/<testset>/``)."""
    spec = ds["evalset"]
    if "path" in spec:
        return Path(spec["path"]).expanduser()
    if "source" in spec:
        root, _ = source_file(resources, spec["source"])
        return root / spec.get("root", "")
    return Path(assembled) / spec["assemble"]


def error_annotation_path(ds: dict, lp: str, resources: Path, assembled: str | Path = "results/evalsets") -> Path:
    """Where an ``mtme`` dataset's MQM error table of a pair is (``<root>/<testset>/mqm-errors/<lp>.tsv``,
    not part of mt-metrics-eval's layout: only mtmeta's assembly of the WMT21 TED sets writes it)."""
    return evalset_root(ds, resources, assembled) / ds["testset"] / "mqm-errors" / f"{lp}.tsv"


def error_annotated_pairs(datasets: dict, resources: Path) -> list[tuple[str, str]]:
    """The (dataset, lp) pairs of the ``mtme`` datasets whose eval set has an MQM error table: an
    assembled set's where the assembly writes one (:func:`mtmeta.data.wmt21.has_error_table`), any other
    where the file is there."""
    from mtmeta.data.wmt21 import has_error_table

    pairs = []
    for name, ds in datasets.items():
        if ds["kind"] != "mtme":
            continue
        for lp in ds["language_pairs"]:
            if "assemble" in ds["evalset"]:
                found = ds["evalset"]["assemble"] == "wmt21" and has_error_table(ds["testset"], lp)
            else:
                found = error_annotation_path(ds, lp, resources).is_file()
            if found:
                pairs.append((name, lp))
    return pairs


def prepare_mtme(name: str, ds: dict, lp: str, resources: Path, assembled: str | Path = "results/evalsets") -> Prepared:
    """One pair of an mt-metrics-eval EvalSet: every system's output against the standard reference
    (the other references are scored as systems, the human translations), the segment- and
    system-level human scores of every name the set has (``human_score`` first: the pair's primary
    one), no pairwise comparisons."""
    from mtmeta.data.evalset import read_evalset

    root = evalset_root(ds, resources, assembled)
    evalset = read_evalset(root, ds["testset"], lp, std_ref=ds.get("references", {}).get(lp))
    report = Report()
    where = str(root / ds["testset"])
    if evalset.ignored:
        shown = ", ".join(evalset.ignored[:10]) + (" ..." if len(evalset.ignored) > 10 else "")
        report.add("ignored_file", f"{lp}: {shown}", len(evalset.ignored),
                   "not read (mt-metrics-eval reads only *.txt outputs and references)", where)
    segments = evalset.segments()
    own = segments["system"] == evalset.std_ref
    if own.any():
        report.add("standard_reference", f"{lp}: {evalset.std_ref} is the reference", int(own.sum()),
                   "not scored as a system (a reference against itself)", where)
        segments = segments.loc[~own]
    missing = segments.loc[segments["hypothesis"].isna()].groupby("system")["seg_id"].count()
    for system, count in missing.items():
        report.add("missing_output", f"{lp}: {system} has no output for {count} segments", int(count),
                   "system excluded (a corpus score over fewer segments is not comparable)", where)
    segments = segments.loc[~segments["system"].isin(missing.index)].reset_index(drop=True)
    systems = sorted(segments["system"].unique())
    if not systems:  # every table of the pair would be empty: a named error, not a crash further on
        excluded = [f"{evalset.std_ref}: the standard reference"] if own.any() else []
        excluded += [f"{system}: no output for {count} segment(s)" for system, count in missing.items()]
        raise InputError(where, f"{lp}: nothing left to score: every system output is excluded "
                         f"({'; '.join(excluded) or 'no system outputs'})",
                         expected="at least one system with an output (not '[No translation supplied]') for every "
                         "segment")
    humans = [s for s in evalset.human_systems if s in systems]
    names = _human_score_names(evalset, ds.get("human_score", "mqm"), lp, where)
    human_segments = pd.DataFrame({"system": segments["system"], "seg_id": segments["seg_id"]})
    system_scores = pd.DataFrame({"system": systems})
    for score in names:
        seg, sys = _human_scores(evalset, score, set(systems), report, lp, where)
        if seg is not None:
            human_segments = human_segments.merge(seg.rename(columns={"score": score}), on=["system", "seg_id"],
                                                  how="left")
        system_scores = system_scores.merge(sys.rename(columns={"score": score}), on="system", how="left")
    unjudged = system_scores.loc[system_scores[names].isna().all(axis=1), "system"].tolist()
    for system in unjudged:
        report.add("unjudged_system", f"{lp}: {system}", int((segments["system"] == system).sum()),
                   "scored, but left out of system-level correlations (no human score)", where)
    scored = system_scores.loc[~system_scores["system"].isin(unjudged)]
    summary = {
        "dataset": name, "description": ds["description"], "lp": lp, "system_level": True, "kind": "mtme",
        "testset": ds["testset"], "reference": evalset.std_ref, "human_translations": humans,
        "n_systems": len(systems) - len(humans), "n_judged_systems": int((~scored["system"].isin(humans)).sum()),
        "n_segments": evalset.n_segments,
        # Segments with the primary score for some system (the rated subset; 0 if it is system level only).
        "n_judged_segments": int(human_segments.loc[human_segments[names[0]].notna(), "seg_id"].nunique())
        if names[0] in human_segments else 0,
        "n_tasks": 0, "n_comparisons": 0, "n_comparisons_read": 0,
        "human_scores": names, "segment_human_scores": [c for c in names if c in human_segments],
        "evalset": {"root": str(root), **{k: v for k, v in ds["evalset"].items() if k != "path"}},
    }
    comparisons = pd.DataFrame(columns=COMPARISON_COLUMNS)
    return Prepared(segments[["system", "seg_id", "hypothesis", "reference", "source"]], comparisons,
                    scored.loc[~scored["system"].isin(humans)].reset_index(drop=True), report, summary,
                    human_segments, scored.loc[scored["system"].isin(humans)].reset_index(drop=True))


def _human_score_names(evalset, primary: str, lp: str, where: str) -> list[str]:
    """The human score names of a pair with system-level scores (given or as means of segment scores),
    the primary one first; a pair without the primary one is an error."""
    levels = evalset.human_score_names
    names = sorted(set(levels.get("sys", [])) | set(levels.get("seg", [])))
    if primary not in names:
        # Scores at the doc or domain level only are not used (no system-level correlation follows from
        # them): say which are there, so that "none" does not hide a file the user can see.
        unused = [f"{name} ({level} level only)" for level in ("doc", "domain") for name in levels.get(level, [])
                  if name not in names]
        found = ", ".join(names) or "none at the sys or seg level"
        raise InputError(where, f"{lp} has no sys- or seg-level human score {primary!r} (it has {found}"
                         + (f"; unused: {', '.join(unused)}" if unused else "") + ")",
                         expected=f"human-scores/{lp}.{primary}.sys.score or .seg.score",
                         hint="Set the dataset's human_score to one it has")
    return [primary, *(n for n in names if n != primary)]


def _human_scores(evalset, name: str, systems: set[str], report: Report, lp: str, where: str):
    """A human score's segment table (or None) and system table: read at system level, else the mean
    of each system's rated segments (reported)."""
    levels = evalset.human_score_names
    seg = evalset.human_segment_scores(name) if name in levels.get("seg", []) else None
    if name in levels.get("sys", []):
        sys = evalset.human_system_scores(name)
    else:
        sys = seg.groupby("system", as_index=False)["score"].mean()
        report.add("system_score_from_segments", f"{lp}: {name}", len(sys),
                   "system score = mean of the system's rated segments (no system-level file)", where)
    others = sorted(set(sys["system"]) - systems)
    if others:
        report.add("human_score_of_unscored_system", f"{lp}: {name} of {', '.join(others)}", len(others),
                   "left out: not scored as a system here (the standard reference, or excluded above)", where)
    return seg, sys.loc[sys["system"].isin(systems)]


def prepare(name: str, ds: dict, lp: str, resources: str | Path,
            assembled: str | Path = "results/evalsets") -> Prepared:
    split_lp(lp)
    if lp not in ds["language_pairs"]:
        raise InputError("config", f"dataset {name} has no language pair {lp}", expected=str(ds["language_pairs"]))
    if ds["kind"] == "mtme":
        return prepare_mtme(name, ds, lp, Path(resources), assembled)
    builder = prepare_evaluator if ds["kind"] == "evaluator" else prepare_wmt
    return builder(name, ds, lp, Path(resources))


def write_prepared(prepared: Prepared, outdir: str | Path) -> None:
    """The prepared tables, each written atomically (mtmeta.io)."""
    outdir = Path(outdir)
    try:
        outdir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(outdir, exc.strerror or str(exc)) from None
    write_parquet(prepared.segments, outdir / "segments.parquet")
    write_parquet(prepared.comparisons, outdir / "comparisons.parquet")
    write_tsv(prepared.human_scores, outdir / "human_scores.tsv")
    write_parquet(prepared.human_segments, outdir / "human_segments.parquet")
    write_tsv(prepared.human_translations, outdir / "human_translations.tsv")
    write_csv(prepared.report.to_frame(), outdir / "report.tsv", sep="\t", index=False)
    write_text(outdir / "summary.json", json.dumps(prepared.summary, indent=2, sort_keys=True) + "\n")
