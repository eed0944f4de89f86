import jiwer
import numpy as np
import pytest

from mtmeta import metrics


def test_wer_equals_jiwer_on_random_tokens():
    rng = np.random.default_rng(3)
    vocab = list("abcdefgh")
    hyps = [" ".join(rng.choice(vocab, size=rng.integers(1, 12))) for _ in range(200)]
    refs = [" ".join(rng.choice(vocab, size=rng.integers(1, 12))) for _ in range(200)]
    metric = metrics.get("wer", tokenize="none")
    stats = metric.stats(hyps, [refs])
    assert metric.corpus_score(stats) == pytest.approx(100 * jiwer.wer(refs, hyps), abs=1e-9)
    expected = [100 * jiwer.wer(r, h) for h, r in zip(hyps, refs, strict=True)]
    np.testing.assert_allclose(metric.segment_scores(stats), expected)


@pytest.mark.parametrize(
    ("hyp", "ref", "wer", "per"),
    [
        ("a b c", "a b c", 0.0, 0.0),
        ("c b a", "a b c", 200 / 3, 0.0),  # two substitutions; the same bag of words
        ("a b c d e", "a b c", 200 / 3, 200 / 3),  # two insertions; PER counts the surplus words
        ("a", "a b c d", 75.0, 75.0),
        ("", "a b", 100.0, 100.0),
        ("x", "", 100.0, 100.0),
        ("", "", 0.0, 0.0),
    ],
)
def test_hand_computed_rates(hyp, ref, wer, per):
    for name, expected in (("wer", wer), ("per", per)):
        metric = metrics.get(name, tokenize="none")
        assert metric.segment_scores(metric.stats([hyp], [[ref]]))[0] == pytest.approx(expected), name
        assert metric.higher_is_better is False


def test_best_reference_and_corpus_aggregation():
    metric = metrics.get("wer", tokenize="none")
    stats = metric.stats(["a b c d", "x"], [["a x c", "y"], ["a b c d e", None]])
    # Segment 1: 2 edits / 3 words against ref 1, 1 edit / 5 words against ref 2 -> ref 2.
    assert stats.tolist() == [[1, 5], [1, 1]]
    assert metric.corpus_score(stats) == pytest.approx(100 * 2 / 6)
    assert metric.signature().startswith("WER|nrefs:2|case:mixed|tok:none")


@pytest.mark.parametrize("streams", [1, 3])
def test_per_counts_common_words_as_per_errors_does(streams):
    """PER's compiled counting against the per-segment loop (Counter intersection), with several
    references (the lowest rate, the first on ties), empty texts and missing references."""
    from mtmeta.metrics.wer import _ErrorRate

    rng = np.random.default_rng(streams)
    words = ["a", "b", "c", "d", "e", "."]

    def text():
        return " ".join(rng.choice(words, size=rng.integers(0, 12)))

    hyps = [text() for _ in range(600)]
    refs = [[text() for _ in range(600)] for _ in range(streams)]
    if streams > 1:
        refs[0][7] = refs[2][9] = None
    metric = metrics.get("per", lang="en")
    np.testing.assert_array_equal(metric.stats(hyps, refs), _ErrorRate.stats(metric, hyps, refs))
    with pytest.raises(ValueError, match="segment 2 has no reference"):
        metric.stats(["a", "b"], [["a", None]])


def test_long_pairs_are_numbered_first_with_the_same_distance(monkeypatch):
    """Past NUMBER_WORDS_ABOVE (|hyp| x |ref|) WER gives rapidfuzz word numbers instead of strings (a
    third of the time on a long line of real text); lowered here so that every pair takes that path."""
    from mtmeta.metrics import wer

    assert wer.NUMBER_WORDS_ABOVE == 2**20
    rng = np.random.default_rng(4)
    vocab = [f"w{k}" for k in range(40)]
    hyps = [" ".join(rng.choice(vocab, size=rng.integers(0, 300))) for _ in range(60)]
    refs = [" ".join(rng.choice(vocab, size=rng.integers(1, 300))) for _ in range(60)]
    plain = metrics.get("wer", tokenize="none").stats(hyps, [refs])
    monkeypatch.setattr(wer, "NUMBER_WORDS_ABOVE", 0)
    numbered = metrics.get("wer", tokenize="none")
    np.testing.assert_array_equal(numbered.stats(hyps, [refs]), plain)
    assert len(numbered._numbers) == 40  # the numbered path ran
    expected = [100 * jiwer.wer(r, h) for h, r in zip(hyps, refs, strict=True)]
    np.testing.assert_allclose(numbered.segment_scores(plain), expected)
