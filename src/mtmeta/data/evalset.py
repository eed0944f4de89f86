"""mt-metrics-eval's EvalSet layout (one test set x language pair), read into tables and written back.

The layout, as mt-metrics-eval's README ("File organization and naming convention") and its
``data.py`` define it, under a test-set directory (e.g. ``wmt21.news``)::

    sources/<lp>.txt                       one segment per line
    documents/<lp>.docs                    "DOMAIN DOCNAME" per source line; documents contiguous
    references/<lp>.<ref>.txt              one file per reference (names without '-' or '.', not all/src)
    system-outputs/<lp>/<system>.txt       one file per system; a reference scored as a system (a human
                                           translation) is there under the reference's name
    human-scores/<lp>.<name>.<level>.score [DOMAIN] SYSNAME SCORE (level sys, domain, doc or seg; None allowed)
    metric-scores/<lp>/<NAME>-<REF>.<level>.score   the same format, no None; REF: refs joined by '.', src or all

Text files are read as mt-metrics-eval reads them: each line without trailing whitespace, and the
line ``[No translation supplied]`` as a missing output. Since it splits lines on ``\\r`` as well as
``\\n``, a carriage return inside a line is an error here (the two readers would disagree). The
writer refuses what the reader would read differently (a line break in a text, trailing whitespace,
the no-translation marker as a text), so that a written set reads back identically.

Segment ids are line numbers from 1, as everywhere in mtmeta.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.data.corpus import LANGUAGE_PAIR
from mtmeta.data.mtme_meta import meta_info
from mtmeta.data.mtme_scores import LEVELS, check_name, read_score_file, score_lines
from mtmeta.data.names import check_name_at, name_problem
from mtmeta.data.textio import decode_utf8, read_bytes
from mtmeta.errors import InputError, OutputError
from mtmeta.io import atomic_path, refuse_links

NO_TRANSLATION = "[No translation supplied]"  # mt-metrics-eval's marker of a missing output
RESERVED_REFS = ("all", "src")
LP = re.compile(LANGUAGE_PAIR)  # en-de, and mt-metrics-eval's locale pairs such as en-ko_KR

# The standard reference of each test set and language pair, as mt-metrics-eval's meta_info.py
# defines it (the default of a test set, then its exceptions).
STANDARD_REFERENCE = {"wmt19": "ref", "wmt20": "ref", "wmt21.news": "refA", "wmt21.tedtalks": "refA",
                      "wmt21.flores": "refA", "wmt22": "refA", "wmt23": "refA"}
STANDARD_REFERENCE_EXCEPTIONS = {
    ("wmt21.news", "en-de"): "refC", ("wmt21.news", "zh-en"): "refB", ("wmt21.tedtalks", "zh-en"): "refB",
    ("wmt22", "cs-en"): "refB", ("wmt22", "en-cs"): "refB", ("wmt23", "he-en"): "refB", ("wmt23", "en-he"): "refB",
}

HUMAN_COLUMNS = {"seg": ["name", "system", "seg_id", "score"], "doc": ["name", "system", "doc", "score"],
                 "sys": ["name", "system", "score"], "domain": ["name", "domain", "system", "score"]}


def standard_reference(name: str, lp: str) -> str | None:
    """mt-metrics-eval's standard reference of a test set and pair (its ``meta_info.py``,
    :mod:`mtmeta.data.mtme_meta`), or None if it does not define one."""
    info = meta_info(name, lp)
    return info.std_ref if info else None


def _typed(table: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """``table``'s ``columns`` (in that order, index reset) with the EvalSet's column types."""
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"table lacks the columns {missing}; expected {columns}")
    out = table[columns].reset_index(drop=True)
    typed = {}
    for column in columns:
        values = out[column]
        if column == "seg_id":
            typed[column] = values.astype(np.int64)
        elif column == "score":
            typed[column] = values.astype(np.float64)
        elif column == "hypothesis":
            strings = _strings(values[values.notna()])
            typed[column] = pd.Series(strings, index=values.index[values.notna()], dtype=object).reindex(
                values.index).where(values.notna(), None)
        else:
            if values.isna().any():
                raise ValueError(f"column {column} has a missing value (only a system output may be missing)")
            typed[column] = pd.Series(_strings(values), dtype=object)
    return pd.DataFrame(typed)


def _strings(values: pd.Series) -> np.ndarray:
    """The values as an object array of Python strings (converted only where they are not strings)."""
    array = values.to_numpy(dtype=object)
    if pd.api.types.infer_dtype(array, skipna=False) not in ("string", "empty"):
        array = np.array([str(v) for v in array], dtype=object)
    return array


@dataclass
class EvalSet:
    """One EvalSet as tables.

    ``texts``: seg_id, source, domain, doc (one row per segment, in order).
    ``references``: reference, seg_id, text.
    ``outputs``: system, seg_id, hypothesis (None for a missing output).
    ``human``: per level (seg, doc, sys, domain), the human scores of every name: name, system, seg_id
    (seg), doc (doc) or domain (domain), score (NaN = missing).
    ``std_ref``: the standard reference.
    ``ignored``: entries of the pair's folders that are not read (paths under the test set), as
    mt-metrics-eval ignores them (:class:`PairFiles`).
    """

    name: str
    lp: str
    std_ref: str
    texts: pd.DataFrame
    references: pd.DataFrame
    outputs: pd.DataFrame
    human: dict[str, pd.DataFrame] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)

    def __post_init__(self):
        # One set of column types however the tables were made (read, assembled or by hand): names and
        # texts as Python strings (object columns), ids as int64, scores as float64 (NaN = missing); a
        # missing output is None.
        self.texts = _typed(self.texts, ["seg_id", "source", "domain", "doc"])
        self.references = _typed(self.references, ["reference", "seg_id", "text"])
        self.outputs = _typed(self.outputs, ["system", "seg_id", "hypothesis"])
        unknown = sorted(set(self.human) - set(HUMAN_COLUMNS))
        if unknown:
            raise ValueError(f"human score levels {unknown} are not among {list(HUMAN_COLUMNS)}")
        # Every level is there, empty if it has no scores.
        self.human = {level: _typed(self.human[level] if level in self.human else pd.DataFrame(columns=columns),
                                    columns) for level, columns in HUMAN_COLUMNS.items()}

    @property
    def n_segments(self) -> int:
        return len(self.texts)

    @property
    def systems(self) -> list[str]:
        return sorted(self.outputs["system"].unique())

    @property
    def reference_names(self) -> list[str]:
        return sorted(self.references["reference"].unique())

    @property
    def human_systems(self) -> list[str]:
        """The systems that are human translations: those named like a reference (as mt-metrics-eval
        decides)."""
        return sorted(set(self.systems) & set(self.reference_names))

    @property
    def human_score_names(self) -> dict[str, list[str]]:
        """Level -> the names of the human scores at that level."""
        return {level: sorted(table["name"].unique()) for level, table in self.human.items() if len(table)}

    def reference(self, name: str | None = None) -> pd.Series:
        """The text of a reference (default: the standard one), indexed by seg_id."""
        name = name or self.std_ref
        rows = self.references[self.references["reference"] == name]
        if rows.empty:
            raise KeyError(f"{self.name} {self.lp} has no reference {name!r}; it has {self.reference_names}")
        return rows.set_index("seg_id")["text"]

    def segments(self, reference: str | None = None) -> pd.DataFrame:
        """One row per system and segment: system, seg_id, hypothesis, reference (the standard one
        unless named), source, domain, doc."""
        table = self.outputs.merge(self.reference(reference).rename("reference"), left_on="seg_id", right_index=True)
        table = table.merge(self.texts, on="seg_id")
        return table[["system", "seg_id", "hypothesis", "reference", "source", "domain", "doc"]].sort_values(
            ["system", "seg_id"], ignore_index=True)

    def human_segment_scores(self, name: str) -> pd.DataFrame:
        """system, seg_id, score (NaN = missing) of the human score ``name``."""
        return self._human("seg", name)[["system", "seg_id", "score"]]

    def human_system_scores(self, name: str) -> pd.DataFrame:
        """system, score of the human score ``name``."""
        return self._human("sys", name)[["system", "score"]]

    def _human(self, level: str, name: str) -> pd.DataFrame:
        table = self.human[level]
        rows = table[table["name"] == name].reset_index(drop=True)
        if rows.empty:
            raise KeyError(f"{self.name} {self.lp} has no {level}-level human score {name!r}; it has "
                           f"{self.human_score_names.get(level, [])}")
        return rows

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table, sorted the same way (for comparing two EvalSets)."""
        def tidy(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
            return table.sort_values(keys, kind="stable", ignore_index=True)
        out = {"texts": tidy(self.texts, ["seg_id"]), "references": tidy(self.references, ["reference", "seg_id"]),
               "outputs": tidy(self.outputs, ["system", "seg_id"])}
        for level, table in self.human.items():
            out[f"human_{level}"] = tidy(table, [c for c in HUMAN_COLUMNS[level] if c != "score"])
        return out


# ---------------------------------------------------------------------------------------- reading


def read_evalset(root: str | Path, name: str, lp: str, *, std_ref: str | None = None) -> EvalSet:
    """Read test set ``name`` (a directory under ``root``), language pair ``lp``.

    ``std_ref``: the standard reference; by default mt-metrics-eval's for the known test sets
    (:func:`standard_reference`), otherwise it must be given. Every malformed file is an error naming
    the file, the line and what was expected."""
    base = Path(root) / name
    if not base.is_dir():
        raise InputError(base, "no such test-set directory",
                         expected=f"an mt-metrics-eval test set {name} under {root}")
    source_path = base / "sources" / f"{lp}.txt"
    if not source_path.is_file() and source_path.with_suffix(".jsonl").is_file():
        source_path = source_path.with_suffix(".jsonl")  # mt-metrics-eval's newer form, field "source"
    sources = _read_texts(source_path)
    n = len(sources)
    if n == 0:
        raise InputError(source_path, "no segments", expected="one source segment per line")
    texts = pd.DataFrame({"seg_id": np.arange(1, n + 1), "source": pd.Series(sources, dtype=object)})
    domains, docs = _read_documents(base / "documents" / f"{lp}.docs", n)
    texts["domain"], texts["doc"] = pd.Series(domains, dtype=object), pd.Series(docs, dtype=object)

    files = pair_files(root, name, lp)
    references = []
    for path in files.references:
        ref = _reference_name(path, lp)
        lines = _read_texts(path, n)
        references.append(pd.DataFrame({"reference": pd.Series([ref] * n, dtype=object), "seg_id": np.arange(1, n + 1),
                                        "text": pd.Series(lines, dtype=object)}))
    if not references:
        raise InputError(base / "references", f"no reference of {lp}", expected=f"files references/{lp}.<name>.txt")
    references = pd.concat(references, ignore_index=True)

    outputs = []
    folder = base / "system-outputs" / lp
    if not folder.is_dir():
        raise InputError(folder, "no such directory", expected=f"one file <system>.txt per system of {lp}")
    seen: dict[str, Path] = {}
    for path in sorted(files.outputs, key=lambda p: p.suffix != ".txt"):  # named before any is read
        system = path.name[: -len(path.suffix)]
        if system in seen:
            raise InputError(folder, f"{seen[system].name} and {path.name}: system {system} is given twice",
                             expected="one file per system (.txt or .jsonl, not both)")
        seen[system] = path
    for path in files.outputs:
        system = check_name_at(path.name[: -len(path.suffix)], path, "system name", file_name=True)
        lines = _read_texts(path, n, missing_allowed=True)
        outputs.append(pd.DataFrame({"system": pd.Series([system] * n, dtype=object),
                                     "seg_id": np.arange(1, n + 1),
                                     "hypothesis": pd.Series(lines, dtype=object)}))
    if not outputs:
        ignored = [path.name for path in files.ignored if path.parent == folder]
        shown = f" ({len(ignored)} other entries ignored: {', '.join(ignored[:5])}{' ...' if len(ignored) > 5 else ''})"
        raise InputError(folder, "no system outputs" + (shown if ignored else ""),
                         expected=f"one file <system>.txt (or .jsonl) per system of {lp}, "
                                  "as mt-metrics-eval reads them")
    outputs = pd.concat(outputs, ignore_index=True)

    std_ref = std_ref or standard_reference(name, lp)
    known_refs = sorted(references["reference"].unique())
    if std_ref is None:
        raise InputError(base, f"mt-metrics-eval defines no standard reference for {name} {lp}",
                         expected=f"std_ref given by the caller, one of {known_refs}")
    if std_ref not in known_refs:
        raise InputError(base / "references", f"standard reference {std_ref!r} of {name} {lp} is not there",
                         expected=f"one of {known_refs}")
    evalset = EvalSet(name, lp, std_ref, texts, references, outputs)
    human = _read_human_scores(files.human, lp, evalset)
    return EvalSet(name, lp, std_ref, evalset.texts, evalset.references, evalset.outputs, human,
                   ignored=[str(path.relative_to(base)) for path in files.ignored])


@dataclass
class PairFiles:
    """The files of one pair of a test set that :func:`read_evalset` reads, and the entries beside
    them it ignores (mt-metrics-eval reads ``references/<lp>.*.{txt,jsonl}``,
    ``system-outputs/<lp>/*.{txt,jsonl}`` and ``human-scores/<lp>.*.score``): a ``README``, an editor's
    ``refB.txt~`` or a hidden file there is reported, not read (mt-metrics-eval stops on the second)."""

    sources: Path
    documents: Path
    references: list[Path]
    outputs: list[Path]
    human: list[Path]
    ignored: list[Path]

    def read(self) -> list[Path]:
        return [self.sources, self.documents, *self.references, *self.outputs, *self.human]


READ_SUFFIXES = (".txt", ".jsonl")  # the text files mt-metrics-eval reads (.jsonl: its newer form)


def pair_files(root: str | Path, name: str, lp: str) -> PairFiles:
    base = Path(root) / name
    folder = base / "system-outputs" / lp
    entries = sorted(folder.iterdir()) if folder.is_dir() else []
    # mt-metrics-eval's data.py reads <system>.txt and, in its newer releases, <system>.jsonl
    outputs = [p for p in entries if p.suffix in READ_SUFFIXES and not p.name.startswith(".")]
    ignored = [p for p in entries if p not in outputs]
    references = sorted(p for p in (base / "references").glob(f"{lp}.*.*") if p.suffix in READ_SUFFIXES)
    ignored += sorted(p for p in (base / "references").glob(f"{lp}.*") if p not in references)
    source = base / "sources" / f"{lp}.txt"
    if not source.is_file() and source.with_suffix(".jsonl").is_file():
        source = source.with_suffix(".jsonl")
    return PairFiles(source, base / "documents" / f"{lp}.docs", references, outputs,
                     sorted((base / "human-scores").glob(f"{lp}.*.score")), ignored)


def manifest(root: str | Path, name: str, lp: str) -> str:
    """What the pair's result depends on, as a TSV (path under the test set, size, SHA-256; ``-`` for a
    missing file, ``ignored`` for an entry the reader ignores): the workflow rewrites it only when it
    changes and makes it an input of the pair's rules, so that editing, adding or removing a file of
    the pair reruns it even when the edit kept the file's time (a copy with ``cp -p``, an archive)."""
    base = Path(root) / name
    files = pair_files(root, name, lp)
    rows = ["path\tsize\tsha256"]
    for path in files.read():
        relative = path.relative_to(base).as_posix()
        if path.is_file():
            digest = hashlib.sha256()
            with open(path, "rb") as handle:
                while block := handle.read(1 << 20):
                    digest.update(block)
            rows.append(f"{relative}\t{path.stat().st_size}\t{digest.hexdigest()}")
        else:
            rows.append(f"{relative}\t-\t-")
    rows += [f"{path.relative_to(base).as_posix()}\t-\tignored" for path in files.ignored]
    return "".join(f"{row}\n" for row in rows)


def update_manifest(target: str | Path, root: str | Path, name: str, lp: str) -> bool:
    """Write the pair's :func:`manifest` to ``target`` if it differs from what is there (so that its
    time changes only with the pair's files); whether it was written."""
    from mtmeta.io import write_text

    text = manifest(root, name, lp)
    target = Path(target)
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    write_text(target, text)
    return True


JSONL_FIELDS = {"sources": "source", "references": "target", "system-outputs": "hypothesis"}


def _read_jsonl(path: Path, n: int | None, missing_allowed: bool) -> list[str | None]:
    """mt-metrics-eval's JSON-lines form of a source, reference or output file: one object per line,
    the text in field source, target or hypothesis (by the folder), as its ``_ReadFieldFromJsonl``."""
    folder = next((part for part in reversed(path.parts) if part in JSONL_FIELDS), "")
    key = JSONL_FIELDS.get(folder, "hypothesis")
    out: list[str | None] = []
    for number, line in enumerate(decode_utf8(read_bytes(path), path).splitlines(), start=1):
        try:
            value = json.loads(line)[key]
        except (ValueError, KeyError, TypeError):
            raise InputError(path, f"line is not a JSON object with a field {key!r}", line=number,
                             expected=f'one object per line like {{"{key}": "..."}}') from None
        if value is None and not missing_allowed:
            raise InputError(path, f"field {key!r} is null", line=number, expected="a text")
        out.append(value)
    if n is not None and len(out) != n:
        raise InputError(path, f"{len(out)} lines", expected=f"{n} lines, one per source segment")
    return out


def _read_texts(path: Path, n: int | None = None, *, missing_allowed: bool = False) -> list[str | None]:
    """The lines of a text file as mt-metrics-eval reads them (trailing whitespace removed; the
    no-translation marker as None where allowed); ``n`` lines if given. A ``.jsonl`` file is read as
    :func:`_read_jsonl` says."""
    if path.suffix == ".jsonl":
        return _read_jsonl(path, n, missing_allowed)
    raw = read_bytes(path)
    text = decode_utf8(raw, path)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" in text:
        for number, line in enumerate(lines, start=1):
            if "\r" in line.rstrip("\r") or line.count("\r") > 1:
                raise InputError(path, "carriage return inside a line (mt-metrics-eval would split the line there)",
                                 line=number, expected="lines ending in \\n (or \\r\\n)")
    out: list[str | None] = [line.rstrip() for line in lines]
    if NO_TRANSLATION in out:
        number = out.index(NO_TRANSLATION) + 1
        if not missing_allowed:
            raise InputError(path, f"{NO_TRANSLATION} in a source or reference", line=number,
                             expected="text (the marker means a missing system output)")
        out = [None if line == NO_TRANSLATION else line for line in out]
    if n is not None and len(out) != n:
        raise InputError(path, f"{len(out)} lines", expected=f"{n} lines, one per source segment")
    return out


def _read_documents(path: Path, n: int) -> tuple[list[str], list[str]]:
    lines = _read_texts(path, None)
    if len(lines) != n:
        raise InputError(path, f"{len(lines)} lines", expected=f"{n} lines, one per source segment")
    domains, docs, seen = [], [], {}
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if len(fields) != 2:
            raise InputError(path, f"found {len(fields)} whitespace-separated fields", line=number,
                             expected="DOMAIN DOCNAME")
        domain, doc = fields
        if docs and doc != docs[-1] and doc in seen:
            raise InputError(path, f"document {doc!r} resumes after another document (first at line {seen[doc]})",
                             line=number, expected="each document's segments in one contiguous block")
        seen.setdefault(doc, number)
        domains.append(domain)
        docs.append(doc)
    return domains, docs


def _reference_name(path: Path, lp: str) -> str:
    parts = path.name.split(".")
    if len(parts) != 3 or parts[2] not in ("txt", "jsonl"):
        raise InputError(path, "not a reference file", expected=f"references/{lp}.<name>.txt, the name without dots")
    ref = parts[1]
    if "-" in ref or ref in RESERVED_REFS or not ref:
        raise InputError(path, f"reference name {ref!r} is not allowed",
                         expected="a name without '-' or '.' other than all and src")
    return check_name_at(ref, path, "reference name", file_name=True)


def _read_human_scores(paths: list[Path], lp: str, evalset: EvalSet) -> dict[str, pd.DataFrame]:
    human: dict[str, pd.DataFrame] = {}
    systems = set(evalset.systems)
    n_docs = evalset.texts["doc"].nunique()
    domains = set(evalset.texts["domain"])
    collected: dict[str, list[pd.DataFrame]] = {level: [] for level in LEVELS}
    for path in paths:
        parts = path.name.split(".")
        level, name = parts[-2], ".".join(parts[1:-2])
        if len(parts) < 4 or level not in LEVELS or not name:
            raise InputError(path, "not a human score file name", expected=f"{lp}.<name>.<level>.score with level one "
                             "of " + ", ".join(LEVELS))
        check_name_at(name, path, "human score name", column=True)
        table = read_score_file(path, level, human=True)
        unknown = table.loc[~table["system"].isin(systems)]
        if len(unknown):
            row = unknown.iloc[0]
            raise InputError(path, f"system {row['system']!r} has no output in system-outputs/{lp}",
                             line=int(row["line"]), expected="scores of the systems of the EvalSet only")
        if level == "domain":
            bad = table.loc[~table["domain"].isin(domains)]
            if len(bad):
                raise InputError(path, f"domain {bad.iloc[0]['domain']!r} is not in documents/{lp}.docs",
                                 line=int(bad.iloc[0]["line"]), expected="one of " + ", ".join(sorted(domains)))
        else:
            expected = {"seg": evalset.n_segments, "doc": n_docs, "sys": 1}[level]
            counts = table.groupby("system", sort=False).size()
            wrong = counts[counts != expected]
            if len(wrong):
                system = wrong.index[0]
                raise InputError(path, f"system {system!r} has {wrong.iloc[0]} scores",
                                 line=int(table.loc[table["system"] == system, "line"].iloc[-1]),
                                 expected=f"{expected} per system at the {level} level")
        collected[level].append(_human_table(table, level, name, evalset))
    for level, tables in collected.items():
        if tables:
            human[level] = pd.concat(tables, ignore_index=True)[HUMAN_COLUMNS[level]]
    return human


def _human_table(table: pd.DataFrame, level: str, name: str, evalset: EvalSet) -> pd.DataFrame:
    table = table.drop(columns="line")
    table["name"] = pd.Series([name] * len(table), index=table.index, dtype=object)
    if level == "seg":
        table = table.rename(columns={"item": "seg_id"})
    elif level == "doc":
        order = list(dict.fromkeys(evalset.texts["doc"]))
        table["doc"] = [order[i - 1] for i in table.pop("item")]
    elif level == "sys":
        table = table.drop(columns="item")
    return table[HUMAN_COLUMNS[level]]


# ---------------------------------------------------------------------------------------- writing


def write_evalset(evalset: EvalSet, root: str | Path) -> Path:
    """Write ``evalset`` under ``root/<name>/`` in mt-metrics-eval's layout; return that directory.

    Files of this language pair written before (sources, documents, references, system outputs,
    human scores) are replaced, so nothing stale stays beside the new set; metric scores are left
    alone. Everything that would not read back identically is an error before anything is written."""
    _check_writable(evalset)
    root = Path(root)
    base = root / evalset.name
    lp = evalset.lp
    _check_no_links(root, base, lp)
    for stale in [*base.glob(f"references/{lp}.*"), *base.glob(f"human-scores/{lp}.*.score")]:
        stale.unlink()
    shutil.rmtree(base / "system-outputs" / lp, ignore_errors=True)
    texts = evalset.texts.sort_values("seg_id")
    _write_lines(base / "sources" / f"{lp}.txt", texts["source"], root)
    _write_lines(base / "documents" / f"{lp}.docs", [f"{d} {doc}" for d, doc in zip(texts["domain"], texts["doc"],
                                                                                       strict=True)], root)
    for ref, rows in evalset.references.groupby("reference", sort=True):
        _write_lines(base / "references" / f"{lp}.{ref}.txt", rows.sort_values("seg_id")["text"], root)
    for system, rows in evalset.outputs.groupby("system", sort=True):
        lines = [NO_TRANSLATION if text is None else text for text in rows.sort_values("seg_id")["hypothesis"]]
        _write_lines(base / "system-outputs" / lp / f"{system}.txt", lines, root)
    doc_order = {doc: i for i, doc in enumerate(dict.fromkeys(texts["doc"]), start=1)}
    for level, table in evalset.human.items():
        for name, rows in table.groupby("name", sort=True):
            if level == "seg":
                rows = rows.rename(columns={"seg_id": "item"})
            elif level == "doc":
                rows = rows.assign(item=rows["doc"].map(doc_order))
            _write_lines(base / "human-scores" / f"{lp}.{name}.{level}.score", score_lines(rows, level, human=True),
                         root)
    return base


def _check_writable(evalset: EvalSet) -> None:
    where = f"EvalSet {evalset.name} {evalset.lp}"
    if not LP.fullmatch(evalset.lp):
        raise ValueError(f"{where}: language pair {evalset.lp!r} is not like en-de or en-ko_KR")
    if not evalset.name or "/" in evalset.name or evalset.name.startswith("."):
        raise ValueError(f"{where}: {evalset.name!r} cannot be a test-set directory name")
    n = evalset.n_segments
    if n == 0 or list(evalset.texts["seg_id"]) != list(range(1, n + 1)):
        raise ValueError(f"{where}: texts must have seg_id 1..n in order")
    for ref in evalset.reference_names:
        if not ref or "-" in ref or "." in ref or ref in RESERVED_REFS or any(c.isspace() or c == "/" for c in ref):
            raise ValueError(f"{where}: reference name {ref!r} is not allowed (no '-', '.', '/' or whitespace; not "
                             "all or src)")
    if evalset.std_ref not in evalset.reference_names:
        raise ValueError(f"{where}: standard reference {evalset.std_ref!r} is not one of {evalset.reference_names}")
    for system in evalset.systems:
        check_name(system, f"{where}: system name")
        if "/" in system or system.startswith("."):
            raise ValueError(f"{where}: system name {system!r} cannot be a file name")
    for column in ("domain", "doc"):
        for value in evalset.texts[column].unique():
            check_name(value, f"{where}: {column}")
    for label, table, keys in (("references", evalset.references, ["reference", "seg_id"]),
                               ("outputs", evalset.outputs, ["system", "seg_id"])):
        counts = table.groupby(keys[0]).size()
        if (counts != n).any() or table.duplicated(keys).any() or not table["seg_id"].between(1, n).all():
            raise ValueError(f"{where}: {label} must have exactly seg_id 1..{n} for each {keys[0]}")
    _check_texts(where, "source", evalset.texts["source"], missing_allowed=False)
    _check_texts(where, "reference", evalset.references["text"], missing_allowed=False)
    _check_texts(where, "output", evalset.outputs["hypothesis"], missing_allowed=True)
    systems = set(evalset.systems)
    docs = {doc: i for i, doc in enumerate(dict.fromkeys(evalset.texts["doc"]), start=1)}
    items = {"seg": ("seg_id", None), "doc": ("doc", docs)}
    counts = {"seg": n, "doc": len(docs)}
    for level, table in evalset.human.items():
        for name in table["name"].unique():
            problem = name_problem(name, column=True)
            if problem:
                raise ValueError(f"{where}: human score name {name!r} {problem}")
        unknown = sorted(set(table["system"]) - systems)
        if unknown:
            raise ValueError(f"{where}: {level}-level human scores of systems without outputs: {unknown}")
        if level == "domain":
            if not set(table["domain"]) <= set(evalset.texts["domain"]):
                raise ValueError(f"{where}: domain-level human scores of domains the documents do not name")
            if table.duplicated(["name", "domain", "system"]).any():
                raise ValueError(f"{where}: a domain-level human score is given twice")
            continue
        if level == "sys":
            if table.duplicated(["name", "system"]).any():
                raise ValueError(f"{where}: a system has two sys-level scores of one name")
            continue
        column, numbering = items[level]
        for (name, system), rows in table.groupby(["name", "system"], sort=False):
            numbers = rows[column] if numbering is None else rows[column].map(numbering)
            if sorted(numbers.fillna(0)) != list(range(1, counts[level] + 1)):
                raise ValueError(f"{where}: {level}-level {name} scores of {system} are not one per {column} "
                                 "(give NaN for a missing one)")


def _check_texts(where: str, what: str, texts: pd.Series, *, missing_allowed: bool) -> None:
    for text in texts.tolist():
        if text is None or (isinstance(text, float) and np.isnan(text)):
            if missing_allowed:
                continue
            raise ValueError(f"{where}: a {what} is missing")
        if "\n" in text or "\r" in text:
            raise ValueError(f"{where}: a {what} contains a line break: {text[:60]!r}")
        if text != text.rstrip():
            raise ValueError(f"{where}: a {what} ends in whitespace, which mt-metrics-eval strips when reading: "
                             f"{text[-60:]!r}")
        if text == NO_TRANSLATION:
            raise ValueError(f"{where}: a {what} is the marker {NO_TRANSLATION!r}, which reads as a missing output")


def _write_lines(path: Path, lines: Iterable[str], root: Path) -> None:
    """The lines, each ending in a newline, written atomically (:func:`mtmeta.io.atomic_path`: a
    temporary file in a fresh directory of a random name, renamed into place). ``root`` is the
    output directory: a symbolic link under it (the file, or a directory on the way) is refused."""
    text = "".join(f"{line}\n" for line in lines)
    refuse_links(path, root)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(path.parent, exc.strerror or str(exc)) from None
    with atomic_path(path, root=root) as part, open(part, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def _check_no_links(root: Path, base: Path, lp: str) -> None:
    """Before anything is written under ``root``: no symbolic link among the directories and files of
    ``lp`` that a write would go through (a downloaded release can carry such links)."""
    refuse_links(base, root)
    for folder in ("sources", "documents", "references", "human-scores", "system-outputs", "metric-scores"):
        refuse_links(base / folder, root)
        if (base / folder).is_dir():
            for entry in (base / folder).iterdir():
                if entry.name.startswith(lp + ".") or entry.name == lp:
                    refuse_links(entry, root)


# ------------------------------------------------------------------------------------ metric scores


def metric_file_name(metric: str, refs: str | Sequence[str], level: str) -> str:
    """``<NAME>-<REF>.<level>.score``: REF is ``src`` (no reference), ``all`` or the references joined by
    '.'. mt-metrics-eval splits the name at its last '-', so NAME may contain '-' and '.'."""
    if level not in ("sys", "seg"):
        raise ValueError(f"metric score level {level!r} is not sys or seg")
    if not metric or any(c.isspace() or c == "/" for c in metric):
        raise ValueError(f"metric name {metric!r} cannot be written (non-empty, no whitespace or '/')")
    if isinstance(refs, str):
        refs = [refs]
    refs = list(refs)
    malformed = any(not r or "-" in r or "." in r for r in refs)
    if not refs or malformed or (len(refs) > 1 and set(refs) & set(RESERVED_REFS)):
        raise ValueError(f"references {refs!r}: give src, all, or reference names without '-' or '.'")
    return f"{metric}-{'.'.join(refs)}.{level}.score"


def write_metric_scores(base: str | Path, lp: str, metric: str, refs: str | Sequence[str], level: str,
                        scores: pd.DataFrame, *, systems: Iterable[str], references: Iterable[str] = (),
                        n_segments: int | None = None) -> Path:
    """Write a metric's scores as ``base/metric-scores/<lp>/<NAME>-<REF>.<level>.score`` (``base`` is the
    test-set directory) and return the file.

    ``scores``: system, score (sys) or system, seg_id, score (seg). As mt-metrics-eval requires, every
    system of the EvalSet (``systems``) has a score except the references the metric used (``refs``;
    ``all`` means every one of ``references``), at the seg level one for each segment 1..``n_segments``,
    and no score is missing."""
    name = metric_file_name(metric, refs, level)
    used = set(references) if refs == "all" else ({refs} if isinstance(refs, str) else set(refs)) - {"src"}
    expected = sorted(set(systems) - used)
    where = f"{metric} scores of {lp} ({level})"
    given = sorted(set(scores["system"]))
    if given != expected:
        missing, extra = sorted(set(expected) - set(given)), sorted(set(given) - set(expected))
        raise ValueError(f"{where}: systems {missing} have no score and {extra} are not expected; mt-metrics-eval "
                         "needs every system except the references the metric used")
    if level == "seg":
        if n_segments is None:
            raise ValueError(f"{where}: n_segments is needed at the seg level")
        counts = scores.groupby("system").size()
        if (counts != n_segments).any() or scores.duplicated(["system", "seg_id"]).any() \
                or not scores["seg_id"].between(1, n_segments).all():
            raise ValueError(f"{where}: every system needs one score for each seg_id 1..{n_segments}")
        table = scores.rename(columns={"seg_id": "item"})
    else:
        if scores["system"].duplicated().any():
            raise ValueError(f"{where}: a system has two scores")
        table = scores
    path = Path(base) / "metric-scores" / lp / name
    try:
        lines = score_lines(table, level, human=False)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    _write_lines(path, lines, Path(base))
    return path


def read_metric_scores(path: str | Path) -> tuple[str, set[str] | str, str, pd.DataFrame]:
    """A metric-scores file: (base name, references used (a set, or 'all'), level, table of system, score
    and, at the seg level, seg_id), parsed as mt-metrics-eval parses it."""
    path = Path(path)
    stem, level, extension = (path.name.rsplit(".", 2) + ["", ""])[:3]
    if extension != "score" or level not in LEVELS or "-" not in stem:
        raise InputError(path, "not a metric score file name", expected="<NAME>-<REF>.<level>.score")
    metric, refs = stem.rsplit("-", 1)
    used: set[str] | str = refs if refs == "all" else (set() if refs == "src" else set(refs.split(".")))
    table = read_score_file(path, level, human=False).drop(columns="line")
    if level == "seg":
        table = table.rename(columns={"item": "seg_id"})
    elif level == "sys":
        table = table.drop(columns="item")
    return metric, used, level, table


@dataclass(frozen=True)
class MetricScores:
    """One stored metric score file of a pair: ``name`` is ``<NAME>-<REF>`` as mt-metrics-eval names it,
    ``refs`` the references it used (a set; every reference for ``all``, none for ``src``), ``scores``
    a systems x items matrix (items: 1 at the sys level, segments in order at the seg level) with the
    systems in ``systems`` order, and ``missing`` the systems of the pair it has no scores for (other
    than the references it used)."""

    name: str
    basename: str
    refs: frozenset
    level: str
    systems: list
    scores: np.ndarray
    missing: list
    path: Path | None = None


def metric_matrix(name: str, refs, level: str, table: pd.DataFrame, evalset: EvalSet,
                  path: Path | None = None) -> MetricScores:
    """A metric's scores (system, score and at the seg level seg_id) checked against ``evalset`` as
    mt-metrics-eval's ``CheckScores`` does: an unknown system or a wrong number of scores is an error
    naming ``path``; systems without scores are listed in ``missing`` (mt-metrics-eval fills them with
    zeros unless strict; mtmeta never invents a score: a task that needs them leaves the metric out
    and counts it)."""
    where = path if path is not None else Path(f"{name}.{level}")
    basename = name.rsplit("-", 1)[0]
    used = frozenset(evalset.reference_names) if refs == "all" else frozenset(refs)
    known = set(evalset.systems)
    present = set(table["system"].unique())  # not set(column): iterating an arrow string column is slow
    unknown = sorted(present - known)
    if unknown:
        raise InputError(where, f"scores of systems without an output in system-outputs/{evalset.lp}: {unknown}",
                         expected="scores of the pair's systems only")
    expected = {"sys": 1, "seg": evalset.n_segments}.get(level)
    if expected is None:
        raise InputError(where, f"level {level!r}", expected="metric scores at the sys or seg level")
    counts = table.groupby("system").size()
    wrong = counts[counts != expected]
    if len(wrong):
        raise InputError(where, f"system {wrong.index[0]!r} has {int(wrong.iloc[0])} scores",
                         expected=f"{expected} per system at the {level} level")
    systems = sorted(present)
    if level == "seg":
        grid = table.pivot(index="system", columns="seg_id", values="score").reindex(
            index=systems, columns=range(1, expected + 1))
        matrix = grid.to_numpy(dtype=float)
    else:
        matrix = table.set_index("system")["score"].reindex(systems).to_numpy(dtype=float)[:, None]
    missing = sorted(known - set(systems) - used)
    return MetricScores(name, basename, used, level, systems, matrix, missing, path)


def read_all_metric_scores(root: str | Path, evalset: EvalSet, *, folder: Path | None = None) -> list[MetricScores]:
    """Every ``metric-scores/<lp>/<NAME>-<REF>.<level>.score`` of ``evalset``'s pair under ``root/<name>``
    at the sys and seg levels (mt-metrics-eval's ``read_stored_metric_scores``), sorted by file name.
    A reference the pair does not have is an error naming the file, as in mt-metrics-eval's
    ``AddMetric``. Document- and domain-level files are not read (no task of the sets uses them).
    ``folder``: read this folder of ``<NAME>-<REF>.<level>.score`` files instead."""
    folder = folder or Path(root) / evalset.name / "metric-scores" / evalset.lp
    out = []
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.score")):
        if path.name.rsplit(".", 2)[-2] not in ("sys", "seg"):
            continue
        metric, refs, level, table = read_metric_scores(path)
        if refs != "all" and not set(refs) <= set(evalset.reference_names):
            raise InputError(path, f"references {sorted(refs)} are not all references of {evalset.lp}",
                             expected=f"references among {evalset.reference_names}, src or all")
        name = path.name.rsplit(".", 2)[0]
        out.append(metric_matrix(name, refs, level, table, evalset, path))
    return out
