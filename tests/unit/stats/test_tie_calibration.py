"""Tie calibration (KendallWithTiesOpt): MTME's vectors, a hand-computed sweep, brute force, sampling."""

import itertools

import numpy as np
import pytest

from mtmeta.stats import grouped as gr
from mtmeta.stats import tie_calibration as tc
from mtmeta.stats.chance import within_group_order


def test_hand_computed_sweep_of_mtme_vector():
    # gold [1, 2, 2, 3, 4], metric [2, 1, 1.5, 5, 3]: at epsilon 0, 6 of 10 pairs concordant (0.6).
    # |metric difference| 0.5: one discordant pair (items 0, 2) becomes a metric tie (no change) and the
    # gold tie (items 1, 2) becomes a double tie (+1) -> 0.7; 1: a discordant and a concordant pair tie
    # -> 0.6; 1.5, 2, 3, 3.5, 4: each ties one more concordant pair -> 0.5 ... 0.1.
    result = tc.calibrate_ties([[1, 2, 2, 3, 4]], [[2, 1, 1.5, 5, 3]], average_by="none")
    assert result.value == 0.7 and result.epsilon == 0.5  # MTME: KendallWithTiesOpt acc23 -> 0.7
    assert result.thresholds.tolist() == [0, 0.5, 1, 1.5, 2, 3, 3.5, 4]
    assert result.values == pytest.approx([0.6, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1])
    tau = tc.calibrate_ties([[1, 2, 2, 3, 4]], [[2, 1, 1.5, 5, 3]], average_by="none", variant="tau_eq")
    assert (tau.value, tau.epsilon) == (pytest.approx(0.4), 0.5)


@pytest.mark.parametrize("average_by", ["none", "sys", "item"])
def test_value_equals_kendall_variants_at_the_chosen_epsilon(average_by):
    # MTME stats_test testKendallWithTiesOpt: the same equality, to the last bit, for each grouping.
    gold = np.array([1, 2, 2, 3, 3, 4.0]).reshape(2, 3)
    metric = np.array([2, 1, 1.5, 5, 3, 2]).reshape(2, 3)
    if average_by == "none":
        gold, metric = gold.reshape(1, -1), metric.reshape(1, -1)
    result = tc.calibrate_ties(gold, metric, average_by=average_by)
    assert result.value == gr.grouped_correlation(gold, metric, "acc_eq", average_by=average_by,
                                                  epsilon=result.epsilon).value


def test_best_of_brute_force_sweep_with_missing_gold():
    rng = np.random.default_rng(7)
    for _ in range(25):
        shape = (int(rng.integers(2, 7)), int(rng.integers(2, 9)))
        gold = rng.integers(0, 4, shape).astype(float)
        gold[rng.random(shape) < 0.2] = np.nan
        metric = rng.integers(0, 6, shape) / 2
        candidates = np.unique(np.abs(metric.ravel()[:, None] - metric.ravel()[None, :]))
        for average_by, variant in itertools.product(("none", "sys", "item"), ("acc_eq", "tau_eq")):
            result = tc.calibrate_ties(gold, metric, average_by=average_by, variant=variant)
            swept = [gr.grouped_correlation(gold, metric, variant, average_by=average_by, epsilon=e).value
                     for e in candidates]
            if np.all(np.isnan(swept)):
                assert np.isnan(result.value)
                continue
            best = int(np.nanargmax(np.round(swept, 12)))
            assert result.value == pytest.approx(swept[best], abs=1e-12)
            assert result.epsilon == candidates[best]  # the smallest epsilon among the best


def test_sampled_pairs_are_mtmes_with_the_legacy_seed():
    # MTME draws np.random.random() per pair, group by group, i < j, and keeps it when <= sample_rate.
    rng = np.random.default_rng(3)
    gold, metric = rng.normal(size=(4, 9)), rng.normal(size=(4, 9))
    np.random.seed(99)
    expected = [(row, i, j) for row in range(9) for i in range(4) for j in range(i + 1, 4)
                if np.random.random() <= 0.3]
    pairs = tc.enumerate_pairs(gr.layout(gold, metric, "item"), sample_rate=0.3, seed=99)
    assert len(pairs.distance) == len(expected)
    distances = [abs(metric[i, row] - metric[j, row]) for row, i, j in expected]
    assert pairs.distance.tolist() == distances
    with pytest.raises(ValueError, match="give a seed"):
        tc.calibrate_ties(gold, metric, average_by="item", sample_rate=0.5)


def test_large_group_enumerated_in_chunks(monkeypatch):
    rng = np.random.default_rng(11)
    gold, metric = rng.integers(0, 5, (1, 60)).astype(float), rng.integers(0, 9, (1, 60)).astype(float)
    whole = tc.calibrate_ties(gold, metric, average_by="none")
    monkeypatch.setattr(tc, "CHUNK_PAIRS", 100)  # 1770 pairs in runs of rows
    chunked = tc.calibrate_ties(gold, metric, average_by="none")
    assert (chunked.value, chunked.epsilon, chunked.pairs) == (whole.value, whole.epsilon, 1770)


def test_class_sorting_path_equals_ordering_the_pairs(monkeypatch):
    rng = np.random.default_rng(12)
    gold, metric = rng.integers(0, 5, (6, 80)).astype(float), rng.integers(0, 9, (6, 80)) / 4
    for average_by in ("none", "item"):
        ordered = tc.calibrate_ties(gold, metric, average_by=average_by)
        with monkeypatch.context() as patch:
            patch.setattr(tc, "CLASS_SORT_MIN_PAIRS", 0)
            by_class = tc.calibrate_ties(gold, metric, average_by=average_by)
        assert (by_class.value, by_class.epsilon) == (ordered.value, ordered.epsilon)
        assert np.array_equal(by_class.values, ordered.values)


@pytest.mark.parametrize("average_by", ["none", "sys", "item"])
def test_shuffled_calibration_equals_calibrating_each_shuffle(average_by):
    # Coarse scores (many gold and metric ties), missing gold and one-cell groups: every shuffle's value
    # and epsilon are those of enumerating and calibrating the shuffled layout, to the last bit.
    rng = np.random.default_rng(11)
    for _ in range(40):
        shape = (int(rng.integers(1, 8)), int(rng.integers(1, 25)))
        gold = rng.integers(0, int(rng.integers(1, 5)), size=shape).astype(float)
        gold[rng.random(shape) < 0.3] = np.nan
        metric = np.round(rng.normal(size=shape) * 2) / 2
        groups = gr.layout(gold, metric, average_by)
        shuffles = tc.ShuffledCalibration(groups)
        for _ in range(5):
            order = within_group_order(groups, rng)
            shuffled = gr.Groups(groups.gold, groups.metric[order], groups.starts)
            expected = tc.calibrate(tc.enumerate_pairs(shuffled), "acc_eq")
            value, epsilon = shuffles.calibrate(order)
            assert epsilon == expected.epsilon
            assert value == expected.value or (np.isnan(value) and np.isnan(expected.value))


def test_shuffled_calibration_sorts_once_and_falls_back_above_its_bound(monkeypatch):
    gold = np.array([[1, 2, 2, 3], [4, 1, 1, 2], [2, 2, 3, 1.0]])
    metric = np.array([[0.5, 1, 1, 2], [3, 0, 1, 1], [1, 2, 2, 0.5]])
    groups = gr.layout(gold, metric, "item")
    order = within_group_order(groups, np.random.default_rng(3))
    fast = tc.ShuffledCalibration(groups)
    assert fast.exact and len(fast.distance) == 4 * 3  # four items of three rated systems: 3 pairs each
    monkeypatch.setattr(tc, "SHUFFLED_MAX_PAIRS", 11)
    direct = tc.ShuffledCalibration(groups)
    assert not direct.exact
    assert fast.calibrate(order) == direct.calibrate(order)
