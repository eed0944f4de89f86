import math

import numpy as np
import pytest

from mtmeta import metrics
from mtmeta.metrics.lepor import align, factors


def test_hlepor_package_vector():
    # The hlepor test suite: r = 6 and c = 5 tokens, 4 aligned words.
    metric = metrics.get("hlepor")
    stats = metric.stats(["They claim at least."], [["At least they say so."]])
    assert stats[0].tolist() == pytest.approx([5, 6, 4, 6 / 25])
    expected = 10 / (2 / math.exp(-1 / 5) + 1 / math.exp(-6 / 25) + 7 * 59 / 40)
    assert metric.segment_scores(stats)[0] == pytest.approx(expected, abs=1e-12)
    assert expected == pytest.approx(0.71230, abs=1e-5)


def test_guide_to_action_worked_example():
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party"
    ref = "It is a guide to action that ensures that the military will forever heed Party commands"
    metric = metrics.get("hlepor", tokenize="none")
    stats = metric.stats([hyp], [[ref]])
    lp, npp, hpr = (f[0] for f in factors(stats, 9, 1))
    assert stats[0, :3].tolist() == [18, 16, 12]
    assert lp == pytest.approx(math.exp(1 - 18 / 16))
    assert stats[0, 3] == pytest.approx(0.0354938, abs=1e-7)
    assert npp == pytest.approx(0.9651287, abs=1e-7)
    assert hpr == pytest.approx(10 / (9 / (12 / 16) + 1 / (12 / 18)))
    assert metric.segment_scores(stats)[0] == pytest.approx(0.7842, abs=5e-5)
    three_two_one = metrics.get("hlepor", tokenize="none", weight_hpr=3)
    assert three_two_one.segment_scores(stats)[0] == pytest.approx(0.8161, abs=5e-5)
    assert metrics.get("lepor", tokenize="none").segment_scores(stats)[0] == pytest.approx(0.6309, abs=5e-5)


def test_context_decides_between_repeated_words():
    # "that" occurs twice in the reference. The first occurrence is nearer in relative position
    # (1/8 vs 7/8 against 2/8), but only the second is preceded by "ensures" as in the hypothesis.
    hyp = "ensures that a b c d e f".split()
    ref = "that x y z w ensures that q".split()
    assert dict(align(hyp, ref))[1] == 6
    # Without a confirming context the nearest relative position wins.
    assert dict(align("q that".split(), "that x y z w v that q".split()))[1] == 6
    assert align(["a", "b"], ["a", "c", "a"]) == [(0, 0)]


def test_system_level_variants():
    metric = metrics.get("hlepor", tokenize="none")
    stats = np.array([[5, 6, 4, 0.24], [3, 3, 3, 0.0]])
    segment = metric.segment_scores(stats)
    assert segment[1] == pytest.approx(1.0)
    assert metric.corpus_score(stats) == pytest.approx(segment.mean())
    lp, npp, hpr = (f.mean() for f in factors(stats, 9, 1))
    by_factors = metrics.get("hlepor", tokenize="none", system="mean-factors").corpus_score(stats)
    assert by_factors == pytest.approx(10 / (2 / lp + 1 / npp + 7 / hpr))


def test_degenerate_segments_score_zero():
    metric = metrics.get("hlepor", tokenize="none")
    assert metric.segment_scores(metric.stats(["", "a"], [["a", "b"]])).tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="one reference"):
        metric.stats(["a"], [["a"], ["b"]])


@pytest.mark.parametrize(("name", "window"), [("hlepor", 2), ("lepor", 1), ("hlepor", 0)])
def test_compiled_backend_gives_the_per_segment_statistics(name, window):
    """Random text with many repeated words (context decides, ties in relative position), empty
    segments and missing references: the compiled statistics equal align()'s exactly."""
    rng = np.random.default_rng(window)
    words = ["the", "a", "cat", "sat", "on", "mat", ".", ","]

    def text():
        return " ".join(rng.choice(words, size=rng.integers(0, 18)))

    hyps = [text() for _ in range(500)]
    refs = [text() for _ in range(500)]
    refs[3] = None
    stats = {backend: metrics.get(name, lang="en", window=window, backend=backend).stats(hyps, [refs])
             for backend in ("compiled", "python")}
    np.testing.assert_array_equal(stats["compiled"], stats["python"])
    assert (stats["compiled"][:, 2] > 3).sum() > 200 and (stats["compiled"][:, 3] > 0).sum() > 200
