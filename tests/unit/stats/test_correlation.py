import itertools
import math

import numpy as np
import pytest

from mtmeta.stats.correlation import correlation, correlations, fisher_z_interval


def test_values_against_hand_computation():
    metric = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    human = np.array([2.0, 1.0, 4.0, 3.0, 5.0])
    result = correlations(metric, human)
    # Pearson by hand: cov = 8/4 = 2, var = 10/4 = 2.5 each -> r = 0.8.
    assert result["pearson"] == pytest.approx(0.8)
    # Spearman on ranks equals Pearson here (both vectors are permutations of 1..5).
    assert result["spearman"] == pytest.approx(0.8)
    # Kendall: 10 pairs, 2 discordant ((1,2) and (3,4)), no ties -> (8 - 2) / 10.
    assert result["kendall"] == pytest.approx(0.6)
    assert result["n"] == 5
    # Two-sided p of Pearson r = 0.8 with n = 5: t = r*sqrt(3)/sqrt(1 - r^2) = 2.3094, df = 3 -> p = 0.1041.
    assert result["pearson_p"] == pytest.approx(0.10408, abs=1e-4)


def test_spearman_p_is_exact_for_few_systems():
    metric = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    # Independent count over all 120 orderings: |rho| >= 0.8 iff sum of squared rank differences
    # is <= 4 (rho >= 0.8) or >= 36 (rho <= -0.8), with rho = 1 - 6 S / (n (n^2 - 1)).
    extreme = sum(
        1 for perm in itertools.permutations(range(5))
        if (s := sum((i - p) ** 2 for i, p in enumerate(perm))) <= 4 or s >= 36
    )
    result = correlations(metric, np.array([2.0, 1.0, 4.0, 3.0, 5.0]))
    assert result["spearman_p"] == pytest.approx(extreme / 120)
    perfect = correlations(metric, metric * 3)
    assert perfect["spearman_p"] == pytest.approx(2 / 120)  # scipy's t-approximation would say ~1e-24
    assert perfect["kendall_p"] == pytest.approx(2 / 120)
    assert perfect["p_method"] == "pearson:t-test|spearman:exact-permutation|kendall:exact"
    many = correlations(np.arange(12.0), np.arange(12.0) ** 2)
    assert "spearman:t-approx" in many["p_method"]


def test_ties_are_ranked_jointly():
    result = correlations(np.array([1.0, 2.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0, 4.0]))
    assert result["spearman"] == pytest.approx(0.9486833, abs=1e-7)  # Pearson of ranks (1, 2.5, 2.5, 4) and (1..4)
    assert "kendall:normal-approx" in result["p_method"]


def test_degenerate_inputs_give_nan():
    for metric, human in (([1.0, 2.0], [1.0, 2.0]), ([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])):
        result = correlations(np.array(metric), np.array(human))
        assert math.isnan(result["pearson"]) and math.isnan(result["kendall_p"])


def test_shape_and_nan_errors():
    with pytest.raises(ValueError, match="equal length"):
        correlations(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="NaN"):
        correlations(np.array([1.0, np.nan, 3.0]), np.array([1.0, 2.0, 3.0]))


def test_resample_weights_are_seeded_counts():
    from mtmeta.stats.correlation import resample_weights

    w = resample_weights(50, n_draws=200, seed=4)
    assert w.shape == (200, 50) and (w.sum(axis=1) == 50).all()
    np.testing.assert_array_equal(w, resample_weights(50, n_draws=200, seed=4))
    assert not np.array_equal(w, resample_weights(50, n_draws=200, seed=5))


def test_bootstrap_intervals_cover_the_truth_and_shrink_with_agreement():
    from mtmeta.stats.correlation import bootstrap_intervals

    rng = np.random.default_rng(0)
    human = np.tile(np.linspace(0, 1, 8), (300, 1)) + rng.normal(scale=0.05, size=(300, 8))
    close = human + rng.normal(scale=0.05, size=(300, 8))
    far = human + rng.normal(scale=0.5, size=(300, 8))
    tight = bootstrap_intervals(close, human)
    loose = bootstrap_intervals(far, human)
    assert tight["pearson_low"] > 0.9 and tight["pearson_high"] <= 1.0
    assert loose["pearson_high"] - loose["pearson_low"] > tight["pearson_high"] - tight["pearson_low"]
    constant = bootstrap_intervals(np.ones((10, 4)), human[:10, :4])
    assert constant["pearson_undefined_draws"] == 10 and math.isnan(constant["pearson_low"])


def test_fisher_z_interval_by_hand():
    # r = 0.5, n = 13: atanh(0.5) = 0.549306, half-width 1.959964 / sqrt(10) = 0.619795.
    low, high = fisher_z_interval(0.5, 13)
    assert low == pytest.approx(math.tanh(0.5493061443 - 0.6197950), abs=1e-7)
    assert high == pytest.approx(math.tanh(0.5493061443 + 0.6197950), abs=1e-7)
    assert (round(low, 4), round(high, 4)) == (-0.0704, 0.8240)
    assert fisher_z_interval(-0.5, 13) == pytest.approx((-high, -low))
    assert fisher_z_interval(1.0, 5) == (1.0, 1.0)
    assert all(math.isnan(v) for v in fisher_z_interval(0.5, 3) + fisher_z_interval(math.nan, 10))
    narrow = fisher_z_interval(0.5, 103)
    assert low < narrow[0] < 0.5 < narrow[1] < high


@pytest.mark.parametrize("statistic", ["pearson", "spearman", "kendall"])
def test_one_coefficient_is_the_same_number_as_in_the_full_set(statistic):
    rng = np.random.default_rng(7)
    for n in (3, 5, 9, 14, 40):
        metric = rng.normal(size=n)
        human = np.round(metric + rng.normal(size=n), 1)  # rounding makes ties
        assert correlation(metric, human, statistic) == correlations(metric, human)[statistic]
    assert math.isnan(correlation(np.ones(5), np.arange(5.0), statistic))
    assert math.isnan(correlation(np.arange(2.0), np.arange(2.0), statistic))


def test_one_coefficient_names_what_it_knows():
    with pytest.raises(ValueError, match="unknown correlation 'tau'; expected one of: pearson, spearman, kendall"):
        correlation(np.arange(4.0), np.arange(4.0), "tau")
    with pytest.raises(ValueError, match="NaN"):
        correlation(np.array([1.0, np.nan, 3.0]), np.arange(3.0), "pearson")


def test_a_bootstrap_draw_with_fewer_than_three_known_systems_is_undefined_not_an_error():
    from mtmeta.stats.correlation import correlation_rows

    nan = math.nan
    metric = np.array([[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]])
    human = np.array([[1.0, 3.0, 2.0, 4.0], [nan, nan, nan, nan], [nan, 1.0, 2.0, nan]])
    rows = correlation_rows(metric, human)
    assert rows["pearson"][0] == pytest.approx(0.8) and math.isnan(rows["pearson"][1])
    assert math.isnan(rows["pearson"][2]) and math.isnan(rows["kendall"][2])
