"""mt-metrics-eval's protocols for one metric on one pair, on a hand-made MQM set."""

import math

import numpy as np
import pandas as pd
import pytest

from mtmeta.metaeval.clusters import PairMetrics, oriented, pair_clusters
from mtmeta.metaeval.export import export_metric
from mtmeta.metaeval.protocols import PairScores, category_rows, protocol_rows
from mtmeta.metaeval.user_metric_tables import segment_table, system_table
from mtmeta.metrics.user_metric import ExternalScores
from mtmeta.stats import chance

# Four MT systems and one human translation (refB) x three segments; MQM is 0 or negative.
MQM = {"s1": [0.0, -1.0, -5.0], "s2": [-1.0, -5.0, -6.0], "s3": [0.0, 0.0, -1.0], "s4": [-5.0, -5.0, -10.0],
       "refB": [0.0, 0.0, 0.0]}
METRIC = {"s1": [0.5, 0.4, 0.1], "s2": [0.3, 0.2, 0.2], "s3": [0.9, 0.7, 0.4], "s4": [0.1, 0.0, 0.1],
          "refB": [0.2, 0.3, 0.1]}  # ranks refB low although MQM says it is flawless


def _pair(higher_is_better=True, metric=METRIC):
    ext = ExternalScores("toy", higher_is_better)
    rows = pd.DataFrame([{"system": s, "seg_id": k + 1, "score": v} for s, vs in metric.items()
                         for k, v in enumerate(vs)])
    segments = segment_table(rows, ext)
    systems = system_table(ext, None, segments)
    human_segments = pd.DataFrame([{"system": s, "seg_id": k + 1, "mqm": v} for s, vs in MQM.items()
                                   for k, v in enumerate(vs)])
    means = human_segments.groupby("system")["mqm"].mean()
    human = pd.DataFrame({"system": ["s1", "s2", "s3", "s4"], "mqm": means.loc[["s1", "s2", "s3", "s4"]].to_numpy()})
    translations = pd.DataFrame({"system": ["refB"], "mqm": [means["refB"]]})
    summary = {"dataset": "toy", "lp": "en-de", "kind": "mtme", "reference": "refA", "human_scores": ["mqm"],
               "human_translations": ["refB"], "n_segments": 3}
    return ext, PairScores(summary, human, translations, human_segments, segments, systems)


def _value(table, **where):
    rows = table
    for column, value in where.items():
        rows = rows[rows[column] == value]
    assert len(rows) == 1, where
    return rows.iloc[0]


def test_system_level_protocols_with_and_without_the_human_translation():
    metric, pair = _pair()
    table = protocol_rows("toy", metric, pair, ["mqm"], draws=200, seed=3)
    human = {"s1": -2.0, "s2": -4.0, "s3": -1 / 3, "s4": -20 / 3}
    scores = {s: float(np.mean(v)) for s, v in METRIC.items()}
    mt = ["s1", "s2", "s3", "s4"]
    pearson = float(np.corrcoef([human[s] for s in mt], [scores[s] for s in mt])[0, 1])
    row = _value(table, level="system", statistic="pearson", human_translations="excluded", aggregation="corpus")
    assert row["value"] == pytest.approx(pearson) and row["n_systems"] == 4
    assert row["interval_method"] == "boot-both" and row["low"] <= row["value"] <= row["high"]
    # The metric orders the four MT systems exactly as MQM: every pair agrees. With refB (MQM 0, the
    # best; the metric's second worst, above s4 only) 3 of the 10 pairs disagree.
    assert _value(table, level="system", statistic="accuracy", human_translations="excluded",
                  aggregation="corpus")["value"] == 1.0
    assert _value(table, level="system", statistic="accuracy", human_translations="included",
                  aggregation="corpus")["value"] == pytest.approx(7 / 10)
    assert _value(table, level="system", statistic="kendall", human_translations="excluded",
                  aggregation="segment_mean")["value"] == pytest.approx(1.0)
    spa = _value(table, statistic="soft_accuracy", human_translations="excluded")
    assert 0 <= spa["value"] <= 1 and spa["n_items"] == 3


def test_segment_level_protocols_and_a_lower_is_better_metric_negated():
    metric, pair = _pair()
    table = protocol_rows("toy", metric, pair, ["mqm"], draws=100, seed=1)
    seg = table[table["level"] == "segment"]
    assert set(zip(seg["statistic"], seg["grouping"], strict=True)) == {
        ("pearson", "none"), ("kendall", "none"), ("kendall", "item"), ("acc_eq", "item")}
    # Item 3 (s1 -5, s2 -6, s3 -1, s4 -10 vs 0.1, 0.2, 0.4, 0.1) and the others, by hand: tau-b per item.
    from scipy.stats import kendalltau

    gold = np.array([MQM[s] for s in ["s1", "s2", "s3", "s4"]])
    scores = np.array([METRIC[s] for s in ["s1", "s2", "s3", "s4"]])
    taus = [kendalltau(gold[:, k], scores[:, k]).statistic for k in range(3)]
    assert _value(seg, statistic="kendall", grouping="item")["value"] == pytest.approx(np.mean(taus))
    flipped_metric, flipped = _pair(higher_is_better=False, metric={s: [-v for v in vs] for s, vs in METRIC.items()})
    negated = protocol_rows("toy", flipped_metric, flipped, ["mqm"], draws=100, seed=1)
    pd.testing.assert_series_equal(negated["value"], table["value"])


def test_clusters_and_categories_and_export(tmp_path):
    metric, pair = _pair()
    systems, segments = oriented({"toy": pair.systems, "same": pair.systems}, {"toy": pair.segments},
                                 {"toy": True, "same": True})
    clusters = pair_clusters(PairMetrics(pair.summary, pair.human, pair.human_segments, systems, segments), "mqm",
                             k=50, seed=2)
    pearson = clusters[clusters["statistic"] == "pearson"]
    assert list(pearson["rank"]) == [1, 1] and set(pearson["metric"]) == {"toy", "same"}
    categories = pair.human_segments.rename(columns={"mqm": "all"}).assign(Accuracy=0.0)
    rows = category_rows("toy", metric, pair, categories, draws=50, seed=2)
    assert list(rows["restriction"]) == ["all", "Accuracy"]
    assert math.isnan(rows.iloc[1]["value"]) and rows.iloc[1]["n_items"] == 0  # a constant gold: undefined
    files = export_metric(tmp_path, pair.summary, "toy", False, pair.segments, pair.systems)
    assert [f.name for f in files] == ["toy-refA.sys.score", "toy-refA.seg.score"]
    lines = files[0].read_text().splitlines()
    assert lines[0].split("\t")[0] == "refB" and float(lines[0].split("\t")[1]) == pytest.approx(-0.2)


def test_global_accuracy_has_a_bootstrap_interval_beside_its_cluster():
    from mtmeta.metaeval.clusters import pooled_clusters

    _, pair = _pair()
    gold = pair.human.set_index("system")["mqm"]
    swapped = gold.rename({"s1": "s2", "s2": "s1"})  # s1 and s2 the wrong way round: 5 of 6 pairs agree
    systems, segments = oriented({"toy": swapped.rename("score").reset_index(),
                                  "perfect": gold.rename("score").reset_index()}, {}, {"toy": True, "perfect": True})
    one = PairMetrics(pair.summary, pair.human, pair.human_segments, systems, segments)
    table = pooled_clusters([one, one], "mqm", k=200, seed=3).set_index("metric")
    assert list(table.columns[-4:]) == ["low", "high", "interval_method", "draws"]
    # A metric that orders the systems as MQM does agrees on every pair of every draw.
    assert (table.at["perfect", "value"], table.at["perfect", "low"], table.at["perfect", "high"]) == (1.0, 1.0, 1.0)
    toy = table.loc["toy"]
    assert toy["value"] == pytest.approx(5 / 6) and toy["low"] < toy["value"] < toy["high"] <= 1.0
    assert (toy["interval_method"], toy["draws"]) == ("boot-systems", 200)


def test_chance_levels_beside_every_protocol_value():
    metric, pair = _pair()
    pair.human_segments["mqm2"] = pair.human_segments["mqm"] * 2
    pair.human["mqm2"] = pair.human["mqm"] * 2
    table = protocol_rows("toy", metric, pair, ["mqm", "mqm2"], draws=50, seed=3, chance_draws=40)
    primary = table[table["human_score"] == "mqm"]
    # No tied system scores on either side: half of the pairs, with or without refB.
    for included in ("excluded", "included"):
        row = _value(primary, level="system", statistic="accuracy", human_translations=included,
                     aggregation="corpus")
        assert (row["chance"], row["chance_se"]) == (0.5, 0.0)
    for statistic in ("pearson", "spearman", "kendall"):
        assert _value(primary, level="system", statistic=statistic, human_translations="excluded",
                      aggregation="corpus")["chance"] == 0.0
    seg = primary[primary["level"] == "segment"]
    assert set(seg.loc[seg["statistic"] != "acc_eq", "chance"]) == {0.0}
    # Tie-calibrated acc_eq: the seeded permutation level, never below the every-pair-tied floor:
    # per item the share of gold-tied pairs, (1/6 + 1/6 + 0) / 3.
    acc_eq = _value(seg, statistic="acc_eq")
    gold = np.array([MQM[s] for s in ["s1", "s2", "s3", "s4"]])
    scores = np.array([METRIC[s] for s in ["s1", "s2", "s3", "s4"]])
    expected = chance.permutation_level(gold, scores, chance.CALIBRATED, average_by="item", draws=40, seed=3)
    assert acc_eq["floor"] == pytest.approx(1 / 9)
    assert (acc_eq["chance"], acc_eq["chance_se"], acc_eq["chance_draws"]) == (
        expected.value, expected.standard_error, 40)
    assert acc_eq["floor"] <= acc_eq["chance"] < acc_eq["value"]
    spa = _value(primary, statistic="soft_accuracy", human_translations="excluded")
    mt = ["s1", "s2", "s3", "s4"]
    assert spa["chance"] == chance.expected_soft_pairwise_accuracy(
        pair.human_segments.pivot(index="system", columns="seg_id", values="mqm").loc[mt].to_numpy(), scores)
    # The permutation levels are computed against the primary human score only.
    other = table[table["human_score"] == "mqm2"]
    assert math.isnan(_value(other, statistic="acc_eq")["chance"])
    assert math.isnan(_value(other, statistic="soft_accuracy", human_translations="excluded")["chance"])
    assert _value(other, level="system", statistic="accuracy", human_translations="excluded",
                  aggregation="corpus")["chance"] == 0.5
