"""The MQM protocol table's chance, floor, human-ceiling and headroom columns."""

import math

import pandas as pd
import pytest

from mtmeta.paper import mqm_tables


def _protocols():
    rows = []
    for metric, accuracy, acc_eq in (("bleu", 0.75, 0.4775), ("chrf", 0.9, 0.55)):
        base = {"dataset": "sxs", "lp": "zh-en", "metric": metric, "human_score": "mqm",
                "human_translations": "excluded", "n_systems": 10}
        rows += [{**base, "level": "system", "statistic": "accuracy", "grouping": "none", "aggregation": "corpus",
                  "value": accuracy, "chance": 0.5, "chance_se": 0.0},
                 {**base, "level": "system", "statistic": "pearson", "grouping": "none", "aggregation": "corpus",
                  "value": 0.8, "chance": 0.0, "chance_se": 0.0},
                 {**base, "level": "segment", "statistic": "acc_eq", "grouping": "item", "aggregation": "segment",
                  "value": acc_eq, "chance": 0.47, "chance_se": 0.002, "floor": 0.477}]
    return pd.DataFrame(rows)


def _ceilings():
    rows = [("system_accuracy", "human", "one rater vs mean of two", 0.95, 0.0),
            ("segment_acc_eq", "human", "one rater vs mean of two", 0.60, 0.0),
            ("segment_acc_eq", "floor", "every pair tied", 0.45, 0.0)]
    for metric, accuracy, acc_eq in (("bleu", 0.8, 0.50), ("chrf", 0.85, 0.53)):
        rows += [("system_accuracy", "metric", metric, accuracy, math.nan),
                 ("system_accuracy", "chance", f"permuted {metric}", 0.5, 0.0),
                 ("segment_acc_eq", "metric", metric, acc_eq, math.nan),
                 ("segment_acc_eq", "chance", f"permuted {metric}", 0.44, 0.003)]
    return pd.DataFrame([{"dataset": "sxs", "lp": "zh-en", "statistic": s, "level": level, "who": who, "value": v,
                          "standard_error": se} for s, level, who, v, se in rows])


def test_chance_columns_floor_and_the_two_rater_rows():
    summaries = {("sxs", "zh-en"): {"human_scores": ["mqm"], "reference": "refA"}}
    clusters = pd.DataFrame(columns=["dataset", "lp", "metric", "level", "statistic", "rank"])
    table = mqm_tables.protocols_table(_protocols(), clusters, summaries, _ceilings())
    assert list(table["gold"]) == ["mqm", mqm_tables.TWO_RATERS, "mqm", mqm_tables.TWO_RATERS]
    bleu, bleu_two = table.iloc[0], table.iloc[1]
    assert (bleu["sys_accuracy_chance"], bleu["seg_acc_eq_chance"], bleu["seg_acc_eq_floor"]) == (0.5, 0.47, 0.477)
    assert math.isnan(bleu.get("sys_accuracy_human", math.nan))
    assert (bleu_two["sys_accuracy"], bleu_two["sys_accuracy_chance"], bleu_two["sys_accuracy_human"]) == (
        0.8, 0.5, 0.95)
    assert bleu_two["sys_accuracy_share"] == pytest.approx((0.8 - 0.5) / (0.95 - 0.5))
    assert bleu_two["seg_acc_eq_share"] == pytest.approx((0.50 - 0.44) / (0.60 - 0.44))
    assert (bleu_two["seg_acc_eq_chance_se"], bleu_two["seg_acc_eq_floor"]) == (0.003, 0.45)
    text = mqm_tables.protocols_markdown(table, None)
    # BLEU's acc_eq sits on the every-pair-tied floor (within 0.001), chrF's does not.
    assert "| bleu | 0.800 [0.000] | n/a | 0.750 [0.500] | n/a | n/a | 0.477 [0.470 ± 0.002] floor 0.477 |" in text
    assert "0.550 [0.470 ± 0.002] |" in text
    assert "| **human: one rater** | **0.950** | **0.600** |" in text
    assert "| bleu | 0.800 [0.500] 67% | 0.500 [0.440 ± 0.003] 38% |" in text


def test_headroom_share_needs_a_human_above_chance():
    assert mqm_tables.headroom_share(0.7, 0.5, 0.9) == pytest.approx(0.5)
    assert math.isnan(mqm_tables.headroom_share(0.7, 0.5, 0.5))
    assert math.isnan(mqm_tables.headroom_share(math.nan, 0.5, 0.9))
    assert mqm_tables.headroom_share(0.7, 0.5, 0.9) == pytest.approx(0.5)
    assert math.isnan(mqm_tables.headroom_share(0.7, 0.5, 0.5))
    assert math.isnan(mqm_tables.headroom_share(math.nan, 0.5, 0.9))


def _crowds():
    rows = []
    for who, level, accuracy, kendall in (("wmt-z", "human", 0.75, 0.0), ("wmt-raw", "human", 0.55, 0.01),
                                          ("bleu", "metric", 0.65, 0.17), ("chrf", "metric", 0.70, 0.18)):
        rows += [("system_accuracy", level, who, accuracy, 0.0), ("system_accuracy", "chance", f"permuted {who}", 0.5,
                                                                  0.0),
                 ("segment_kendall", level, who, kendall, 0.0), ("segment_kendall", "chance", f"permuted {who}", 0.0,
                                                                 0.0)]
    return pd.DataFrame([{"dataset": "sxs", "lp": "zh-en", "statistic": s, "level": level, "who": who, "value": v,
                          "standard_error": se, "systems": 8, "segments": 650, "left_out": "X, Y"}
                         for s, level, who, v, se in rows])


def test_crowd_rows_score_da_as_a_metric_beside_the_metrics():
    summaries = {("sxs", "zh-en"): {"human_scores": ["mqm"], "reference": "refA"}}
    clusters = pd.DataFrame(columns=["dataset", "lp", "metric", "level", "statistic", "rank"])
    table = mqm_tables.protocols_table(_protocols(), clusters, summaries, None, _crowds())
    crowd = table[table["gold"] == mqm_tables.CROWD]
    assert list(crowd["metric"]) == ["wmt-z", "wmt-raw", "bleu", "chrf"]
    assert list(crowd["human"]) == [True, True, False, False]
    chrf = crowd.set_index("metric").loc["chrf"]
    assert (chrf["sys_accuracy"], chrf["sys_accuracy_chance"], chrf["sys_accuracy_human"]) == (0.70, 0.5, 0.75)
    assert chrf["sys_accuracy_share"] == pytest.approx(0.8)
    assert math.isnan(chrf["seg_kendall_share"])  # DA's segment Kendall is not above chance: no share
    text = mqm_tables.protocols_markdown(table, None)
    assert "on the 8 MT systems with both" in text and "(left out, MQM without DA: X, Y)" in text
    assert "| **human: DA (wmt-z)** | **0.750** [0.500] | **0.000** [0.000] |" in text
    assert "| chrf | 0.700 [0.500] 80% | 0.180 [0.000] |" in text


def test_intervals_of_the_human_level_and_the_share_are_shown():
    ceilings = _ceilings()
    human = (ceilings["level"] == "human") & (ceilings["statistic"] == "system_accuracy")
    ceilings.loc[human, ["low", "high"]] = [0.9, 0.99]
    bleu = (ceilings["who"] == "bleu") & (ceilings["statistic"] == "system_accuracy")
    ceilings.loc[bleu, ["low", "high", "share_low", "share_high"]] = [0.7, 0.9, 0.4, 0.9]
    summaries = {("sxs", "zh-en"): {"human_scores": ["mqm"], "reference": "refA"}}
    clusters = pd.DataFrame(columns=["dataset", "lp", "metric", "level", "statistic", "rank"])
    table = mqm_tables.protocols_table(_protocols(), clusters, summaries, ceilings)
    bleu_two = table[(table["gold"] == mqm_tables.TWO_RATERS) & (table["metric"] == "bleu")].iloc[0]
    assert (bleu_two["sys_accuracy_low"], bleu_two["sys_accuracy_share_low"], bleu_two["sys_accuracy_human_high"]) == (
        0.7, 0.4, 0.99)
    text = mqm_tables.protocols_markdown(table, None)
    assert "| **human: one rater** | **0.950** (0.900–0.990) | **0.600** |" in text
    assert "| bleu | 0.800 [0.500] 67% (40%–90%) |" in text
