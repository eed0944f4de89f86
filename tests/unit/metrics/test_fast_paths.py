"""The study's fast paths against the definitions they replace: TER's compiled edit counting against
sacrebleu's TER, bootstrap corpus scores of all draws at once against one draw at a time, and the
vectorised bootstrap correlations against scipy's."""

import math
import random

import numpy as np
import pytest
import sacrebleu

from mtmeta import metrics
from mtmeta.stats.correlation import correlation_rows, correlations

WORDS = "the a cat dog sat on mat house big small red , . and of to".split()


def random_text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


@pytest.mark.parametrize("params", [{}, {"case_sensitive": True}, {"normalized": True, "no_punct": True}])
def test_ter_kernel_equals_sacrebleu_on_random_text(params):
    rng = random.Random(7)
    hyps = [random_text(rng, rng.randint(0, 30)) for _ in range(150)]
    refs = [random_text(rng, rng.randint(0, 30)) for _ in range(150)]
    refs[0], hyps[1] = "", ""  # empty reference; empty hypothesis
    hyps[2] = refs[2] = "A b c"
    ours = metrics.get("ter", **params).stats(hyps, [refs])
    theirs = metrics.get("ter", backend="sacrebleu", **params).stats(hyps, [refs])
    np.testing.assert_array_equal(ours, theirs)
    assert ours[:, 0].sum() > 800  # real edit counts, not zeros


def test_ter_kernel_hits_sacrebleu_shift_limits():
    """Long, repetitive segments exhaust the 1000 shift candidates; very unequal lengths widen the beam."""
    rng = random.Random(3)
    hyps = [" ".join(rng.choice("a b c") for _ in range(120)), "x " * 200 + "y", "y"]
    refs = [" ".join(rng.choice("a b c") for _ in range(110)), "y", "x " * 200 + "y"]
    ours = metrics.get("ter").stats(hyps, [refs])
    theirs = metrics.get("ter", backend="sacrebleu").stats(hyps, [refs])
    np.testing.assert_array_equal(ours, theirs)


def test_ter_kernel_several_references_and_published_vectors():
    hyps = ["d e f g h a b c", "The dog bit the man.", "a"]
    refs1 = ["a b c d e f g h", "The dog had bit the man.", "b"]
    refs2 = ["a b c d e f g h x", "The dog bit the man .", "a"]
    ours = metrics.get("ter")
    stats = ours.stats(hyps, [refs1, refs2])
    np.testing.assert_array_equal(stats, metrics.get("ter", backend="sacrebleu").stats(hyps, [refs1, refs2]))
    assert ours.corpus_score(stats) == pytest.approx(sacrebleu.corpus_ter(hyps, [refs1, refs2]).score, abs=1e-12)
    one = ours.stats(["d e f g h a b c"], [["a b c d e f g h"]])
    assert 100 * one[0, 0] / one[0, 1] == pytest.approx(12.5)  # sacrebleu's one-shift vector


@pytest.mark.parametrize("name, params, integer", [
    ("bleu", {}, True), ("chrf", {}, True), ("ter", {}, False), ("nist", {}, False), ("wer", {}, True),
    ("hlepor", {}, False), ("hlepor", {"system": "mean-factors"}, False), ("wordmatch", {}, False),
])
def test_all_draws_at_once_equal_one_draw_at_a_time(name, params, integer):
    rng = np.random.default_rng(5)
    metric = metrics.get(name, lang="en", **params)
    text = random.Random(5)
    hyps = [random_text(text, text.randint(1, 25)) for _ in range(200)]
    refs = [random_text(text, text.randint(1, 25)) for _ in range(200)]
    stats = metric.stats(hyps, [refs])
    weights = rng.multinomial(200, np.full(200, 1 / 200), size=40)
    expected = np.array([metric.corpus_score_weighted(stats, w) for w in weights])
    np.testing.assert_array_equal(metric.corpus_scores_weighted(stats, weights), expected)  # bit for bit
    assert len(np.unique(expected)) > 30


def test_meteor_draws_equal_one_draw_at_a_time():
    from mtmeta.metrics.meteor import scoring

    rng = np.random.default_rng(2)
    n = 300
    stats = np.zeros((n, len(scoring.stat_names(["exact"]))))
    stats[:, 0] = rng.integers(5, 30, n)
    stats[:, 1] = rng.integers(5, 30, n)
    matched = np.minimum(stats[:, 0], stats[:, 1]) * rng.random(n)
    stats[:, 4] = stats[:, 6] = np.floor(matched)
    stats[:, -3] = np.minimum(stats[:, 4], rng.integers(1, 6, n))
    stats[:, -2] = stats[:, -1] = stats[:, 4]
    stats[:5, 0] = stats[:5, 1] = stats[:5, 4] = stats[:5, 6] = stats[:5, -2] = stats[:5, -1] = 10
    stats[:5, -3] = 1  # fully matched in one chunk: no chunks in the corpus sum
    metric = metrics.get("meteor", lang="en", modules=["exact"], weights=[1.0], function_words="none")
    weights = rng.multinomial(n, np.full(n, 1 / n), size=30)
    expected = np.array([metric.corpus_score_weighted(stats, w) for w in weights])
    np.testing.assert_array_equal(metric.corpus_scores_weighted(stats, weights), expected)


def test_bootstrap_correlations_equal_scipy_per_draw():
    rng = np.random.default_rng(1)
    m, h = rng.random((200, 13)), rng.random((200, 13))
    h[:50] = m[:50] + 0.1 * h[:50]
    m[5, 3] = np.nan  # a system without a score in one draw: that draw uses the others
    h[7, :] = h[7, 0]  # constant: undefined
    m[8] = np.round(m[8], 1)  # ties
    rows = correlation_rows(m, h)
    for d in range(len(m)):
        usable = ~(np.isnan(m[d]) | np.isnan(h[d]))
        single = correlations(m[d][usable], h[d][usable])
        for name in ("pearson", "spearman", "kendall"):
            if math.isnan(single[name]):
                assert math.isnan(rows[name][d])
            else:
                assert rows[name][d] == pytest.approx(single[name], abs=1e-12)
    assert np.isnan(rows["pearson"][7]) and not np.isnan(rows["pearson"][5])
