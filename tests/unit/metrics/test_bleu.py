"""BLEU through mtmeta's statistics path against sacrebleu's published test vectors."""

import numpy as np
import pytest
import sacrebleu

from mtmeta import metrics
from mtmeta.errors import ConfigError
from mtmeta.metrics.score_tables import score_segments

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


def corpus(**params):
    metric = metrics.get("bleu", **params)
    return metric, metric.corpus_score(metric.stats(HYPS, REFS))


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, 48.530827),
        ({"tokenize": "13a"}, 48.530827),
        ({"smooth_method": "none"}, 48.530827),
        ({"tokenize": "none"}, 49.1919566),
        ({"tokenize": "intl"}, 43.91623493),
        ({"max_ngram_order": 1}, 77.65),
        ({"max_ngram_order": 2}, 60.50),
        ({"max_ngram_order": 3}, 53.93),
        ({"max_ngram_order": 5}, 46.14),
        ({"max_ngram_order": 6}, 43.28),
    ],
)
def test_sacrebleu_readme_vectors(params, expected):
    _, score = corpus(**params)
    tolerance = 1e-8 if expected != round(expected, 2) else 5e-3
    assert score == pytest.approx(expected, abs=tolerance)


def test_signature_records_every_setting():
    metric, _ = corpus()
    assert metric.signature() == (f"BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|order:4|"
                                  f"sacrebleu:{sacrebleu.__version__}|mtmeta:0.1.0")
    assert "eff:yes" in metric.segment_signature()
    metric, _ = corpus(smooth_method="floor", smooth_value=0.1, lowercase=True)
    assert "case:lc" in metric.signature() and "smooth:floor[0.10]" in metric.signature()


@pytest.mark.parametrize(
    ("params", "expected"),
    [({}, 8.493), ({"smooth_method": "none"}, 0.0), ({"smooth_method": "floor"}, 4.51688),
     ({"smooth_method": "add-k"}, 14.882), ({"tokenize": "char"}, 40.8759)],
)
def test_sentence_scores_match_sacrebleu_vectors(params, expected):
    hyp = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
    ref = "producţia de zahăr brut se exprimă în zahăr alb;"
    metric = metrics.get("bleu", **params)
    assert metric.segment_scores(metric.stats([hyp], [[ref]]))[0] == pytest.approx(expected, abs=1e-3)


def test_segment_and_corpus_scores_equal_sacrebleu_on_random_text():
    rng = np.random.default_rng(0)
    words = ["the", "a", "cat", "dog", "sat", "on", "mat", ".", ",", "is", "was", "x-y", "3.5"]

    def sentence():
        return " ".join(rng.choice(words, size=rng.integers(0, 15)))

    hyps = [sentence() for _ in range(300)]
    refs = [sentence() for _ in range(300)]
    metric = metrics.get("bleu")
    stats = metric.stats(hyps, [refs])
    assert metric.corpus_score(stats) == pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score, abs=1e-9)
    expected = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    np.testing.assert_allclose(metric.segment_scores(stats), expected, atol=1e-9)


def test_empty_hypotheses_are_scored_not_dropped():
    metric = metrics.get("bleu")
    stats = metric.stats(["", "", ""], REFS)
    assert stats.shape == (3, 10) and metric.corpus_score(stats) == 0.0


@pytest.mark.parametrize(
    ("refs", "error"),
    [("a single string", TypeError), (["flat", "list", "of strings"], TypeError), ([["too", "short"]], ValueError)],
)
def test_wrong_reference_shape_is_an_error(refs, error):
    with pytest.raises(error):
        metrics.get("bleu").stats(HYPS, refs)


def test_score_segments_table():
    import pandas as pd

    segments = pd.DataFrame({
        "system": ["s1"] * 3 + ["s2"] * 3,
        "seg_id": [1, 2, 3] * 2,
        "hypothesis": HYPS + ["", "It was not unexpected.", "The man bit him first."],
        "reference": REFS[0] * 2,
        "source": [""] * 6,
    })
    seg_table, sys_table = score_segments(segments, metrics.get("bleu"))
    assert sys_table["system"].tolist() == ["s1", "s2"]
    expected = [sacrebleu.corpus_bleu(segments.hypothesis[i:i + 3].tolist(), [REFS[0]]).score for i in (0, 3)]
    assert sys_table["score"].tolist() == pytest.approx(expected, abs=1e-12)
    assert list(seg_table.columns[:3]) == ["system", "seg_id", "score"] and len(seg_table) == 6
    assert seg_table.loc[3, "hyp_len"] == 0 and seg_table.loc[4, "score"] == pytest.approx(100.0)


def test_unknown_metric():
    with pytest.raises(KeyError, match="unknown metric 'blue'"):
        metrics.get("blue")


@pytest.mark.parametrize("params", [{}, {"tokenize": "none"}, {"tokenize": "intl"}, {"lowercase": True},
                                    {"max_ngram_order": 6}, {"tokenize": "zh"}])
def test_compiled_counts_equal_sacrebleus(params):
    rng = np.random.default_rng(11)
    words = ["the", "The", "cat", "sat", "on", "a", "mat.", "(dog),", "3.5", "1,000", "x-y", "2-3", "über", '"quoted"',
             "don't", "猫", "。", "e.g.", "&amp;", "!"]
    hyps, refs = ([" ".join(rng.choice(words, size=rng.integers(0, 25))) for _ in range(400)] for _ in range(2))
    refs[:50] = hyps[:50]  # identical segments: every n-gram matched
    ours, theirs = metrics.get("bleu", **params), metrics.get("bleu", backend="sacrebleu", **params)
    a, b = ours.stats(hyps, [refs]), theirs.stats(hyps, [refs])
    assert a.dtype == b.dtype == np.int64
    np.testing.assert_array_equal(a, b)
    order = params.get("max_ngram_order", 4)
    np.testing.assert_array_equal(a[:50, 2 : 2 + order], a[:50, 2 + order :])
    assert ours.signature() == theirs.signature()
    # several references: sacrebleu clips by the largest count among them, and counts them itself
    np.testing.assert_array_equal(ours.stats(hyps, [refs, hyps]), theirs.stats(hyps, [refs, hyps]))


def test_unknown_backend():
    with pytest.raises(ConfigError, match="unknown backend"):
        metrics.get("bleu", backend="numba")


@pytest.mark.parametrize("smooth_method, smooth_value", [("exp", None), ("none", None), ("floor", None),
                                                         ("floor", 0.3), ("add-k", None), ("add-k", 2)])
@pytest.mark.parametrize("effective_order", [False, True])
@pytest.mark.parametrize("order", [1, 2, 4, 6])
def test_compiled_scores_equal_compute_bleu_to_the_last_bit(smooth_method, smooth_value, effective_order, order):
    """Every branch of sacrebleu's compute_bleu: zero matches at some orders, no n-grams of higher
    orders (short segments), empty hypotheses, brevity penalty, fractional (soft) matches."""
    from mtmeta.metrics.bleu import bleu_rows

    rng = np.random.default_rng(order)
    rows = []
    for _ in range(3000):
        hyp_len, ref_len = int(rng.integers(0, 12)), int(rng.integers(0, 12))
        total = [max(hyp_len - n, 0) for n in range(order)]
        correct = [int(rng.integers(0, t + 1)) if rng.random() < 0.7 else 0 for t in total]
        if rng.random() < 0.3:  # soft credit: fractions of a match
            correct = [c + float(rng.random()) * (t - c) for c, t in zip(correct, total, strict=True)]
        rows.append([hyp_len, ref_len, *correct, *total])
    rows.append([10**6, 10**6 + 7, *([10**6 - 5] * order), *([10**6] * order)])  # corpus-sized totals
    ours = bleu_rows(np.array(rows, dtype=float), order, smooth_method, smooth_value, effective_order)
    theirs = [sacrebleu.BLEU.compute_bleu(row[2 : 2 + order], row[2 + order :], int(row[0]), int(row[1]),
                                          smooth_method, smooth_value, effective_order, order).score for row in rows]
    assert ours.tolist() == theirs  # bit for bit
    assert len({round(x, 6) for x in theirs}) > 100 and 0.0 in theirs


def test_segment_scores_are_sacrebleus_sentence_scores_bit_for_bit():
    rng = np.random.default_rng(3)
    words = "the a dog cat bit man him had just bitten first was not".split()
    hyps = [" ".join(rng.choice(words, rng.integers(0, 15))) for _ in range(400)]
    refs = [" ".join(rng.choice(words, rng.integers(1, 15))) for _ in range(400)]
    compiled, reference = metrics.get("bleu"), metrics.get("bleu", backend="sacrebleu")
    stats = compiled.stats(hyps, [refs])
    assert compiled.segment_scores(stats).tolist() == reference.segment_scores(stats).tolist()
    assert compiled.corpus_score(stats) == reference.corpus_score(stats)
    weights = rng.integers(0, 3, size=(5, len(hyps))).astype(float)
    totals = weights @ stats.astype(float)
    assert compiled.score_totals(totals).tolist() == reference.score_totals(totals).tolist()
