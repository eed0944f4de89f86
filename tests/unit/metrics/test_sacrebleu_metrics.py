"""chrF, chrF++ and TER through mtmeta's statistics path: sacrebleu's published vectors and exact parity."""

import numpy as np
import pytest
import sacrebleu

from mtmeta import metrics

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


def random_corpus(seed, n=300):
    rng = np.random.default_rng(seed)
    words = ["the", "a", "cat", "dog", "sat", "on", "mat", ".", ",", "is", "Was", "x-y", "3.5", "über", "naïve"]

    def sentence():
        return " ".join(rng.choice(words, size=rng.integers(0, 15)))

    return [sentence() for _ in range(n)], [sentence() for _ in range(n)]


def test_chrf_readme_vector():
    metric = metrics.get("chrf")
    assert metric.corpus_score(metric.stats(HYPS, REFS)) == pytest.approx(59.73, abs=5e-3)


@pytest.mark.parametrize(
    ("hyp", "ref", "params", "expected"),
    [
        ("aa", "ab", {"beta": 3, "eps_smoothing": True}, 8.3333),
        ("a", "a", {"beta": 3, "eps_smoothing": True}, 16.6667),
        ("a b c", "a b c", {"beta": 3, "eps_smoothing": True}, 50.0),
        ("a b c", "abc", {"beta": 3, "eps_smoothing": True}, 50.0),
        ("a", "a", {"beta": 3}, 100.0),
        ("aa", "ab", {"beta": 3}, 25.0),
    ],
)
def test_chrf_sentence_vectors(hyp, ref, params, expected):
    metric = metrics.get("chrf", **params)
    assert metric.segment_scores(metric.stats([hyp], [[ref]]))[0] == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(
    ("hyp", "ref", "expected"),
    [("a b c", "a b c", 0.0), ("x y", "a b", 100.0), ("", "a", 100.0), ("a", "", 100.0), ("", "", 0.0),
     ("d e f g h a b c", "a b c d e f g h", 12.5)],
)
def test_ter_vectors(hyp, ref, expected):
    metric = metrics.get("ter")
    assert metric.segment_scores(metric.stats([hyp], [[ref]]))[0] == pytest.approx(expected, abs=1e-3)
    assert metrics.get("ter").higher_is_better is False


@pytest.mark.parametrize(
    ("name", "corpus_fn", "sentence_fn", "params"),
    [
        ("bleu", sacrebleu.corpus_bleu, sacrebleu.sentence_bleu, {}),
        ("chrf", sacrebleu.corpus_chrf, sacrebleu.sentence_chrf, {}),
        ("chrf++", sacrebleu.corpus_chrf, sacrebleu.sentence_chrf, {"word_order": 2}),
        ("ter", sacrebleu.corpus_ter, sacrebleu.sentence_ter, {}),
    ],
)
def test_parity_with_sacrebleu_on_random_text(name, corpus_fn, sentence_fn, params):
    hyps, refs = random_corpus(1)
    metric = metrics.get(name)
    stats = metric.stats(hyps, [refs])
    assert metric.corpus_score(stats) == pytest.approx(corpus_fn(hyps, [refs], **params).score, abs=1e-9)
    expected = [sentence_fn(h, [r], **params).score for h, r in zip(hyps, refs, strict=True)]
    np.testing.assert_allclose(metric.segment_scores(stats), expected, atol=1e-9)
    assert metric.signature().startswith({"bleu": "BLEU|", "chrf": "chrF|", "chrf++": "chrF|", "ter": "TER|"}[name])


def test_multiple_references_and_tokenized_mode():
    for name, fn in (("chrf", sacrebleu.corpus_chrf), ("ter", sacrebleu.corpus_ter)):
        metric = metrics.get(name)
        assert metric.corpus_score(metric.stats(HYPS, REFS)) == pytest.approx(fn(HYPS, REFS).score, abs=1e-9)
    tokenized = metrics.get("bleu", tokenized=True)
    score = tokenized.corpus_score(tokenized.stats(HYPS, REFS))
    assert score == pytest.approx(49.1919566, abs=1e-7) and "tok:none" in tokenized.signature()
