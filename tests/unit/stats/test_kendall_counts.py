"""Kendall pair counts: hand-counted vectors (mt-metrics-eval's stats_test) and the two counting methods."""

import numpy as np
import pytest

from mtmeta.stats import kendall_counts as kc

# mt-metrics-eval stats_test testKendallVariants_23: gold x, metric y; 21 pairs.
GOLD = [1, 1, 1, 2, 2, 3, 4]
METRIC = [1, 1, 2, 2, 4, 3, 3]


def test_hand_counted_pairs():
    # gold ties: (1,1) x3 and (2,2); metric ties: (1,1), (2,2), (3,3); both: items 0 and 1;
    # discordant: gold (2, 3) vs metric (4, 3) and gold (2, 4) vs metric (4, 3); the other 13 concordant.
    assert kc.counts(METRIC, GOLD).tolist() == [13, 2, 2, 3, 1]


def test_epsilon_makes_close_metric_scores_ties():
    # epsilon 1: the metric ties 13 pairs; gold ties 3 of them (items 0-2) and one more, items 3-4,
    # whose metric scores 2 and 4 stay apart; the two discordant pairs of epsilon 0 (metric 4 vs 3)
    # become metric ties; 7 concordant. (MTME's test counts 1 discordant and 0 gold-only ties instead,
    # with the same tau_23 = -1/21, which is all it asserts.)
    assert kc.counts(METRIC, GOLD, epsilon=1.0).tolist() == [7, 0, 10, 1, 3]
    with pytest.raises(ValueError, match="non-negative"):
        kc.counts(METRIC, GOLD, epsilon=-1)


@pytest.mark.parametrize("n", [65, 200, 1000])
def test_n_log_n_counts_equal_all_pairs(n):
    rng = np.random.default_rng(n)
    for _ in range(5):
        metric = rng.integers(0, 7, n).astype(float)
        gold = rng.integers(0, 5, n).astype(float)
        fast = kc.counts(metric, gold)  # n > QUADRATIC_MAX_N: the Fenwick-tree path
        slow = np.zeros(5, dtype=np.int64)
        kc._quadratic(metric, gold, 0.0, slow)
        assert fast.tolist() == slow.tolist()
        assert fast.sum() == n * (n - 1) // 2


def test_groups_are_counted_separately():
    metric = np.array([1.0, 2.0, 3.0, 3.0, 2.0, 1.0])
    gold = np.array([1.0, 2.0, 3.0, 1.0, 2.0, 3.0])
    counts = kc.grouped_counts(metric, gold, np.array([0, 3, 6]))
    assert counts.tolist() == [[3, 0, 0, 0, 0], [0, 3, 0, 0, 0]]
