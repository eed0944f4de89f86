"""Between chance and a human, per era (mtmeta.paper.levels): which metrics sit at chance, the headroom
the best metric closes, and the figure, on small tables built by hand."""

import math

import numpy as np
import pandas as pd
import pytest

from mtmeta.paper import levels


def segment_levels():
    """One WMT pair: the second annotator and two metrics, one whose interval reaches its chance level."""
    rows = []
    for statistic, human in (("tau_wmt13", 0.40), ("acc_eq", 0.60)):
        rows.append({"dataset": "wmt12", "lp": "cs-en", "level": "human", "who": "second annotator",
                     "statistic": statistic, "value": human, "low": human - 0.05, "high": human + 0.05})
        rows.append({"dataset": "wmt12", "lp": "cs-en", "level": "metric", "who": "good", "statistic": statistic,
                     "value": human - 0.1, "low": human - 0.15, "high": human - 0.05, "chance": 0.0 if
                     statistic == "tau_wmt13" else 0.4, "chance_se": 0.001, "share_low": 0.5, "share_high": 0.9})
        rows.append({"dataset": "wmt12", "lp": "cs-en", "level": "metric", "who": "blind", "statistic": statistic,
                     "value": 0.001 if statistic == "tau_wmt13" else 0.41, "low": -0.004 if statistic == "tau_wmt13"
                     else 0.39, "high": 0.01 if statistic == "tau_wmt13" else 0.43, "chance": 0.0 if
                     statistic == "tau_wmt13" else 0.4, "chance_se": 0.001, "share_low": -0.1, "share_high": 0.1})
    return pd.DataFrame(rows)


def protocols():
    base = {"dataset": "sxs", "lp": "zh-en", "human_score": "mqm", "level": "segment", "grouping": "item"}
    return pd.DataFrame([{**base, "metric": "bleu", "statistic": "acc_eq", "value": 0.45, "low": 0.44, "high": 0.46,
                          "chance": 0.45, "chance_se": 0.001},
                         {**base, "metric": "chrf", "statistic": "acc_eq", "value": 0.5, "low": 0.48, "high": 0.52,
                          "chance": 0.45, "chance_se": 0.001},
                         {**base, "metric": "chrf", "statistic": "kendall", "value": 0.2, "low": 0.18, "high": 0.22,
                          "chance": 0.0, "chance_se": 0.0},
                         {**base, "metric": "chrf", "statistic": "kendall", "grouping": "none", "value": 0.2,
                          "low": math.nan, "high": math.nan, "chance": 0.0, "chance_se": 0.0}])


def level_tables():
    rows = [("system_accuracy", "human", "one rater vs mean of two", 0.95, 0.9, 1.0, math.nan, math.nan),
            ("system_accuracy", "metric", "chrf", 0.85, 0.8, 0.9, 0.6, 0.9),
            ("system_accuracy", "chance", "permuted chrf", 0.5, 0.5, 0.5, math.nan, math.nan),
            ("segment_kendall", "human", "one rater vs mean of two", 0.4, math.nan, math.nan, math.nan, math.nan)]
    return pd.DataFrame([{"dataset": "sxs", "lp": "zh-en", "statistic": s, "level": lv, "who": w, "value": v,
                          "low": lo, "high": hi, "share_low": sl, "share_high": sh}
                         for s, lv, w, v, lo, hi, sl, sh in rows])


def test_chance_table_names_the_metrics_whose_interval_reaches_chance():
    table = levels.chance_table(segment_levels(), protocols())
    wmt = table[table["era"] == levels.RANKINGS].set_index("statistic")
    assert list(wmt["names"]) == ["blind", "blind"]  # its intervals reach 0 and 0.4; good's stay above
    assert list(wmt["indistinguishable"]) == [1, 1] and list(wmt["metrics"]) == [2, 2]
    mqm = table[table["era"] == levels.MQM].set_index("statistic")
    assert mqm.at["seg acc_eq (item, calibrated)", "names"] == "bleu"
    assert mqm.at["seg Kendall (item)", "indistinguishable"] == 0
    assert len(mqm) == 2  # the ungrouped Kendall has no interval: not judged


def test_headroom_table_takes_the_metric_closing_the_largest_share():
    table = levels.headroom_table(segment_levels(), level_tables())
    wmt = table[(table["era"] == levels.RANKINGS) & (table["statistic"] == "tau_wmt13")].iloc[0]
    assert (wmt["best_metric"], wmt["best_share"]) == ("good", pytest.approx(0.3 / 0.4))
    assert (wmt["best_share_low"], wmt["best_share_high"]) == (0.5, 0.9)
    mqm = table[table["era"] == levels.MQM].iloc[0]
    assert (mqm["human"], mqm["statistic"], mqm["best_metric"]) == ("one rater vs mean of two raters",
                                                                    "pairwise accuracy", "chrf")
    assert mqm["best_share"] == pytest.approx((0.85 - 0.5) / (0.95 - 0.5))
    text = levels.levels_markdown(levels.chance_table(segment_levels(), protocols()), table)
    assert "2012-14 relative rankings: on 0 of 2 (set, statistic) combinations (1 sets) every metric is above" in text
    assert "MQM (WMT21, WMT23): on 1 of 2 (set, statistic) combinations (1 sets) every metric is above" in text
    assert "| wmt12 | cs-en | tau_wmt13 | 1 of 2 | blind |" in text
    assert ("| MQM (WMT21, WMT23) | sxs | zh-en | one rater vs mean of two raters | pairwise accuracy | "
            "0.950 (0.900–1.000) | 0.500 | chrf 0.850 | 78% (60%–90%) |") in text


def test_a_human_below_chance_gives_no_share():
    rows = segment_levels()
    rows.loc[rows["level"] == "human", "value"] = -0.5
    table = levels.headroom_table(rows, None)
    assert table["best_metric"].isna().all()
    assert "no share: the human level is not above chance" in levels.levels_markdown(
        levels.chance_table(rows, protocols().iloc[0:0]), table)


def test_figure_rows_put_each_metric_between_its_chance_level_and_the_human():
    rows = levels.era_rows(segment_levels(), level_tables(), levels.RANKINGS)
    assert [r["label"] for r in rows] == ["wmt12 cs-en"] and rows[0]["human"] == 0.40
    assert list(rows[0]["names"]) == ["good", "blind"] and np.allclose(rows[0]["chance"], [0.0, 0.0])
    mqm = levels.era_rows(segment_levels(), level_tables(), levels.MQM)
    assert [r["label"] for r in mqm] == ["sxs zh-en: pairwise accuracy"]
    fig = levels.levels_figure(mqm, "a title", "value", [])
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["sxs zh-en: pairwise accuracy"]
    assert fig.legends and [t.get_text() for t in fig.legends[0].get_texts()] == [
        "metric (best labelled)", "human level, 95% interval", "chance levels of the metrics"]
