"""make check-results: a headline number passes within half a unit of the 4th decimal, and a wrong,
ambiguous or missing one fails with its reason."""

import importlib.util
from pathlib import Path

import pytest
import yaml

SCRIPT = Path(__file__).resolve().parents[1] / "headline" / "check_results.py"


def load():
    spec = importlib.util.spec_from_file_location("check_results", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_checks_pass_and_fail(tmp_path, capsys):
    results = tmp_path / "results"
    (results / "t").mkdir(parents=True)
    (results / "t" / "x.tsv").write_text(
        "metric\tlp\tpearson\nbleu\ten-cs\t0.78912\nter\ten-cs\t0.5\nter\ten-cs\t0.6\n")
    checks = [
        {"name": "ok", "file": "t/x.tsv", "where": {"metric": "bleu"}, "column": "pearson", "expected": 0.7891},
        {"name": "off", "file": "t/x.tsv", "where": {"metric": "bleu"}, "column": "pearson", "expected": 0.7890},
        {"name": "two rows", "file": "t/x.tsv", "where": {"metric": "ter"}, "column": "pearson", "expected": 0.5},
        {"name": "gone", "file": "t/y.tsv", "where": {}, "column": "pearson", "expected": 0.5},
    ]
    expected = tmp_path / "expected.yaml"
    expected.write_text(yaml.safe_dump({"checks": checks}))
    module = load()
    assert module.main(["--results", str(results), "--expected", str(expected)]) == 1
    out = capsys.readouterr().out
    assert "ok   ok: 0.7891" in out and "FAIL off: 0.7891 (expected 0.7890)" in out
    assert "2 rows match" in out and "y.tsv: missing" in out and "1 passed, 3 failed" in out
    expected.write_text(yaml.safe_dump({"checks": checks[:1]}))
    assert module.main(["--results", str(results), "--expected", str(expected)]) == 0


def test_the_extended_checks_run_only_when_asked(tmp_path, capsys):
    results = tmp_path / "results"
    (results / "t").mkdir(parents=True)
    (results / "t" / "x.tsv").write_text("metric\tpearson\nbleu\t0.5\n")
    expected = tmp_path / "expected.yaml"
    expected.write_text(yaml.safe_dump({
        "checks": [{"name": "default", "file": "t/x.tsv", "where": {"metric": "bleu"}, "column": "pearson",
                    "expected": 0.5}],
        "extended_checks": [{"name": "extended", "file": "t/extended.tsv", "where": {}, "column": "pearson",
                             "expected": 0.5}]}))
    module = load()
    assert module.main(["--results", str(results), "--expected", str(expected)]) == 0
    assert "extended" not in capsys.readouterr().out
    assert module.main(["--results", str(results), "--expected", str(expected), "--extended"]) == 1
    out = capsys.readouterr().out
    assert "FAIL extended: " in out and "extended.tsv: missing" in out and "1 passed, 1 failed" in out
    expected.write_text(yaml.safe_dump({"checks": []}))  # --extended on a file without them: an error
    with pytest.raises(SystemExit) as stop:
        module.main(["--results", str(results), "--expected", str(expected), "--extended"])
    assert stop.value.code == 2 and "no extended_checks, which --extended checks" in capsys.readouterr().err


def test_expected_file_is_complete():
    expected = yaml.safe_load((SCRIPT.parent / "expected.yaml").read_text())
    for key, least in (("checks", 10), ("extended_checks", 3)):
        checks = expected[key]
        assert len(checks) >= least
        assert all(isinstance(c["expected"], float) and c["file"] and c["column"] for c in checks)
