"""chrF's compiled n-gram counting against sacrebleu's own counting, statistic by statistic."""

import numpy as np
import pytest

from mtmeta import metrics
from mtmeta.errors import ConfigError
from mtmeta.metrics.ngrams import WordIds, character_symbols, packed, symbol_bits

# Repeated n-grams, punctuation at word edges (chrF++'s split), one-letter words, case, non-ASCII
# letters and Unicode whitespace: every path of sacrebleu's counting.
WORDS = ["the", "The", "a", "aa", "aaa", "cat", "(cat)", "dog,", "sat", ".", ",", "x-y", "3.5", "über", "naïve",
         "Ωμέγα", "猫", "a\u00a0b", "\t", "don't", "!?"]


def random_texts(seed, n=400):
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS, size=rng.integers(0, 20))) for _ in range(n)]


def assert_same_stats(params, hyps, refs):
    ours = metrics.get("chrf", **params)
    theirs = metrics.get("chrf", backend="sacrebleu", **params)
    a, b = ours.stats(hyps, refs), theirs.stats(hyps, refs)
    assert a.dtype == b.dtype == np.int64
    assert a.shape == b.shape == (len(hyps), 3 * (params.get("char_order", 6) + params.get("word_order", 0)))
    np.testing.assert_array_equal(a, b)
    assert ours.signature() == theirs.signature()
    return a


@pytest.mark.parametrize("params", [
    {}, {"word_order": 2}, {"word_order": 3, "char_order": 4}, {"lowercase": True, "word_order": 2},
    {"whitespace": True}, {"char_order": 1}, {"char_order": 10, "word_order": 1},
])
def test_same_counts_as_sacrebleu_on_random_text(params):
    stats = assert_same_stats(params, random_texts(1), [random_texts(2)])
    assert stats[:, 2].sum() > 1000  # unigram matches: real overlaps were counted


def test_several_references_choose_sacrebleus_best():
    hyps = random_texts(3, 200)
    refs = [random_texts(4, 200), random_texts(5, 200), hyps[:100] + random_texts(6, 100)]
    stats = assert_same_stats({"word_order": 2}, hyps, refs)
    np.testing.assert_array_equal(stats[:100, 0::3], stats[:100, 2::3])  # identical reference chosen: all match


def test_missing_references_are_skipped_as_sacrebleu_skips_them():
    hyps = random_texts(7, 50)
    refs = [random_texts(8, 50), [None if i % 2 else r for i, r in enumerate(random_texts(9, 50))]]
    assert_same_stats({}, hyps, refs)


def test_empty_texts():
    hyps, refs = ["", "a", "", "ab ab"], ["", "", "a", "ab"]
    stats = assert_same_stats({"word_order": 2}, hyps, [refs])
    assert stats[3, :3].tolist() == [4, 2, 2]  # "abab" vs "ab": unigrams 4 hyp, 2 ref, 2 matched


def test_large_alphabets_fall_back_to_sacrebleu():
    rng = np.random.default_rng(10)
    alphabet = [chr(0x4E00 + i) for i in range(3000)]  # CJK ideographs: more than 2**10 distinct symbols
    hyps = ["".join(rng.choice(alphabet, size=30)) for _ in range(100)]
    refs = [h[:15] + "".join(rng.choice(alphabet, size=15)) for h in hyps]
    assert symbol_bits(character_symbols(hyps + refs)[2], 6) is None
    assert symbol_bits(1023, 6) == 10 and symbol_bits(1024, 6) is None and symbol_bits(0, 6) == 1
    stats = assert_same_stats({}, hyps, [refs])
    assert (stats[:, 2] >= 15).all()


def test_symbols_are_dense_ranks():
    values, offsets, alphabet = character_symbols(["ba", "", "ca"])
    assert values.tolist() == [2, 1, 3, 1] and offsets.tolist() == [0, 2, 2, 4] and alphabet == 3
    ids = WordIds()
    texts = [ids(["x", "y"]), ids([]), ids(["y"])]
    values, offsets, alphabet = packed(texts, len(ids.vocabulary))
    assert values.tolist() == [1, 2, 2] and offsets.tolist() == [0, 2, 2, 3] and alphabet == 2


def test_unknown_backend_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown backend 'fast'"):
        metrics.get("chrf", backend="fast")


@pytest.mark.parametrize("beta", [1, 2, 3])
@pytest.mark.parametrize("eps_smoothing", [False, True])
@pytest.mark.parametrize("word_order", [0, 2])
def test_compiled_scores_equal_sacrebleus_f_score_to_the_last_bit(beta, eps_smoothing, word_order):
    """Every branch of sacrebleu's _compute_f_score: orders without hypothesis or reference n-grams,
    orders without matches, empty segments; rows of segment and of corpus size."""
    compiled = metrics.get("chrf", beta=beta, eps_smoothing=eps_smoothing, word_order=word_order)
    reference = metrics.get("chrf", beta=beta, eps_smoothing=eps_smoothing, word_order=word_order,
                            backend="sacrebleu")
    rng = np.random.default_rng(beta + 10 * word_order)
    orders = 6 + word_order
    rows = []
    for _ in range(3000):
        row = []
        for _ in range(orders):
            n_hyp = int(rng.integers(0, 9)) * (rng.random() < 0.9)
            n_ref = int(rng.integers(0, 9)) * (rng.random() < 0.9)
            row += [n_hyp, n_ref, int(rng.integers(0, min(n_hyp, n_ref) + 1))]
        rows.append(row)
    stats = np.array(rows, dtype=np.int64)
    assert compiled.segment_scores(stats).tolist() == reference.segment_scores(stats).tolist()
    assert compiled.corpus_score(stats) == reference.corpus_score(stats)
    totals = rng.integers(0, 3, size=(7, len(stats))).astype(float) @ stats.astype(float)
    assert compiled.score_totals(totals).tolist() == reference.score_totals(totals).tolist()
    assert len({round(x, 6) for x in reference.segment_scores(stats).tolist()}) > 100
