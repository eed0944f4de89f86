"""Pairwise accuracy and soft pairwise accuracy: MTME's vectors and hand-computed cases."""

import numpy as np
import pytest

from mtmeta.stats import system_pairs as sp


def test_agreement_mtme_vector():
    # stats_test testAgreement: 5 agreements of 10 pairs (the tie 3 = 3 agrees only with a metric tie).
    assert sp.agreement([1, 2, 3, 3, 4], [1, 1, 2, 1, 2]) == (5, 10)
    assert sp.pairwise_accuracy([1, 2, 3, 3, 4], [1, 1, 2, 1, 2]) == 0.5


def test_missing_gold_system_is_left_out_and_sets_pool():
    # set 1: systems 0-2 known, pairs (0,1) agree, (0,2) agree, (1,2) disagree; system 3 has no gold
    # set 2: two systems, reversed: 0 of 1
    first = ([1.0, 2.0, 3.0, np.nan], [0.1, 0.5, 0.3, 9.0])
    second = ([1.0, 2.0], [2.0, 1.0])
    assert sp.agreement(*first) == (2, 3)
    assert sp.pooled_pairwise_accuracy([first, second]) == (0.5, 2, 4)


def test_system_rows_with_and_without_human_translations():
    human = [False, True, False, True]
    assert sp.system_rows(human, include_human=True).tolist() == [0, 1, 2, 3]
    assert sp.system_rows(human, include_human=False).tolist() == [0, 2]


def test_soft_pairwise_accuracy_mtme_vector_and_by_hand():
    gold = np.array([[1, 2, 3], [2, 3, 4]], dtype=float)
    metric = np.array([[2, 2, 4], [1, 3, 5]], dtype=float)
    assert sp.soft_pairwise_accuracy(gold, metric) == pytest.approx(0.872, abs=1e-12)  # MTME's vector
    # By hand: gold differences are -1, -1, -1 (observed -3), so every permuted difference is >= -3:
    # p_gold = 1. Metric differences 1, -1, -1 (observed -1): only the signs (-, +, +) give -3 < -1.
    signs = sp.permutation_signs(3)
    only_below = np.all(signs == [-1, 1, 1], axis=1).mean()
    assert sp.pairwise_p_values(gold)[0, 1] == 1.0
    assert sp.pairwise_p_values(metric)[0, 1] == 1 - only_below
    assert sp.soft_pairwise_accuracy(gold, metric) == 1.0 - abs(1.0 - (1 - only_below))


def test_soft_pairwise_accuracy_properties():
    rng = np.random.default_rng(0)
    gold = rng.normal(size=(6, 50)) + np.arange(6)[:, None] * 0.3
    assert sp.soft_pairwise_accuracy(gold, gold) == 1.0
    assert sp.soft_pairwise_accuracy(gold, -gold) < 0.3
    gold[:, 7] = np.nan  # a segment nobody has gold for is dropped
    assert sp.soft_pairwise_accuracy(gold, np.nan_to_num(gold)) == 1.0
    gold[2, 9] = np.nan
    with pytest.raises(ValueError, match="same segments scored for every system"):
        sp.soft_pairwise_accuracy(gold, np.nan_to_num(gold))


def test_permutation_signs_are_mtmes_draw():
    signs = sp.permutation_signs(5, 10, seed=4)
    uniform = np.random.default_rng(4).random(size=(10, 5), dtype=np.float32)
    assert signs.dtype == np.float32 and np.array_equal(signs, np.where(uniform > 0.5, 1, -1))


def test_system_level_with_and_without_human_translations():
    # Two MT systems ordered right, one human translation scored low by the metric (as references
    # often are by reference-based metrics): accuracy 3/3 without it, 1/3 with it.
    gold = [1.0, 2.0, 5.0]
    metric = [10.0, 20.0, 5.0]
    human = [False, False, True]
    assert sp.system_level(gold, metric, "accuracy", is_human=human, include_human=False) == (1.0, 2)
    assert sp.system_level(gold, metric, "accuracy", is_human=human, include_human=True) == (1 / 3, 3)
    assert sp.system_level(gold, metric, "kendall", is_human=human, include_human=True) == (pytest.approx(-1 / 3), 3)
    with pytest.raises(ValueError, match="3 systems"):
        sp.system_level(gold, metric, "pearson", is_human=[True], include_human=True)


def test_p_values_do_not_depend_on_memory_layout():
    # MQM-like scores: float32 sums of a Fortran-ordered matrix (what boolean column selection gives)
    # accumulate in another order than MTME's C-ordered reshape, and ties between the null and the
    # observed difference flip; the matrix is taken in C order, as MTME's.
    rng = np.random.default_rng(0)
    for _ in range(3):
        scores = np.asfortranarray(rng.choice([-0.1, -1.1, -5.3, -0.7, 0.0, -25.0], size=(6, 527)))
        fortran, c_order = sp.pairwise_p_values(scores), sp.pairwise_p_values(np.ascontiguousarray(scores))
        assert np.array_equal(np.nan_to_num(fortran), np.nan_to_num(c_order))


def test_soft_pairwise_accuracy_as_mtme_stats_test():
    # stats_test.py CorrelationTest.testPairwiseConfidenceError: 2 systems x 3 segments, 0.872 (3 places)
    gold, metric = np.array([[1, 2, 3], [2, 3, 4]], float), np.array([[2, 2, 4], [1, 3, 5]], float)
    assert round(sp.soft_pairwise_accuracy(gold, metric), 3) == 0.872
