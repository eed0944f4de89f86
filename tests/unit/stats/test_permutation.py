"""Permutation tests (PERM-BOTH, MTME's pairwise test for tie-calibrated Kendall) and clusters."""

import math

import numpy as np
import pytest

from mtmeta.stats import grouped as gr
from mtmeta.stats import permutation as pm
from mtmeta.stats import tie_calibration as tc


def noisy(gold, scale, seed):
    return np.nan_to_num(gold) + np.random.default_rng(seed).normal(scale=scale, size=gold.shape)


GOLD = np.random.default_rng(0).normal(size=(6, 40))
GOLD[np.random.default_rng(1).random(GOLD.shape) < 0.1] = np.nan


def test_early_stopping_by_hand():
    stop = pm.EarlyStopping(block_size=10, early_min=0.02, early_max=0.5)
    large = np.zeros(100, dtype=bool)
    assert pm.draws_used(large, stop) == 10  # p = 0 after the first block
    large[:6] = True  # 6/10 > 0.5
    assert pm.draws_used(large, stop) == 10
    large = np.zeros(100, dtype=bool)
    large[::4] = True  # p stays at 0.25-0.3: never stops
    assert pm.draws_used(large, stop) == 100
    large = np.zeros(100, dtype=bool)
    large[:6] = True
    large[9] = False  # MTME's pairwise test checks only at a block end whose draw was large
    assert pm.draws_used(large, stop, only_after_large=True) == 100
    large[19] = True  # 7/20 at draw 20: not outside [0.02, 0.5]
    large[25:30] = True  # 12/30 ... still inside
    assert pm.draws_used(large, stop, only_after_large=True) == 100


@pytest.mark.parametrize("statistic", ["pearson", "spearman", "kendall", "acc_eq"])
def test_a_metric_against_itself(statistic):
    metric = noisy(GOLD, 1.0, 2)
    result = pm.perm_both(GOLD, metric, metric, statistic, average_by="item", k=200)
    assert (result.p_value, result.delta, result.draws) == (1.0, 0.0, 200)


@pytest.mark.parametrize("average_by", ["none", "sys", "item"])
def test_pearson_moments_equal_recomputed_draws(average_by):
    a, b = noisy(GOLD, 2.0, 3), noisy(GOLD, 2.2, 4)
    tester = pm._PermBoth(GOLD, "pearson", average_by, False, 0.0)
    ga, gb = gr.layout(GOLD, a, average_by), gr.layout(GOLD, b, average_by)
    za, zb = pm._zscore(ga.metric), pm._zscore(gb.metric)
    groups = gr.Groups(ga.gold, za, ga.starts)
    masks = tester._masks(300, 5, len(za))
    evaluate = pm._Evaluator(groups, "pearson", 0.0, False)
    recomputed = evaluate(np.where(masks, za, zb)) - evaluate(np.where(masks, zb, za))
    calculator = pm._PearsonMoments(groups.gold, groups.starts, masks, False)
    by_moments = calculator.differences(calculator.moments(za), calculator.moments(zb))
    assert np.abs(by_moments[1:] - recomputed).max() < 1e-12
    observed = (gr.grouped_correlation(GOLD, a, "pearson", average_by=average_by).value
                - gr.grouped_correlation(GOLD, b, "pearson", average_by=average_by).value)
    assert by_moments[0] == pytest.approx(observed, abs=1e-12)  # Pearson is invariant to z-scoring


@pytest.mark.parametrize("statistic", ["pearson", "kendall", "tau_eq"])
def test_swapping_the_metrics_mirrors_the_p_value(statistic):
    # With the same draws, the null differences of (b, a) are those of (a, b) negated, so
    # p(a > b) + p(b > a) = 1 + (draws equal to the observed difference) / k >= 1.
    a, b = noisy(GOLD, 1.5, 5), noisy(GOLD, 1.6, 6)
    forward = pm.perm_both(GOLD, a, b, statistic, average_by="item", k=400)
    backward = pm.perm_both(GOLD, b, a, statistic, average_by="item", k=400)
    assert forward.delta == -backward.delta
    assert 1.0 <= forward.p_value + backward.p_value <= 1.1


def test_a_real_difference_is_found_and_not_reversed():
    good, bad = noisy(GOLD, 0.5, 7), noisy(GOLD, 3.0, 8)
    for statistic in ("pearson", "kendall"):
        assert pm.perm_both(GOLD, good, bad, statistic, average_by="none", k=300).p_value < 0.01
        assert pm.perm_both(GOLD, bad, good, statistic, average_by="none", k=300).p_value > 0.99


def test_system_level_accuracy_and_early_stopping():
    gold = np.arange(12, dtype=float)
    a, b = gold + np.random.default_rng(9).normal(scale=0.5, size=12), np.random.default_rng(10).normal(size=12)
    result = pm.perm_both(gold, a, b, "accuracy", k=1000, stopping=pm.EarlyStopping(block_size=100))
    assert result.draws == 100 and result.p_value < 0.02  # stopped after the first block
    assert pm.metric_value(gold, a, "accuracy") > pm.metric_value(gold, b, "accuracy")


def mtme_pairwise_p(gold, a, b, eps_a, eps_b, k, seed):
    """MTME's PairwisePermutationSigDiff, item-grouped acc_eq, written out draw by draw."""
    rng = np.random.default_rng(seed)
    verdicts = []
    for item in range(gold.shape[1]):
        known = ~np.isnan(gold[:, item])
        g, ma, mb = gold[known, item], a[known, item], b[known, item]
        i, j = np.triu_indices(len(g), k=1)
        gold_tie = g[i] == g[j]

        def agree(m, eps, i=i, j=j, g=g, gold_tie=gold_tie):
            tie = np.abs(m[i] - m[j]) <= eps
            return np.where(tie, gold_tie, ~gold_tie & ((m[i] > m[j]) == (g[i] > g[j])))
        verdicts.append((agree(ma, eps_a), agree(mb, eps_b)))
    observed = np.mean([va.mean() for va, _ in verdicts]) - np.mean([vb.mean() for _, vb in verdicts])
    large = 0
    for _ in range(k):
        values = []
        for va, vb in verdicts:
            swap = rng.random(len(va)) < 0.5
            values.append(np.where(swap, vb, va).mean() - np.where(swap, va, vb).mean())
        large += np.mean(values) >= observed - 1e-12
    return large / k


def test_pairwise_test_matches_mtmes_procedure_in_distribution():
    a, b = noisy(GOLD, 1.2, 11).round(1), noisy(GOLD, 1.4, 12).round(1)
    eps_a = tc.calibrate_ties(GOLD, a, average_by="item").epsilon
    eps_b = tc.calibrate_ties(GOLD, b, average_by="item").epsilon
    ours = pm.pairwise_perm_test(GOLD, a, b, average_by="item", k=4000)
    direct = mtme_pairwise_p(GOLD, a, b, eps_a, eps_b, 1000, seed=1)
    assert abs(ours.p_value - direct) < 4 * math.sqrt(direct * (1 - direct) / 1000) + 0.01
    expected_delta = (tc.calibrate_ties(GOLD, a, average_by="item").value
                      - tc.calibrate_ties(GOLD, b, average_by="item").value)
    assert ours.delta == pytest.approx(expected_delta, abs=1e-12)


def test_pairwise_test_by_hand():
    # one item, three systems: a orders all three pairs right, b all wrong; 3 moving pairs, so the
    # null reaches the observed difference only when all three swaps favour a: p = 1/8.
    gold = np.array([[1.0], [2.0], [3.0]])
    a, b = gold.copy(), -gold
    result = pm.pairwise_perm_test(gold, a, b, epsilon_a=0, epsilon_b=0, average_by="item", k=20000)
    assert result.delta == 1.0 and result.p_value == pytest.approx(1 / 8, abs=0.01)
    assert pm.pairwise_perm_test(gold, a, a, epsilon_a=0, epsilon_b=0, average_by="item").p_value == 1.0


def test_assign_ranks_by_hand():
    p = np.array([[0, 0.30, 0.01, 0.00],
                  [0, 0, 0.20, 0.04],
                  [0, 0, 0, 0.50],
                  [0, 0, 0, 0]])
    # metric 2 is beaten by metric 0 (0.01) -> cluster 2; metric 3: only metric 2 is in its cluster
    # before it and does not beat it (0.50), so it stays in cluster 2 although metric 1 beats it.
    assert pm.assign_ranks(p) == [1, 1, 2, 2]
    assert pm.assign_ranks(np.zeros((3, 3))) == [1, 2, 3]  # MTME with k = 0


def test_rank_metrics_orders_and_clusters():
    good = noisy(GOLD, 0.3, 13)
    nearly_good = good + np.random.default_rng(14).normal(scale=0.01, size=GOLD.shape)
    metrics = {"good": good, "good2": nearly_good, "bad": noisy(GOLD, 5.0, 15)}
    ranking = pm.rank_metrics(GOLD, metrics, "pearson", average_by="none", k=300)
    assert ranking.names[-1] == "bad" and ranking.ranks[0] == 1 and ranking.ranks[-1] == 2
    assert ranking.p_values[0, 2] < 0.05 and ranking.p_values[1, 2] < 0.05
    assert ranking.values == sorted(ranking.values, reverse=True)
    calibrated = pm.rank_metrics(GOLD, metrics, "acc_eq_calibrated", average_by="item", k=300)
    assert calibrated.names[-1] == "bad" and calibrated.ranks[-1] == 2
    unranked = pm.rank_metrics(GOLD, metrics, "pearson", k=0)
    assert unranked.ranks == [1, 2, 3] and not unranked.p_values.any()


def test_pooled_accuracy_over_sets():
    # set 1: three systems, metric a right on all 3 pairs, b on 1; set 2: two systems, both right.
    gold = np.array([1.0, 2.0, 3.0, 1.0, 2.0])
    a = np.array([1.0, 2.0, 3.0, 0.0, 5.0])
    b = np.array([3.0, 1.0, 2.0, 0.0, 5.0])
    assert pm.metric_value(gold, a, "accuracy", set_sizes=[3, 2]) == 4 / 4
    assert pm.metric_value(gold, b, "accuracy", set_sizes=[3, 2]) == 2 / 4
    result = pm.perm_both(gold, a, b, "accuracy", set_sizes=[3, 2], k=500)
    assert result.delta == 0.5 and 0 < result.p_value < 0.5
    with pytest.raises(ValueError, match="add up"):
        pm.perm_both(gold, a, b, "accuracy", set_sizes=[3, 3])


def test_soft_pairwise_accuracy_draws_from_shared_products_equal_one_product_per_draw():
    """spa_draws rebuilds each mixture's signed sums from the two metrics' own masked products; the
    integer differences equal those of MTME's one float32 product per mixture (continuous scores: no
    comparison within rounding of a tie)."""
    from mtmeta.stats.spa_draws import SpaDraws, observed_counts
    from mtmeta.stats.system_pairs import pairwise_p_values, permutation_signs

    rng = np.random.default_rng(0)
    n, segments, draws = 7, 90, 150  # more draws than one chunk of SpaDraws.masked below
    gold = rng.choice([-0.1, -1.1, -5.3, 0.0, -25.0], size=(n, segments))
    a, b = gold + rng.normal(size=gold.shape), gold + 3 * rng.normal(size=gold.shape)
    z = {"a": (a - a.mean()) / a.std(), "b": (b - b.mean()) / b.std()}
    signs = permutation_signs(segments)
    gold_counts = observed_counts(gold.astype(np.float32), signs)
    upper = np.triu_indices(n, 1)
    assert np.array_equal(gold_counts / 1000, pairwise_p_values(gold)[upper])
    masks = rng.random((draws, n * segments)) < 0.5
    shared = SpaDraws(gold_counts, z, masks)
    got = np.concatenate([shared.differences("a", "b", {m: shared.masked(m, start, end) for m in "ab"})
                          for start, end in ((0, 64), (64, draws))])
    za, zb = z["a"].astype(np.float32), z["b"].astype(np.float32)
    want = []
    for mask in masks.reshape(draws, n, segments):
        a_mix, b_mix = np.where(mask, za, zb), np.where(mask, zb, za)
        want.append(np.abs(gold_counts - observed_counts(b_mix, signs)).sum()
                    - np.abs(gold_counts - observed_counts(a_mix, signs)).sum())
    assert np.array_equal(got, want)
    assert shared.observed_difference("a", "b") == (np.abs(gold_counts - observed_counts(zb, signs)).sum()
                                                    - np.abs(gold_counts - observed_counts(za, signs)).sum())


def test_spa_ranking_tests_every_pair_as_perm_both_alone():
    """A ranking runs all its soft-pairwise-accuracy tests together; each equals the test of its pair
    alone (same masks, its own early stopping)."""
    rng = np.random.default_rng(2)
    gold = rng.choice([-0.1, -1.1, -5.3, 0.0, -25.0], size=(6, 60))
    metrics = {f"m{i}": gold + s * rng.normal(size=gold.shape) for i, s in enumerate((0.5, 1.0, 1.05, 6.0))}
    stopping = pm.EarlyStopping(50, 0.02, 0.5)
    ranking = pm.rank_metrics(gold, metrics, "spa", k=200, stopping=stopping, seed=7)
    for i in range(4):
        for j in range(i + 1, 4):
            alone = pm.perm_both(gold, metrics[ranking.names[i]], metrics[ranking.names[j]], "spa", k=200,
                                 stopping=stopping, seed=7)
            assert (ranking.p_values[i, j], ranking.draws[i, j]) == (alone.p_value, alone.draws)
            assert np.array_equal(ranking.null_draws[(i, j)], alone.null)
    assert ranking.draws[0, 3] == 50 and ranking.draws.max() == 200  # one stopped early, one did not


def test_perm_both_on_soft_pairwise_accuracy():
    rng = np.random.default_rng(1)
    gold = rng.choice([-0.1, -1.1, -5.3, 0.0, -25.0], size=(6, 200))
    close, far = gold + rng.normal(size=gold.shape), gold + 8 * rng.normal(size=gold.shape)
    result = pm.perm_both(gold, close, far, "spa", k=200, seed=3)
    assert result.delta > 0 and result.p_value < 0.05 and len(result.null) == result.draws
    assert pm.perm_both(gold, close, far, "spa", k=200, seed=3) == result  # seeded
