"""Bootstrap totals for many draws at once equal each draw's own weighted sum, bit for bit."""

import numpy as np
import pytest

from mtmeta.metrics.base import weighted_sums


def draws(rng, n_draws, n_segments):
    return np.stack([np.bincount(rng.integers(0, n_segments, n_segments), minlength=n_segments)
                     for _ in range(n_draws)])


def one_by_one(stats, weights):
    return np.stack([(w[:, None] * stats).sum(axis=0) for w in weights])


def test_float_statistics_sum_in_numpys_order():
    rng = np.random.default_rng(3)
    stats = rng.random((3003, 14)) * rng.integers(1, 60, (3003, 1))  # soft credits ...
    stats[:, :6] = rng.integers(0, 60, (3003, 6))  # ... beside word counts
    weights = draws(rng, 40, 3003)
    got = weighted_sums(stats, weights)
    np.testing.assert_array_equal(got, one_by_one(stats, weights))
    # the order matters: a matrix product (another order of the same additions) differs in most totals
    assert (got[:, 6:] != (weights.astype(float) @ stats)[:, 6:]).mean() > 0.5
    assert got.dtype == np.float64


def test_integer_statistics_exact_through_floats_and_beyond():
    rng = np.random.default_rng(4)
    stats = rng.integers(0, 80, (3003, 10))
    weights = draws(rng, 40, 3003)
    got = weighted_sums(stats, weights)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, one_by_one(stats, weights))
    huge = np.full((3, 2), 2**52, dtype=np.int64)  # totals beyond 2**53: numpy's integer product
    total = weighted_sums(huge, np.ones((1, 3), dtype=np.int64))
    assert total.tolist() == [[3 * 2**52, 3 * 2**52]]


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_statistics_keep_numpys_arithmetic(bad):
    stats = np.array([[1.0, bad], [2.0, 3.0]])
    weights = np.array([[0, 2], [1, 1]])
    np.testing.assert_array_equal(weighted_sums(stats, weights), one_by_one(stats, weights))


def test_read_only_draws_are_converted_once_and_give_the_same_totals():
    from mtmeta.metrics import base
    from mtmeta.stats.correlation import resample_weights

    rng = np.random.default_rng(5)
    weights = resample_weights(500, 30, seed=7)
    assert not weights.flags.writeable
    stats = rng.integers(0, 50, (500, 6))
    first = weighted_sums(stats, weights)
    assert base._DRAWS[0] is weights
    np.testing.assert_array_equal(weighted_sums(stats, weights), first)
    np.testing.assert_array_equal(first, one_by_one(stats, weights))
    writable = weights.copy()  # a writable matrix is converted on every call, never cached
    np.testing.assert_array_equal(weighted_sums(stats, writable), first)
    assert base._DRAWS[0] is weights


def test_read_only_draws_are_transposed_once_for_float_statistics():
    from mtmeta.metrics import base
    from mtmeta.stats.correlation import resample_weights

    rng = np.random.default_rng(6)
    weights = resample_weights(400, 25, seed=8)
    stats = rng.random((400, 3))
    first = weighted_sums(stats, weights)
    assert base._BY_SEGMENT[0] is base._DRAWS[1]  # the float copy of these draws, transposed
    cached = base._BY_SEGMENT[1]
    assert cached.shape == (400, 25) and cached.flags.c_contiguous
    np.testing.assert_array_equal(weighted_sums(stats, weights), first)
    assert base._BY_SEGMENT[1] is cached
    np.testing.assert_array_equal(first, one_by_one(stats, weights))
