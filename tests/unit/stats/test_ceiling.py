"""Human ceiling: slots, the seeded held-out rule, rotations, and pairs of raters or slots."""

import numpy as np
import pytest

from mtmeta.stats.ceiling import held_out_order, human_ceiling, rater_pairs, rater_slots, rotations, slot_pairs
from mtmeta.stats.grouped import grouped_correlation

NAN = np.nan
# 4 raters x 2 systems x 4 segments: segments 0-2 rated by three raters each, segment 3 by two.
RATINGS = np.array([
    [[-1, -2, NAN, -1], [0, -1, NAN, 0]],      # rater 0
    [[-2, NAN, -5, NAN], [-1, NAN, 0, NAN]],   # rater 1
    [[-3, -4, -1, NAN], [0, -2, -2, NAN]],     # rater 2
    [[NAN, -6, -2, -4], [NAN, -3, -1, -1]],    # rater 3
], dtype=float)


def pearson(gold, metric):
    return grouped_correlation(gold, metric, "pearson", average_by="none").value


def test_slots_hold_each_segments_three_raters_in_order():
    slots, usable = rater_slots(RATINGS)
    assert list(usable) == [True, True, True, False]  # segment 3 has two raters: left out
    np.testing.assert_array_equal(slots[:, :, 1], RATINGS[[0, 2, 3], :, 1])
    np.testing.assert_array_equal(slots[:, :, 2], RATINGS[[1, 2, 3], :, 2])


def test_a_rater_who_skipped_a_system_makes_the_segment_unusable():
    ratings = RATINGS.copy()
    ratings[0, 1, 0] = NAN  # rater 0 rated system 0 of segment 0 only
    assert list(rater_slots(ratings)[1]) == [False, True, True, False]


def test_held_out_order_is_seeded_and_a_permutation_per_segment():
    order = held_out_order(5, 3, seed=1)
    assert (np.sort(order, axis=1) == np.arange(3)).all()
    np.testing.assert_array_equal(order, held_out_order(5, 3, seed=1))
    assert not np.array_equal(held_out_order(50, 3, seed=1), held_out_order(50, 3, seed=2))


def test_every_rating_is_held_out_once_and_the_gold_is_the_other_two():
    slots, usable = rater_slots(RATINGS)
    order = held_out_order(int(usable.sum()), 3, seed=9)
    pairs = list(rotations(RATINGS, seed=9))
    held = np.stack([single for single, _ in pairs])
    np.testing.assert_array_equal(np.sort(held, axis=0), np.sort(slots[:, :, usable], axis=0))
    for r, (single, gold) in enumerate(pairs):
        for j in range(3):
            assert list(single[:, j]) == list(slots[order[j, r], :, j])
            others = [k for k in range(3) if k != order[j, r]]
            assert list(gold[:, j]) == list(slots[others, :, j].mean(axis=0))


def test_ceiling_averages_the_rotations_and_scores_the_metric_on_the_same_gold():
    metric = np.array([[0.1, 0.5, 0.3, 9.0], [0.9, 0.2, 0.4, 9.0]])
    result = human_ceiling(RATINGS, pearson, metric, seed=9)
    expected_human, expected_metric = [], []
    for single, gold in rotations(RATINGS, seed=9):
        expected_human.append(pearson(gold, single))
        expected_metric.append(pearson(gold, metric[:, :3]))
    assert result.human_rotations == pytest.approx(tuple(expected_human))
    assert result.metric == pytest.approx(np.mean(expected_metric))
    assert result.segments == 3 and result.left_out == 1
    # One score per system (a system-level statistic) is used as given.
    system = human_ceiling(RATINGS, lambda g, m: float(np.ravel(m)[0] - np.ravel(m)[1]), np.array([2.0, 1.0]), seed=9)
    assert system.metric == 1.0


def test_identical_raters_reach_one():
    ratings = np.stack([RATINGS[2]] * 3)
    assert human_ceiling(ratings, pearson, seed=3).human == pytest.approx(1.0)


def test_pairs_of_raters_use_the_cells_both_rated():
    found = {(a, b): (n, value) for a, b, n, value in rater_pairs(RATINGS, pearson, min_segments=2)}
    assert set(found) == {(0, 2), (0, 3), (1, 2), (2, 3)}  # (0, 1) and (1, 3) share one segment
    assert found[(0, 3)][0] == 2
    assert found[(0, 3)][1] == pytest.approx(pearson(RATINGS[0][:, [1, 3]], RATINGS[3][:, [1, 3]]))
    slots = slot_pairs(RATINGS, pearson)
    assert [(a, b) for a, b, _ in slots] == [(0, 1), (0, 2), (1, 2)]
    s, usable = rater_slots(RATINGS)
    assert slots[0][2] == pytest.approx(pearson(s[0][:, usable], s[1][:, usable]))
