import subprocess
import sys

import pytest
import sacrebleu

from mtmeta.cli import build_parser, main

COMMANDS = ["sources", "fetch", "prepare", "score", "metrics", "human-scores", "correlate", "check-config"]


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


def test_score_reports_line_mismatch(tmp_path, capsys):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("one\ntwo\n")
    ref.write_text("one\n")
    assert main(["score", "bleu", "--hyp", str(hyp), "--ref", str(ref)]) == 2
    err = capsys.readouterr().err
    assert "ref.txt: 1 lines but" in err and "hyp.txt has 2" in err


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
    assert captured.err.strip().endswith("scale:100|version:0.1.0")
