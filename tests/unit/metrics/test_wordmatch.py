import pytest

from mtmeta import metrics


def test_counts_hypothesis_tokens_found_in_the_reference_set():
    metric = metrics.get("wordmatch")
    stats = metric.stats(["the the cat sat", "Dog", ""], [["the cat on the mat", "dog", "x"]])
    # "the" twice and "cat" are in the reference set; matching is case-sensitive and whitespace-split.
    assert stats.tolist() == [[3, 4], [0, 1], [0, 0]]
    assert metric.segment_scores(stats).tolist() == [3.0, 0.0, 0.0]
    assert metric.corpus_score(stats) == pytest.approx(1.0)
    assert metric.signature().startswith("WordMatch|nrefs:1|case:mixed|tok:none")
