"""`mtmeta score` with sacrebleu's command line (issue 31) and its bad-input cases (issue 32): values
are sacrebleu 2.6.0's on the same files; every error exits 2 with a message naming what is wrong."""

import io
import json
import subprocess
import sys

import pytest
import sacrebleu
import yaml

from mtmeta.app.cli import main
from mtmeta.app.config import DEFAULT_CONFIG

HYP = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REF1 = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
REF2 = ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]
SYS2 = ["The dog bit a man.", "It was surprising.", "The man bit him."]


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, lines in {"hyp.txt": HYP, "ref1.txt": REF1, "ref2.txt": REF2, "sys2.txt": SYS2}.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def score(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8"))))
    try:
        code = main(["score", *argv])
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_sacrebleus_form_defaults_to_bleu_json_one_decimal(files, capsys):
    code, out, _ = score(capsys, "ref1.txt", "ref2.txt", "-i", "hyp.txt")
    record = json.loads(out)
    assert code == 0 and record["name"] == "BLEU" and record["score"] == 48.5
    assert record["verbose_score"] == "82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)"
    assert record["signature"].startswith("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|") and record["nrefs"] == "2"


def test_a_score_on_the_unit_interval_keeps_four_decimals_in_sacrebleus_form(files, capsys):
    """sacrebleu's one decimal is for scores out of 100: hLEPOR's 0.76 would print as 0.8."""
    from mtmeta.metrics import get

    exact = get("hlepor").corpus_score(get("hlepor").stats(HYP, [REF1]))
    code, out, _ = score(capsys, "ref1.txt", "-i", "hyp.txt", "-m", "hlepor", "-f", "text")
    assert code == 0 and out.rstrip().endswith(f"= {exact:.4f}") and round(exact, 1) != round(exact, 4)
    code, out, _ = score(capsys, "ref1.txt", "-i", "hyp.txt", "-m", "hlepor", "-f", "text", "-w", "2")
    assert code == 0 and out.rstrip().endswith(f"= {exact:.2f}")  # an explicit width wins
    code, out, _ = score(capsys, "ref1.txt", "-i", "hyp.txt", "-m", "bleu", "-f", "text")
    assert code == 0 and " = 45.1 70.6/" in out  # BLEU alone keeps sacrebleu's width


def test_the_two_forms_are_told_apart_by_how_metrics_are_named(files, capsys):
    mtmeta_form = score(capsys, "bleu", "--ref", "ref1.txt", "--ref", "ref2.txt", "--hyp", "hyp.txt")[1]
    assert mtmeta_form.startswith("48.530827\tBLEU|nrefs:2|")
    with_m = score(capsys, "-m", "bleu", "--ref", "ref1.txt", "--ref", "ref2.txt", "-i", "hyp.txt")[1]
    assert json.loads(with_m)["score"] == 48.5
    text = score(capsys, "ref1.txt", "ref2.txt", "-i", "hyp.txt", "-m", "chrf", "bleu", "-f", "text", "-w", "3")[1]
    lines = text.splitlines()  # sacrebleu's order (sorted names) and its alignment on '='
    assert lines[0].startswith(" BLEU|nrefs:2") and lines[1].startswith("chrF2|nrefs:2")
    assert lines[0].index("=") == lines[1].index("=") and " = 59.728" in lines[1]
    code, _, err = score(capsys, "bleu", "ref1.txt", "-i", "hyp.txt")
    assert code == 2 and "'bleu' is read as a reference file" in err and "mtmeta score bleu --ref REF" in err


def test_standard_input_columns_are_systems_as_in_sacrebleu(files, capsys, monkeypatch):
    both = "".join(f"{a}\t{b}\n" for a, b in zip(HYP, SYS2, strict=True))
    code, out, _ = score(capsys, "ref1.txt", "ref2.txt", stdin=both, monkeypatch=monkeypatch)
    records = json.loads(out)
    assert code == 0 and [r["system"] for r in records] == ["System 1", "System 2"]
    assert float(records[1]["BLEU"]) == round(sacrebleu.corpus_bleu(SYS2, [REF1, REF2]).score, 1)
    code, _, err = score(capsys, "ref1.txt", stdin="a\tb\nc\n", monkeypatch=monkeypatch)
    assert code == 2 and "<stdin>:2: 1 tab-separated fields but line 1 has 2" in err


def test_tab_separated_references_with_num_refs(files, capsys):
    (files / "refs.tsv").write_text("".join(f"{a}\t{b}\n" for a, b in zip(REF1, REF2, strict=True)))
    assert json.loads(score(capsys, "refs.tsv", "-nr", "2", "-i", "hyp.txt", "-w", "6")[1])["score"] == 48.530827
    (files / "bad.tsv").write_text("a\tb\nc\n")
    code, _, err = score(capsys, "bad.tsv", "-nr", "2", "-i", "hyp.txt")
    assert code == 2 and "bad.tsv:2: 1 tab-separated references; expected 2 (-nr 2)" in err


def test_sacrebleus_metric_options_set_their_metric_only(files, capsys):
    out = score(capsys, "ref1.txt", "-i", "hyp.txt", "-m", "bleu", "chrf", "-lc", "-tok", "intl", "-w", "6")[1]
    bleu, chrf = json.loads(out)
    assert bleu["score"] == round(sacrebleu.corpus_bleu(HYP, [REF1], lowercase=True, tokenize="intl").score, 6)
    assert chrf["case"] == "mixed" and chrf["score"] == round(sacrebleu.corpus_chrf(HYP, [REF1]).score, 6)
    out = score(capsys, "ref1.txt", "-i", "hyp.txt", "-m", "chrf", "-cw", "2", "--chrf-lowercase", "-w", "6")[1]
    expected = sacrebleu.CHRF(word_order=2, lowercase=True).corpus_score(HYP, [REF1])
    assert json.loads(out)["name"] == "chrF2++" and json.loads(out)["score"] == round(expected.score, 6)
    out = score(capsys, "ref1.txt", "-i", "hyp.txt", "-m", "ter", "--ter-case-sensitive", "-w", "6")[1]
    assert json.loads(out)["score"] == round(sacrebleu.TER(case_sensitive=True).corpus_score(HYP, [REF1]).score, 6)
    code, _, err = score(capsys, "ref1.txt", "-i", "hyp.txt", "-m", "chrf", "-lc")
    assert code == 2 and "-lc/--lowercase sets BLEU's lowercase (as in sacrebleu), but no BLEU is scored" in err
    # --set overrides the options
    out = score(capsys, "ref1.txt", "-i", "hyp.txt", "-tok", "intl", "--set", "tokenize=none", "-f", "text")[1]
    assert "|tok:none|" in out


def test_sentence_level_lines_and_score_only(files, capsys):
    out = score(capsys, "ref1.txt", "ref2.txt", "-i", "hyp.txt", "-sl")[1].splitlines()
    expected = sacrebleu.sentence_bleu(HYP[1], [REF1[1], REF2[1]])
    assert len(out) == 3 and out[1].endswith(f"= {expected.score:.1f} {expected._verbose}")
    assert out[1].startswith("BLEU|nrefs:2|case:mixed|eff:yes|")
    only = score(capsys, "ref1.txt", "ref2.txt", "-i", "hyp.txt", "-m", "ter", "-sl", "-b")[1].split()
    assert only == ["0.0", "75.0", "54.5"]
    code, _, err = score(capsys, "ref1.txt", "-i", "hyp.txt", "-m", "bleu", "chrf", "-sl")
    assert code == 2 and "sacrebleu's form prints one metric at segment level" in err


def test_short_signatures_and_score_only_in_mtmeta_form(files, capsys):
    out = score(capsys, "bleu", "chrf", "--ref", "ref1.txt", "--hyp", "hyp.txt", "--short")[1].splitlines()
    assert out[0].split("\t")[1].startswith("BLEU|#:1|c:mixed|e:no|tok:13a|s:exp|order:4|")
    assert out[1].split("\t")[1].startswith("chrF|#:1|c:mixed|e:yes|nc:6|nw:0|s:no|")
    assert score(capsys, "bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "-b", "-w", "2")[1].strip() == \
        f"{sacrebleu.corpus_bleu(HYP, [REF1]).score:.2f}"
    record = json.loads(score(capsys, "bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "-f", "json")[1])
    assert record["details"]["hyp_len"] == 17 and record["details"]["counts"][0] == 12


def test_several_systems_in_sacrebleus_table_forms(files, capsys):
    latex = score(capsys, "ref1.txt", "ref2.txt", "-i", "hyp.txt", "sys2.txt", "-m", "bleu", "-f", "latex")[1]
    assert "\\begin{tabular}{rc}" in latex and "\n  hyp.txt &  48.5  \\\\\n sys2.txt &  35.8  \\\\" in latex
    assert " - BLEU       nrefs:2|case:mixed|eff:no|" in latex
    text = score(capsys, "ref1.txt", "ref2.txt", "-i", "hyp.txt", "sys2.txt", "-m", "bleu", "--paired-bs",
                 "-f", "text")[1]
    assert "│ Baseline: hyp.txt │ 48.5 (47.0 ± 46.8)  │" in text and "(p = 0.1439)" in text
    assert "Paired bootstrap resampling test with 1000 resampling trials" in text and "|bs:1000|seed:12345" in text


def test_a_baseline_repeated_in_a_paired_test_is_dropped_with_a_note(files, capsys):
    code, out, err = score(capsys, "ref1.txt", "-i", "hyp.txt", "hyp.txt", "sys2.txt", "--paired-ar", "-parn", "100")
    assert code == 0 and "ignoring 'hyp.txt' at position 2 of -i: it is the baseline" in err
    assert [record["system"] for record in json.loads(out)] == ["Baseline: hyp.txt", "sys2.txt"]


@pytest.mark.parametrize(("argv", "message"), [
    (["bleu", "--ref", "ref1.txt", "--hyp", "."],
     ".: is a directory, given as a hypothesis file; expected a text file"),
    (["bleu", "--ref", ".", "--hyp", "hyp.txt"], ".: is a directory, given as a reference file"),
    ([".", "-i", "hyp.txt"], ".: is a directory, given as a reference file"),
    (["ref1.txt", "-i", "hyp.txt", "."], ".: is a directory, given as a hypothesis file"),
    (["bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "sys2.txt", "hyp.txt"],
     "-i/--hyp: hyp.txt is given twice (positions 1 and 3); a system is named by its path"),
    (["bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "--hyp", "hyp.txt"],  # the flag repeated, not replaced
     "-i/--hyp: hyp.txt is given twice (positions 1 and 2); a system is named by its path"),
    (["bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "--config", "/nonexistent.yaml"],
     "config file /nonexistent.yaml not found"),
    (["bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "--set", "tokenize=[unclosed"],
     "--set 'tokenize=[unclosed': the value '[unclosed' is not valid YAML"),
    (["bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "--set", "lowercase=yes"],
     "bleu: parameter lowercase='yes' has the wrong type; expected lowercase: bool (default False); a boolean is "
     "true or false (or 1 or 0)"),
    (["bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "--set", "novalue"], "--set 'novalue': expected KEY=VALUE"),
    (["bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "sys2.txt", "--paired-bs", "--seed", "-1"],
     "argument --seed: '-1' is not a seed; expected an integer from 0 to 4294967295"),
    (["blue", "--ref", "ref1.txt", "--hyp", "hyp.txt"], "unknown metric 'blue'; did you mean 'bleu'"),
    (["ref1.txt", "-i", "hyp.txt", "-m", "blue"], "unknown metric 'blue'; did you mean 'bleu'"),
    (["-m", "bleu", "ref1.txt", "-i", "hyp.txt"], "-m takes every word after it, and ref1.txt is a file"),
    (["ref1.txt", "-t", "wmt12", "-l", "en-cs"], "give references either as files or as a test set (-t), not both"),
    (["ref1.txt", "-t", "wmt12", "-l", "en-cs", "-m", "bleu"],
     "give either reference files or a test set (-t), not both"),
    (["-t", "wmt21", "-l", "en-de", "-i", "hyp.txt"],
     "-t wmt21: not a test set of the study; did you mean 'wmt14' or 'wmt13' or 'wmt12'?"),
    (["-t", "wmt12", "-i", "hyp.txt"], "-t wmt12 needs a language pair (-l); it has cs-en, de-en"),
    (["-t", "wmt12", "-l", "en-xx", "-i", "hyp.txt"], "-l en-xx: wmt12 has no such language pair"),
    (["--echo", "src"], "--echo prints fields of a test set: give -t DATASET -l SRC-TRG"),
])
def test_bad_input_is_a_named_error(files, capsys, argv, message):
    code, _, err = score(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_lowercase_true_and_one_are_booleans(files, capsys):
    for value in ("true", "True", "1"):
        out = score(capsys, "bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "--set", f"lowercase={value}")[1]
        assert "|case:lc|" in out


def test_chrf_without_any_order_is_an_error_not_a_traceback(files):
    """The metric refuses it (its message is the metric's); the command exits 2 with that one line."""
    done = subprocess.run([sys.executable, "-m", "mtmeta", "score", "chrf", "--ref", "ref1.txt", "--hyp", "hyp.txt",
                           "--set", "char_order=0", "--set", "word_order=0"], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("mtmeta score: error: ") and done.stderr.count("\n") == 1
    assert "chrf: parameters char_order=0, word_order=0: expected char_order + word_order >= 1" in done.stderr


def test_a_config_definition_of_an_id_wins_as_in_the_workflow(files, capsys):
    config = yaml.safe_load(DEFAULT_CONFIG.read_text())
    config["metric_settings"]["bleu"] = {"metric": "bleu", "params": {"tokenize": "intl"}}
    (files / "config.yaml").write_text(yaml.safe_dump(config))
    (files / "sources.yaml").write_text((DEFAULT_CONFIG.parent / "sources.yaml").read_text())
    intl = sacrebleu.corpus_bleu(HYP, [REF1], tokenize="intl").score
    out = score(capsys, "bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt", "--config", "config.yaml")[1]
    assert out.startswith(f"{intl:.6f}\tBLEU|nrefs:1|case:mixed|eff:no|tok:intl|")
    out = score(capsys, "ref1.txt", "-i", "hyp.txt", "--config", "config.yaml", "-w", "6")[1]
    assert json.loads(out)["score"] == round(intl, 6)
    out = score(capsys, "bleu", "--ref", "ref1.txt", "--hyp", "hyp.txt")[1]  # the study's config: 13a
    assert "|tok:13a|" in out


def test_a_config_that_extends_the_studys_has_its_ids(files, capsys):
    """--config FILE resolves ids as the workflow does: those of the files it extends too."""
    (files / "mine.yaml").write_text(f"extends: {DEFAULT_CONFIG}\n")
    code, out, _ = score(capsys, "ter-wmt", "--ref", "ref1.txt", "--hyp", "hyp.txt", "--config", "mine.yaml")
    assert code == 0 and "|tok:tercom-0.7.25|norm:yes|" in out


def test_a_closed_standard_input_is_an_error(files):
    done = subprocess.run([sys.executable, "-m", "mtmeta", "score", "ref1.txt"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "<stdin>:1: file is empty (hypotheses)" in done.stderr
    done = subprocess.run(f"{sys.executable} -m mtmeta score ref1.txt <&-", shell=True, capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "standard input is closed" in done.stderr


def test_test_set_echo_and_scoring_from_the_mirror(mirror, tmp_path, capsys, monkeypatch):
    """-t/-l read the study's WMT12 en-cs from the mirror (fetched into --resources); -t's reference
    scores as the same file given by hand."""
    monkeypatch.chdir(tmp_path)
    code, out, _ = score(capsys, "-t", "wmt12", "-l", "en-cs", "--echo", "src", "ref", "onlineB",
                         "--resources", "res")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3003
    assert lines[0].split("\t")[:2] == ["Parliament Does Not Support Amendment Freeing Tymoshenko",
                                        "Parlament nepodpořil novelu osvobozující Tymošenkovou"]
    (tmp_path / "ref.cs").write_text("\n".join(line.split("\t")[1] for line in lines) + "\n", encoding="utf-8")
    (tmp_path / "sys.cs").write_text("\n".join(line.split("\t")[2] for line in lines) + "\n", encoding="utf-8")
    by_test_set = score(capsys, "-t", "wmt12", "-l", "en-cs", "-i", "sys.cs", "-m", "bleu", "chrf", "-f", "text",
                        "-w", "6", "--resources", "res")[1]
    by_file = score(capsys, "ref.cs", "-i", "sys.cs", "-m", "bleu", "chrf", "-f", "text", "-w", "6")[1]
    assert by_test_set == by_file
    expected = sacrebleu.corpus_bleu([line.split("\t")[2] for line in lines], [[line.split("\t")[1] for line in lines]])
    assert f"= {expected.score:.6f} {expected._verbose}" in by_file
    code, _, err = score(capsys, "-t", "wmt12", "-l", "en-cs", "--echo", "bogus", "--resources", "res")
    assert code == 2 and "--echo bogus: no such field of wmt12 en-cs (fields: src, ref, CU_TectoMT" in err
