"""Chance levels against exhaustive enumeration of every permutation (4-6 items, ties in the gold)."""

import itertools
import math

import numpy as np
import pytest

from mtmeta.stats import chance, pairwise
from mtmeta.stats.grouped import grouped_correlation, layout
from mtmeta.stats.system_pairs import pairwise_accuracy, pooled_pairwise_accuracy, soft_pairwise_accuracy
from mtmeta.stats.tie_calibration import calibrate_ties

GOLD = np.array([3.0, 1.0, 3.0, 2.0, 2.0, 5.0])  # two tied pairs
METRIC = np.array([0.3, 0.1, 0.7, 0.3, 0.9, 0.2])  # one tied pair (0.3, 0.3)
CONTINUOUS = np.array([0.31, 0.1, 0.7, 0.33, 0.9, 0.2])


def enumerate_vector(gold, metric, statistic):
    return np.mean([statistic(gold, metric[list(p)]) for p in itertools.permutations(range(len(metric)))])


def enumerate_grid(gold, metric, statistic):
    """Every combination of permutations of the metric inside each item (column), rated cells only."""
    columns = []
    for j in range(gold.shape[1]):
        rated = np.flatnonzero(~np.isnan(gold[:, j]))
        columns.append([(rated, rated[list(p)]) for p in itertools.permutations(range(len(rated)))])
    values = []
    for choice in itertools.product(*columns):
        permuted = metric.copy()
        for j, (rated, source) in enumerate(choice):
            permuted[rated, j] = metric[source, j]
        values.append(statistic(gold, permuted))
    return float(np.mean(values))


@pytest.mark.parametrize("metric", [METRIC, CONTINUOUS])
def test_expected_pairwise_accuracy_equals_enumeration(metric):
    exact = chance.expected_pairwise_accuracy(GOLD, metric)
    assert exact == pytest.approx(enumerate_vector(GOLD, metric, pairwise_accuracy), abs=1e-12)
    # 15 pairs, 2 gold-tied; metric 1 tied pair: q = 1/15 -> (2/15 + 13 * 14/15 / 2) / 15
    expected = (2 / 15 + 13 * (14 / 15) / 2) / 15 if metric is METRIC else 13 / 30
    assert exact == pytest.approx(expected, abs=1e-15)


def test_continuous_convention_is_half_the_untied_pairs():
    assert chance.expected_pairwise_accuracy(GOLD) == pytest.approx(13 / 30)
    assert chance.expected_pairwise_accuracy([1.0, np.nan, 2.0, 2.0]) == pytest.approx(1 / 3)


def test_expected_global_accuracy_pools_sets():
    other_gold, other_metric = np.array([1.0, 2.0, 2.0, 4.0]), np.array([5.0, 5.0, 1.0, 2.0])
    gold, metric = GOLD[:5], METRIC[:5]
    pooled = lambda permuted_a, permuted_b: pooled_pairwise_accuracy(  # noqa: E731
        [(gold, permuted_a), (other_gold, permuted_b)])[0]
    values = [pooled(metric[list(a)], other_metric[list(b)]) for a in itertools.permutations(range(5))
              for b in itertools.permutations(range(4))]
    exact = chance.expected_global_accuracy([(gold, metric), (other_gold, other_metric)])
    assert exact == pytest.approx(np.mean(values), abs=1e-12)


@pytest.mark.parametrize("statistic", ["pearson", "spearman", "kendall", "tau_b"])
@pytest.mark.parametrize("metric", [METRIC, CONTINUOUS])
def test_correlations_have_chance_level_zero(statistic, metric):
    value = enumerate_vector(GOLD, metric, lambda g, m: grouped_correlation(g, m, statistic, average_by="none").value)
    assert value == pytest.approx(0.0, abs=1e-12)
    assert chance.expected_correlation(GOLD, metric, statistic=statistic) == 0.0


def test_correlation_level_undefined_for_constant_gold():
    assert math.isnan(chance.expected_correlation([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))


# 4 systems x 3 items, ties in gold and metric, missing gold cells: 4! * 3! * 3! = 864 permutations.
GRID_GOLD = np.array([[1.0, 0.0, 2.0], [1.0, 1.0, np.nan], [3.0, 1.0, 2.5], [0.0, np.nan, 2.0]])
GRID_METRIC = np.array([[0.5, 0.2, 0.4], [0.5, 0.9, 0.1], [0.1, 0.2, 0.4], [0.7, 0.3, 0.2]])


@pytest.mark.parametrize("epsilon", [0.0, 0.15])
def test_expected_acc_eq_by_item_equals_enumeration(epsilon):
    exact = chance.expected_acc_eq(GRID_GOLD, GRID_METRIC, average_by="item", epsilon=epsilon)
    by_enumeration = enumerate_grid(GRID_GOLD, GRID_METRIC, lambda g, m: grouped_correlation(
        g, m, "acc_eq", average_by="item", epsilon=epsilon).value)
    assert exact == pytest.approx(by_enumeration, abs=1e-12)
    tau = chance.expected_acc_eq(GRID_GOLD, GRID_METRIC, average_by="item", epsilon=epsilon, variant="tau_eq")
    assert tau == pytest.approx(2 * exact - 1, abs=1e-12)


def test_item_grouped_kendall_has_chance_level_zero():
    by_enumeration = enumerate_grid(GRID_GOLD, GRID_METRIC, lambda g, m: grouped_correlation(
        g, m, "kendall", average_by="item").value)
    assert by_enumeration == pytest.approx(0.0, abs=1e-12)


def test_calibrated_acc_eq_estimate_agrees_with_enumeration():
    """No formula: the permutation estimate (calibration redone per draw) against all 4!*3!*3! draws."""
    gold, metric = GRID_GOLD, GRID_METRIC

    def calibrated(g, m):
        return calibrate_ties(g, m, average_by="item").value
    exact = enumerate_grid(gold, metric, calibrated)
    estimate = chance.permutation_level(gold, metric, "acc_eq_calibrated", average_by="item", draws=2000, seed=7)
    assert abs(estimate.value - exact) < 4 * estimate.standard_error
    assert estimate.draws == 2000 and 0 < estimate.standard_error < 0.01
    # Calibration lifts the level above the fixed-epsilon one (a random metric also gets its best epsilon).
    assert exact == pytest.approx(77 / 216)
    assert chance.expected_acc_eq(gold, metric, average_by="item") == pytest.approx(75 / 216)


@pytest.mark.parametrize(("statistic", "average_by", "exact"), [
    ("acc_eq", "none", lambda: chance.expected_pairwise_accuracy(GOLD, METRIC)),
    ("pearson", "none", lambda: 0.0),
    ("kendall", "none", lambda: 0.0),
])
def test_permutation_estimate_agrees_with_exact(statistic, average_by, exact):
    estimate = chance.permutation_level(GOLD, METRIC, statistic, average_by=average_by, draws=1500, seed=3)
    assert abs(estimate.value - exact()) < 4 * estimate.standard_error


def test_permutation_estimate_is_seeded():
    one = chance.permutation_level(GRID_GOLD, GRID_METRIC, "acc_eq_calibrated", average_by="item", draws=50, seed=1)
    two = chance.permutation_level(GRID_GOLD, GRID_METRIC, "acc_eq_calibrated", average_by="item", draws=50, seed=1)
    assert one == two


def test_permutation_stays_within_groups():
    groups = layout(GRID_GOLD, GRID_METRIC, "item")
    shuffled = chance.permute_within_groups(groups, np.random.default_rng(0))
    for a, b in zip(groups.starts[:-1], groups.starts[1:], strict=True):
        assert sorted(shuffled.metric[a:b]) == sorted(groups.metric[a:b])


def test_expected_soft_pairwise_accuracy_equals_enumeration():
    rng = np.random.default_rng(5)
    gold = np.round(rng.normal(size=(4, 12)), 1)
    gold[1] = gold[0]  # two systems tied segment by segment
    metric = np.round(rng.normal(size=(4, 12)), 2)
    exact = chance.expected_soft_pairwise_accuracy(gold, metric, permutations=200, seed=4)
    by_enumeration = np.mean([soft_pairwise_accuracy(gold, metric[list(p)], permutations=200, seed=4)
                              for p in itertools.permutations(range(4))])
    assert exact == pytest.approx(by_enumeration, abs=1e-9)


def test_all_tied_floor_is_the_share_of_gold_ties():
    # items: rows 0,1 tie of 4 cells (1/6); rows 1,2 tie of 3 cells (1/3); rows 0,3 tie of 3 (1/3)
    assert chance.all_tied_acc_eq(GRID_GOLD) == pytest.approx((1 / 6 + 1 / 3 + 1 / 3) / 3)


# Pairwise judgments: 3 systems x 2 segments (segment 0 has a metric tie), 7 comparisons, two tied by
# the humans; all 3! * 3! within-segment permutations.
J_SCORES = np.array([[0.2, 0.9], [0.2, 0.1], [0.5, 0.4]])
J_SEGMENT, J_FIRST, J_SECOND = np.array([0, 0, 0, 1, 1, 1, 0]), np.array([0, 0, 1, 0, 0, 1, 0]), \
    np.array([1, 2, 2, 1, 2, 2, 1])
J_HUMAN = np.array([1, -1, 0, 1, 1, 0, -1])


def enumerate_judgments(statistic, scores=J_SCORES):
    values = []
    for p0 in itertools.permutations(range(3)):
        for p1 in itertools.permutations(range(3)):
            permuted = np.column_stack([scores[list(p0), 0], scores[list(p1), 1]])
            values.append(statistic(J_HUMAN, permuted[J_FIRST, J_SEGMENT] - permuted[J_SECOND, J_SEGMENT]))
    return float(np.mean(values))


@pytest.mark.parametrize(("name", "function"), [
    ("acc_eq", pairwise.acc_eq), ("tau_eq", pairwise.tau_eq), ("three_way_accuracy", pairwise.three_way_accuracy),
    ("wmt12", lambda h, d: pairwise.wmt_kendall(h, d, "wmt12")),
    ("wmt14", lambda h, d: pairwise.wmt_kendall(h, d, "wmt14")),
])
def test_judgment_levels_equal_enumeration(name, function):
    q = chance.comparison_tie_probability(J_SCORES, J_SEGMENT)
    assert list(q) == pytest.approx([1 / 3] * 3 + [0] * 3 + [1 / 3])
    assert chance.expected_judgment_statistic(J_HUMAN, q, name) == pytest.approx(enumerate_judgments(function),
                                                                                abs=1e-12)


def test_wmt13_and_tau_b_are_zero_without_metric_ties_and_estimated_with_them():
    continuous = J_SCORES + np.array([[0.0, 0.0], [0.01, 0.0], [0.0, 0.0]])
    q = chance.comparison_tie_probability(continuous, J_SEGMENT)
    for variant, function in (("wmt13", lambda h, d: pairwise.wmt_kendall(h, d, "wmt13")), ("tau_b", pairwise.tau_b)):
        assert chance.expected_judgment_statistic(J_HUMAN, q, variant) == 0.0
        assert enumerate_judgments(function, continuous) == pytest.approx(0.0, abs=1e-12)
    tied = chance.comparison_tie_probability(J_SCORES, J_SEGMENT)
    with pytest.raises(ValueError, match="wmt13: no closed form when the metric can tie"):
        chance.expected_judgment_statistic(J_HUMAN, tied, "wmt13")
    calibrated = lambda h, d: pairwise.calibrate_epsilon(h, d, "acc_eq")[0]  # noqa: E731
    for function in (calibrated, lambda h, d: pairwise.wmt_kendall(h, d, "wmt13")):
        estimate = chance.permutation_level_judgments(J_SCORES, J_SEGMENT, J_FIRST, J_SECOND, J_HUMAN, function,
                                                      draws=2000, seed=11)
        assert abs(estimate.value - enumerate_judgments(function)) < 4 * estimate.standard_error


def test_judgment_chance_gives_every_column_of_the_segment_level_table():
    """Exact levels where a formula exists; WMT13's Kendall and tau-b by permutation only when the
    metric can tie, and then within four standard errors of the enumeration."""
    levels = chance.judgment_chance(J_SCORES, J_SEGMENT, J_FIRST, J_SECOND, J_HUMAN, draws=3000, seed=4)
    assert list(levels) == list(chance.JUDGMENT_TABLE)
    functions = {"acc_eq": pairwise.acc_eq, "tau_eq": pairwise.tau_eq, "tau_b": pairwise.tau_b,
                 "three_way_accuracy": pairwise.three_way_accuracy,
                 "acc_eq_calibrated": lambda h, d: pairwise.calibrate_epsilon(h, d, "acc_eq")[0],
                 **{v: (lambda h, d, v=v: pairwise.wmt_kendall(h, d, v)) for v in ("wmt12", "wmt13", "wmt14")}}
    for name, estimate in levels.items():
        expected = enumerate_judgments(functions[name])
        if name in ("wmt13", "tau_b", "acc_eq_calibrated"):
            assert estimate.draws == 3000 and estimate.standard_error > 0
            assert abs(estimate.value - expected) < 4 * estimate.standard_error
        else:
            assert (estimate.draws, estimate.standard_error) == (0, 0.0)
            assert estimate.value == pytest.approx(expected, abs=1e-12)
    continuous = J_SCORES + np.array([[0.0, 0.0], [0.01, 0.0], [0.0, 0.0]])
    exact = chance.judgment_chance(continuous, J_SEGMENT, J_FIRST, J_SECOND, J_HUMAN, draws=200)
    assert (exact["wmt13"].value, exact["tau_b"].value, exact["tau_b"].draws) == (0.0, 0.0, 0)
    assert exact["acc_eq_calibrated"].draws == 200  # the humans tie: calibration is random
    with pytest.raises(ValueError, match="at least 2 permutation draws"):
        chance.judgment_chance(continuous, J_SEGMENT, J_FIRST, J_SECOND, J_HUMAN, draws=0)
    again = chance.judgment_chance(J_SCORES, J_SEGMENT, J_FIRST, J_SECOND, J_HUMAN, draws=3000, seed=4)
    assert again == levels  # seeded


def test_calibrated_level_without_human_ties_is_acc_eq_exact_level():
    """No human tie: calibration keeps epsilon 0 on every permutation, so the level is exact."""
    human = np.where(J_HUMAN == 0, 1, J_HUMAN)
    levels = chance.judgment_chance(J_SCORES, J_SEGMENT, J_FIRST, J_SECOND, human, draws=50, seed=4)
    calibrated = lambda h, d: pairwise.calibrate_epsilon(h, d, "acc_eq")[0]  # noqa: E731
    values = []
    for p0 in itertools.permutations(range(3)):
        for p1 in itertools.permutations(range(3)):
            permuted = np.column_stack([J_SCORES[list(p0), 0], J_SCORES[list(p1), 1]])
            values.append(calibrated(human, permuted[J_FIRST, J_SEGMENT] - permuted[J_SECOND, J_SEGMENT]))
    assert levels["acc_eq_calibrated"] == levels["acc_eq"]
    assert levels["acc_eq_calibrated"].draws == 0
    assert levels["acc_eq_calibrated"].value == pytest.approx(float(np.mean(values)), abs=1e-12)


def test_weighted_calibration_equals_repeating_the_items():
    rng = np.random.default_rng(5)
    human, delta = rng.integers(-1, 2, size=40), rng.integers(-3, 4, size=40) / 2
    weight = rng.integers(0, 4, size=40)
    repeated = pairwise.calibrate_epsilon(np.repeat(human, weight), np.repeat(delta, weight), "acc_eq")
    assert pairwise.calibrate_epsilon(human, delta, "acc_eq", weight) == repeated
    assert repeated[0] > 0
    with pytest.raises(ValueError, match="one non-negative weight per item"):
        pairwise.calibrate_epsilon(human, delta, "acc_eq", weight[:3])


def test_tie_probability_of_all_segments_at_once_equals_one_at_a_time():
    rng = np.random.default_rng(2)
    scores = rng.integers(0, 4, size=(7, 50)).astype(float)
    scores[:, 3] = 1.0  # every pair tied
    one_at_a_time = [chance._tied_pairs(scores[:, j], 0.0) / 21 for j in range(50)]
    assert list(chance.comparison_tie_probability(scores, np.arange(50))) == pytest.approx(one_at_a_time, abs=0)
    assert chance.comparison_tie_probability(scores, [3])[0] == 1.0


@pytest.mark.parametrize("average_by", ["item", "sys", "none"])
def test_expected_acc_eq_counts_every_groups_ties_at_once_with_the_same_bits(average_by):
    # MQM-like: coarse gold (many ties, a third unrated), a metric with ties, 12 systems x 300 items.
    rng = np.random.default_rng(7)
    gold = rng.integers(-25, 1, size=(12, 300)).astype(float) / 5
    gold[rng.random(gold.shape) < 0.3] = np.nan
    metric = np.round(rng.normal(size=gold.shape), 1)
    metric[:, 5] = 0.0  # a constant item
    fast = [chance.expected_acc_eq(gold, m, average_by=average_by) for m in (metric, None)]
    floor = chance.all_tied_acc_eq(gold, average_by=average_by)

    def group_by_group(metric):  # the pair-by-pair count of each group, as at epsilon > 0
        groups = chance._groups(gold, metric, average_by)
        bounds = zip(groups.starts[:-1], groups.starts[1:], strict=True)
        counted = [chance._group_expected_agreement(groups.gold[a:b], None if metric is None else groups.metric[a:b],
                                                    0.0) for a, b in bounds]
        return float(np.mean([agree / pairs for agree, pairs in counted if pairs]))

    slow = [group_by_group(m) for m in (metric, None)]
    assert fast == slow and floor == group_by_group(np.zeros_like(gold))
    assert 0.4 < fast[0] < 0.5 and 0.02 < floor < 0.06  # gold has 26 levels: about 1 in 26 pairs tie


def test_expected_acc_eq_keeps_infinite_values_apart_as_before():
    # |inf - inf| is not <= 0: the pair-by-pair count does not tie two infinite scores.
    gold = np.array([[1.0], [2.0], [3.0]])
    metric = np.array([[np.inf], [np.inf], [0.0]])
    assert chance.expected_acc_eq(gold, metric, average_by="none") == pytest.approx(0.5)
