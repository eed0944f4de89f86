"""Paired tests and confidence intervals (mtmeta.metaeval.system_comparison) against sacrebleu's own
implementation (sacrebleu.significance.PairedTest) on real WMT12 English-Czech systems."""

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

from mtmeta.app.config import load_config
from mtmeta.data.prepare import prepare
from mtmeta.metaeval.system_comparison import compare_systems
from mtmeta.metrics import get

pytestmark = pytest.mark.realdata
SYSTEMS = ["onlineB", "cu-depfix", "uedin-wmt12", "CU_TectoMT"]  # the first is the baseline


@pytest.fixture(scope="module")
def texts(fetch_sources):
    resources = fetch_sources("paired", ["wmt12_data", "wmt12_judgments"])
    segments = prepare("wmt12", load_config()["datasets"]["wmt12"], "en-cs", resources).segments
    segments = segments.sort_values(["system", "seg_id"])
    hyps = {name: segments.loc[segments["system"] == name, "hypothesis"].tolist() for name in SYSTEMS}
    refs = segments.loc[segments["system"] == SYSTEMS[0], "reference"].tolist()
    return hyps, refs


def sacrebleu_results(hyps, refs, metric, test, n_samples, confidence_n=-1):
    test_run = PairedTest(list(hyps.items()), {"m": metric}, references=[refs], test_type=test, n_samples=n_samples,
                          n_ar_confidence=confidence_n)
    _, scores = test_run()
    [results] = [value for key, value in scores.items() if key != "System"]
    return results


@pytest.mark.parametrize(("ours", "theirs", "test", "n_samples", "first"), [
    ("bleu", BLEU, "bs", 1000, None),
    ("chrf", CHRF, "bs", 1000, None),
    ("bleu", BLEU, "ar", 2000, None),
    ("chrf", CHRF, "ar", 2000, None),
    ("ter", TER, "bs", 300, 400),  # sacrebleu's TER takes seconds per hundred segments
])
def test_paired_tests_equal_sacrebleus(texts, ours, theirs, test, n_samples, first):
    hyps, refs = texts
    if first:
        hyps, refs = {name: lines[:first] for name, lines in hyps.items()}, refs[:first]
    confidence_n = 500 if test == "ar" else n_samples
    expected = sacrebleu_results(hyps, refs, theirs(), test, n_samples, confidence_n)
    metric = get(ours)
    table = compare_systems(metric, {name: metric.stats(lines, [refs]) for name, lines in hyps.items()}, test,
                            n_samples, confidence_n, seed=12345)
    for row, result in zip(table.itertuples(), expected, strict=True):
        assert row.score == pytest.approx(result.score, abs=1e-9)
        assert row.mean == pytest.approx(result.mean, rel=1e-5)  # sacrebleu sums float32 statistics
        assert row.ci == pytest.approx(result.ci, rel=1e-3, abs=1e-4)
        if row.Index == 0:
            assert result.p_value is None
        else:
            assert row.p_value == result.p_value  # the same draws give the same count
    assert table["p_value"].iloc[1:].between(0, 1).all()
