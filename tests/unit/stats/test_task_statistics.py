"""Statistics the task sets add: KendallLike (mt-metrics-eval's stats_test.py cases), tie calibration
in MTME's running-sum arithmetic (against a plain transcription of ``tau_optimization``'s loop), and
the average over tasks' significance (``AverageCorrMatrix``) on hand-computed draws."""

from dataclasses import astuple

import numpy as np
import pytest

from mtmeta.stats.grouped import layout
from mtmeta.stats.kendall_like import grouped_kendall_like, kendall_like
from mtmeta.stats.permutation import MetricRanking, average_significance, pairwise_perm_test
from mtmeta.stats.tie_calibration import calibrate, enumerate_pairs

NAN = np.nan


def test_kendall_like_as_mtme_stats_test():
    # stats_test.py CorrelationFunctionsTest.testKendallLike: (corr, 0, pairs, concordant, discordant)
    gold, metric = [10, 11, 100, 150], [2, 1, 4, 3]
    assert astuple(kendall_like(gold, metric)) == (3 / 5, 5, 4, 1)  # threshold 25: pair (10, 11) not counted
    assert astuple(kendall_like(gold, metric, 1)) == (2 / 6, 6, 4, 2)


def test_grouped_kendall_like_as_mtme_correlation_test():
    # stats_test.py CorrelationTest.testKendallLike (num_sys rows of packed vectors)
    one_row = np.array([[10, NAN, 100, 150]]), np.array([[2, 1, 4, 3]])
    assert grouped_kendall_like(*one_row, average_by="none", threshold=1).value == 1 / 3
    two_systems = np.array([[10, 11], [100, 150]]), np.array([[2, 1], [4, 3]])
    assert grouped_kendall_like(*two_systems, average_by="item", threshold=1).value == 1
    with_none = np.array([[10, NAN], [100, 150]]), np.array([[2, 1], [4, 3]])
    assert grouped_kendall_like(*with_none, average_by="item", threshold=1).value == 1


def test_kendall_like_counts_a_metric_tie_as_discordant():
    assert astuple(kendall_like([0, 30], [1, 1])) == (-1.0, 1, 0, 1)
    assert astuple(kendall_like([0, 10], [1, 2])) == (0.0, 0, 0, 0)  # no pair reaches the threshold: MTME's 0


def mtme_tau_optimization(metric_rows, gold_rows, variant="acc23"):
    """mt-metrics-eval's tau_optimization loop, transcribed plainly (rows = groups; NaN gold dropped)."""
    def f(s):
        con, dis, th, tm, tb = s
        n = con + dis + th + tm + tb
        return (con + tb) / n if variant == "acc23" else (con + tb - dis - th - tm) / n
    pairs, stats = [], {}
    for row, (m, g) in enumerate(zip(metric_rows, gold_rows, strict=True)):
        keep = [(a, b) for a, b in zip(m, g, strict=True) if not np.isnan(b)]
        for i in range(len(keep)):
            for j in range(i + 1, len(keep)):
                (m1, h1), (m2, h2) = keep[i], keep[j]
                if h1 == h2 and m1 == m2:
                    own = (0, 0, 0, 0, 1)
                elif h1 == h2:
                    own = (0, 0, 1, 0, 0)
                elif m1 == m2:
                    own = (0, 0, 0, 1, 0)
                elif (h1 > h2) == (m1 > m2):
                    own = (1, 0, 0, 0, 0)
                else:
                    own = (0, 1, 0, 0, 0)
                tie = (0, 0, 0, 0, 1) if h1 == h2 else (0, 0, 0, 1, 0)
                pairs.append((abs(m1 - m2), row, own, tie))
                stats[row] = tuple(a + b for a, b in zip(stats.get(row, (0,) * 5), own, strict=True))
    total = sum(f(s) for s in stats.values())
    thresholds, taus = [0.0], [total / len(stats)]
    for diff, row, own, tie in sorted(pairs, key=lambda p: p[0]):
        total -= f(stats[row])
        stats[row] = tuple(a - b + c for a, b, c in zip(stats[row], own, tie, strict=True))
        total += f(stats[row])
        if thresholds[-1] == diff:
            taus[-1] = total / len(stats)
        else:
            thresholds.append(diff)
            taus.append(total / len(stats))
    best = int(np.nanargmax(taus))
    return thresholds[best], taus[best]


def test_tie_calibration_as_mtme_stats_test():
    # stats_test.py CorrelationTest.testKendallWithTiesOpt: 0.7 on one row
    gold, metric = np.array([[1, 2, 2, 3, 4]], float), np.array([[2, 1, 1.5, 5, 3]])
    pairs = enumerate_pairs(layout(gold, metric, "none"), in_order=True)
    assert calibrate(pairs, "acc_eq", running_sum=True).value == 0.7
    assert calibrate(pairs, "acc_eq").value == 0.7


@pytest.mark.parametrize("variant", ["acc_eq", "tau_eq"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_running_sum_equals_mtme_bit_for_bit(variant, seed):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 6, size=(7, 40)).astype(float) * -1.5  # many gold ties, like MQM
    gold[rng.random(gold.shape) < 0.1] = np.nan
    metric = np.round(rng.normal(size=(7, 40)), 2)  # many metric ties and equal differences
    pairs = enumerate_pairs(layout(gold, metric, "item"), in_order=True)
    ours = calibrate(pairs, variant, running_sum=True)
    epsilon, value = mtme_tau_optimization(metric.T, gold.T, "acc23" if variant == "acc_eq" else "23")
    assert (ours.epsilon, ours.value) == (epsilon, value)


def test_pairwise_test_draws_are_differences_of_the_statistic():
    rng = np.random.default_rng(5)
    gold = rng.normal(size=(5, 30))
    a, b = gold + rng.normal(size=gold.shape), gold + 2 * rng.normal(size=gold.shape)
    result = pairwise_perm_test(gold, a, b, k=200, seed=3)
    assert len(result.null) == result.draws
    # each draw moves the item-averaged acc_eq by multiples of 1 / (10 pairs x 30 items)
    steps = result.null * 10 * 30
    assert np.allclose(steps, np.round(steps))
    assert abs(result.null.mean()) < 0.01 and result.null.std() > 0


def ranking(names, null_draws):
    n = len(names)
    return MetricRanking(list(names), [0.0] * n, np.zeros((n, n)), [1] * n, np.zeros((n, n), int), "", null_draws)


def test_average_significance_by_hand():
    # Two tasks; the second ranks the metrics the other way round and stopped early (2 draws, tiled to 4).
    averages = {"A": 0.6, "B": 0.5}
    first = ranking(["A", "B"], {(0, 1): np.array([0.2, -0.2, 0.4, 0.0])})
    second = ranking(["B", "A"], {(0, 1): np.array([0.1, -0.3])})
    weights, spans = [0.5, 0.5], [2.0, 1.0]
    p_values, ranks = average_significance(averages, [first, second], weights, spans)
    # A - B per draw: 0.5 * d1 / 2 + 0.5 * (-d2) / 1 with d2 tiled: [0.1, -0.3, 0.1, -0.3]
    null = 0.25 * np.array([0.2, -0.2, 0.4, 0.0]) - 0.5 * np.array([0.1, -0.3, 0.1, -0.3])
    assert null.tolist() == pytest.approx([0.0, 0.1, 0.05, 0.15])
    assert p_values[0, 1] == np.mean(null >= 0.6 - 0.5) == 0.5
    assert ranks == [1, 1]
    p_values, ranks = average_significance({"A": 0.9, "B": 0.5}, [first, second], weights, spans)
    assert p_values[0, 1] == 0.0 and ranks == [1, 2]


def test_average_significance_needs_draws():
    with pytest.raises(ValueError, match="without significance draws"):
        average_significance({"A": 1.0, "B": 0.0}, [ranking(["A", "B"], {})], [1.0], [1.0])


def test_an_undefined_average_is_never_significant():
    first = ranking(["A", "B"], {(0, 1): np.array([0.0, 0.1])})
    p_values, ranks = average_significance({"A": 0.5, "B": np.nan}, [first], [1.0], [1.0])
    assert np.isnan(p_values[0, 1]) and ranks == [1, 1]
