"""Nothing crashes, nothing is silent: the CLI's evaluate, human-scores and correlate on bad or
degenerate input, systems named like missing values, and standard streams that cannot be used. Every
failure is one line `mtmeta COMMAND: error: ...` naming the file, line or option, and status 2."""

import errno
import itertools
import json
import os
import subprocess
import sys
from io import StringIO

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mtmeta.app.cli import main
from mtmeta.data.judgments import read_evaluator
from mtmeta.data.prepare import Prepared, write_prepared
from mtmeta.data.report import Report
from mtmeta.io import write_tsv
from mtmeta.stats.human import system_scores

# Systems named as pandas' missing-value words: each must stay a system through every step.
SYSTEMS = {"NA": 0.9, "nan": 0.7, "null": 0.45, "None": 0.3, "sysE": 0.1}
SEGMENTS = 8
EVALUATOR = [("a b c", "a b d", "a b c", "1"), ("x y", "x y", "x y", "0"), ("p", "q", "q", "-1"),
             ("u v w", "u v", "u v w", "1")]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """A finished study's results/ for wmt12 en-cs (five systems named NA, nan, null, None, sysE; built-in
    BLEU scored) and for the evaluator set (items of two hypotheses), with the default config."""
    root = tmp_path_factory.mktemp("study")
    results = root / "results"
    rng = np.random.default_rng(5)
    rows = []
    for seg in range(1, SEGMENTS + 1):
        for a, b in itertools.combinations(SYSTEMS, 2):
            diff = SYSTEMS[a] - SYSTEMS[b] + rng.normal(0, 0.3)
            rows.append(("en-cs", seg, a, b, "a" if diff > 0.1 else "b" if diff < -0.1 else "tie", f"line {seg}"))
    comparisons = pd.DataFrame(rows, columns=["lp", "seg_id", "sys_a", "sys_b", "outcome", "task"])
    segments = pd.DataFrame([(s, k, f"hyp {s} {k}", f"ref {k}", f"src {k}") for s in SYSTEMS
                             for k in range(1, SEGMENTS + 1)],
                            columns=["system", "seg_id", "hypothesis", "reference", "source"])
    summary = {"dataset": "wmt12", "description": "toy", "lp": "en-cs", "system_level": True,
               "n_systems": len(SYSTEMS), "n_judged_systems": len(SYSTEMS), "n_segments": SEGMENTS,
               "n_judged_segments": SEGMENTS, "n_tasks": SEGMENTS, "n_comparisons": len(comparisons),
               "human_scores": ["gt_others", "ge_others", "expected_wins"]}
    write_prepared(Prepared(segments, comparisons, system_scores(comparisons), Report(), summary),
                   results / "datasets/wmt12/en-cs")
    scores = results / "scores/wmt12/en-cs"
    scores.mkdir(parents=True)
    write_tsv(pd.DataFrame({"system": list(SYSTEMS), "metric": "bleu", "score": [30.5, 20.25, 25.0, 12.5, 5.0],
                            "signature": "BLEU|toy"}), scores / "bleu.sys.tsv")
    data, labels = root / "eval.txt", root / "labels.txt"
    data.write_text("".join(f"{a} ||| {b} ||| {r}\n" for a, b, r, _ in EVALUATOR))
    labels.write_text("".join(f"{label}\n" for *_, label in EVALUATOR))
    eval_segments, judgments = read_evaluator(data, labels, 10, "xx-en")
    eval_summary = {"dataset": "evaluator", "description": "toy evaluator", "lp": "xx-en", "system_level": False,
                    "n_systems": 2, "n_judged_systems": 0, "n_segments": len(EVALUATOR),
                    "n_judged_segments": len(EVALUATOR), "n_tasks": len(EVALUATOR),
                    "n_comparisons": len(EVALUATOR)}
    write_prepared(Prepared(eval_segments, judgments.comparisons, system_scores(judgments.comparisons.iloc[0:0]),
                            Report(), eval_summary), results / "datasets/evaluator/xx-en")
    return root


def user_segment_file(root, name="mine", noise=0.2):
    rng = np.random.default_rng(11)
    rows = [("wmt12", "en-cs", s, k, q + rng.normal(0, noise)) for s, q in SYSTEMS.items()
            for k in range(1, SEGMENTS + 1)]
    path = root / f"{name}.seg.tsv"
    pd.DataFrame(rows, columns=["dataset", "lp", "system", "seg_id", "score"]).to_csv(path, sep="\t", index=False)
    return path


def evaluate(capsys, study, *args):
    return run(capsys, "evaluate", "--results", study / "results", "--against", "bleu", "--draws", "100", *args)


def test_systems_named_like_missing_values_go_through_evaluate(study, capsys):
    """The bootstrap sorted such names as floats beside strings (TypeError) and correlate dropped them."""
    path = user_segment_file(study)
    code, out, err = evaluate(capsys, study, "--segment", path, "--format", "json", "--out", study / "out-na")
    assert code == 0, err
    tables = json.loads(out)["wmt12 en-cs"]
    system_level = pd.DataFrame(tables["system_level"]).set_index("human_score")
    assert system_level.loc["gt_others", "n_systems"] == len(SYSTEMS)
    user = pd.read_csv(path, sep="\t", keep_default_na=False).groupby("system")["score"].mean()
    human = pd.read_csv(study / "results/datasets/wmt12/en-cs/human_scores.tsv", sep="\t", keep_default_na=False,
                        na_values=[""]).set_index("system")["gt_others"]
    assert sorted(human.index) == sorted(SYSTEMS)
    assert system_level.loc["gt_others", "pearson"] == pytest.approx(
        stats.pearsonr(user.loc[list(SYSTEMS)], human.loc[list(SYSTEMS)])[0], rel=1e-12)
    boot = pd.DataFrame(tables["bootstrap"]).set_index("human_score").loc["gt_others"]
    assert boot["n_systems"] == len(SYSTEMS) and boot["pearson_low"] <= boot["pearson"] <= boot["pearson_high"]
    assert {(r["metric_1"], r["metric_2"]) for r in tables["williams"]} == {("mine", "bleu"), ("bleu", "mine")}
    assert all(r["n_systems"] == len(SYSTEMS) for r in tables["williams"])


def test_an_evaluator_kind_pair_gets_segment_level_agreement(study, capsys):
    """`need at least one array to concatenate` before: the pair has items, not systems."""
    path = study / "eval.seg.tsv"
    scores = {("hyp1", 1): 3, ("hyp2", 1): 2, ("hyp1", 2): 1, ("hyp2", 2): 1, ("hyp1", 3): 0, ("hyp2", 3): 5,
              ("hyp1", 4): 1, ("hyp2", 4): 2}  # right, right (tie), right, wrong
    path.write_text("dataset\tlp\tsystem\tseg_id\tscore\n" + "".join(
        f"evaluator\txx-en\t{s}\t{k}\t{v}\n" for (s, k), v in scores.items()))
    code, out, err = evaluate(capsys, study, "--segment", path, "--out", study / "out-eval")
    assert code == 0, err
    assert "evaluator xx-en: eval, 4 items" in out and "three-way accuracy 0.7500" in out
    assert "segment-level agreement only" in out
    written = sorted(p.name for p in (study / "out-eval").iterdir())
    assert written == ["notes.txt", "segment_level.tsv"]
    table = pd.read_csv(study / "out-eval/segment_level.tsv", sep="\t")
    assert table["three_way_accuracy"].iloc[0] == 0.75 and table["n_comparisons"].iloc[0] == 4
    code, _, err = run(capsys, "evaluate", "--results", study / "results", "--segment", path, "--format", "tsv",
                       "--out", study / "out-eval")
    assert code == 0 and "evaluator xx-en has no system-level table (items, not systems)" in err


def test_an_evaluator_kind_pair_needs_segment_scores(study, capsys):
    path = study / "eval.sys.tsv"
    path.write_text("dataset\tlp\tsystem\tscore\nevaluator\txx-en\thyp1\t1\nevaluator\txx-en\thyp2\t2\n")
    code, _, err = evaluate(capsys, study, "--system", path, "--out", study / "out-eval-sys")
    assert code == 2
    assert err.startswith("mtmeta evaluate: error: evaluator xx-en: its items are pairs of hypotheses (hyp1, hyp2), "
                          "not systems, so it has no system-level human scores; expected segment scores (--segment)")
    assert not (study / "out-eval-sys").exists()


@pytest.mark.parametrize("name", ["../../../../outside", "a/b", "..", ".hidden", "", "x\ny"])
def test_a_name_is_a_name_not_a_path(study, capsys, name):
    code, _, err = evaluate(capsys, study, "--segment", user_segment_file(study), "--name", name)
    assert code == 2
    assert f"mtmeta evaluate: error: --name {name!r}: expected a metric name" in err
    assert not (study / "results" / "evaluate").exists() and not (study.parent / "outside").exists()


def test_a_default_name_from_a_file_name_is_checked_too(study, capsys):
    path = study / ".seg.tsv"
    path.write_text(user_segment_file(study).read_text())
    code, _, err = evaluate(capsys, study, "--segment", path)
    assert code == 2 and "error: the name from the file name '': expected a metric name" in err


def test_an_out_directory_evaluate_did_not_write_is_refused(study, capsys):
    out = study / "mine-out"
    out.mkdir()
    (out / "thesis.tex").write_text("precious")
    code, _, err = evaluate(capsys, study, "--segment", user_segment_file(study), "--out", out)
    assert code == 2
    assert (f"error: --out {out}: holds 1 entry mtmeta evaluate does not write (thesis.tex); expected a new or empty "
            "directory, or one an earlier `mtmeta evaluate` wrote (its tables are replaced)") in err
    assert sorted(p.name for p in out.iterdir()) == ["thesis.tex"]


def test_a_rerun_replaces_the_earlier_tables_whole(study, capsys):
    out = study / "rerun"
    assert evaluate(capsys, study, "--segment", user_segment_file(study), "--out", out)[0] == 0
    assert {"bootstrap.tsv", "segment_level.tsv"} <= {p.name for p in out.iterdir()}
    system_file = study / "mine.sys.tsv"
    system_file.write_text("dataset\tlp\tsystem\tscore\n" + "".join(
        f"wmt12\ten-cs\t{s}\t{q}\n" for s, q in SYSTEMS.items()))
    code, _, err = evaluate(capsys, study, "--system", system_file, "--out", out)
    assert code == 0, err
    # The first run's bootstrap and segment-level tables are not left beside the second run's.
    assert sorted(p.name for p in out.iterdir()) == ["clusters.tsv", "meng.tsv", "notes.txt", "ranks.tsv",
                                                     "system_level.tsv", "williams.tsv"]


def test_a_full_disk_names_the_file_and_keeps_the_previous_tables(study, capsys, monkeypatch):
    out = study / "full"
    assert evaluate(capsys, study, "--segment", user_segment_file(study), "--out", out)[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real_open = open

    def full_disk(path, mode="r", *args, **kwargs):
        handle = real_open(path, mode, *args, **kwargs)
        if "w" in mode and str(path).endswith("williams.tsv"):
            handle.close()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return handle

    monkeypatch.setattr("builtins.open", full_disk)
    code, _, err = evaluate(capsys, study, "--segment", user_segment_file(study, noise=1.0), "--out", out)
    monkeypatch.undo()
    assert code == 2 and "Traceback" not in err
    assert err == (f"mtmeta evaluate: error: {out}/williams.tsv: cannot write: No space left on device; expected a "
                   "writable location with free space\n")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # the previous run, whole
    assert [p.name for p in study.iterdir() if p.name.startswith(".full")] == []


def test_human_scores_and_correlate_on_bad_or_degenerate_input(tmp_path, capsys):
    header_only = tmp_path / "header.tsv"
    header_only.write_text("sys_a\tsys_b\toutcome\n")
    assert run(capsys, "human-scores", header_only)[:3:2] == (
        2, f"mtmeta human-scores: error: {header_only}:2: no rows below the header; expected comparisons (columns "
           "sys_a, sys_b, outcome; as prepare writes comparisons.parquet): a tab-separated header with sys_a, sys_b, "
           "outcome, then one row per line\n")
    code, _, err = run(capsys, "human-scores", tmp_path)
    assert code == 2 and f"error: {tmp_path}: is a directory; expected comparisons" in err
    code, _, err = run(capsys, "correlate", tmp_path / "absent.tsv", header_only)
    assert code == 2 and f"error: {tmp_path}/absent.tsv: file not found; expected metric system scores" in err
    self_only = tmp_path / "self.tsv"
    self_only.write_text("sys_a\tsys_b\toutcome\nA\tA\ta\n")
    code, _, err = run(capsys, "human-scores", self_only)
    assert code == 2 and f"error: {self_only}: every comparison is of a system with itself" in err

    human = tmp_path / "human.tsv"
    human.write_text("system\tgt_others\nNA\t0.2\nnull\t0.5\nC\t0.9\nD\t\n")
    two = tmp_path / "two.tsv"
    two.write_text("system\tscore\nNA\t1\nnull\t2\n")
    code, _, err = run(capsys, "correlate", two, human)
    assert code == 2 and (f"error: 2 system(s) have both a metric score ({two}) and a gt_others ({human}): NA, null; "
                          "expected at least 3") in err
    constant = tmp_path / "constant.tsv"
    constant.write_text("system\tscore\nNA\t7\nnull\t7\nC\t7\n")
    code, _, err = run(capsys, "correlate", constant, human)
    assert code == 2 and (f"error: {constant}: every one of the 3 systems has the same metric score (7); expected "
                          "scores that differ") in err
    good = tmp_path / "good.tsv"
    good.write_text("system\tscore\nNA\t1\nnull\t3\nC\t2\n")
    code, out, err = run(capsys, "correlate", good, human)
    assert code == 0 and "n\t3\n" in out  # NA and null are systems, not missing values
    assert f"pearson\t{stats.pearsonr([1, 3, 2], [0.2, 0.5, 0.9])[0]}\n" in out


def command(*args, stdin="", stdout=""):
    """A shell command line running mtmeta with redirections (to close a stream: `<&-`, `>&-`)."""
    quoted = " ".join(f"'{a}'" for a in args)
    return ["bash", "-c", f"exec '{sys.executable}' -m mtmeta {quoted} {stdin} {stdout}"]


def test_standard_streams_that_cannot_be_used(tmp_path):
    scores, human = tmp_path / "s.tsv", tmp_path / "h.tsv"
    scores.write_text("system\tscore\nA\t1\nB\t3\nC\t2\n")
    human.write_text("system\tgt_others\nA\t0.1\nB\t0.5\nC\t0.7\n")
    cases = [
        (command("correlate", scores, human, stdout=">/dev/full"),
         "mtmeta correlate: error: standard output: cannot write: No space left on device; expected a writable "
         "location with free space\n"),
        (command("correlate", scores, human, stdout=">&-"),
         "mtmeta correlate: error: standard output is closed; expected a terminal, a file or a pipe to write to\n"),
        (command("score", "bleu", "--ref", scores, stdin="<&-"),
         "mtmeta score: error: <stdin>: standard input is closed; expected hypotheses on standard input, or -i FILE\n"),
    ]
    for argv, message in cases:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert (result.returncode, result.stderr) == (2, message), argv


def test_the_bootstrap_without_judged_systems_says_why():
    from mtmeta.metaeval.bootstrap import bootstrap_table

    comparisons = pd.DataFrame({"seg_id": [1], "sys_a": ["hyp1"], "sys_b": ["hyp2"], "outcome": ["a"]})
    table = bootstrap_table({"dataset": "evaluator", "lp": "xx-en"}, comparisons, system_scores(comparisons.iloc[0:0]),
                            {"m": pd.DataFrame({"system": ["hyp1"], "seg_id": [1], "score": [1.0]})}, {}, draws=10)
    assert table["pearson"].isna().all() and (table["draws"] == 0).all()
    assert set(table["interval_method"]) == {"undefined: evaluator xx-en has 0 system(s) with a human score (none); a "
                                             "correlation needs at least 3"}


def test_sources_says_which_checksum_is_missing(capsys):
    code, out, _ = run(capsys, "sources", "--mirror", "none")
    assert code == 0
    rows = {line.split("\t")[0]: line.split("\t") for line in out.splitlines()[2:]}
    assert rows["wmt12_data"][4] == "(none: fetch refuses it until sources.wmt12_data.upstream.sha256 is set)"
    assert len(rows["meteor_jar"][4]) == 64  # upstream only, and pinned


@pytest.mark.parametrize(("content", "message"), [
    (None, "{path}: is a directory; expected a segment-level score file"),
    (b"dataset\tlp\tsystem\tseg_id\tscore\nwmt12\ten-cs\tNA\t1\t0.\xff5\n",
     "{path}:2: invalid UTF-8 byte(s) ff at column 20; expected UTF-8 text"),
    (b"dataset\tlp\tsystem\tseg_id\tscore\nwmt12\ten-cs\tNA\t1\n",
     "{path}:2: found 4 tab-separated fields; expected 5, one per column of the header"),
    (b"", "{path}:1: file is empty; expected a segment-level score file"),
])
def test_evaluate_inputs_are_read_by_the_checked_reader(study, capsys, content, message):
    path = study / "input-dir" if content is None else study / "bad.seg.tsv"
    if content is None:
        path.mkdir(exist_ok=True)
    else:
        path.write_bytes(content)
    code, _, err = evaluate(capsys, study, "--segment", path, "--name", "bad", "--out", study / "bad-out")
    assert code == 2 and err.startswith(f"mtmeta evaluate: error: {message.format(path=path)}")
    assert not (study / "bad-out").exists()


def test_human_scores_keeps_names_and_reads_checked(tmp_path, capsys):
    path = tmp_path / "c.tsv"
    path.write_text("sys_a\tsys_b\toutcome\nNA\tnull\ta\nnull\tNone\ta\nNone\tNA\tb\n")
    code, out, _ = run(capsys, "human-scores", path)
    table = pd.read_csv(StringIO(out), sep="\t", keep_default_na=False).set_index("system")
    assert code == 0 and table["wins"].to_dict() == {"NA": 2, "null": 1, "None": 0}
    path.write_bytes(b"sys_a\tsys_b\toutcome\nA\tB\ta\nA\t\xe9\ta\n")
    code, _, err = run(capsys, "human-scores", path)
    assert code == 2 and f"error: {path}:3: invalid UTF-8 byte(s) e9 at column 3" in err
    code, _, err = run(capsys, "human-scores", tmp_path / "absent.parquet")
    assert code == 2 and f"error: {tmp_path}/absent.parquet: file not found; expected comparisons" in err


def test_a_negative_evaluate_seed_names_the_option(capsys):
    with pytest.raises(SystemExit) as info:
        main(["evaluate", "--segment", "x.tsv", "--seed", "-1"])
    assert info.value.code == 2
    assert "argument --seed: '-1' is not a seed; expected an integer from 0 to 4294967295" in capsys.readouterr().err
