"""The official WMT12 record's table and the MQM paper tables, on small hand-made inputs."""

import math

import pandas as pd
import pytest

from mtmeta.paper import mqm_tables, official
from mtmeta.paper.ledger import ledger_table

HUMAN = pd.Series({"a": 0.9, "b": 0.7, "c": 0.5, "d": 0.3})


def test_ascii_space_glues_every_non_ascii_space_into_its_word():
    assert official.ascii_space("le\u00a0chat noir\u2009!") == "le\u00b7chat noir\u00b7!"
    assert official.ascii_space("plain text\tstays") == "plain text\tstays"


def test_factor_rows_and_the_closest_factor():
    default = pd.Series({"a": 4.0, "b": 3.0, "c": 1.0, "d": 2.0})  # Spearman 0.8
    swapped = pd.Series({"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0})  # Spearman 1.0
    rows = pd.DataFrame(official.factor_rows("wmt12", "en-de", "meteor", default, HUMAN,
                                             [("input", "-norm", swapped, ""), ("parameters", "1.3", None, "same")]))
    assert list(rows["factor"][:3]) == ["default", "input", "parameters"]
    assert rows["spearman"].iloc[0] == pytest.approx(0.8) and rows["delta"].iloc[1] == pytest.approx(0.2)
    assert rows["delta"].iloc[2] == 0.0  # not measured alone: the default's value
    without = rows[rows["factor"] == "systems"].set_index("variant")["spearman"]
    assert len(without) == 4 and without["without c"] == pytest.approx(1.0)  # a, b, d ranked as the human
    assert official.closest(rows, "meteor", "en-de", 0.99)["spearman"] == pytest.approx(1.0)
    assert official.closest(rows, "meteor", "en-de", 0.8) is None  # nothing comes closer than the default


def test_the_official_table_says_agreement_or_the_measured_factor_and_feeds_the_ledger():
    record = {"dataset": "wmt12", "human_score": "gt_others", "spearman": {"meteor": {"en-de": 0.99, "cs-en": 0.81}},
              "reasons": {"meteor": {"en-de": "the input mode"}}}
    factors = pd.DataFrame([
        {"dataset": "wmt12", "lp": "en-de", "metric": "meteor", "factor": "default", "variant": "x", "spearman": 0.8},
        {"dataset": "wmt12", "lp": "en-de", "metric": "meteor", "factor": "input", "variant": "-norm", "spearman": 1.0},
        {"dataset": "wmt12", "lp": "cs-en", "metric": "meteor", "factor": "default", "variant": "x", "spearman": 0.8}],
    ).assign(delta=0.0, n_systems=4, note="")
    values = {("meteor", "en-de"): 0.8, ("meteor-wmt12", "en-de"): 0.9, ("meteor", "cs-en"): 0.8,
              ("meteor-wmt12", "cs-en"): 0.82}
    table = official.official_table(record, values, factors, {"meteor": "meteor"}, {"meteor": "meteor-wmt12"})
    de, cs = table.set_index("lp").loc["en-de"], table.set_index("lp").loc["cs-en"]
    assert de["default_gap"] == pytest.approx(-0.19) and de["as_run_gap"] == pytest.approx(-0.09)
    assert de["reason"] == "the input mode; measured: the closest single factor is input: -norm, 1.000"
    assert cs["reason"].startswith("agrees within 0.02") and cs["closest_factor"] == ""
    ledger = ledger_table({}, {}, {}, {}, {"official_wmt12": table})
    assert list(ledger["seed"].unique()) == ["WMT12 metrics task"]
    assert ledger.loc[0, "row"] == "meteor en-de (meteor-wmt12)" and ledger.loc[0, "reproduced"] == 0.9
    assert "Spearman" in official.official_markdown(table, factors)


def test_eras_and_human_translation_tables():
    system_level = pd.DataFrame([
        {"dataset": "wmt12", "lp": "en-de", "metric": m, "human_score": h, "pearson": v}
        for m, h, v in [("bleu", "gt_others", 0.5), ("chrf", "gt_others", 0.7), ("bleu", "ge_others", 0.1)]] + [
        {"dataset": "ted", "lp": "en-ru", "metric": m, "human_score": "mqm", "pearson": v}
        for m, v in [("bleu", 0.83), ("chrf", 0.85)]])
    ranks = pd.DataFrame({"dataset": ["wmt12", "wmt12", "ted", "ted"], "lp": ["en-de", "en-de", "en-ru", "en-ru"],
                          "metric": ["bleu", "chrf", "bleu", "chrf"], "rank": [2, 1, 1, 1]})
    eras = mqm_tables.eras_table(system_level, ranks, {"ted"}).set_index(["metric", "era"])
    assert eras.loc[("bleu", "2012-14 rankings"), "top_group_share"] == 0.0
    assert eras.loc[("bleu", "MQM (WMT21)"), "top_group_share"] == 1.0
    assert eras.loc[("chrf", "2012-14 rankings"), "mean_pearson"] == pytest.approx(0.7)
    assert "chrf" in mqm_tables.eras_markdown(eras.reset_index())
    protocols = pd.DataFrame([
        {"dataset": "ted", "lp": "zh-en", "metric": "bleu", "human_score": "mqm", "level": "system",
         "statistic": s, "grouping": "none", "human_translations": h, "aggregation": "corpus", "value": v,
         "n_systems": 13}
        for s, h, v in [("pearson", "excluded", 0.33), ("pearson", "included", 0.78), ("accuracy", "excluded", 0.6)]])
    summaries = {("ted", "zh-en"): {"human_scores": ["mqm"], "human_translations": ["refA"]}}
    translations = mqm_tables.human_translations_table(protocols, summaries)
    assert len(translations) == 1 and translations.iloc[0]["change"] == pytest.approx(0.45)
    assert translations.iloc[0]["human_translations"] == "refA"
    assert math.isnan(mqm_tables.protocols_table(protocols, pd.DataFrame(columns=[
        "dataset", "lp", "metric", "level", "statistic", "rank"]), summaries).iloc[0]["seg_acc_eq"])


def test_an_unranked_cluster_is_shown_without_a_rank():
    # Before: int(NaN) stopped the MQM tables when a metric's value (and so its cluster) was undefined.
    protocols = pd.DataFrame([
        {"dataset": "ted", "lp": "zh-en", "metric": "bleu", "human_score": "mqm", "level": "system",
         "statistic": s, "grouping": "none", "human_translations": "excluded", "aggregation": "corpus", "value": v,
         "n_systems": 2} for s, v in [("pearson", math.nan), ("accuracy", math.nan)]])
    clusters = pd.DataFrame({"dataset": ["ted"] * 2, "lp": ["zh-en"] * 2, "metric": ["bleu"] * 2,
                             "level": ["system"] * 2, "statistic": ["pearson", "accuracy"], "rank": [math.nan] * 2})
    summaries = {("ted", "zh-en"): {"human_scores": ["mqm"], "human_translations": []}}
    table = mqm_tables.protocols_table(protocols, clusters, summaries)
    assert math.isnan(table.iloc[0]["sys_pearson_rank"])
    pooled = pd.DataFrame({"lp": ["ted/zh-en+ted/en-de"], "rank": [math.nan], "metric": ["bleu"], "value": [0.5]})
    assert "| - | bleu | 0.500 |" in mqm_tables.protocols_markdown(table, pooled)


def test_the_ranking_figure_draws_an_unranked_metric(tmp_path):
    from mtmeta.paper.mqm_figures import ranking_figure

    # Before: int(NaN) for the rank of a metric whose value is undefined.
    table = pd.DataFrame({"metric": ["chrf", "bleu"], "value": [0.8, math.nan], "rank": [1, math.nan]})
    ranking_figure([{"title": "ted zh-en", "xlabel": "Pearson", "table": table}], [tmp_path / "ranking.png"])
    assert (tmp_path / "ranking.png").stat().st_size > 0
