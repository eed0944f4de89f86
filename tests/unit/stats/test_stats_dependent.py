"""Dependent-correlation tests: literature values and calibration under a true null."""

import numpy as np
import pytest
from scipy import stats

from mtmeta.stats.dependent import meng_test, paired_bootstrap, permutation_test, williams_test


def test_williams_matches_psych_r_test_steiger_case_a():
    # psych::r.test(n = 103, r12 = .4, r13 = .5, r23 = .1) prints t = -0.89, probability 0.37 (two-tailed).
    result = williams_test(0.4, 0.5, 0.1, 103)
    assert result.statistic == pytest.approx(-0.89, abs=0.005)
    assert result.p_two_sided == pytest.approx(0.37, abs=0.005)
    assert result.df == 100


def test_meng_formula_pieces():
    # f is capped at 1 and the test is antisymmetric in the two metrics.
    a = meng_test(0.7, 0.6, 0.2, 50)
    b = meng_test(0.6, 0.7, 0.2, 50)
    assert a.statistic == pytest.approx(-b.statistic)
    assert a.p_two_sided == pytest.approx(b.p_two_sided)
    assert a.p_one_sided == pytest.approx(1 - b.p_one_sided)
    assert meng_test(0.5, 0.5, 0.3, 40).statistic == 0.0
    # r23 = 0: Z = (atanh .3 - atanh .1) / sqrt(2 h / 100) with mean r^2 = (.09 + .01) / 2.
    res = meng_test(0.3, 0.1, 0.0, 103)
    rbar2 = (0.09 + 0.01) / 2
    f = min(1, 1 / (2 * (1 - rbar2)))
    h = (1 - f * rbar2) / (1 - rbar2)
    assert res.statistic == pytest.approx((np.arctanh(0.3) - np.arctanh(0.1)) / np.sqrt(2 * h / 100))
    half_width = stats.norm.ppf(0.975) * np.sqrt(2 * h / 100)
    assert res.ci_high - res.ci_low == pytest.approx(2 * half_width)


@pytest.mark.parametrize("test", [meng_test, williams_test])
def test_calibrated_under_the_null(test):
    # Trivariate normal with corr(human, m1) = corr(human, m2) = 0.5, corr(m1, m2) = 0.6: H0 holds, so a
    # two-sided test at 5% must reject about 5% of the time (2000 draws: standard error 0.5%).
    rng = np.random.default_rng(7)
    cov = np.array([[1.0, 0.5, 0.5], [0.5, 1.0, 0.6], [0.5, 0.6, 1.0]])
    rejected = 0
    draws, n = 2000, 60
    for _ in range(draws):
        x = rng.multivariate_normal(np.zeros(3), cov, size=n)
        r = np.corrcoef(x.T)
        rejected += test(r[0, 1], r[0, 2], r[1, 2], n).p_two_sided < 0.05
    assert 0.035 < rejected / draws < 0.065


def test_resampling_tests_find_a_real_difference_and_not_a_fake_one():
    rng = np.random.default_rng(1)
    human = rng.normal(size=200)
    good = human + rng.normal(scale=0.5, size=200)
    bad = human + rng.normal(scale=2.0, size=200)
    pearson = lambda x, y: stats.pearsonr(x, y).statistic  # noqa: E731
    perm = permutation_test(human, good, bad, pearson, n_resamples=500, seed=3)
    assert perm.statistic > 0 and perm.p_one_sided < 0.01
    same = permutation_test(human, good, good, pearson, n_resamples=200, seed=3)
    assert same.statistic == 0 and same.p_two_sided == 1.0
    boot = paired_bootstrap(human, good, bad, pearson, n_resamples=500, seed=3)
    assert boot.ci_low > 0 and boot.p_one_sided < 0.01
    again = paired_bootstrap(human, good, bad, pearson, n_resamples=500, seed=3)
    assert again == boot  # seeded: identical
