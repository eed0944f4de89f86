"""Meta-evaluation across metrics: bootstrap intervals, Williams pairs and WMT-style groups."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mtmeta.metaeval.bootstrap import bootstrap_table
from mtmeta.metaeval.significance import clusters, williams_table
from mtmeta.stats.human import system_scores

SUMMARY = {"dataset": "d", "lp": "en-cs"}


class MeanMetric:
    """A metric whose corpus score is the (weighted) mean of its one statistic."""

    def __init__(self, higher_is_better=True):
        self.higher_is_better = higher_is_better

    def corpus_score(self, stats_):
        return float(stats_[:, 0].mean())

    def corpus_score_weighted(self, stats_, weights):
        return float(np.average(stats_[:, 0], weights=weights)) if np.sum(weights) else float("nan")

    def corpus_scores_weighted(self, stats_, weights):
        return np.array([self.corpus_score_weighted(stats_, w) for w in weights])


def strict_order_study(n_segments=30, seed=1):
    """Systems s0 > s1 > s2 > s3 on every segment, for the humans and for the metric."""
    rng = np.random.default_rng(seed)
    systems = ["s0", "s1", "s2", "s3"]
    base = {"s0": 3.0, "s1": 2.0, "s2": 1.0, "s3": 0.0}
    seg = pd.DataFrame([{"system": s, "seg_id": k, "x": base[s] + 0.9 * rng.random()}
                        for s in systems for k in range(1, n_segments + 1)])
    rows = []
    for k in range(1, n_segments + 1):
        for a, b in itertools.combinations(rng.permutation(systems)[:3], 2):
            rows.append({"seg_id": k, "sys_a": a, "sys_b": b, "outcome": "a" if base[a] > base[b] else "b"})
    comparisons = pd.DataFrame(rows)
    return systems, seg, comparisons


def test_bootstrap_of_a_perfect_ranking_is_degenerate_at_one():
    systems, seg, comparisons = strict_order_study()
    human = system_scores(comparisons)
    table = bootstrap_table(SUMMARY, comparisons, human, {"m": seg}, {"m": MeanMetric()}, draws=200, seed=3)
    row = table[table.human_score == "gt_others"].iloc[0]
    assert row["n_systems"] == 4 and row["draws"] == 200
    # Every resample keeps both orders, so every Spearman draw is exactly 1.
    assert row["spearman"] == 1.0 and row["spearman_low"] == 1.0 and row["spearman_high"] == 1.0
    means = seg.groupby("system")["x"].mean().loc[systems]
    gt = human.set_index("system").loc[systems, "gt_others"]
    assert row["pearson"] == pytest.approx(stats.pearsonr(means, gt).statistic, abs=1e-12)
    assert row["pearson_low"] <= row["pearson"] <= row["pearson_high"] <= 1.0


def test_bootstrap_negates_lower_is_better_and_is_seeded():
    systems, seg, comparisons = strict_order_study()
    human = system_scores(comparisons)
    flipped = seg.assign(x=-seg["x"])
    one = bootstrap_table(SUMMARY, comparisons, human, {"m": flipped}, {"m": MeanMetric(False)}, draws=50, seed=9)
    two = bootstrap_table(SUMMARY, comparisons, human, {"m": flipped}, {"m": MeanMetric(False)}, draws=50, seed=9)
    pd.testing.assert_frame_equal(one, two)
    assert one[one.human_score == "gt_others"]["spearman_low"].iloc[0] == 1.0


def test_official_scores_get_fisher_z_rows_with_or_without_judgments():
    systems, seg, comparisons = strict_order_study()
    human = system_scores(comparisons).assign(official=[0.9, 0.1, 0.3, -0.8])
    means = seg.groupby("system")["x"].mean().loc[systems]
    r = stats.pearsonr(means, [0.9, 0.1, 0.3, -0.8]).statistic
    both = bootstrap_table(SUMMARY, comparisons, human, {"m": seg}, {"m": MeanMetric()}, draws=20, seed=3)
    assert both["human_score"].tolist() == ["gt_others", "ge_others", "expected_wins", "official"]
    assert both["interval_method"].tolist() == ["bootstrap"] * 3 + ["fisher-z"]
    official = both.iloc[3]
    assert official["pearson"] == pytest.approx(r, abs=1e-12) and official["draws"] == 0
    z, half = np.arctanh(r), stats.norm.ppf(0.975) / np.sqrt(4 - 3)
    assert (official["pearson_low"], official["pearson_high"]) == pytest.approx((np.tanh(z - half), np.tanh(z + half)))
    assert np.isnan(official["spearman_low"])
    # No judgments (a WMT14 out-of-English pair): the official rows only, no resampling needed.
    only = human[["system", "official"]].assign(gt_others=np.nan, comparisons=np.nan)
    alone = bootstrap_table(SUMMARY, comparisons.iloc[0:0], only, {"m": seg}, {"m": MeanMetric()}, draws=20)
    pd.testing.assert_frame_equal(alone.reset_index(drop=True), both.iloc[[3]].reset_index(drop=True),
                                  check_dtype=False)


def test_bootstrap_refuses_a_judged_system_without_statistics():
    systems, seg, comparisons = strict_order_study()
    human = system_scores(comparisons)
    with pytest.raises(ValueError, match="s3"):
        bootstrap_table(SUMMARY, comparisons, human, {"m": seg[seg.system != "s3"]}, {"m": MeanMetric()}, draws=5)


def test_williams_table_pairs_and_directions():
    human = pd.DataFrame({"system": list("abcdef"), "gt_others": [0.9, 0.7, 0.6, 0.4, 0.3, 0.1]})
    good = pd.DataFrame({"system": list("abcdef"), "score": [30.0, 27, 25, 20, 19, 10]})
    ter = pd.DataFrame({"system": list("abcdef"), "score": [50.0, 60, 55, 70, 80, 75]})  # lower is better
    table = williams_table(SUMMARY, human, {"good": good, "ter": ter}, {"good": True, "ter": False})
    assert len(table) == 2
    row = table[(table.metric_1 == "good") & (table.metric_2 == "ter")].iloc[0]
    assert row["r_1"] == pytest.approx(stats.pearsonr(good.score, human.gt_others).statistic)
    assert row["r_2"] == pytest.approx(-stats.pearsonr(ter.score, human.gt_others).statistic)
    assert row["r_12"] == pytest.approx(-stats.pearsonr(good.score, ter.score).statistic)
    reverse = table[(table.metric_1 == "ter")].iloc[0]
    assert reverse["t"] == pytest.approx(-row["t"])
    assert row["p_one_sided"] + reverse["p_one_sided"] == pytest.approx(1.0)


def test_clusters_follow_assign_ranks():
    pearson = {"a": 0.95, "b": 0.93, "c": 0.80, "d": 0.79, "e": 0.10}
    p = {(x, y): 0.5 for x in pearson for y in pearson if x != y}
    p[("a", "c")] = 0.01  # a beats c: c opens group 2
    p[("c", "e")] = 0.2
    p[("d", "e")] = 0.04  # d (in c's group) beats e: e opens group 3
    assert clusters(pearson, p) == {"a": 1, "b": 1, "c": 2, "d": 2, "e": 3}
    assert clusters(pearson, p, level=0.001) == dict.fromkeys(pearson, 1)
