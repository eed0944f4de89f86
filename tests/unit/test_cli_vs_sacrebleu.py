"""benchmarks/cli_vs_sacrebleu.py: the same command through sacrebleu 2.6.0 and `mtmeta score` gives the
same text (up to the documented signature mapping), checked here on a sample of its README cases;
the committed page was written from the current list of cases, and none of them mismatched."""

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "cli_vs_sacrebleu.py"


def load():
    spec = importlib.util.spec_from_file_location("cli_vs_sacrebleu", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


TOOL = load()
# json, text, --short, stdin, -sl, -ci, a table, stdin's columns, a paired test, its JSON, mtmeta's own form
SAMPLE = [0, 2, 3, 4, 11, 14, 17, 19, 20, 22, 25]


@pytest.fixture(scope="module")
def readme_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("readme")
    TOOL.write_readme_files(folder)
    return folder


@pytest.mark.parametrize("number", SAMPLE)
def test_the_same_command_gives_the_same_text(readme_files, number):
    case = TOOL.README_CASES[number]
    [result] = TOOL.compare([case], readme_files)
    assert result["ok"], f"sacrebleu {case.sacrebleu}:\n{result['sacrebleu']}\n\nmtmeta score {case.mtmeta}:\n" \
                         f"{result['mtmeta']}"


def test_the_signature_mapping_is_the_documented_one():
    mtmeta = "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|order:4|sacrebleu:2.6.0|mtmeta:0.1.0|bs:1000|seed:12345"
    assert TOOL.sacrebleu_signature(mtmeta) == \
        "nrefs:2|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert TOOL.sacrebleu_signature("#:1|c:mixed|e:yes|nc:6|nw:0|s:no|beta:2|sacrebleu:2.6.0|mtmeta:0.1.0") == \
        "#:1|c:mixed|e:yes|nc:6|nw:0|s:no|v:2.6.0"
    assert "order:5" in TOOL.sacrebleu_signature("nrefs:1|order:5|sacrebleu:2.6.0|mtmeta:0.1.0")  # not a default


def test_a_difference_is_caught():
    case = TOOL.Case("x", "x", TOOL.SIGNATURES)
    line = "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 48.5"
    ours = "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:4|sacrebleu:2.6.0|mtmeta:0.1.0 = 48.5"
    assert TOOL.outcome(case, line, ours)
    assert not TOOL.outcome(case, line, ours.replace("48.5", "48.6"))
    assert not TOOL.outcome(case, line, ours.replace("tok:13a", "tok:intl"))


def test_the_committed_page_lists_every_case_and_no_mismatch():
    page = TOOL.DOC.read_text(encoding="utf-8")
    assert "MISMATCH" not in page
    for case in TOOL.README_CASES + TOOL.WMT_CASES:
        stdin = f" < {case.stdin}" if case.stdin else ""
        assert f"| `sacrebleu {case.sacrebleu}{stdin}` | `mtmeta score {case.mtmeta}{stdin}` |" in page
