"""Intervals that resample systems, segments or both: plans, hand-computed draws, properties."""

import math

import numpy as np
import pytest

from mtmeta.stats import correlation
from mtmeta.stats import two_level_bootstrap as tb


def test_plans_resample_what_their_method_names():
    systems = tb.resampling_plan(5, 8, "systems", n_draws=50, seed=1)
    assert systems.segment_counts is None and systems.systems.shape == (50, 5)
    assert (systems.systems != np.arange(5)).any()
    segments = tb.resampling_plan(5, 8, "segments", n_draws=50, seed=1)
    assert (segments.systems == np.arange(5)).all() and (segments.segment_counts.sum(axis=1) == 8).all()
    both = tb.resampling_plan(5, 8, "both", n_draws=50, seed=1)
    assert np.array_equal(both.systems, systems.systems)  # systems are drawn first, from the same seed
    assert np.array_equal(tb.resampling_plan(5, 8, "both", 50, 1).segment_counts, both.segment_counts)
    with pytest.raises(ValueError, match="unknown resampling method"):
        tb.resampling_plan(5, 8, "documents")


def test_system_means_by_hand():
    scores = np.array([[1.0, 2.0, np.nan], [4.0, 6.0, 8.0]])
    counts = np.array([[2, 0, 1], [0, 0, 3]])
    # draw 0: system 0 = (2*1)/2 (its third cell is missing), system 1 = (2*4 + 8)/3; draw 1: NaN, 8
    means = tb.system_means(scores, counts)
    assert means[0].tolist() == [1.0, 16 / 3]
    assert math.isnan(means[1, 0]) and means[1, 1] == 8.0
    assert tb.system_means(scores, None).tolist() == [[1.5, 6.0]]


def test_accuracy_skips_pairs_of_copies():
    plan = tb.ResamplingPlan("systems", np.array([[0, 0, 1, 2], [1, 1, 1, 1]]), None, 0)
    gold, metric = np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0])
    # draw 0: the copy pair (0, 0) is skipped; (0, 1) x2 and (0, 2) x2 agree, (1, 2) disagrees: 4 of 5;
    # draw 1: only copies: undefined
    values = tb.resampled_values(gold, metric, plan, "accuracy")
    assert values[0] == 4 / 5 and math.isnan(values[1])
    interval = tb.system_level_interval(gold, metric, plan, "accuracy")
    assert (interval.low, interval.high, interval.undefined_draws, interval.method) == (0.8, 0.8, 1, "boot-systems")


def test_correlation_of_one_draw_equals_correlating_its_systems():
    rng = np.random.default_rng(2)
    gold = rng.normal(size=(8, 30))
    metric = gold + rng.normal(size=(8, 30))
    plan = tb.resampling_plan(8, 30, "both", n_draws=20, seed=3)
    gold_draws, metric_draws = tb.system_means(gold, plan.segment_counts), tb.system_means(metric, plan.segment_counts)
    values = tb.resampled_values(gold_draws, metric_draws, plan, "pearson")
    picked = plan.systems[4]
    expected = correlation.pearson(metric_draws[4, picked], gold_draws[4, picked])[0]
    assert values[4] == pytest.approx(expected, abs=1e-12)


def test_interval_widths_and_names():
    rng = np.random.default_rng(4)
    gold = rng.normal(size=(12, 400)) + rng.normal(size=(12, 1))
    metric = gold + rng.normal(scale=2.0, size=gold.shape)
    point = correlation.pearson(metric.mean(axis=1), gold.mean(axis=1))[0]
    widths = {}
    for method in tb.METHODS:
        interval = tb.segment_mean_interval(gold, metric, "pearson", method=method, n_draws=500, seed=5)
        assert interval.method == f"boot-{method}" and interval.draws == 500 and interval.seed == 5
        assert interval.low <= point <= interval.high
        widths[method] = interval.high - interval.low
    assert widths["both"] > widths["segments"]  # resampling systems too adds their uncertainty


def test_pooled_accuracy_interval_pools_pairs():
    plan = tb.ResamplingPlan("systems", np.array([[0, 1, 2]]), None, 0)
    plan2 = tb.ResamplingPlan("systems", np.array([[0, 1]]), None, 0)
    first = (np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0]), plan)  # 2 of 3
    second = (np.array([1.0, 2.0]), np.array([2.0, 1.0]), plan2)  # 0 of 1
    interval = tb.pooled_accuracy_interval([first, second])
    assert (interval.low, interval.high) == (0.5, 0.5)
