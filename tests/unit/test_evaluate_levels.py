"""`mtmeta evaluate`: the chance and human levels beside a user's metric, where the eval set has them."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mtmeta.app.config import load_config
from mtmeta.app.evaluate import LEVEL_COLUMNS, user_levels
from mtmeta.io import write_tsv
from mtmeta.metaeval.user_metric_tables import Evaluation
from mtmeta.stats.ceiling import headroom_share

sys.path.insert(0, str(Path(__file__).parent / "metaeval"))
from test_crowd_levels import _tables  # noqa: E402  (the toy DA + MQM set)


def _segments(systems, seg_ids, scores):
    return pd.DataFrame([(s, k, float(v)) for s, row in zip(systems, scores, strict=True)
                         for k, v in zip(seg_ids, row, strict=True)], columns=["system", "seg_id", "score"])


def test_a_wmt_pair_puts_the_studys_second_annotator_beside_the_users_values(tmp_path):
    results = tmp_path / "results"
    human = [{"dataset": "wmt12", "lp": "en-cs", "level": "human", "who": "second annotator", "statistic": s,
              "value": v, "low": v - 0.05, "high": v + 0.05, "judgment_pairs": 40, "repeated_comparisons": 30,
              "annotators": "recorded", "ties": "in the source"}
             for s, v in (("tau_wmt12", 0.2), ("tau_wmt13", 0.4), ("tau_wmt14", 0.3), ("tau_b", 0.3), ("acc_eq", 0.6))]
    (results / "correlations").mkdir(parents=True)
    write_tsv(pd.DataFrame(human), results / "correlations/segment_levels.tsv")
    row = {"tau_wmt12": 0.1, "tau_wmt13": 0.3, "tau_wmt14": 0.25, "tau_b": 0.2, "acc_eq": 0.5,
           "chance_tau_wmt12": -0.1, "chance_tau_wmt13": 0.0, "chance_tau_wmt13_se": 0.001, "chance_tau_wmt14": 0.0,
           "chance_tau_b": 0.0, "chance_tau_b_se": 0.001, "chance_acc_eq": 0.4}
    evaluation = Evaluation(tables={"segment_level": pd.DataFrame([row])})
    systems = pd.DataFrame({"system": ["A", "B"], "score": [1.0, 2.0]})
    table = user_levels(load_config(), results, "wmt12", "en-cs", "mine", True, systems,
                        _segments(["A", "B"], [1], [[1.0], [2.0]]), evaluation, pd.DataFrame(), None, draws=50, seed=1,
                        alpha=0.05)
    assert list(table.columns) == LEVEL_COLUMNS
    mine = table[(table["level"] == "metric") & (table["statistic"] == "tau_wmt13")].iloc[0]
    assert (mine["value"], mine["share"]) == (0.3, pytest.approx(0.75))
    chance = table[(table["level"] == "chance") & (table["statistic"] == "tau_wmt13")].iloc[0]
    assert (chance["value"], chance["standard_error"]) == (0.0, 0.001)
    assert table[table["level"] == "human"]["note"].iloc[0].startswith("40 pairs of judgments of 30 comparisons")
    # Without the study's table (or segment scores), no levels.
    assert user_levels(load_config(), tmp_path / "other", "wmt12", "en-cs", "mine", True, systems,
                       _segments(["A", "B"], [1], [[1.0], [2.0]]), evaluation, pd.DataFrame(), None, draws=50,
                       seed=1, alpha=0.05) is None
    assert user_levels(load_config(), results, "wmt12", "en-cs", "mine", True, systems, None, evaluation,
                       pd.DataFrame(), None, draws=50, seed=1, alpha=0.05) is None


def test_a_crowd_pair_scores_da_against_mqm_beside_the_users_metric(tmp_path):
    human, segments, metrics = _tables()
    corpus, grid = metrics["m"]
    user = grid.stack().rename("score").reset_index()  # system, seg_id, score
    systems = corpus.rename("score").reset_index()
    config = load_config()
    assert "wmt21news/zh-en" in config["paper"]["mqm"]["crowd"]
    table = user_levels(config, tmp_path / "results", "wmt21news", "zh-en", "mine", True, systems, user,
                        Evaluation(), human, segments, draws=100, seed=1, alpha=0.05)
    assert set(table["against"]) == {"mqm, DA scored as a metric (crowd against experts)"}
    for statistic in ("system_accuracy", "system_pearson", "segment_acc_eq"):
        row = table[(table["statistic"] == statistic)].set_index("who")
        share = headroom_share(row.at["mine", "value"], row.at["permuted mine", "value"], row.at["wmt-z", "value"])
        assert row.at["mine", "share"] == pytest.approx(share, nan_ok=True)
        assert row.at["mine", "low"] <= row.at["mine", "high"]
    assert (table["dataset"] == "wmt21news").all()
    # Lower is better: the scores are negated first, the same levels.
    flipped = user_levels(config, tmp_path / "results", "wmt21news", "zh-en", "mine", False,
                          systems.assign(score=-systems["score"]), user.assign(score=-user["score"]), Evaluation(),
                          human, segments, draws=100, seed=1, alpha=0.05)
    assert np.allclose(flipped["value"], table["value"], equal_nan=True)
