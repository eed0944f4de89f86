"""Paired tests between two systems with the same outputs: p = 1, never significant. sacrebleu
(checked here on the same input) gives 1 / (trials + 1) and marks them as differing."""

import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from mtmeta.metaeval.system_comparison import compare_systems
from mtmeta.metrics import get
from mtmeta.stats import paired

REFS = ["the cat sat on the mat", "a dog barks loudly", "hello world again", "this is a test"]
HYP = ["the cat sat on a mat", "a dog barked loudly", "hello world", "this is test"]
OTHER = ["a cat is on the mat", "the dog barks", "hello there world again", "this is a test"]


@pytest.mark.parametrize(("test", "n_samples"), [("bs", 1000), ("ar", 2000)])
def test_identical_systems_are_never_significant(test, n_samples):
    metric = get("bleu")
    stats = metric.stats(HYP, [REFS])
    table = compare_systems(metric, {"a": stats, "b": stats.copy(), "c": metric.stats(OTHER, [REFS])}, test,
                            n_samples)
    assert table.loc[1, "p_value"] == 1.0  # before: 1 / (n_samples + 1), "significant"
    assert table.loc[2, "p_value"] < 1.0
    # sacrebleu on the same input: the smallest p its count can give.
    run = PairedTest([("a", HYP), ("b", list(HYP))], {"m": BLEU()}, references=[REFS], test_type=test,
                     n_samples=n_samples, n_ar_confidence=-1)
    _, scores = run()
    [results] = [value for key, value in scores.items() if key != "System"]
    assert results[1].p_value == pytest.approx(1 / (n_samples + 1))


def test_a_zero_observed_difference_has_p_one():
    assert paired.paired_bootstrap_p([1.0, 2.0], [1.0, 2.0], 5.0, 5.0) == 1.0
    assert paired.randomisation_p([3.0, 3.0], [3.0, 3.0], 5.0, 5.0) == 1.0
    assert paired.randomisation_p([3.0, 1.0], [3.0, 1.0], 5.0, 4.0) == pytest.approx(1 / 3)  # otherwise unchanged
