"""The seed tables: our values beside the reported ones, deltas, reasons, Meng's test, the ledger."""

import math

import numpy as np
import pandas as pd
import pytest
import yaml
from by_hand import meng_by_hand  # tests/by_hand.py: conftest's directory is on sys.path
from scipy import stats

from mtmeta.paper.ledger import LEDGER_COLUMNS, ledger_rows
from mtmeta.paper.meteor_tuning import tuning_tables
from mtmeta.paper.overview import overview_markdown, overview_table
from mtmeta.paper.parmesan import settings_table


@pytest.fixture
def seed002_inputs(repo, meteor_settings):
    systems = [f"sys{k}" for k in range(8)]
    rng = np.random.default_rng(4)
    human = pd.DataFrame({"system": systems + ["unjudged"], "gt_others": [*np.linspace(0.2, 0.8, 8), np.nan]})
    scores = {}
    for k, metric in enumerate(["bleu", *meteor_settings.values()]):
        values = human["gt_others"].fillna(0.5) * (10 + k) + rng.normal(0, 0.6, 9)
        scores[metric] = pd.DataFrame({"system": human["system"], "score": values, "signature": f"sig-{metric}"})
    reported = yaml.safe_load((repo / "config/reported/seed002.yaml").read_text())
    return human, scores, reported


@pytest.fixture
def meteor_settings(repo):
    """The seed's Meteor settings as the study's config names them."""
    return yaml.safe_load((repo / "config/config.yaml").read_text())["paper"]["parmesan"]["meteor_settings"]


def test_meteor_settings_pearson_and_meng_against_bleu(seed002_inputs, meteor_settings):
    human, scores, reported = seed002_inputs
    table = settings_table("WMT12", human, scores, reported, {"dataset": "wmt12", "lp": "en-cs", "description": "x"},
                           meteor_settings)
    judged = human.dropna()
    assert (table["n_systems"] == 8).all()
    bleu_r = stats.pearsonr(scores["bleu"].score[:8], judged.gt_others).statistic
    first = table.iloc[0]
    assert first["metric"] == "bleu" and first["pearson"] == pytest.approx(bleu_r, abs=1e-12)
    assert first["reported"] == 0.749 and first["delta"] == pytest.approx(bleu_r - 0.749)
    row = table[table.row == "Meteor, same-pos"].iloc[0]
    metric = scores["meteor-cs-same-pos"].score[:8]
    r = stats.pearsonr(metric, judged.gt_others).statistic
    z, p = meng_by_hand(r, bleu_r, stats.pearsonr(metric, scores["bleu"].score[:8]).statistic, 8)
    assert row["pearson"] == pytest.approx(r, abs=1e-12)
    assert row["reported"] == 0.840
    assert row["meng_z"] == pytest.approx(z, abs=1e-9)
    assert row["meng_p_two_sided"] == pytest.approx(p, abs=1e-9)
    assert row["signature"] == "sig-meteor-cs-same-pos"
    assert row["reason"] == reported["reasons"]["WMT12"]["meteor"]
    assert len(table) == 1 + len(meteor_settings) + 2


def test_a_target_the_seed_does_not_report_uses_its_official_score(seed002_inputs, meteor_settings):
    human, scores, reported = seed002_inputs
    # WMT14 en-cs: no judgments, only the official score (here in reverse order of "> others").
    official = human.assign(official=-human["gt_others"], gt_others=np.nan)
    table = settings_table("WMT14", official, scores, reported, {"dataset": "wmt14", "lp": "en-cs", "description": "x"},
                           meteor_settings)
    bleu_r = stats.pearsonr(scores["bleu"].score[:8], -human.gt_others[:8]).statistic
    assert set(table["human_score"]) == {"official"} and (table["n_systems"] == 8).all()
    assert table.iloc[0]["pearson"] == pytest.approx(bleu_r, abs=1e-12) and bleu_r < 0
    assert table["reported"].isna().all() and table["delta"].isna().all()
    assert set(table["reason"]) == {"not reported: the seed has no table for this test set"}
    assert ledger_rows("002", "parmesan_settings_wmt14_en_cs", table, "Pearson", value_column="pearson").empty


def test_overview_uses_the_official_score_where_a_pair_has_no_judgments():
    rows = [("wmt14", "cs-en", score, 0.5 + k / 10) for k, score in enumerate(["gt_others", "official"])]
    rows += [("wmt14", "en-cs", "official", 0.9)]
    system_level = pd.DataFrame([{"dataset": d, "lp": lp, "metric": "bleu", "human_score": h, "n_systems": 10,
                                  "pearson": r, "pearson_p": 0.01, "spearman": r, "spearman_p": 0.01}
                                 for d, lp, h, r in rows])
    ranks = pd.DataFrame({"dataset": ["wmt14"] * 2, "lp": ["cs-en", "en-cs"], "metric": ["bleu"] * 2, "rank": [1, 1]})
    segment_level = pd.DataFrame({"dataset": ["wmt14"], "lp": ["cs-en"], "metric": ["bleu"], "n_comparisons": [9],
                                  "tau_wmt14": [0.2], "three_way_accuracy": [0.5]})
    table = overview_table(system_level, segment_level, ranks, {"wmt14": "wmt14"})
    assert table[["lp", "human_score", "pearson"]].values.tolist() == [["cs-en", "gt_others", 0.5],
                                                                       ["en-cs", "official", 0.9]]


def test_reason_says_agreement_within_rounding(seed002_inputs, meteor_settings):
    human, scores, reported = seed002_inputs
    bleu_r = float(np.corrcoef(scores["bleu"].score[:8], human.gt_others[:8])[0, 1])
    reported["tables"]["simple_substitution"]["baseline"]["WMT12"] = round(bleu_r, 3)
    table = settings_table("WMT12", human, scores, reported, {"dataset": "wmt12", "lp": "en-cs", "description": "x"},
                           meteor_settings)
    assert table.iloc[0]["reason"] == "agrees within the reported rounding"


def tuning_sweep(accuracy):
    """A full alpha x gamma grid on the evaluator with a made-up accuracy surface."""
    rows = []
    grid = np.round(np.arange(0, 1.0001, 0.05), 10)
    for split in ("all", "A", "B"):
        for alpha in grid:
            for gamma in grid:
                rows.append({"alpha": alpha, "gamma": gamma, "dataset": "evaluator", "lp": "xx-en",
                             "statistic": "three_way_accuracy", "split": split, "value": accuracy(alpha, gamma)})
    return pd.DataFrame(rows)


def test_meteor_tuning_tables(repo):
    reported = yaml.safe_load((repo / "config/reported/seed001.yaml").read_text())
    sweep = tuning_sweep(lambda a, g: 0.5 + 0.01 * a - 0.02 * (g - 0.3) ** 2)
    best = pd.Series({"best_alpha": 0.2, "best_gamma": 0.4, "best_value": 0.51, "cv_value": 0.505})
    alpha, gamma, modules = tuning_tables(sweep, {"exact+synonym": best}, 0.45, 0.501, 0.502, reported, 10000)
    row = alpha[alpha.row == "alpha 0.10"].iloc[0]
    assert row["reproduced"] == pytest.approx(0.5 + 0.001 - 0.02 * 0.09)
    assert row["reproduced_at_1_minus_alpha"] == pytest.approx(0.5 + 0.009 - 0.02 * 0.09)
    assert row["reported"] == 0.4979 and row["delta"] == pytest.approx(row["reproduced"] - 0.4979)
    assert alpha.iloc[0]["row"].startswith("baseline") and alpha.iloc[0]["reproduced"] == 0.45
    tuned = alpha[alpha.row == "seed's tuned alpha"].iloc[0]
    assert (tuned["alpha"], tuned["reproduced"], tuned["reported"]) == (0.87, 0.501, 0.5045)
    # METEOR-basic is gamma 0, where the surface peaks at alpha 1.
    best_basic = alpha[alpha.row.str.startswith("best alpha")].iloc[0]
    assert best_basic["alpha"] == 1.0
    assert (gamma["alpha"].iloc[0], gamma[gamma.row == "gamma 0.30"]["reproduced"].iloc[0]) == (1.0, 0.51)
    assert gamma[gamma.row == "best alpha x gamma (in-sample)"][["alpha", "gamma"]].iloc[0].tolist() == [1.0, 0.3]
    assert modules.set_index("row").loc["exact+synonym", "reported"] == 0.5081
    assert (alpha["n_items"] == 10000).all()



class AlphaOnly:
    """A stand-in METEOR re-scored from one statistic: its score is alpha times column 0."""

    def rescore(self, stats_, alpha, gamma, beta=None):
        return alpha * stats_[:, 0] - gamma


def test_meteor_tuning_from_results_scores_the_seeds_own_settings(repo):
    from mtmeta.paper.meteor_tuning import tables_from_results

    reported = yaml.safe_load((repo / "config/reported/seed001.yaml").read_text())
    sweep = tuning_sweep(lambda a, g: 0.5 + 0.01 * a - 0.02 * (g - 0.3) ** 2)
    best = pd.Series({"best_alpha": 0.2, "best_gamma": 0.4, "best_value": 0.51, "cv_value": 0.505})
    seg = pd.DataFrame({"system": ["s1"] * 4 + ["s2"] * 4, "seg_id": [1, 2, 3, 4] * 2, "score": 0.0,
                        "signature": "x", "x0": [3.0, 1.0, 2.0, 5.0, 1.0, 1.0, 4.0, 2.0]})
    comparisons = pd.DataFrame({"seg_id": [1, 2, 3, 4], "sys_a": ["s1"] * 4, "sys_b": ["s2"] * 4,
                                "outcome": ["a", "tie", "a", "b"]})
    segment_level = pd.DataFrame({"metric": ["wordmatch"], "three_way_accuracy": [0.45], "n_comparisons": [4]})
    tables = tables_from_results(sweep, {"exact+synonym": best}, segment_level.set_index("metric"), seg,
                                 comparisons, AlphaOnly(), reported, "wordmatch", "evaluator")
    alpha = tables["alpha"].set_index("row")
    # At the seed's alpha (positive) the deltas are 2, 0, -2, 3 against a, tie, a, b: segments 1 and 2 right.
    assert alpha.loc["seed's tuned alpha", "reproduced"] == pytest.approx(2 / 4)
    assert alpha.loc[alpha.index[0], "reproduced"] == 0.45 and (alpha["n_items"] == 4).all()
    assert list(tables) == ["alpha", "gamma", "modules"]


def test_ledger_rows_keep_only_reported_numbers():
    frame = pd.DataFrame({"row": ["x", "y"], "reproduced": [0.5, 0.6], "reported": [0.4, None],
                          "delta": [0.1, math.nan], "reason": ["r", ""]})
    ledger = ledger_rows("001", "alpha", frame, "accuracy")
    assert list(ledger.columns) == LEDGER_COLUMNS
    assert ledger.to_dict("records") == [{"seed": "001", "table": "alpha", "row": "x", "column": "accuracy",
                                          "reported": 0.4, "reproduced": 0.5, "delta": 0.1, "reason": "r"}]


def test_overview_joins_levels_intervals_and_ranks():
    system_level = pd.DataFrame({
        "dataset": ["wmt12", "wmt12", "wmt12"], "lp": ["en-cs"] * 3, "metric": ["bleu", "bleu", "ter"],
        "human_score": ["gt_others", "ge_others", "gt_others"], "n_systems": [13] * 3,
        "pearson": [0.79, 0.7, 0.75], "pearson_p": [0.001] * 3, "spearman": [0.8, 0.7, 0.7],
        "spearman_p": [0.001] * 3})
    segment_level = pd.DataFrame({"dataset": ["wmt12", "wmt12", "evaluator"], "lp": ["en-cs", "en-cs", "xx-en"],
                                  "metric": ["bleu", "ter", "bleu"], "n_comparisons": [100, 100, 50],
                                  "tau_wmt12": [0.1, 0.2, 0.3], "tau_wmt14": [0.15, 0.25, 0.35],
                                  "three_way_accuracy": [0.4, 0.5, 0.6]})
    ranks = pd.DataFrame({"dataset": ["wmt12"] * 2, "lp": ["en-cs"] * 2, "metric": ["bleu", "ter"], "rank": [1, 2]})
    bootstrap = pd.DataFrame({"dataset": ["wmt12"], "lp": ["en-cs"], "metric": ["bleu"], "human_score": ["gt_others"],
                              "pearson_low": [0.6], "pearson_high": [0.9], "spearman_low": [0.5],
                              "spearman_high": [0.95], "draws": [1000], "interval_method": ["bootstrap"]})
    table = overview_table(system_level, segment_level, ranks, {"wmt12": "wmt12"}, bootstrap)
    bleu = table[(table.metric == "bleu") & (table.dataset == "wmt12")].iloc[0]
    assert (bleu["pearson"], bleu["pearson_low"], bleu["segment_tau"], bleu["williams_rank"]) == (0.79, 0.6, 0.1, 1)
    evaluator = table[table.dataset == "evaluator"].iloc[0]
    assert evaluator["tau_variant"] == "wmt14" and evaluator["segment_tau"] == 0.35
    assert len(table) == 3
    markdown = overview_markdown(table, "pearson", "t")
    assert "| bleu | **0.790** |" in markdown and "| ter | 0.750 (2) |" in markdown


def test_overview_markdown_leaves_out_empty_rows_and_says_why():
    table = pd.DataFrame({
        "dataset": ["wmt12", "wmt12", "evaluator", "evaluator"], "lp": ["en-cs", "en-cs", "xx-en", "xx-en"],
        "metric": ["bleu", "ter", "bleu", "meteor-stem"], "pearson": [0.79, 0.75, math.nan, math.nan],
        "segment_tau": [0.1, 0.2, 0.3, 0.25], "williams_rank": [1, 2, math.nan, math.nan]})
    markdown = overview_markdown(table, "pearson", "t")
    assert "| meteor-stem |" not in markdown and "evaluator" not in markdown.split("\n")[2]
    assert markdown.endswith("\nColumns left out (no system-level human score): evaluator xx-en; rows left out: "
                             "meteor-stem (scored on evaluator xx-en only: no system-level human score there).\n")
    segment = overview_markdown(table.drop(columns="williams_rank"), "segment_tau", "t")
    assert "| meteor-stem |  | 0.250 |" in segment and "left out" not in segment


def test_ledger_table_collects_reported_rows_of_every_paper_table():
    from mtmeta.paper.ledger import ledger_table

    tuning = pd.DataFrame({"row": ["alpha 0.5", "best"], "reported": [0.5, None], "reproduced": [0.52, 0.6],
                           "delta": [0.02, math.nan], "reason": ["r1", ""]})
    settings = pd.DataFrame({"row": ["BLEU"], "reported": [0.7], "pearson": [0.75], "delta": [0.05],
                             "reason": ["r2"]})
    paraphrased = pd.DataFrame({"row": ["x"], "column": ["WMT12 Pearson"], "reported": [0.8], "reproduced": [0.81],
                                "delta": [0.01], "reason": ["r3"], "references": ["owo"]})
    ledger = ledger_table({"meteor_tuning_alpha": tuning}, {"parmesan_settings_wmt12_en_cs": settings},
                          {"parmesan_substitution": paraphrased})
    assert list(ledger.columns) == LEDGER_COLUMNS
    assert ledger[["seed", "table", "column", "reproduced"]].values.tolist() == [
        ["001", "meteor_tuning_alpha", "three-way accuracy", 0.52],
        ["002", "parmesan_settings_wmt12_en_cs", "Pearson with > others", 0.75],
        ["002", "parmesan_substitution", "WMT12 Pearson", 0.81]]  # the unreported "best" row is not a ledger row
    assert ledger_table({}, {}, {}).columns.tolist() == LEDGER_COLUMNS
    # A sensitivity table of the same test set adds what it measured to the reason.
    settings = settings.assign(data="wmt12 en-cs", metric="bleu")
    sensitivity = pd.DataFrame({"dataset": "wmt12", "lp": "en-cs", "metric": "bleu",
                                "factor": ["default", "human score"], "variant": ["d", ">= others"],
                                "pearson": [0.75, 0.71], "note": ["", ""]})
    ledger = ledger_table({}, {"parmesan_settings_wmt12_en_cs": settings}, {}, {"sensitivity_wmt12_en-cs": sensitivity})
    assert ledger["reason"].tolist() == ["r2; measured (sensitivity_wmt12_en-cs): the closest single factor is "
                                         "human score: >= others, which gives 0.710 (default 0.750)"]
