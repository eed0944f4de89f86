"""A user's metric through the meta-evaluation (mtmeta.metaeval.user_metric_tables) on a small synthetic pair:
its numbers are checked against scipy and against the same scores given as a built-in metric."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mtmeta.metaeval.user_metric_tables import evaluate_pair, segment_table, system_table
from mtmeta.metrics.user_metric import ExternalScores
from mtmeta.stats.human import system_scores

SYSTEMS = ["s1", "s2", "s3", "s4", "s5"]
SEGMENTS = 12
SUMMARY = {"dataset": "toy", "lp": "de-en", "n_segments": SEGMENTS, "n_judged_segments": SEGMENTS, "n_tasks": 12,
           "n_comparisons": 0, "description": "toy"}


@pytest.fixture(scope="module")
def pair():
    rng = np.random.default_rng(7)
    quality = dict(zip(SYSTEMS, [0.9, 0.7, 0.5, 0.4, 0.1], strict=True))
    rows = []
    for seg in range(1, SEGMENTS + 1):
        for a, b in itertools.combinations(SYSTEMS, 2):
            diff = quality[a] - quality[b] + rng.normal(0, 0.3)
            rows.append({"lp": "de-en", "seg_id": seg, "sys_a": a, "sys_b": b,
                         "outcome": "a" if diff > 0.1 else "b" if diff < -0.1 else "tie", "task": f"line {seg}"})
    comparisons = pd.DataFrame(rows)
    human = system_scores(comparisons).reset_index(drop=True)
    user = pd.DataFrame([{"system": s, "seg_id": seg, "score": quality[s] + rng.normal(0, 0.2)}
                         for s in SYSTEMS for seg in range(1, SEGMENTS + 1)])
    other = pd.DataFrame({"system": SYSTEMS, "score": [0.8, 0.75, 0.3, 0.5, 0.2], "signature": "x"})
    return comparisons, human, user, other


def run(pair, higher_is_better=True, given=None, name="mine"):
    comparisons, human, user, other = pair
    metric = ExternalScores(name, higher_is_better)
    scores = user if higher_is_better else user.assign(score=-user["score"])
    segments = segment_table(scores, metric)
    systems = system_table(metric, given, segments)
    return evaluate_pair(SUMMARY, human, comparisons, metric, systems, segments, {"other": (other, True)},
                         draws=200, seed=3), systems


def test_correlations_match_scipy_and_the_direction_is_applied(pair):
    _, human, user, _ = pair
    result, systems = run(pair)
    means = user.groupby("system")["score"].mean()
    assert systems.set_index("system")["score"].to_dict() == pytest.approx(means.to_dict(), rel=1e-12)
    row = result.tables["system_level"].set_index("human_score").loc["gt_others"]
    gt = human.set_index("system").loc[means.index, "gt_others"]
    assert row["pearson"] == pytest.approx(stats.pearsonr(means, gt)[0], rel=1e-12)
    assert row["kendall"] == pytest.approx(stats.kendalltau(means, gt)[0], rel=1e-12)
    flipped, _ = run(pair, higher_is_better=False)
    assert flipped.tables["system_level"]["pearson"].to_numpy() == pytest.approx(
        result.tables["system_level"]["pearson"].to_numpy(), rel=1e-12)
    boot = result.tables["bootstrap"].set_index("human_score").loc["gt_others"]
    assert boot["pearson"] == pytest.approx(row["pearson"], rel=1e-12)
    assert boot["pearson_low"] < row["pearson"] < boot["pearson_high"] and boot["interval_method"] == "bootstrap"
    assert result.notes == []


def test_williams_meng_and_ranks_include_the_builtin_metrics(pair):
    result, _ = run(pair)
    williams = result.tables["williams"]
    assert set(zip(williams["metric_1"], williams["metric_2"], strict=True)) == {("mine", "other"), ("other", "mine")}
    meng = result.tables["meng"].set_index("metric")
    assert np.isnan(meng.loc["mine", "meng_z"]) and np.isfinite(meng.loc["other", "meng_z"])
    assert meng.loc["other", "pearson"] == pytest.approx(williams.set_index("metric_1").loc["other", "r_1"])
    assert set(result.tables["ranks"]["metric"]) == {"mine", "other"}
    segment = result.tables["segment_level"].iloc[0]
    assert segment["n_comparisons"] == len(pair[0]) and -1 <= segment["tau_wmt12"] <= 1


def test_system_scores_that_are_not_segment_means_are_noted(pair):
    given = pd.DataFrame({"system": SYSTEMS, "score": [5.0, 4.0, 3.0, 1.0, 2.0]})
    result, systems = run(pair, given=given)
    assert systems.set_index("system")["score"].tolist() == [5.0, 4.0, 3.0, 1.0, 2.0]
    assert any("not the means of the segment scores" in note for note in result.notes)


def test_a_name_of_a_builtin_metric_is_refused(pair):
    with pytest.raises(ValueError, match="'other' is the id of a built-in metric"):
        run(pair, name="other")
