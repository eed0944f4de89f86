"""The WMT baselines table: each dataset's chosen human score, its bootstrap intervals, and a clear error
for a missing correlation."""

import pandas as pd
import pytest

from mtmeta.paper.wmt_baselines import baselines_markdown, baselines_table, official_comparison

HUMAN = {"wmt12": {"human_score": "gt_others", "official": "> others"},
         "wmt14": {"human_score": "expected_wins", "official": "TrueSkill"}}


def correlations():
    rows, boot = [], []
    for d, lps in {"wmt12": ["en-cs", "de-en"], "wmt14": ["hi-en"], "evaluator": ["xx-en"]}.items():
        for lp in lps:
            for k, metric in enumerate(["bleu", "ter", "ter-wmt", "chrf"]):
                for j, score in enumerate(["gt_others", "ge_others", "expected_wins"]):
                    value = round(0.1 * k + 0.01 * j + (0.3 if d == "wmt14" else 0), 3)
                    rows.append({"dataset": d, "lp": lp, "metric": metric, "human_score": score, "n_systems": 5 + k,
                                 "pearson": value, "spearman": value / 2, "metric_signature": f"sig-{metric}"})
                    boot.append({"dataset": d, "lp": lp, "metric": metric, "human_score": score, "draws": 1000,
                                 "pearson_low": value - 0.1, "pearson_high": value + 0.1,
                                 "spearman_low": value / 2 - 0.1, "spearman_high": value / 2 + 0.1,
                                 "interval_method": "bootstrap"})
    return pd.DataFrame(rows), pd.DataFrame(boot)


def test_each_dataset_uses_its_human_score_with_its_intervals():
    system_level, bootstrap = correlations()
    table = baselines_table(system_level, bootstrap, ["ter-wmt", "bleu"], HUMAN)
    assert list(zip(table["dataset"], table["lp"], table["metric"], strict=True)) == [
        ("wmt12", "en-cs", "ter-wmt"), ("wmt12", "en-cs", "bleu"), ("wmt12", "de-en", "ter-wmt"),
        ("wmt12", "de-en", "bleu"), ("wmt14", "hi-en", "ter-wmt"), ("wmt14", "hi-en", "bleu")]
    assert table["pearson"].tolist() == pytest.approx([0.2, 0.0, 0.2, 0.0, 0.52, 0.32])  # gt_others j=0; wins j=2
    assert table["pearson_low"].tolist() == pytest.approx([0.1, -0.1, 0.1, -0.1, 0.42, 0.22])
    assert set(table["human_score"]) == {"gt_others", "expected_wins"}
    assert table["official_human_score"].tolist()[-1] == "TrueSkill"
    text = baselines_markdown(table)
    assert "| ter-wmt | 0.200 / 0.100 | 0.200 / 0.100 |" in text
    assert "| bleu | 0.320 / 0.160 |" in text
    assert "**wmt12: system-level Pearson / Spearman with > others** (the score that year's metrics task used" in text
    assert "that year's metrics task used TrueSkill, which the study does not compute" in text
    assert "| metric | en-cs (7) | de-en (7) |" in text


def test_a_missing_correlation_is_an_error():
    system_level, bootstrap = correlations()
    missing = system_level[~((system_level["lp"] == "de-en") & (system_level["metric"] == "bleu"))]
    with pytest.raises(ValueError, match="0 system-level rows for wmt12/de-en bleu with gt_others"):
        baselines_table(missing, bootstrap, ["bleu"], HUMAN)


def test_official_scores_get_fisher_intervals_and_a_comparison_with_gt_others():
    system_level, bootstrap = correlations()
    official = system_level[system_level["dataset"] == "wmt14"].drop_duplicates(["lp", "metric"]).assign(
        human_score="official", pearson=lambda f: f["pearson"] + 0.05)
    # A pair with the official score only (no judgments): it has no "> others" to compare with.
    only = official.assign(lp="en-hi")
    fisher = pd.concat([official, only]).assign(draws=0, interval_method="fisher-z", spearman_low=None,
                                                spearman_high=None, pearson_low=0.0, pearson_high=0.9)
    system_level = pd.concat([system_level, official, only], ignore_index=True)
    bootstrap = pd.concat([bootstrap, fisher[bootstrap.columns]], ignore_index=True)
    human = {**HUMAN, "wmt14": {"human_score": "official", "official": "TrueSkill"}}
    table = baselines_table(system_level, bootstrap, ["bleu", "ter"], human)
    wmt14 = table[table["dataset"] == "wmt14"]
    assert wmt14["lp"].tolist() == ["hi-en", "hi-en", "en-hi", "en-hi"]
    assert wmt14["pearson"].tolist() == pytest.approx([0.35, 0.45, 0.35, 0.45])
    assert set(wmt14["interval_method"]) == {"fisher-z"}
    text = baselines_markdown(table)
    assert ("**wmt14: system-level Pearson / Spearman with the official score (TrueSkill)** (read from the metrics "
            "task's own file; 95% Fisher-z (Pearson only) intervals in the TSV)") in text
    comparison = official_comparison(system_level, ["bleu", "ter"], human)
    assert comparison[["lp", "metric"]].values.tolist() == [["hi-en", "bleu"], ["hi-en", "ter"]]
    assert comparison["official"].tolist() == pytest.approx([0.35, 0.45])
    assert comparison["gt_others"].tolist() == pytest.approx([0.30, 0.40])
    assert comparison["expected_wins"].tolist() == pytest.approx([0.32, 0.42])
    assert comparison["official_minus_gt_others"].tolist() == pytest.approx([0.05, 0.05])
    text = baselines_markdown(table, comparison, human)
    assert "| bleu | 0.350 / 0.300 |" in text
    assert "mean +0.050, range +0.050 to +0.050 over 2 metric x pair cells" in text


def test_a_pair_without_intervals_is_said_so():
    # Before: an "undefined: ..." interval_method (too few judged systems) mapped to NaN and the
    # markdown stopped on str.join.
    system_level, bootstrap = correlations()
    bootstrap.loc[(bootstrap["dataset"] == "wmt12") & (bootstrap["lp"] == "de-en"), "interval_method"] = (
        "undefined: wmt12 de-en has 2 system(s) with a human score (a, b); a correlation needs at least 3")
    text = baselines_markdown(baselines_table(system_level, bootstrap, ["ter-wmt", "bleu"], HUMAN))
    assert "95% bootstrap intervals in the TSV; none where a correlation is undefined)" in text
