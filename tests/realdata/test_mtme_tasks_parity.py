"""mtmeta's task sets against mt-metrics-eval's own code on real data: the WMT23 and WMT24 designs on the WMT21
news and TED pairs (en-de, en-ru, zh-en), BLEU and chrF as stored metric scores
(tests/fixtures/mtme_tasks/build_root.py builds the root from the mirror; make_reference.py ran
MTME's tasks.py on it, outside the project; wmt21_news_wmt23.json and wmt21_ted.json hold its values
and provenance). Every value, order and average equals MTME's to the last bit; the p-values (news),
drawn by both from different generators, agree within five standard errors, and the clusters agree
wherever MTME's p-value is clear of the threshold."""

import hashlib
import json
import math
from pathlib import Path

import pytest

from mtmeta.metaeval.tasks import official_task_set, run_task_set

pytestmark = pytest.mark.realdata
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mtme_tasks"
REFERENCE = json.loads((FIXTURES / "wmt21_news_wmt23.json").read_text())
TED_REFERENCE = json.loads((FIXTURES / "wmt21_ted.json").read_text())
PAIRS = ["en-de", "en-ru", "zh-en"]
STD_REFS = {("wmt21.news", "zh-en"): "refA"}


@pytest.fixture(scope="module")
def root(tmp_path_factory, mirror):
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_root", FIXTURES / "build_root.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build(mirror, tmp_path_factory.mktemp("mtme_root"))


def test_inputs_are_the_fixtures_inputs(root):
    for relative, digest in REFERENCE["inputs_sha256"].items():
        assert hashlib.sha256((root / "wmt21.news" / relative).read_bytes()).hexdigest() == digest, relative


def test_values_and_average_equal_mtme_bit_for_bit(root):
    result = run_task_set(official_task_set("wmt23", lps=PAIRS, test_set="wmt21.news", k=0), root,
                          std_refs=STD_REFS)
    assert result.task_set.weights == REFERENCE["weights"]
    for ours, theirs in zip(result.tasks, REFERENCE["tasks"], strict=True):
        assert (ours.task.lang, ours.task.level, ours.task.corr_fcn) == (theirs["lang"], theirs["level"],
                                                                         theirs["corr_fcn"])
        assert ours.ranking.names == theirs["order"]
        assert dict(zip(ours.ranking.names, ours.ranking.values, strict=True)) == theirs["values"]
    assert {m: v for m, (v, _) in result.average.items()} == REFERENCE["average"]
    assert list(result.average) == list(REFERENCE["average"])


def test_significance_agrees_with_mtme(root):
    result = run_task_set(official_task_set("wmt23", lps=PAIRS, test_set="wmt21.news", k=1000), root,
                          std_refs=STD_REFS)
    checks = [(ours.ranking.p_values[0, 1], int(ours.ranking.draws[0, 1]), theirs["k1000_p_value"],
               dict(zip(ours.ranking.names, ours.ranking.ranks, strict=True)), theirs["k1000_ranks"])
              for ours, theirs in zip(result.tasks, REFERENCE["tasks"], strict=True)]
    checks.append((result.p_values[0, 1], 1000, REFERENCE["k1000_average_p_value"],
                   {m: r for m, (_, r) in result.average.items()}, REFERENCE["k1000_average_ranks"]))
    for ours, draws, theirs, our_ranks, their_ranks in checks:
        p = min(max(theirs, 0.01), 0.99)
        error = math.sqrt(p * (1 - p) / min(draws, 100 if theirs > 0.5 or theirs < 0.02 else 1000))
        assert abs(ours - theirs) <= 5 * error, (ours, theirs)
        if abs(theirs - 0.05) > 4.5 * math.sqrt(0.05 * 0.95 / 1000):
            assert our_ranks == their_ranks


def test_wmt24_design_equals_mtme_bit_for_bit(root):
    # soft pairwise accuracy (MTME's pce.py: default_rng(4), float32) and acc_eq, equal weights
    reference = REFERENCE["wmt24_design"]
    result = run_task_set(official_task_set("wmt24", lps=PAIRS, test_set="wmt21.news", k=0), root, std_refs=STD_REFS)
    assert result.task_set.weights == reference["weights"]
    for ours, theirs in zip(result.tasks, reference["tasks"], strict=True):
        assert (ours.task.lang, ours.task.corr_fcn) == (theirs["lang"], theirs["corr_fcn"])
        assert ours.ranking.names == theirs["order"]
        assert dict(zip(ours.ranking.names, ours.ranking.values, strict=True)) == theirs["values"]
    assert {m: v for m, (v, _) in result.average.items()} == reference["average"]


def test_ted_inputs_are_the_fixtures_inputs(root):
    for relative, digest in TED_REFERENCE["inputs_sha256"].items():
        assert hashlib.sha256((root / "wmt21.tedtalks" / relative).read_bytes()).hexdigest() == digest, relative


@pytest.mark.parametrize("design", ["wmt23", "wmt24"])
def test_ted_equals_mtme_bit_for_bit(root, design):
    # MTME's standard references (refA, refA, refB); human translations where a pair has several
    # references (zh-en) and in the pooled task, as MTME ran with human=True there and False elsewhere
    reference = TED_REFERENCE[f"{design}_design"]
    result = run_task_set(official_task_set(design, lps=PAIRS, test_set="wmt21.tedtalks", k=0), root)
    assert result.task_set.weights == reference["weights"]
    for ours, theirs in zip(result.tasks, reference["tasks"], strict=True):
        assert (ours.task.lang, ours.task.level, ours.task.corr_fcn) == (theirs["lang"], theirs["level"],
                                                                         theirs["corr_fcn"])
        assert ours.human_used == theirs["human"]
        assert ours.ranking.names == theirs["order"]
        assert dict(zip(ours.ranking.names, ours.ranking.values, strict=True)) == theirs["values"]
    assert {m: v for m, (v, _) in result.average.items()} == reference["average"]
    assert list(result.average) == list(reference["average"])
