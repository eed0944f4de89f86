"""DA scored as a metric against MQM, beside the metrics on the same systems and cells."""

import math

import numpy as np
import pandas as pd
import pytest

from mtmeta.metaeval import crowd
from mtmeta.stats import chance
from mtmeta.stats.grouped import grouped_correlation
from mtmeta.stats.system_pairs import pairwise_accuracy

SYSTEMS = ["A", "B", "C", "D", "E"]


def _tables():
    """Five systems with MQM, four with DA too (E has MQM only), six segments; DA misses two cells."""
    rng = np.random.default_rng(3)
    quality = dict(zip(SYSTEMS, [0.0, -1.0, -1.5, -3.0, -2.0], strict=True))
    rows = []
    for system in SYSTEMS:
        for seg in range(1, 7):
            mqm = round(quality[system] + rng.normal(), 1)
            z = round(quality[system] / 3 + rng.normal(), 2) if system != "E" else math.nan
            rows.append((system, seg, mqm, z, 50 + 10 * z if not math.isnan(z) else math.nan))
    segments = pd.DataFrame(rows, columns=["system", "seg_id", "mqm", "wmt-z", "wmt-raw"])
    drop = (segments["system"] == "A") & segments["seg_id"].isin([2, 5])
    segments.loc[drop, ["wmt-z", "wmt-raw"]] = math.nan
    human = segments.groupby("system", sort=False)[["mqm", "wmt-z", "wmt-raw"]].mean().reset_index()
    human.loc[human["system"] == "E", ["wmt-z", "wmt-raw"]] = math.nan
    grid = segments.pivot(index="system", columns="seg_id", values="mqm") + rng.normal(0, 0.5, (5, 6))
    metric = (grid.mean(axis=1), grid)
    return human, segments, {"m": metric}


def test_da_and_metric_on_the_same_systems_and_cells():
    human, segments, metrics = _tables()
    table = crowd.crowd_levels("zh-en", human, segments, metrics, seed=1, draws=20)
    assert set(table["left_out"]) == {"E"}  # MQM without DA: named, not scored
    assert set(table["systems"]) == {4} and set(table["segments"]) == {6}
    row = table.set_index(["statistic", "who"])
    systems = ["A", "B", "C", "D"]
    gold = human.set_index("system").loc[systems, "mqm"].to_numpy()
    da = human.set_index("system").loc[systems, "wmt-z"].to_numpy()
    assert row.loc[("system_accuracy", "wmt-z"), "value"] == pairwise_accuracy(gold, da)
    assert row.loc[("system_accuracy", "m"), "value"] == pairwise_accuracy(gold, metrics["m"][0].loc[systems])
    assert row.loc[("system_accuracy", "wmt-z"), "level"] == "human"
    # Segment level: only the cells with both MQM and DA (A's segments 2 and 5 left out), for DA and the metric.
    cells = segments.pivot(index="system", columns="seg_id", values="mqm").loc[systems].to_numpy().copy()
    cells[0, [1, 4]] = np.nan
    metric_grid = metrics["m"][1].loc[systems].to_numpy()
    expected = grouped_correlation(cells, metric_grid, "kendall", average_by="none").value
    assert row.loc[("segment_kendall", "m"), "value"] == pytest.approx(expected)
    assert row.loc[("segment_kendall", "permuted m"), "value"] == 0.0
    assert row.loc[("system_accuracy", "permuted wmt-z"), "value"] == chance.expected_pairwise_accuracy(gold, da)
    level = row.loc[("segment_acc_eq", "permuted m")]
    direct = chance.permutation_level(cells, metric_grid, chance.CALIBRATED, average_by="item", draws=20, seed=1)
    assert (level["value"], level["standard_error"], level["draws"]) == (direct.value, direct.standard_error, 20)
    assert row.loc[("segment_acc_eq", "every pair tied"), "value"] == chance.all_tied_acc_eq(cells)


def test_deterministic():
    human, segments, metrics = _tables()
    first = crowd.crowd_levels("zh-en", human, segments, metrics, seed=1, draws=10)
    pd.testing.assert_frame_equal(first, crowd.crowd_levels("zh-en", human, segments, metrics, seed=1, draws=10))


def test_a_missing_da_variant_is_named():
    human, segments, metrics = _tables()
    with pytest.raises(ValueError, match="no human score wmt-raw .* needs mqm, wmt-z, wmt-raw"):
        crowd.crowd_levels("zh-en", human.drop(columns="wmt-raw"), segments, metrics)


def test_a_system_without_a_metric_score_is_left_out():
    human, segments, metrics = _tables()
    corpus, grid = metrics["m"]
    systems, left_out = crowd.crowd_systems(human, {"m": (corpus.drop("B"), grid)})
    assert (systems, left_out) == (["A", "C", "D"], ["B", "E"])


def test_intervals_resample_the_segments_for_da_the_metric_and_chance():
    human, segments, metrics = _tables()
    plain = crowd.crowd_levels("zh-en", human, segments, metrics, seed=1, draws=20)
    table = crowd.crowd_levels("zh-en", human, segments, metrics, seed=1, draws=20, bootstrap=300)
    pd.testing.assert_series_equal(plain["value"], table["value"])
    row = table.set_index(["statistic", "who"])
    for name in ("system_accuracy", "system_pearson", "segment_acc_eq"):
        for who in ("wmt-z", "m", "permuted m"):
            assert row.loc[(name, who), "low"] <= row.loc[(name, who), "high"]
            assert row.loc[(name, who), "interval_draws"] == 300
    assert not np.isnan(row.loc[("system_accuracy", "m"), "share_low"]) or np.isnan(
        row.loc[("system_accuracy", "m"), "share_high"])
    assert np.isnan(row.loc[("system_accuracy", "wmt-z"), "share_low"])  # DA is the human level: no share
    assert np.isnan(row.loc[("segment_kendall", "m"), "low"])  # no interval without grouping
    pd.testing.assert_frame_equal(table, crowd.crowd_levels("zh-en", human, segments, metrics, seed=1, draws=20,
                                                            bootstrap=300))


def test_a_metric_with_a_reaggregation_is_re_aggregated_per_draw():
    human, segments, metrics = _tables()
    corpus, grid = metrics["m"]
    calls = []

    def reaggregate(counts):
        calls.append(counts.shape)
        return np.broadcast_to(corpus.loc[["A", "B", "C", "D"]].to_numpy(), (len(counts), 4)) * 1.0

    table = crowd.crowd_levels("zh-en", human, segments, {"m": (corpus, grid, reaggregate)}, seed=1, draws=5,
                               bootstrap=50)
    assert calls and calls[0] == (50, 6)  # draws x the pair's segments
    assert table["interval_draws"].max() == 50
