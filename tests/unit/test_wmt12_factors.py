"""tools/wmt12_factors.py: its text factor glues exactly the whitespace that Python's str.split (and so
sacreBLEU's 13a) breaks at but Perl's and Java's \\s do not, and its settings change one thing each."""

import importlib.util
import sys

import pytest

from mtmeta import metrics


@pytest.fixture(scope="module")
def factors(repo):
    spec = importlib.util.spec_from_file_location("wmt12_factors", repo / "tools" / "wmt12_factors.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["wmt12_factors"] = module
    spec.loader.exec_module(module)
    return module


def test_ascii_space_glues_every_non_ascii_space_and_nothing_else(factors):
    ascii_whitespace = set(" \t\n\r\x0b\x0c")
    for code in range(0x110000):
        char = chr(code)
        glued = factors.ascii_space(char) != char
        assert glued == (char.isspace() and char not in ascii_whitespace), hex(code)


def test_glued_no_break_space_keeps_the_words_together_as_wmt12_bleu_did(factors):
    """"mot\\xa0:" is one word to mteval (the official WMT12 BLEU), two to sacreBLEU's 13a."""
    bleu = metrics.get("bleu", lang="fr")
    ref = ["il dit : non"]
    hyp = ["il dit\xa0: non"]
    assert bleu.corpus_score(bleu.stats(hyp, [ref])) == pytest.approx(100.0)
    glued = bleu.corpus_score(bleu.stats(list(map(factors.ascii_space, hyp)), [list(map(factors.ascii_space, ref))]))
    assert glued < 50.0


def test_each_setting_is_one_change_from_a_study_metric(factors):
    english, czech = factors.settings("en"), factors.settings("cs")
    assert set(czech) - set(english) == {"meteor-wmt12-norm-nopara", "meteor-wmt12-norm-fw"}
    assert czech["meteor-wmt12-norm-nopara"][1]["modules"] == ["exact"]  # Czech: exact + paraphrase
    assert czech["meteor-wmt12-norm-nopara"][1]["weights"] == [1.0]
    assert {factors.baseline(s) for s in english} == {"bleu", "ter-wmt", "ter", "meteor"}
    assert factors.baseline("meteor-wmt12-norm") == "meteor" and factors.baseline("ter-wmt") == "ter-wmt"
