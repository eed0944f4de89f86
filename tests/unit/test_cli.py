import argparse
import subprocess
import sys

import pytest
import sacrebleu

from mtmeta.app.cli import build_parser, main

COMMANDS = ["sources", "fetch", "prepare", "score", "metrics", "human-scores", "correlate", "evaluate", "check-config",
            "export-scores"]

COMMANDS += ["tasks"]  # registered by mtmeta.app.tasks_cli


def test_every_command_has_help(capsys):
    for command in [None, *COMMANDS]:
        argv = ["--help"] if command is None else [command, "--help"]
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 0
        out = capsys.readouterr().out
        assert "usage: mtmeta" in out
    assert set(build_parser()._subparsers._group_actions[0].choices) == set(COMMANDS)


def test_console_script_runs():
    result = subprocess.run([sys.executable, "-m", "mtmeta", "metrics"], capture_output=True, text=True, check=True)
    assert "bleu\tmtmeta.metrics.bleu:BLEU" in result.stdout


def test_score_prints_sacrebleu_value_and_signature(tmp_path, capsys):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("The dog bit the man.\nIt wasn't surprising.\n")
    ref.write_text("The dog bit the man.\nIt was not unexpected.\n")
    assert main(["score", "bleu", "--hyp", str(hyp), "--ref", str(ref), "--set", "tokenize=intl"]) == 0
    score, signature = capsys.readouterr().out.strip().split("\t")
    expected = sacrebleu.corpus_bleu(hyp.read_text().splitlines(), [ref.read_text().splitlines()], tokenize="intl")
    assert float(score) == pytest.approx(expected.score, abs=1e-6)
    assert signature.startswith("BLEU|nrefs:1|case:mixed|eff:no|tok:intl|smooth:exp")


def test_score_takes_config_ids_and_set_overrides_their_parameters(tmp_path, capsys):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("The dog bit the man.\nIt wasn't surprising.\n")
    ref.write_text("the dog bit the man .\nit was not unexpected .\n")
    assert main(["score", "ter-wmt", "--hyp", str(hyp), "--ref", str(ref)]) == 0
    normalised = capsys.readouterr().out.strip().split("\t")
    assert normalised[1].startswith("TER|nrefs:1|case:lc|tok:tercom-0.7.25|norm:yes")
    assert main(["score", "ter-wmt", "--set", "normalized=false", "--hyp", str(hyp), "--ref", str(ref)]) == 0
    plain = capsys.readouterr().out.strip().split("\t")
    assert "norm:no" in plain[1] and float(plain[0]) > float(normalised[0])  # -N splits "man." as the ref does
    assert main(["score", "ter-wnt", "--hyp", str(hyp), "--ref", str(ref)]) == 2
    err = capsys.readouterr().err
    assert "unknown metric 'ter-wnt'; did you mean 'ter-wmt' or " in err and "'ter'?" in err
    assert "(registered metrics: bleu, chrf" in err and "ids configured in " in err and "config.yaml: bleu-w2v" in err


def test_metrics_lists_parameters_and_config_ids(capsys):
    assert main(["metrics", "-v"]) == 0
    out = capsys.readouterr().out
    assert "    max_ngram_order: int (default 4, >= 1 and <= 20)" in out
    assert "    alpha: float | None (default None, >= 0 and <= 1)" in out  # METEOR's
    assert "meteor-basic\tmeteor {'preset': 'basic', 'lowercase': False}" in out
    assert "lang:" not in out and "resources:" not in out  # set by the workflow, not by users


def test_score_reports_line_mismatch(tmp_path, capsys):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("one\ntwo\n")
    ref.write_text("one\n")
    assert main(["score", "bleu", "--hyp", str(hyp), "--ref", str(ref)]) == 2
    err = capsys.readouterr().err
    assert "ref.txt: 1 lines but" in err and "hyp.txt has 2" in err


def test_score_several_metrics_from_stdin_in_each_format(tmp_path, capsys, monkeypatch):
    import io
    import json

    hyp_text, ref = "The dog bit the man.\nIt wasn't surprising.\n", tmp_path / "ref.txt"
    ref.write_text("The dog bit the man.\nIt was not unexpected.\n")
    hyps, refs = hyp_text.splitlines(), [ref.read_text().splitlines()]
    bleu, chrf = sacrebleu.corpus_bleu(hyps, refs).score, sacrebleu.corpus_chrf(hyps, refs).score

    def run(*extra):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(hyp_text.encode("utf-8"))))
        assert main(["score", "bleu", "chrf", "--ref", str(ref), *extra]) == 0  # no --hyp: standard input
        return capsys.readouterr().out

    lines = [line.split("\t") for line in run().splitlines()]
    assert [float(score) for score, _ in lines] == pytest.approx([bleu, chrf], abs=1e-6)
    assert lines[1][1].startswith("chrF|nrefs:1")
    table = run("--format", "tsv", "--width", "2").splitlines()
    assert table[0] == "metric\tscore\tsignature" and table[1].startswith(f"bleu\t{bleu:.2f}\tBLEU|")
    rows = json.loads(run("--format", "json"))
    assert [row["metric"] for row in rows] == ["bleu", "chrf"] and rows[0]["score"] == pytest.approx(bleu, abs=1e-9)
    segments = run("--level", "segment").splitlines()
    assert segments[0] == "bleu\tchrf" and len(segments) == 3
    expected = [sacrebleu.sentence_chrf(h, [r]).score for h, r in zip(hyps, refs[0], strict=True)]
    assert [float(line.split("\t")[1]) for line in segments[1:]] == pytest.approx(expected, abs=1e-6)


def test_score_several_systems_with_confidence_and_paired_tests(tmp_path, capsys):
    import json

    import numpy as np

    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(30)]
    refs = [" ".join(rng.choice(words, 8)) for _ in range(60)]
    files = {"ref": refs, "base": [" ".join(["x", *r.split()[1:]]) for r in refs],
             "better": [" ".join([*r.split()[:-1], "x"]) for r in refs],
             "worse": [" ".join(r.split()[:3]) for r in refs]}
    for name, lines in files.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n")
    hyps = [str(tmp_path / f"{name}.txt") for name in ("base", "better", "worse")]
    common = ["score", "bleu", "chrf", "--ref", str(tmp_path / "ref.txt"), "--hyp", *hyps]
    assert main([*common, "--paired-bs", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(row["system"].rsplit("/", 1)[1], row["metric"]) for row in rows] == [
        ("base.txt", "bleu"), ("better.txt", "bleu"), ("worse.txt", "bleu"),
        ("base.txt", "chrf"), ("better.txt", "chrf"), ("worse.txt", "chrf")]
    assert rows[0]["p_value"] is None and rows[2]["p_value"] == pytest.approx(1 / 1001)  # far worse: never by chance
    assert rows[0]["score"] == pytest.approx(sacrebleu.corpus_bleu(files["base"], [refs]).score, abs=1e-9)
    assert rows[0]["signature"].endswith("|bs:1000|seed:12345")
    assert main([*common, "--paired-ar", "--paired-ar-n", "200", "--seed", "7"]) == 0
    text = capsys.readouterr().out
    assert "Baseline: " in text and "approximate randomisation" in text and "|ar:200|seed:7" in text
    assert main([*common[:-2], "--confidence", "--format", "tsv"]) == 0  # one system
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "system\tmetric\tscore\tmean\tci\tp_value\tsignature" and len(table) == 3


@pytest.mark.parametrize(("extra", "message"), [
    (["--paired-bs"], "--paired-bs compares systems with the first"),
    (["--paired-bs", "--paired-ar"], "not allowed with argument"),
    (["--level", "segment", "--confidence"], "--level segment scores one --hyp file"),
    (["--paired-ar-n", "0"], "is not a positive integer"),
])
def test_score_rejects_unusable_test_options(tmp_path, capsys, extra, message):
    (tmp_path / "a.txt").write_text("a b c\n")
    argv = ["score", "bleu", "--ref", str(tmp_path / "a.txt"), "--hyp", str(tmp_path / "a.txt"), *extra]
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    assert code == 2 and message in capsys.readouterr().err


def test_check_config(capsys):
    assert main(["check-config"]) == 0
    assert "valid; " in capsys.readouterr().out


@pytest.mark.parametrize("content", [b"", b"ok\n\xff\xfe\n"])
def test_score_rejects_empty_and_non_utf8_files(tmp_path, capsys, content):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_bytes(content)
    ref.write_text("one\ntwo\n")
    assert main(["score", "nist", "--hyp", str(hyp), "--ref", str(ref)]) == 2
    err = capsys.readouterr().err
    expected = "hyp.txt:1: file is empty" if not content else "hyp.txt:2: invalid UTF-8 byte(s) ff at column 1"
    assert expected in err


def test_segment_level_output(tmp_path, capsys):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b c\nx\n")
    ref.write_text("a b c\ny\n")
    assert main(["score", "wer", "--hyp", str(hyp), "--ref", str(ref), "--level", "segment"]) == 0
    captured = capsys.readouterr()
    assert captured.out.split() == ["0.000000", "100.000000"]
    assert captured.err.strip().endswith("scale:100|mtmeta:0.1.0")


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`mtmeta score ... --level segment | head -1`: the reader leaves after one line; no traceback."""
    lines = tmp_path / "text.txt"
    lines.write_text("the cat sat on the mat\n" * 30000, encoding="utf-8")  # ~330 KB of scores: past a pipe's buffer
    proc = subprocess.Popen([sys.executable, "-m", "mtmeta", "score", "bleu", "--hyp", str(lines), "--ref", str(lines),
                             "--level", "segment"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline() == b"100.000000\n"
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr


def test_correlate_rejects_repeated_systems_and_reports_exclusions(tmp_path, capsys):
    human = tmp_path / "human.tsv"
    human.write_text("system\tgt_others\nA\t0.2\nB\t0.4\nC\t0.7\nD\t0.9\nU\t\n", encoding="utf-8")
    scores = tmp_path / "scores.tsv"
    scores.write_text("system\tscore\nA\t10\nB\t12\nC\t15\nD\t14\nU\t9\nX\t30\n", encoding="utf-8")
    assert main(["correlate", str(scores), str(human)]) == 0
    out, err = capsys.readouterr()
    assert "n\t4\n" in out  # A-D: X has no human score, U is unjudged
    assert "excluded 1 system(s), not in the human scores: X" in err
    assert "excluded 1 system(s), no gt_others (unjudged): U" in err
    repeated = tmp_path / "repeated.tsv"
    repeated.write_text("system\tscore\nA\t10\nB\t12\nA\t11\nC\t15\n", encoding="utf-8")
    assert main(["correlate", str(repeated), str(human)]) == 2
    assert f"{repeated}:4: system 'A' is given 2 times (lines 2, 4)" in capsys.readouterr().err
    wrong = tmp_path / "wrong.tsv"
    wrong.write_text("name\tscore\nA\t1\n", encoding="utf-8")
    assert main(["correlate", str(wrong), str(human)]) == 2
    assert f"{wrong}:1: no 'system' column" in capsys.readouterr().err


def test_human_scores_excludes_self_comparisons(tmp_path, capsys):
    comparisons = tmp_path / "comparisons.tsv"
    comparisons.write_text("sys_a\tsys_b\toutcome\nA\tB\ta\nA\tA\ta\nB\tA\tb\nA\tB\ttie\n", encoding="utf-8")
    assert main(["human-scores", str(comparisons)]) == 0
    out, err = capsys.readouterr()
    rows = {line.split("\t")[0]: line.split("\t") for line in out.splitlines()}
    header = out.splitlines()[0].split("\t")
    a = dict(zip(header, rows["A"], strict=True))
    assert (int(a["wins"]), int(a["losses"]), float(a["gt_others"])) == (2, 0, 1.0)  # A vs A is not a win and a loss
    assert "excluded 1 comparison(s) of a system with itself: A (1)" in err


HEAVY = ("pandas", "numba", "matplotlib", "scipy")


def _modules_after(code: str) -> set[str]:
    """The top-level packages a fresh interpreter has imported after running ``code``."""
    probe = f"import sys\n{code}\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


@pytest.mark.parametrize("argv", [["--help"], ["score", "--help"]])
def test_help_imports_no_heavy_package(argv):
    """The command line starts without pandas, numba, matplotlib or scipy: each command imports
    what it uses when it runs."""
    code = f"from mtmeta.app.cli import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass"
    assert _modules_after(code) & set(HEAVY) == set()


def test_a_repeated_score_imports_neither_pandas_nor_yaml(tmp_path, monkeypatch):
    """A score on a small file, run a second time with the config's ids kept (and written through
    mtmeta.io's atomic write), imports no heavy package and not the YAML parser."""
    (tmp_path / "h.txt").write_text("a b c\n")
    (tmp_path / "r.txt").write_text("a b d\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    code = (f"from mtmeta.app.cli import main\n"
            f"main(['score', '-i', {str(tmp_path / 'h.txt')!r}, '--ref', {str(tmp_path / 'r.txt')!r}, '-b'])")
    first = _modules_after(code)
    assert "yaml" in first and (tmp_path / "cache" / "mtmeta" / "metric_settings").is_dir()
    assert _modules_after(code) & {*HEAVY, "yaml"} == set()


@pytest.mark.parametrize(("argv", "message"), [
    # evaluate's draws take the config schema's range of bootstrap.draws (one range table)
    (["evaluate", "--segment", "x.tsv", "--draws", "1000000000"],
     "argument --draws: '1000000000' is out of range; expected an integer from 10 to 1,000,000 (as config's "
     "bootstrap.draws)"),
    (["evaluate", "--segment", "x.tsv", "--draws", "0"],
     "argument --draws: '0' is out of range; expected an integer from 10 to 1,000,000 (as config's bootstrap.draws)"),
    (["evaluate", "--segment", "x.tsv", "--draws", "1_000"],
     "argument --draws: '1_000' is not an integer; expected an integer from 10 to 1,000,000"),
    (["evaluate", "--segment", "x.tsv", "--seed", "4294967296"],
     "argument --seed: '4294967296' is not a seed; expected an integer from 0 to 4294967295"),
    (["evaluate", "--segment", "x.tsv", "--seed", "1_000"],
     "argument --seed: '1_000' is not a seed; expected an integer from 0 to 4294967295"),
    (["score", "r.txt", "-i", "h.txt", "--seed", "١٢"],
     "argument --seed: '١٢' is not a seed; expected an integer from 0 to 4294967295"),
    (["score", "r.txt", "-i", "h.txt", "-ci", "-cin", "2000000"],
     "argument -cin/--confidence-n: '2000000' is more than 1000000, the largest count accepted"),
    (["score", "r.txt", "-i", "h.txt", "-par", "-parn", "10000000"],
     "argument -parn/--paired-ar-n: '10000000' is more than 1000000, the largest count accepted"),
    (["tasks", "wmt23", "--root", ".", "--seed", "-1"],
     "argument --seed: '-1' is not a seed; expected an integer from 0 to 4294967295"),
    (["tasks", "wmt23", "--root", ".", "--k", "-1"],
     "argument --k: '-1' is not an integer of at least 0; expected an integer from 0 to 1000000"),
    (["tasks", "wmt23", "--root", ".", "--k", "2000000"],
     "argument --k: '2000000' is more than 1000000, the largest count accepted"),
    (["evaluate", "--segment", "x.tsv", "--width", "17"],
     "argument --width: '17' is not a number of decimals; expected an integer from 0 to 16"),
])
def test_counts_and_seeds_have_one_rule_with_an_upper_bound(capsys, argv, message):
    """Every command reads a seed and a count by the same rule: ASCII digits, within bounds (a
    billion bootstrap draws would allocate tens of GiB before anything is printed)."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2 and message in capsys.readouterr().err


def _typed_options(parser):
    """(command, option, type) of every option of the parser and its subcommands that has a type."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += [(name, option, kind) for _, option, kind in _typed_options(sub)]
        elif action.type is not None:
            found.append((parser.prog, action.dest, action.type))
    return found


def test_argument_types_are_defined_once_with_upper_bounds():
    """Seeds, counts, widths and probabilities have one definition each (mtmeta.app.options; they
    were defined twice, with different rules), each with an upper bound: no option takes a bare int
    or float, except sacrebleu's metric options, whose values the metric's parameter rules check."""
    from mtmeta.app import options
    from mtmeta.app.cli import build_parser

    typed = [(command, option, kind) for command, option, kind in _typed_options(build_parser())
             if not option.startswith("metric_option_")]
    assert typed and [(c, o) for c, o, kind in typed if kind.__module__ != "mtmeta.app.options"] == []
    assert [options.seed("0"), options.seed(" 4294967295 "), options.positive_int("1000000"),
            options.count_or_zero("0"), options.width("16")] == [0, 4294967295, 1000000, 0, 16]
    for kind, text in ((options.count_or_zero, "-1"), (options.count_or_zero, "1000001"), (options.width, "17"),
                       (options.probability, "1"), (options.probability, "nan"), (options.probability, "x")):
        with pytest.raises(argparse.ArgumentTypeError):
            kind(text)


def test_an_unexpected_exception_is_one_line_naming_the_stage_and_file(tmp_path, capsys, monkeypatch):
    """A bug (here a KeyError in BLEU's counting) is not the user's error: one line naming the
    command, what it was doing and on which file, status 1 (a user error is 2); -v adds the traceback."""
    from mtmeta.metrics.bleu import BLEU

    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a b c\n")
    ref.write_text("a b d\n")

    def broken(self, hypotheses, references):
        raise KeyError("metric_1")

    monkeypatch.setattr(BLEU, "stats", broken)
    argv = ["score", "bleu", "--ref", str(ref), "--hyp", str(hyp)]
    assert main(argv) == 1
    assert capsys.readouterr().err == (
        f"mtmeta score: internal error while scoring bleu of {hyp}: KeyError: 'metric_1'; this is a bug in mtmeta, "
        "not a problem with the input: rerun with -v for the traceback, and please report it\n")
    assert main(["-v", *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):") and 'raise KeyError("metric_1")' in err
    assert err.splitlines()[-1].endswith("KeyError: 'metric_1'; this is a bug in mtmeta, not a problem with the "
                                         "input: the traceback is above, and please report it")
    assert main(["-v", "score", "bleu", "--ref", str(tmp_path / "absent.txt"), "--hyp", str(hyp)]) == 2  # the user's
    assert capsys.readouterr().err.splitlines()[-1].startswith(f"mtmeta score: error: {tmp_path}/absent.txt")


def test_an_internal_error_of_another_command_names_its_file_and_cuts_a_long_text(tmp_path, capsys, monkeypatch):
    import mtmeta.app.evaluate

    def broken(*args, **kwargs):
        raise RuntimeError("x" * 5000 + "\nsecond line")

    monkeypatch.setattr(mtmeta.app.evaluate, "evaluate", broken)
    assert main(["evaluate", "--segment", "mine.seg.tsv", "--out", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == (
        f"mtmeta evaluate: internal error while evaluating mine.seg.tsv: RuntimeError: {'x' * 300}... (5,000 "
        "characters); this is a bug in mtmeta, not a problem with the input: rerun with -v for the traceback, and "
        "please report it\n")


def test_scoring_a_small_file_loads_neither_numba_nor_pandas(tmp_path):
    """A few lines are scored by the plain equivalents of the compiled kernels (the same numbers,
    tests/unit/metrics/test_kernels.py): loading numba would cost more than the scoring."""
    (tmp_path / "hyp.txt").write_text("The dog bit the man.\nIt wasn't surprising.\nThe man had just bitten him.\n")
    (tmp_path / "ref.txt").write_text("The dog bit the man.\nIt was not unexpected.\nThe man bit him first.\n")
    argv = ["score", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-m", "bleu", "chrf", "ter", "-b"]
    assert _modules_after(f"from mtmeta.app.cli import main\nassert main({argv!r}) == 0") & set(HEAVY) == set()
