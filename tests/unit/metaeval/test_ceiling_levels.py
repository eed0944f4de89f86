"""Human ceiling, metrics and chance levels on a small three-rater set built by hand."""

import itertools

import numpy as np
import pandas as pd
import pytest

from mtmeta.data.evalset import EvalSet
from mtmeta.data.wmt23 import SxsSet, rating_array
from mtmeta.metaeval import ceiling_levels
from mtmeta.metrics import get
from mtmeta.stats import chance
from mtmeta.stats.ceiling import human_ceiling, rotations
from mtmeta.stats.system_pairs import pairwise_accuracy

SYSTEMS = ["A", "B", "C", "D"]
RATERS = {1: ("r1", "r2", "r3"), 2: ("r2", "r3", "r4"), 3: ("r1", "r3", "r4"), 4: ("r1", "r2", "r4"),
          5: ("r1", "r2", "r3")}


def small_set():
    rng = np.random.default_rng(0)
    quality = {"A": 0.0, "B": -1.0, "C": -2.0, "D": -4.0}
    rows = [(system, seg, rater, float(np.round(quality[system] + rng.normal(), 1)))
            for seg, raters in RATERS.items() for rater in raters for system in SYSTEMS]
    raters = pd.DataFrame(rows, columns=["system", "seg_id", "rater", "score"])
    texts = pd.DataFrame({"seg_id": range(1, 6), "source": [f"s{i}" for i in range(1, 6)], "domain": "news",
                          "doc": "d"})
    reference = ["the cat sat on the mat", "a dog ran", "it rains today", "we go home", "good night all"]
    references = pd.DataFrame({"reference": "refA", "seg_id": range(1, 6), "text": reference})
    damage = {"A": 0, "B": 1, "C": 2, "D": 3}
    outputs = pd.DataFrame([(s, i + 1, " ".join(text.split()[damage[s]:]) or "x") for s in SYSTEMS
                            for i, text in enumerate(reference)], columns=["system", "seg_id", "hypothesis"])
    evalset = EvalSet("wmt23.sxs", "en-de", "refA", texts, references, outputs, {})
    return SxsSet(evalset, raters, pd.DataFrame(), pd.DataFrame())


def test_levels_put_human_metric_chance_and_floor_side_by_side():
    sxs = small_set()
    metrics = {"chrf": ceiling_levels.metric_scores(sxs, get("chrf"))}
    table = ceiling_levels.levels(sxs, metrics, seed=5, draws=30)
    assert list(table["statistic"].unique()) == list(ceiling_levels.STATISTICS)
    row = table.set_index(["statistic", "level"])
    _, ratings = rating_array(sxs.raters, SYSTEMS, range(1, 6))
    direct = human_ceiling(ratings, ceiling_levels.statistic("system_accuracy"),
                           metrics["chrf"][0].loc[SYSTEMS].to_numpy(), seed=5)
    assert row.loc[("system_accuracy", "human"), "value"] == pytest.approx(direct.human)
    assert row.loc[("system_accuracy", "metric"), "value"] == pytest.approx(direct.metric)
    assert row.loc[("system_accuracy", "metric"), "value"] == 1.0  # chrF orders A > B > C > D like the raters
    assert row.loc[("system_accuracy", "chance"), "value"] == 0.5  # no tied system means
    assert row.loc[("system_kendall", "chance"), "value"] == 0.0
    assert row.loc[("segment_acc_eq", "chance"), "draws"] == 30
    assert 0 <= row.loc[("segment_acc_eq", "floor"), "value"] < row.loc[("segment_acc_eq", "chance"), "value"]
    assert (table["segments"] == 5).all()


def test_system_accuracy_is_pairwise_accuracy_of_the_means():
    gold = np.array([[1.0, 2.0], [0.0, 0.0], [3.0, 3.0]])
    assert ceiling_levels.statistic("system_accuracy")(gold, np.array([0.5, 0.1, 0.9])) == pairwise_accuracy(
        [1.5, 0.0, 3.0], [0.5, 0.1, 0.9]) == 1.0


def test_slot_agreement_names_three_pairs():
    table = ceiling_levels.slot_agreement(small_set())
    assert list(itertools.zip_longest(table["slot_a"], table["slot_b"])) == [(1, 2), (1, 3), (2, 3)]


def test_unknown_statistic_is_named():
    with pytest.raises(ValueError, match="unknown statistic 'segment_tau'; known: system_pearson, system_accuracy"):
        ceiling_levels.statistic("segment_tau")


def test_rater_levels_from_tables_with_the_protocol_tables_statistics():
    sxs = small_set()
    metrics = {"chrf": ceiling_levels.metric_scores(sxs, get("chrf"))}
    table = ceiling_levels.rater_levels("en-de", sxs.raters, SYSTEMS, list(range(1, 6)), metrics, seed=5, draws=10,
                                 statistics=ceiling_levels.ALL_STATISTICS)
    assert list(table["statistic"].unique()) == list(ceiling_levels.ALL_STATISTICS)
    row = table.set_index(["statistic", "level"])
    _, ratings = rating_array(sxs.raters, SYSTEMS, range(1, 6))
    for name in ("system_pearson", "segment_kendall"):
        metric = metrics["chrf"][0].loc[SYSTEMS].to_numpy() if name.startswith("system") else \
            metrics["chrf"][1].loc[SYSTEMS].to_numpy()
        direct = human_ceiling(ratings, ceiling_levels.statistic(name), metric, seed=5)
        assert row.loc[(name, "human"), "value"] == pytest.approx(direct.human)
        assert row.loc[(name, "metric"), "value"] == pytest.approx(direct.metric)
        assert row.loc[(name, "chance"), "value"] == 0.0


def test_each_rotation_permutes_with_its_own_seed():
    """Independent rotations: the standard error of the mean of three estimates is sqrt(sum se^2) / 3
    only if they do not share their permutations (rotation r uses seed + r)."""
    sxs = small_set()
    _, ratings = rating_array(sxs.raters, SYSTEMS, range(1, 6))
    grid = ceiling_levels.metric_scores(sxs, get("chrf"))[1].loc[SYSTEMS].to_numpy()
    result = ceiling_levels._chance("segment_acc_eq", ratings, grid, 5, 10)[0]
    estimates = [chance.permutation_level(gold, grid, chance.CALIBRATED, average_by="item", draws=10, seed=5 + r)
                 for r, (_, gold) in enumerate(rotations(ratings, seed=5))]
    assert result["value"] == pytest.approx(np.mean([e.value for e in estimates]))
    assert result["standard_error"] == pytest.approx(np.sqrt(sum(e.standard_error ** 2 for e in estimates)) / 3)


def test_intervals_resample_segments_for_every_level_and_the_share():
    sxs = small_set()
    metrics = {"chrf": ceiling_levels.metric_scores(sxs, get("chrf"))}
    plain = ceiling_levels.rater_levels("en-de", sxs.raters, SYSTEMS, list(range(1, 6)), metrics, seed=5, draws=10,
                                 statistics=ceiling_levels.ALL_STATISTICS)
    table = ceiling_levels.rater_levels("en-de", sxs.raters, SYSTEMS, list(range(1, 6)), metrics, seed=5, draws=10,
                                 statistics=ceiling_levels.ALL_STATISTICS, bootstrap=200)
    # The point values do not change; the intervals are there for the statistics level_draws covers.
    pd.testing.assert_series_equal(plain["value"], table["value"])
    row = table.set_index(["statistic", "level"])
    for name in ("system_accuracy", "system_pearson", "segment_acc_eq"):
        for level in ("human", "metric", "chance"):
            low, high = row.loc[(name, level), ["low", "high"]]
            assert low <= high and row.loc[(name, level), "interval_draws"] == 200
        assert row.loc[(name, "metric"), "share_low"] <= row.loc[(name, "metric"), "share_high"]
    assert (row.loc[("system_pearson", "chance"), "low"], row.loc[("system_pearson", "chance"), "high"]) == (0, 0)
    assert np.isnan(row.loc[("segment_kendall", "human"), "low"])  # no interval without grouping
    again = ceiling_levels.rater_levels("en-de", sxs.raters, SYSTEMS, list(range(1, 6)), metrics, seed=5, draws=10,
                                 statistics=ceiling_levels.ALL_STATISTICS, bootstrap=200)
    pd.testing.assert_frame_equal(table, again)


def test_permutation_item_values_give_permutation_levels_estimate():
    sxs = small_set()
    _, ratings = rating_array(sxs.raters, SYSTEMS, range(1, 6))
    grid = ceiling_levels.metric_scores(sxs, get("chrf"))[1].loc[SYSTEMS].to_numpy()
    _, gold = next(rotations(ratings, seed=5))
    estimate, per_item = chance.permutation_item_values(gold, grid, draws=15, seed=2)
    assert estimate == chance.permutation_level(gold, grid, chance.CALIBRATED, average_by="item", draws=15, seed=2)
    assert per_item.shape == (15, 5)
    assert np.nanmean(per_item, axis=1).mean() == pytest.approx(estimate.value)
