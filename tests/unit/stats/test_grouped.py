"""Grouped correlations against mt-metrics-eval's published vectors, scipy, and hand-made cases."""

import math
import warnings

import numpy as np
import pytest
import scipy.stats

from mtmeta.stats import grouped as gr

# mt-metrics-eval stats_test: num_sys 2, gold [1..6], metric [2, 1, 4, 3, 3, 7] (systems x items).
GOLD = np.array([[1, 2, 3], [4, 5, 6]], dtype=float)
METRIC = np.array([[2, 1, 4], [3, 3, 7]], dtype=float)


def value(statistic, average_by, gold=GOLD, metric=METRIC, **kw):
    return gr.grouped_correlation(gold, metric, statistic, average_by=average_by, **kw).value


@pytest.mark.parametrize(("statistic", "expected"), [
    ("pearson", (0.776, 0.760, 1.000)),
    ("kendall", (0.552, 0.575, 1.000)),
    ("tau_b", (0.552, 0.575, 1.000)),
    ("tau_c", (0.556, 0.611, 1.000)),
])
def test_mt_metrics_eval_vectors(statistic, expected):
    got = [value(statistic, a) for a in ("none", "sys", "item")]
    assert got == pytest.approx(expected, abs=5e-4)


def test_kendall_variants_vector():
    gold, metric = [[1, 2, 2, 3, 4]], [[2, 1, 1.5, 5, 3]]
    assert value("tau_b", "none", gold, metric) == pytest.approx(0.316227766, abs=1e-9)
    assert value("tau_c", "none", gold, metric) == 0.32
    assert value("tau_eq", "none", gold, metric) == 0.2
    assert value("acc_eq", "none", gold, metric) == 0.6
    assert value("acc_eq", "none", gold, metric, epsilon=2) == 0.4


def test_tau_eq_with_epsilon_mtme_case():
    # stats_test testKendallVariantsWithPositiveEpsilon: (7 + 3 - 1 - 10 - 0) / 21
    gold, metric = [[1, 1, 1, 2, 2, 3, 4]], [[1, 1, 2, 2, 4, 3, 3]]
    assert value("tau_eq", "none", gold, metric, epsilon=1.0) == (7 + 3 - 1 - 10 - 0) / 21
    assert value("tau_eq", "none", gold, metric, epsilon=0.1) == (14 - 7) / 21


def test_missing_gold_is_dropped_pairwise():
    gold = np.array([[1, np.nan, 3], [4, 5, 6]])
    metric = np.array([[2, 1, 4], [3, 5, 6]], dtype=float)
    assert value("pearson", "none", gold, metric) == scipy.stats.pearsonr([1, 3, 4, 5, 6], [2, 4, 3, 5, 6])[0]
    # by item: item 1 has one gold score left and is skipped; items 0 and 2 have two points: +1 each
    result = gr.grouped_correlation(gold, metric, "pearson", average_by="item")
    assert (result.value, result.groups, result.weight) == (1.0, 2, 2)


def test_average_by_system_macro_and_weighted():
    gold = np.array([[1, np.nan, 3], [4, 5, 6]])
    metric = np.array([[2, 1, 8], [3, 5, 6]], dtype=float)
    p1 = scipy.stats.pearsonr([1, 3], [2, 8])[0]  # two points: exactly 1
    p2 = scipy.stats.pearsonr([4, 5, 6], [3, 5, 6])[0]
    assert value("pearson", "sys", gold, metric) == (p1 + p2) / 2
    weighted = gr.grouped_correlation(gold, metric, "pearson", average_by="sys", macro=False)
    assert weighted.value == (2 * p1 + 3 * p2) / 5 and weighted.weight == 5


def test_constant_groups_dropped_or_zero():
    # stats_test testNaNHandling: the first system's metric is constant
    gold = np.array([[1, 2, 3], [4, 5, 6]], dtype=float)
    metric = np.array([[2, 2, 2], [4, 5, 6]], dtype=float)
    dropped = gr.grouped_correlation(gold, metric, "pearson", average_by="sys")
    second = scipy.stats.pearsonr([4, 5, 6], [4, 5, 6])[0]  # 0.9999999999999998 in scipy's arithmetic
    assert (dropped.value, dropped.undefined, dropped.weight) == (second, 1, 1)
    assert value("pearson", "sys", gold, metric, nan_as_zero=True) == (0 + second) / 2


def test_no_defined_group_is_nan_not_zero():
    result = gr.grouped_correlation([[1, 2, 3]], [[5, 5, 5]], "pearson", average_by="none")
    assert math.isnan(result.value) and result.undefined == 1
    assert gr.grouped_correlation([[1, 2, 3]], [[5, 5, 5]], "pearson", average_by="none", nan_as_zero=True).value == 0


@pytest.mark.parametrize("size", [2, 3, 7, 16, 80])
def test_bit_identical_to_scipy_per_group(size):
    rng = np.random.default_rng(size)
    gold = rng.integers(0, 4, (60, size)).astype(float)
    metric = rng.normal(size=(60, size)).round(1)
    metric[:3] = 0.5  # constant rows: NaN on both sides
    groups = gr.Groups(gold.ravel(), metric.ravel(), np.arange(0, gold.size + 1, size))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for statistic, reference in (("pearson", scipy.stats.pearsonr), ("spearman", scipy.stats.spearmanr),
                                     ("kendall", scipy.stats.kendalltau)):
            ours = gr.group_values(groups, statistic)
            theirs = np.array([reference(g, m)[0] for g, m in zip(gold, metric, strict=True)])
            assert np.array_equal(ours, theirs, equal_nan=True), statistic


def test_average_is_accumulated_in_order():
    values = np.array([0.1, 0.2, 0.3, np.nan, 0.7])
    result = gr.average(values, np.full(5, 3))
    assert result.value == (((0.1 + 0.2) + 0.3) + 0.7) / 4 and result.undefined == 1


def test_input_errors():
    with pytest.raises(ValueError, match="unknown average_by"):
        gr.grouped_correlation(GOLD, METRIC, "pearson", average_by="doc")
    with pytest.raises(ValueError, match="differ in shape"):
        gr.grouped_correlation(GOLD, METRIC[:, :2], "pearson", average_by="none")
    with pytest.raises(ValueError, match="metric scores contain NaN"):
        gr.grouped_correlation(GOLD, np.where(METRIC > 3, np.nan, METRIC), "pearson", average_by="none")
    with pytest.raises(ValueError, match="epsilon applies"):
        gr.grouped_correlation(GOLD, METRIC, "tau_c", average_by="none", epsilon=1)
