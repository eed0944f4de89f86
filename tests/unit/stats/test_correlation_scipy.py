"""The correlation coefficients and p-values computed without scipy.stats are bit-identical to
scipy.stats' (the workflow's tables must not move by a last digit when the import goes)."""

import numpy as np
import pytest
from scipy import stats

from mtmeta.stats.correlation import (
    EXACT_SPEARMAN_MAX_N,
    correlation,
    correlation_rows,
    correlations,
    kendall,
    kendall_exact_p,
    pearson,
    rankdata,
    spearman,
)


def _vectors(seed: int, count: int):
    """Random pairs of the sizes a WMT pair has (3-40 systems) and beyond, half with tied values
    (rounded scores), some with a large common offset (scipy's scaling of the norm matters)."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        n = int(rng.integers(3, 60))
        x, y = rng.normal(size=n), rng.normal(size=n) + rng.uniform(-1, 1) * np.arange(n)
        if k % 2:
            x, y = np.round(x, 1), np.round(y * 2) / 2
        if k % 5 == 0:
            x = x * 1e-3 + 1e4
        if np.ptp(x) == 0 or np.ptp(y) == 0:
            continue
        yield x, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bit_identical_to_scipy_stats(seed):
    checked = 0
    for x, y in _vectors(seed, 400):
        expected = stats.pearsonr(x, y)
        assert pearson(x, y) == (float(expected.statistic), float(expected.pvalue))
        expected = stats.spearmanr(x, y)
        assert spearman(x, y) == (float(expected.statistic), float(expected.pvalue))
        expected = stats.kendalltau(x, y)
        assert kendall(x, y) == (float(expected.statistic), float(expected.pvalue))
        np.testing.assert_array_equal(rankdata(x), stats.rankdata(x))
        checked += 1
    assert checked > 350


def test_kendall_exact_p_against_scipy_for_every_count():
    from scipy.stats._mstats_basic import _kendall_p_exact

    for n in (3, 4, 5, 9, 13, 33, 40, 180):
        total = n * (n - 1) // 2
        for concordant in sorted({0, 1, 2, total // 3, total // 2, total - 1, total}):
            assert kendall_exact_p(n, concordant) == float(_kendall_p_exact(n, concordant)), (n, concordant)


def test_perfect_and_reversed_rankings():
    x = np.arange(12.0)
    for y in (x**2, -x, x[::-1] ** 3):
        assert spearman(x, y) == tuple(map(float, stats.spearmanr(x, y)))
        assert kendall(x, y) == tuple(map(float, stats.kendalltau(x, y)))
        assert pearson(x, y) == tuple(map(float, stats.pearsonr(x, y)))


def test_rankdata_along_rows_of_a_matrix():
    rng = np.random.default_rng(7)
    m = np.round(rng.normal(size=(50, 9)), 1)
    np.testing.assert_array_equal(rankdata(m, axis=1), stats.rankdata(m, axis=1))
    np.testing.assert_array_equal(rankdata(m, axis=0), stats.rankdata(m, axis=0))


def test_long_vectors_fall_back_to_scipy_for_kendall():
    rng = np.random.default_rng(3)
    x = np.round(rng.normal(size=2500), 2)
    y = x + rng.normal(size=2500)
    assert kendall(x, y) == tuple(map(float, stats.kendalltau(x, y)))


def test_correlations_and_correlation_agree():
    rng = np.random.default_rng(11)
    for n in (5, EXACT_SPEARMAN_MAX_N + 3, 25):
        x, y = rng.normal(size=n), rng.normal(size=n)
        full = correlations(x, y)
        for name in ("pearson", "spearman", "kendall"):
            assert correlation(x, y, name) == full[name]
        rows = correlation_rows(x[None, :], y[None, :])
        assert rows["spearman"][0] == pytest.approx(full["spearman"], abs=1e-12)
