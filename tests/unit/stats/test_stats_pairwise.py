"""Segment-level statistics against mt-metrics-eval's published test vectors and hand counts."""

import numpy as np
import pytest

from mtmeta.stats import pairwise as pw

# mt-metrics-eval stats_test.py: num_sys 1, gold [1, 2, 2, 3, 4], metric [2, 1, 1.5, 5, 3] over all item pairs.
HUMAN, DELTA = pw.all_pairs([1, 2, 2, 3, 4], [2, 1, 1.5, 5, 3])


def test_mt_metrics_eval_vectors():
    assert pw.tau_b(HUMAN, DELTA) == pytest.approx(0.316227766, abs=1e-9)
    assert pw.tau_eq(HUMAN, DELTA) == pytest.approx(0.2)
    assert pw.acc_eq(HUMAN, DELTA) == pytest.approx(0.6)
    assert pw.acc_eq(HUMAN, DELTA, epsilon=2) == pytest.approx(0.4)
    best, epsilon = pw.calibrate_epsilon(HUMAN, DELTA, "acc_eq")
    assert best == pytest.approx(0.7)  # KendallWithTiesOpt(variant='acc23', sample_rate=1.0)
    assert pw.acc_eq(HUMAN, DELTA, epsilon=epsilon) == pytest.approx(0.7)


def test_wmt_variants_on_hand_counted_items():
    # 4 concordant, 2 discordant, 2 metric ties, 1 human tie (which every variant drops).
    human = np.array([1, 1, -1, 1, 1, -1, 1, -1, 0])
    delta = np.array([0.5, 2.0, -1.0, 3.0, -0.1, 0.2, 0.0, 0.0, 0.4])
    assert pw.counts(human, delta) == pw.Counts(4, 2, 1, 2, 0)
    assert pw.wmt_kendall(human, delta, "wmt12") == pytest.approx((4 - 2 - 2) / (4 + 2 + 2))
    assert pw.wmt_kendall(human, delta, "wmt13") == pytest.approx((4 - 2) / (4 + 2))
    assert pw.wmt_kendall(human, delta, "wmt14") == pytest.approx((4 - 2) / (4 + 2 + 2))
    with pytest.raises(ValueError, match="unknown WMT Kendall variant"):
        pw.wmt_kendall(human, delta, "wmt99")


def test_three_way_accuracy_counts_ties_as_a_label():
    labels = np.array([1, 0, -1, 0, 1])
    delta = np.array([3.0, 0.0, -2.0, 1.0, 0.0])  # right, right (tie), right, wrong, wrong
    assert pw.three_way_accuracy(labels, delta) == pytest.approx(3 / 5)


def test_calibration_with_zero_differences_and_tau_eq():
    human = np.array([0, 0, 1, -1])
    delta = np.array([0.0, 0.3, 0.3, -1.0])
    # epsilon 0: C=2 (0.3, -1.0), T_hm=1, T_h=1 -> acc 3/4; epsilon 0.3: T_hm=2, C=1, T_m=1 -> acc 3/4.
    assert pw.calibrate_epsilon(human, delta, "acc_eq") == (pytest.approx(0.75), 0.0)
    value, epsilon = pw.calibrate_epsilon(human, delta, "tau_eq")
    assert value == pytest.approx(max(pw.tau_eq(human, delta, e) for e in (0.0, 0.3, 1.0)))


def test_input_checks():
    with pytest.raises(ValueError, match="-1, 0 or 1"):
        pw.counts([2], [0.1])
    with pytest.raises(ValueError, match="equal length"):
        pw.counts([1, 0], [0.1])
