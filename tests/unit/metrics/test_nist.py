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

    def text(shortest=0):
        return " ".join(rng.choice(words, size=rng.integers(shortest, 16)))

    hyps = [text() for _ in range(400)]
    # the first stream never empty (a segment without reference words is an error, as in mteval-v13a)
    refs = [[text(1 if stream == 0 else 0) for _ in range(400)] for stream in range(references)]
    if references > 1:
        refs[1][5] = None
    stats = {backend: metrics.get("nist", lang="en", backend=backend).stats(hyps, refs) for backend in ("compiled",
                                                                                                        "python")}
    np.testing.assert_array_equal(stats["compiled"], stats["python"])
    assert (stats["compiled"][:, 7] > 0).sum() > 10  # trigram matches (repeats clipped)


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_a_segment_without_reference_words_is_an_error_as_in_mteval(backend):
    """mteval-v13a scores every segment with nist_length_penalty(hypothesis words / (reference words /
    references)): a segment whose references have no words divides by zero and the script stops. So
    it is an error naming the segment, empty hypothesis or not; before, both sides empty gave nan with a
    numpy warning and exit 0."""
    import warnings

    from mtmeta.errors import MtmetaError

    metric = metrics.get("nist", backend=backend)
    for hyps, refs, side in [(["a b", ""], [["a b", ""]], "reference is empty"),
                             (["a b", "x y"], [["a b", "  "]], "reference is empty"),
                             (["a", "b"], [["a", ""], ["a", None]], "references are all empty")]:
        with pytest.raises(MtmetaError, match=rf"^nist: segment 2: the {side} \(no words after tokenisation\), so "
                                              r"NIST's length penalty .* is undefined; mteval-v13a stops on such a "
                                              r"segment \('Illegal division by zero'\)"):
            metric.stats(hyps, refs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning on the way
        # An empty hypothesis against a real reference is defined: ratio 0, BP 0, NIST 0 (as mteval).
        stats = metric.stats(["a b", ""], [["a b", "c d"]])
        assert metric.segment_scores(stats).tolist()[1] == 0.0
        # One empty reference beside a non-empty one: the average reference length is 1.
        stats = metric.stats(["a", "b"], [["a", ""], ["a", "b b"]])
        assert stats[1, -1] == 1.0 and metric.segment_scores(stats)[1] > 0
    stats[0, -1] = 0  # statistics from elsewhere: the same rule, no nan
    with pytest.raises(MtmetaError, match=r"^nist: statistics row 1 has an average reference length of 0"):
        metric.segment_scores(stats)
