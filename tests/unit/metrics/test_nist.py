import math

import pytest

from mtmeta import metrics

REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]
HYP1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
HYP2 = "It is to insure the troops forever hearing the activity guidebook that party direct"


@pytest.mark.parametrize(("hyp", "expected"), [(HYP1, 5.0379), (HYP2, 2.1139)])
def test_mteval_v13a_published_vector(hyp, expected):
    metric = metrics.get("nist")
    stats = metric.stats([hyp], [[ref] for ref in REFS])
    assert metric.corpus_score(stats) == pytest.approx(expected, abs=5e-5)
    assert metric.signature().startswith("NIST|nrefs:3|case:mixed|tok:13a|order:5")


def test_hand_computed_information_and_brevity_penalty():
    # One reference "a b a c" (4 words): info(a) = log2(4/2) = 1, info(b) = info(c) = log2(4/1) = 2,
    # info(a b) = log2(count(a)/count(a b)) = log2(2/1) = 1, info(b a) = log2(1/1) = 0.
    metric = metrics.get("nist", tokenize="none")
    stats = metric.stats(["a b"], [["a b a c"]])
    # Unigrams: a (1) + b (2) over 2 hypothesis unigrams = 1.5; bigram "a b": 1 over 1 = 1.
    # Length ratio 2/4 = 0.5: BP = exp(beta * ln(0.5)^2), beta = ln 0.5 / ln(1.5)^2.
    beta = math.log(0.5) / math.log(1.5) ** 2
    assert metric.corpus_score(stats) == pytest.approx(2.5 * math.exp(beta * math.log(0.5) ** 2), abs=1e-12)
    # Clipping at the maximum count in one reference: "a a a" against "a b a c" matches a twice.
    stats = metric.stats(["a a a c"], [["a b a c"]])
    assert stats[0, 5] == pytest.approx(2 * 1 + 2)  # two clipped a's and one c


def test_brevity_penalty_is_one_half_at_two_thirds():
    metric = metrics.get("nist", tokenize="none", max_ngram_order=1)
    # Every word unique: info = log2(6) each; ratio 4/6.
    stats = metric.stats(["a b c d"], [["a b c d e f"]])
    assert metric.corpus_score(stats) == pytest.approx(math.log2(6) * 0.5, abs=1e-12)


def test_lowercasing_changes_the_score():
    assert metrics.get("nist", lowercase=True).signature().startswith("NIST|nrefs:?|case:lc")


@pytest.mark.parametrize("references", [1, 3])
def test_compiled_backend_gives_the_per_segment_statistics(references):
    """Random text over a small vocabulary (repeated n-grams, short and empty segments, missing
    references): the compiled statistics equal the per-segment loop's exactly."""
    import numpy as np

    rng = np.random.default_rng(references)
    words = ["a", "b", "c", "d", "e", "f", ".", ","]

    def text():
        return " ".join(rng.choice(words, size=rng.integers(0, 16)))

    hyps = [text() for _ in range(400)]
    refs = [[text() for _ in range(400)] for _ in range(references)]
    if references > 1:
        refs[1][5] = None
    stats = {backend: metrics.get("nist", lang="en", backend=backend).stats(hyps, refs) for backend in ("compiled",
                                                                                                        "python")}
    np.testing.assert_array_equal(stats["compiled"], stats["python"])
    assert (stats["compiled"][:, 7] > 0).sum() > 10  # trigram matches (repeats clipped)
