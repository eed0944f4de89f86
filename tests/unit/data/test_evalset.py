"""mt-metrics-eval's EvalSet layout: a tiny set written file by file (bytes checked by hand), read back
identically, and every malformed file named."""

import numpy as np
import pandas as pd
import pytest

from mtmeta.data.evalset import (
    NO_TRANSLATION,
    EvalSet,
    metric_file_name,
    read_evalset,
    read_metric_scores,
    standard_reference,
    write_evalset,
    write_metric_scores,
)
from mtmeta.errors import InputError


def tiny() -> EvalSet:
    texts = pd.DataFrame({"seg_id": [1, 2, 3], "source": ["Eins.", "Zwei.", "Drei."], "domain": ["news"] * 3,
                          "doc": ["d1", "d1", "d2"]})
    references = pd.DataFrame({"reference": ["refA"] * 3 + ["refB"] * 3, "seg_id": [1, 2, 3] * 2,
                               "text": ["One.", "Two.", "Three.", "One!", "Two!", "Three!"]})
    outputs = pd.DataFrame({"system": ["NA"] * 3 + ["refB"] * 3 + ["sys-2"] * 3, "seg_id": [1, 2, 3] * 3,
                            "hypothesis": ["One", "", None, "One!", "Two!", "Three!", "Uno.", "Dos.", "Tres."]})
    human = {
        "seg": pd.DataFrame({"name": "mqm", "system": ["NA"] * 3 + ["sys-2"] * 3, "seg_id": [1, 2, 3] * 2,
                             "score": [-1.0, np.nan, -25.0, 0.0, -0.1, np.nan]}),
        "sys": pd.DataFrame({"name": ["mqm", "mqm", "wmt-z"], "system": ["NA", "sys-2", "NA"],
                             "score": [-13.0, -0.05, 0.25]}),
        "doc": pd.DataFrame({"name": "mqm", "system": ["NA", "NA"], "doc": ["d1", "d2"], "score": [-0.5, np.nan]}),
    }
    return EvalSet("wmt99", "de-en", "refA", texts, references, outputs, human)


def test_files_as_mt_metrics_eval_specifies_them(tmp_path):
    base = write_evalset(tiny(), tmp_path)
    assert base == tmp_path / "wmt99"
    files = sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())
    assert files == ["documents/de-en.docs", "human-scores/de-en.mqm.doc.score", "human-scores/de-en.mqm.seg.score",
                     "human-scores/de-en.mqm.sys.score", "human-scores/de-en.wmt-z.sys.score",
                     "references/de-en.refA.txt", "references/de-en.refB.txt", "sources/de-en.txt",
                     "system-outputs/de-en/NA.txt", "system-outputs/de-en/refB.txt", "system-outputs/de-en/sys-2.txt"]
    assert (base / "sources/de-en.txt").read_bytes() == b"Eins.\nZwei.\nDrei.\n"
    assert (base / "documents/de-en.docs").read_text() == "news d1\nnews d1\nnews d2\n"
    assert (base / "system-outputs/de-en/NA.txt").read_text() == f"One\n\n{NO_TRANSLATION}\n"
    assert (base / "human-scores/de-en.mqm.seg.score").read_text() == (
        "NA\t-1.0\nNA\tNone\nNA\t-25.0\nsys-2\t0.0\nsys-2\t-0.1\nsys-2\tNone\n")
    assert (base / "human-scores/de-en.mqm.sys.score").read_text() == "NA\t-13.0\nsys-2\t-0.05\n"
    assert (base / "human-scores/de-en.mqm.doc.score").read_text() == "NA\t-0.5\nNA\tNone\n"


def test_round_trip_is_identical_and_repeatable(tmp_path):
    original = tiny()
    write_evalset(original, tmp_path / "one")
    back = read_evalset(tmp_path / "one", "wmt99", "de-en", std_ref="refA")
    for name, table in original.tables().items():
        pd.testing.assert_frame_equal(back.tables()[name], table, obj=name)
    assert back.human_systems == ["refB"]  # a system named like a reference is a human translation
    assert back.outputs["hypothesis"].iloc[2] is None  # mt-metrics-eval's no-translation marker
    write_evalset(back, tmp_path / "two")
    for path in sorted((tmp_path / "one").rglob("*.*")):
        assert path.read_bytes() == (tmp_path / "two" / path.relative_to(tmp_path / "one")).read_bytes()
    segments = back.segments()
    assert list(segments.columns) == ["system", "seg_id", "hypothesis", "reference", "source", "domain", "doc"]
    assert segments.set_index(["system", "seg_id"]).loc[("sys-2", 3), "reference"] == "Three."
    assert back.segments("refB").set_index(["system", "seg_id"]).loc[("NA", 1), "reference"] == "One!"
    assert back.human_segment_scores("mqm").shape == (6, 3) and back.human_system_scores("wmt-z")["score"][0] == 0.25


def test_rewriting_removes_files_of_systems_no_longer_there(tmp_path):
    evalset = tiny()
    write_evalset(evalset, tmp_path)
    evalset.outputs = evalset.outputs[evalset.outputs["system"] != "refB"]
    evalset.references = evalset.references[evalset.references["reference"] != "refB"]
    write_evalset(evalset, tmp_path)
    assert not (tmp_path / "wmt99/system-outputs/de-en/refB.txt").exists()
    assert not (tmp_path / "wmt99/references/de-en.refB.txt").exists()
    assert read_evalset(tmp_path, "wmt99", "de-en", std_ref="refA").human_systems == []


def test_reader_reads_text_as_mt_metrics_eval_does(tmp_path):
    write_evalset(tiny(), tmp_path)
    base = tmp_path / "wmt99"
    (base / "system-outputs/de-en/sys-2.txt").write_bytes(b"Uno.  \t\r\nDos.\nTres.\xc2\xa0\n")
    outputs = read_evalset(tmp_path, "wmt99", "de-en", std_ref="refA").outputs
    # Trailing whitespace (a no-break space too) is gone, as Python's rstrip() removes it.
    assert list(outputs.loc[outputs["system"] == "sys-2", "hypothesis"]) == ["Uno.", "Dos.", "Tres."]


def corrupt(tmp_path, path: str, content: bytes | None):
    write_evalset(tiny(), tmp_path)
    target = tmp_path / "wmt99" / path
    if content is None:
        target.unlink()
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    return target


@pytest.mark.parametrize(("path", "content", "message"), [
    ("sources/de-en.txt", b"Eins.\nZwei.\n", r"documents/de-en.docs: 3 lines; expected 2 lines"),
    ("sources/de-en.txt", None, r"sources/de-en.txt: file not found"),
    ("references/de-en.refA.txt", b"One.\nTwo.\n", r"de-en.refA.txt: 2 lines; expected 3 lines"),
    ("references/de-en.ref-C.txt", b"a\nb\nc\n", r"reference name 'ref-C' is not allowed"),
    ("references/de-en.all.txt", b"a\nb\nc\n", r"reference name 'all' is not allowed"),
    ("references/de-en.refA.txt", b"One.\n[No translation supplied]\nThree.\n", r"refA.txt:2: \[No translation"),
    ("system-outputs/de-en/NA.txt", b"One\nTw\ro\nThree\n", r"NA.txt:2: carriage return inside a line"),
    ("system-outputs/de-en/new.jsonl", b"{}\n", r"new.jsonl:1: line is not a JSON object with a field .hypothesis."),
    ("documents/de-en.docs", b"news d1\nnews\nnews d2\n", r"de-en.docs:2: found 1 whitespace-separated fields"),
    ("documents/de-en.docs", b"news d1\nnews d2\nnews d1\n", r"de-en.docs:3: document 'd1' resumes"),
    ("documents/de-en.docs", b"news d1\nnews d1\n", r"de-en.docs: 2 lines; expected 3 lines"),
    ("human-scores/de-en.mqm.seg.score", b"NA\t1\nNA\t2\n", r"de-en.mqm.seg.score:2: system 'NA' has 2 scores; "
                                                             r"expected 3 per system at the seg level"),
    ("human-scores/de-en.mqm.sys.score", b"ghost\t1\n", r"de-en.mqm.sys.score:1: system 'ghost' has no output"),
    ("human-scores/de-en.mqm.week.score", b"NA\t1\n", r"de-en.mqm.week.score: not a human score file name"),
    ("human-scores/de-en.mqm.seg.score", b"NA\t1\nNA\tx\nNA\t3\n", r":2: score 'x' is not a number"),
    ("sources/de-en.txt", b"Eins.\n\xffZwei.\nDrei.\n", r"sources/de-en.txt:2: invalid UTF-8 byte"),
])
def test_malformed_files_are_named(tmp_path, path, content, message):
    corrupt(tmp_path, path, content)
    with pytest.raises(InputError, match=message):
        read_evalset(tmp_path, "wmt99", "de-en", std_ref="refA")


def test_standard_reference(tmp_path):
    assert standard_reference("wmt21.news", "en-de") == "refC" and standard_reference("wmt21.news", "zh-en") == "refB"
    assert standard_reference("wmt21.tedtalks", "zh-en") == "refB"
    assert standard_reference("wmt21.news", "en-ru") == "refA"
    assert standard_reference("wmt22", "en-cs") == "refB" and standard_reference("wmt20", "de-en") == "ref"
    assert standard_reference("mine", "de-en") is None
    write_evalset(tiny(), tmp_path)
    with pytest.raises(InputError, match=r"defines no standard reference for wmt99 de-en; expected std_ref given"):
        read_evalset(tmp_path, "wmt99", "de-en")
    with pytest.raises(InputError, match=r"standard reference 'refC' of wmt99 de-en is not there; expected one of "
                                         r"\['refA', 'refB'\]"):
        read_evalset(tmp_path, "wmt99", "de-en", std_ref="refC")
    with pytest.raises(InputError, match="no such test-set directory"):
        read_evalset(tmp_path, "wmt98", "de-en", std_ref="refA")


@pytest.mark.parametrize(("edit", "message"), [
    (lambda e: e.outputs.__setitem__("hypothesis", e.outputs["hypothesis"].replace("Dos.", "Dos. ")),
     "ends in whitespace"),
    (lambda e: e.outputs.__setitem__("hypothesis", e.outputs["hypothesis"].replace("Dos.", "Dos\nmas")),
     "contains a line break"),
    (lambda e: e.texts.__setitem__("source", e.texts["source"].replace("Zwei.", NO_TRANSLATION)), "is the marker"),
    (lambda e: e.outputs.__setitem__("system", e.outputs["system"].replace("sys-2", "sys 2")), "'sys 2'"),
    (lambda e: e.references.__setitem__("reference", e.references["reference"].replace("refB", "ref-B")),
     "reference name 'ref-B' is not allowed"),
    (lambda e: setattr(e, "outputs", e.outputs.iloc[:-1]), r"outputs must have exactly seg_id 1..3"),
    (lambda e: e.human["sys"].__setitem__("system", ["NA", "sys-3", "NA"]), r"human scores of systems without outputs"),
    (lambda e: e.human.__setitem__("seg", e.human["seg"].iloc[1:]), r"seg-level mqm scores of NA are not one"),
    (lambda e: e.human.__setitem__("doc", e.human["doc"].iloc[[0, 0]]), r"doc-level mqm scores of NA are not one"),
    (lambda e: e.human.__setitem__("sys", e.human["sys"].iloc[[0, 0]]), r"a system has two sys-level scores"),
])
def test_writer_refuses_what_would_not_read_back(tmp_path, edit, message):
    evalset = tiny()
    edit(evalset)
    with pytest.raises(ValueError, match=message):
        write_evalset(evalset, tmp_path)
    assert not (tmp_path / "wmt99").exists()  # nothing written


def test_metric_scores_as_mt_metrics_eval_reads_them(tmp_path):
    evalset = tiny()
    seg = pd.DataFrame({"system": ["sys-2"] * 3 + ["NA"] * 3, "seg_id": [3, 2, 1, 1, 2, 3],
                        "score": [0.3, 0.2, 0.1, 1.0, 2.0, 1 / 3]})
    path = write_metric_scores(tmp_path / "wmt99", "de-en", "chrF++", "refB", "seg", seg, systems=evalset.systems,
                               n_segments=3)
    # refB, the reference the metric used, needs no score; the others one per segment, in order.
    assert path == tmp_path / "wmt99/metric-scores/de-en/chrF++-refB.seg.score"
    assert path.read_text() == "NA\t1.0\nNA\t2.0\nNA\t0.3333333333333333\nsys-2\t0.1\nsys-2\t0.2\nsys-2\t0.3\n"
    metric, refs, level, table = read_metric_scores(path)
    assert (metric, refs, level) == ("chrF++", {"refB"}, "seg") and list(table["seg_id"]) == [1, 2, 3, 1, 2, 3]
    sys = pd.DataFrame({"system": ["NA", "refB", "sys-2"], "score": [0.5, 0.9, 0.25]})
    path = write_metric_scores(tmp_path / "wmt99", "de-en", "COMET-QE", "src", "sys", sys, systems=evalset.systems)
    assert path.name == "COMET-QE-src.sys.score" and path.read_text() == "NA\t0.5\nrefB\t0.9\nsys-2\t0.25\n"
    assert read_metric_scores(path)[:3] == ("COMET-QE", set(), "sys")
    assert metric_file_name("BLEU", ["refA", "refB"], "sys") == "BLEU-refA.refB.sys.score"
    with pytest.raises(ValueError, match=r"systems \['refB'\] have no score"):
        write_metric_scores(tmp_path / "wmt99", "de-en", "BLEU", "refA", "sys", sys.iloc[[0, 2]],
                            systems=evalset.systems)
    with pytest.raises(ValueError, match=r"one score for each seg_id 1..3"):
        write_metric_scores(tmp_path / "wmt99", "de-en", "BLEU", "refB", "seg", seg.iloc[1:], systems=evalset.systems,
                            n_segments=3)
    with pytest.raises(ValueError, match="missing"):
        write_metric_scores(tmp_path / "wmt99", "de-en", "BLEU", "refB", "seg", seg.assign(score=np.nan),
                            systems=evalset.systems, n_segments=3)
    with pytest.raises(ValueError, match="without '-' or '.'"):
        metric_file_name("BLEU", "ref-A", "seg")
    path = write_metric_scores(tmp_path / "wmt99", "de-en", "BLEU", "all", "sys", sys.iloc[[0, 2]],
                               systems=evalset.systems, references=["refA", "refB"])
    assert path.name == "BLEU-all.sys.score" and read_metric_scores(path)[1] == "all"


def test_locale_pair_in_json_lines_with_every_stored_metric(tmp_path):
    # MTME's newer forms: a pair with a locale (en-ar_EG), sources/references/outputs as JSON lines
    import json

    from mtmeta.data.evalset import read_all_metric_scores

    original = tiny()
    original = EvalSet("wmt25", "en-ar_EG", "refA", original.texts, original.references, original.outputs,
                       original.human)
    base = write_evalset(original, tmp_path)
    for path, key in [(base / "sources/en-ar_EG.txt", "source"), (base / "references/en-ar_EG.refA.txt", "target"),
                      (base / "references/en-ar_EG.refB.txt", "target"),
                      *[(p, "hypothesis") for p in (base / "system-outputs/en-ar_EG").glob("*.txt")]]:
        lines = path.read_text().splitlines()
        path.with_suffix(".jsonl").write_text("".join(
            json.dumps({key: None if line == NO_TRANSLATION else line}) + "\n" for line in lines))
        path.unlink()
    back = read_evalset(tmp_path, "wmt25", "en-ar_EG")  # refA: MTME's standard reference of the pair
    for name, table in original.tables().items():
        pd.testing.assert_frame_equal(back.tables()[name], table, obj=name)
    (base / "metric-scores/en-ar_EG").mkdir(parents=True)
    (base / "metric-scores/en-ar_EG/BLEU-refA.sys.score").write_text("NA\t1.0\nsys-2\t2.0\n")
    (base / "metric-scores/en-ar_EG/BLEU-refA.doc.score").write_text("NA\t1.0\n")  # not a level tasks use
    (stored,) = read_all_metric_scores(tmp_path, back)
    assert (stored.name, stored.basename, set(stored.refs), stored.level) == ("BLEU-refA", "BLEU", {"refA"}, "sys")
    assert stored.systems == ["NA", "sys-2"] and stored.scores.tolist() == [[1.0], [2.0]]
    assert stored.missing == ["refB"]  # a human translation without a score: counted where a task needs it
