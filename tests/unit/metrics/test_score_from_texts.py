"""sacrebleu's habit, `get("chrf").corpus_score(hyps, [refs])`: a Score with value, signature and statistics,
for every registered metric that needs no lexical resources; statistics still give a float."""

import numpy as np
import pytest
import sacrebleu

from mtmeta.metrics import get
from mtmeta.metrics.base import Score
from mtmeta.metrics.chrf import CHRF

HYPS = ["The cat sat on the mat .", "A dog barked loudly ."]
REFS = ["The cat is on the mat .", "The dog barked loudly ."]


@pytest.mark.parametrize(("name", "reference"), [("bleu", sacrebleu.corpus_bleu), ("chrf", sacrebleu.corpus_chrf),
                                                 ("ter", sacrebleu.corpus_ter)])
def test_corpus_score_from_texts_is_a_score_equal_to_sacrebleus(name, reference):
    metric = get(name)
    result = metric.corpus_score(HYPS, [REFS])
    assert isinstance(result, Score) and result.name == name
    assert result.score == pytest.approx(reference(HYPS, [REFS]).score, abs=1e-9)
    assert result.signature == metric.signature() and float(result) == result.score
    assert np.array_equal(result.statistics, metric.stats(HYPS, [REFS]))
    assert metric.corpus_score(result.statistics) == result.score  # statistics: a float, as before
    assert str(result).startswith(f"{name} = ")


def test_a_class_works_too_and_missing_references_are_an_error():
    assert CHRF().corpus_score(HYPS, [REFS]).score == pytest.approx(sacrebleu.corpus_chrf(HYPS, [REFS]).score)
    with pytest.raises(TypeError, match="the references are missing"):
        get("bleu").corpus_score(HYPS)
    with pytest.raises(TypeError, match="pass \\[refs\\]"):
        get("bleu").corpus_score(HYPS, REFS)  # a flat list is not a reference stream
