"""A second annotator under the segment-level statistics, against brute force over pairs of judgments."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from mtmeta.metaeval import annotators
from mtmeta.stats import pairwise

# Segment 1, systems A/B judged five times (by j1, j2, j2, j3, and one judgment without a judge id);
# segment 1, B/C twice by one judge (an intra-annotator repeat only); segment 2, A/C three times.
ROWS = [(1, "A", "B", "a", "line 2"), (1, "B", "A", "tie", "line 3"), (1, "A", "B", "b", "line 4"),
        (1, "B", "A", "b", "line 5"), (1, "A", "B", "a", "line 6"),
        (1, "B", "C", "a", "line 2"), (1, "C", "B", "b", "line 7"),
        (2, "C", "A", "a", "line 8"), (2, "A", "C", "a", "line 9"), (2, "A", "C", "tie", "line 10")]
JUDGES = {"line 2": "j1", "line 3": "j2", "line 4": "j2", "line 5": "j3", "line 6": "", "line 7": "j1",
          "line 8": "j1", "line 9": "j2", "line 10": "j3"}


def _comparisons():
    return pd.DataFrame(ROWS, columns=["seg_id", "sys_a", "sys_b", "outcome", "task"])


def brute_force(judges):
    """Every ordered pair of judgments of one comparison by two different known annotators."""
    table = annotators.oriented(_comparisons())
    table["judge"] = [judges[t] if judges is not None else str(k) for k, t in enumerate(table["task"])]
    labels, decisions = [], []
    for (_, a), (_, b) in itertools.permutations(table.iterrows(), 2):
        same = (a["seg_id"], a["first"], a["second"]) == (b["seg_id"], b["first"], b["second"])
        if same and a["judge"] and b["judge"] and a["judge"] != b["judge"]:
            labels.append(a["label"])
            decisions.append(float(b["label"]))
    return np.array(labels), np.array(decisions)


@pytest.mark.parametrize("judges", [JUDGES, None])
def test_counts_equal_every_pair_of_judgments(judges):
    result, repeated = annotators.annotator_agreement(_comparisons(), judges)
    labels, decisions = brute_force(judges)
    assert result["judgment_pairs"] * 2 == len(labels)
    for variant in ("wmt12", "wmt13", "wmt14"):
        assert result[f"tau_{variant}"] == pytest.approx(pairwise.wmt_kendall(labels, decisions, variant))
    assert result["tau_b"] == pytest.approx(pairwise.tau_b(labels, decisions))
    assert result["tau_eq"] == pytest.approx(pairwise.tau_eq(labels, decisions))
    assert result["acc_eq"] == pytest.approx(pairwise.acc_eq(labels, decisions))
    shares = [np.mean(labels == o) for o in (1, 0, -1)]
    expected_kappa = (result["acc_eq"] - sum(p * p for p in shares)) / (1 - sum(p * p for p in shares))
    assert result["kappa"] == pytest.approx(expected_kappa)
    assert repeated["weight"].sum() == len(labels)


def test_counted_and_named_what_is_left_out():
    result, repeated = annotators.annotator_agreement(_comparisons(), JUDGES)
    # A/B: j1, j2, j2, j3 (pairs of different judges: 6 - 1 same-judge); A/C: j1, j2, j3 (3 pairs).
    assert (result["judgment_pairs"], result["same_annotator_pairs"], result["unattributed_judgments"]) == (8, 2, 1)
    assert (result["comparisons"], result["repeated_comparisons"], result["judgments_in_repeated"]) == (3, 2, 7)
    assert result["annotators"] == "recorded"
    assert annotators.annotator_agreement(_comparisons(), None)[0]["annotators"] == "not recorded"


def test_metric_on_the_repeated_judgments_takes_the_second_annotators_place():
    _, repeated = annotators.annotator_agreement(_comparisons(), JUDGES)
    scores = pd.DataFrame([("A", 1, 0.5), ("B", 1, 0.5), ("C", 1, 0.1), ("A", 2, 0.2), ("B", 2, 0.3), ("C", 2, 0.9)],
                          columns=["system", "seg_id", "score"])
    value = annotators.metric_on_repeated(repeated, scores)
    labels, _ = brute_force(JUDGES)
    table = annotators.oriented(_comparisons())
    table["judge"] = table["task"].map(JUDGES)
    decisions = []
    for (_, a), (_, b) in itertools.permutations(table.iterrows(), 2):
        if (a["seg_id"], a["first"], a["second"]) == (b["seg_id"], b["first"], b["second"]) and a["judge"] and \
                b["judge"] and a["judge"] != b["judge"]:
            lookup = scores.set_index(["system", "seg_id"])["score"]
            decisions.append(lookup[(a["first"], a["seg_id"])] - lookup[(a["second"], a["seg_id"])])
    for variant in ("wmt12", "wmt13", "wmt14"):
        assert value[f"tau_{variant}"] == pytest.approx(pairwise.wmt_kendall(labels, np.array(decisions), variant))
    lower = annotators.metric_on_repeated(repeated, scores.assign(score=-scores["score"]), higher_is_better=False)
    assert lower == pytest.approx(value)
    assert math.isfinite(value["acc_eq"])


def test_unknown_outcome_is_named():
    with pytest.raises(ValueError, match="found \\['draw'\\]"):
        annotators.oriented(_comparisons().assign(outcome="draw"))


def test_pair_levels_put_the_second_annotator_beside_each_metric():
    scores = pd.DataFrame([("A", 1, 0.5), ("B", 1, 0.4), ("C", 1, 0.1), ("A", 2, 0.2), ("B", 2, 0.3), ("C", 2, 0.9)],
                          columns=["system", "seg_id", "score"])
    segment_level = pd.DataFrame([{"metric": "m", "tau_wmt12": 0.1, "tau_wmt13": 0.3, "tau_wmt14": 0.2, "tau_b": 0.25,
                                   "acc_eq": 0.5, "chance_tau_wmt12": -0.1, "chance_tau_wmt13": -0.8,
                                   "chance_tau_wmt13_se": 0.002, "chance_tau_wmt14": 0.0, "chance_tau_b": 0.0,
                                   "chance_tau_b_se": 0.001, "chance_acc_eq": 0.4}])
    table = annotators.pair_levels("wmt12", "cs-en", _comparisons(), JUDGES, True, {"m": (scores, True)},
                                   segment_level)
    human = table[table["level"] == "human"].set_index("statistic")
    expected, _ = annotators.annotator_agreement(_comparisons(), JUDGES)
    assert human.at["tau_wmt13", "value"] == expected["tau_wmt13"]
    metric = table[table["level"] == "metric"].set_index("statistic")
    assert (metric.at["tau_wmt13", "value"], metric.at["tau_wmt13", "chance"], metric.at["tau_wmt13", "chance_se"]) == (
        0.3, -0.8, 0.002)
    share = (0.3 + 0.8) / (expected["tau_wmt13"] + 0.8)  # the human (-0.5) above this chance level
    assert metric.at["tau_wmt13", "share"] == pytest.approx(share)
    assert set(table["judgment_pairs"]) == {8} and set(table["ties"]) == {"in the source"}
    text = annotators.levels_markdown(table)
    assert "## wmt12 cs-en" in text and "human level on 8 pairs of judgments of 2 comparisons judged more than once" \
        in text and "pairs of judgments by the same annotator left out: 2; judgments without an annotator id: 1" in text
    assert "| m | 0.100 [-0.100] " in text and f"0.300 [-0.800 ± 0.002] {share:.0%}" in text
    untied = annotators.pair_levels("wmt13", "de-en", _comparisons(), None, False, {"m": (scores, True)},
                                    segment_level)
    assert "every level but WMT13's is an upper bound" in annotators.levels_markdown(untied)


def test_per_segment_counts_add_up_to_the_statistics_and_the_intervals_are_seeded():
    scores = pd.DataFrame([("A", 1, 0.5), ("B", 1, 0.4), ("C", 1, 0.1), ("A", 2, 0.2), ("B", 2, 0.3), ("C", 2, 0.9)],
                          columns=["system", "seg_id", "score"])
    result, _ = annotators.annotator_agreement(_comparisons(), JUDGES)
    totals = result["segment_counts"].sum()
    assert [int(totals[c]) for c in annotators.COUNT_COLUMNS] == [result[c] for c in annotators.COUNT_COLUMNS]
    from mtmeta.metaeval.segment_level import pairwise_deltas

    counts, exact = annotators._metric_segments(_comparisons(), scores, True, np.array([1, 2]))
    human, delta = pairwise_deltas(_comparisons(), scores)
    value = annotators.statistics_of(counts.sum(axis=0))
    for variant in ("wmt12", "wmt13", "wmt14"):
        assert value[f"tau_{variant}"] == pytest.approx(pairwise.wmt_kendall(human, delta, variant))
    assert value["acc_eq"] == pytest.approx(pairwise.acc_eq(human, delta))
    segment_level = pd.DataFrame([{"metric": "m", **{k: v for k, v in value.items()}, "chance_tau_wmt12": -0.1,
                                   "chance_tau_wmt13": 0.0, "chance_tau_wmt13_se": 0.01, "chance_tau_wmt14": 0.0,
                                   "chance_tau_b": 0.0, "chance_tau_b_se": 0.01, "chance_acc_eq": 0.4}])
    first = annotators.pair_levels("wmt12", "cs-en", _comparisons(), JUDGES, True, {"m": (scores, True)},
                                   segment_level, draws=200, seed=3)
    pd.testing.assert_frame_equal(first, annotators.pair_levels("wmt12", "cs-en", _comparisons(), JUDGES, True,
                                                                {"m": (scores, True)}, segment_level, draws=200,
                                                                seed=3))
    row = first[(first["level"] == "metric") & (first["statistic"] == "tau_wmt13")].iloc[0]
    assert (row["chance_low"], row["chance_high"]) == pytest.approx((-0.0196, 0.0196))  # permutation: ± 1.96 se
    assert set(first["draws"]) == {200} and set(first["seed"]) == {3}
