"""Degenerate data in the significance and correlation tables: a value or a stated reason, never a
traceback; an undefined correlation is never ranked; one Pearson routine for every table."""

import math

import numpy as np
import pandas as pd
import pytest

from mtmeta.errors import MissingSystemsError
from mtmeta.metaeval.clusters import PairMetrics, pair_clusters
from mtmeta.metaeval.significance import correlation_rows, metric_pearsons, ranks_table, williams_table
from mtmeta.metaeval.system_level import system_level_correlations
from mtmeta.stats.correlation import correlations

SUMMARY = {"dataset": "wmt12", "lp": "en-cs", "n_segments": 10, "n_judged_segments": 10, "n_tasks": 1,
           "n_comparisons": 1, "description": ""}
SYSTEMS = list("abcde")
HUMAN = pd.DataFrame({"system": SYSTEMS, "gt_others": [0.9, 0.7, 0.6, 0.4, 0.1]})


def table(scores, systems=SYSTEMS, metric="m"):
    return pd.DataFrame({"system": systems, "score": scores, "signature": f"{metric}|v1"})


def tables_of(scores: dict, human=HUMAN, level=0.05):
    directions = dict.fromkeys(scores, True)
    pairs = williams_table(SUMMARY, human, scores, directions)
    return pairs, ranks_table(SUMMARY, pairs, level, metric_pearsons(SUMMARY, human, scores, directions))


def test_a_study_with_one_metric_has_ranks_and_no_williams_pairs():
    # Before: KeyError 'metric_1' (the pair table of one metric had no columns).
    pairs, ranks = tables_of({"bleu": table([30.0, 25, 24, 20, 10])})
    assert pairs.empty and "p_one_sided" in pairs
    row = ranks.iloc[0]
    assert (row["metric"], row["rank"], row["human_score"]) == ("bleu", 1, "gt_others")
    assert row["pearson"] == pytest.approx(correlations(np.array([30.0, 25, 24, 20, 10]),
                                                        HUMAN["gt_others"].to_numpy())["pearson"])
    assert row["note"] == "the only metric of wmt12 en-cs: no Williams' test (it compares two metrics)"


@pytest.mark.parametrize("n", [1, 2, 3])
def test_pairs_with_too_few_systems_are_not_tested_and_say_why(n):
    # Before: ValueError "Williams' test needs n > 3, got 1".
    human = HUMAN.iloc[:n]
    scores = {"bleu": table([30.0, 25, 24][:n], SYSTEMS[:n]), "ter": table([1.0, 3, 2][:n], SYSTEMS[:n])}
    pairs, ranks = tables_of(scores, human)
    assert len(pairs) == 2 and pairs["t"].isna().all() and pairs["p_one_sided"].isna().all()
    assert set(pairs["note"]) == {f"not tested: Williams' test needs at least 4 judged systems; wmt12 en-cs has {n}"}
    assert ranks["rank"].isna().all()
    small = f"Williams' test needs at least 4 judged systems; wmt12 en-cs has {n}"
    assert ranks["note"].str.startswith(f"not ranked: {small}").all()
    meng = correlation_rows(human, scores, baseline="bleu")
    assert meng.loc[1, "note"].endswith(f"Meng's test not run: it needs at least 4 judged systems; there are {n}")


@pytest.mark.parametrize("constant", [0.5, 1e308])
def test_an_undefined_pearson_is_never_ranked_first(constant):
    # Before: the constant metric (Pearson NaN) was ranked 1, ahead of a metric correlating at 0.97.
    scores = {"flat": table([constant] * 5), "bleu": table([30.0, 25, 24, 20, 10]), "ter": table([1.0, 2, 9, 4, 3])}
    pairs, ranks = tables_of(scores)
    assert list(ranks["metric"]) == ["bleu", "ter", "flat"]
    flat = ranks.set_index("metric").loc["flat"]
    assert pd.isna(flat["rank"]) and math.isnan(flat["pearson"])
    assert flat["note"] == (f"not ranked: Pearson undefined: every one of the 5 systems has the same metric score "
                            f"({constant:g}); a correlation with a constant is undefined")
    assert ranks.set_index("metric").loc["bleu", "rank"] == 1
    untested = pairs[(pairs.metric_1 == "flat") | (pairs.metric_2 == "flat")]
    assert untested["p_one_sided"].isna().all() and untested["note"].str.contains("flat: Pearson undefined").all()
    system = system_level_correlations(SUMMARY, HUMAN, scores["flat"], "flat").iloc[0]
    assert math.isnan(system["pearson"]) and system["p_method"].startswith("undefined: every one of the 5 systems")


def test_scores_near_the_largest_float_correlate_as_their_scaled_values():
    # Before: the mean overflowed, Pearson was NaN (and ranked 1).
    base = np.array([1.0, 0.9, 0.8, 0.7, 0.2])  # times 2**1023: up to 9e307, exactly scaled
    huge = {"huge": table(np.ldexp(base, 1023)), "bleu": table([30.0, 25, 24, 20, 10])}
    _, ranks = tables_of(huge)
    expected = correlations(base, HUMAN["gt_others"].to_numpy())["pearson"]
    assert ranks.set_index("metric").loc["huge", "pearson"] == expected and not math.isnan(expected)


def test_subnormal_scores_get_one_pearson_in_every_table():
    # Before: the system-level table and the Williams/ranks tables computed Pearson differently
    # (np.corrcoef underflows on subnormal numbers), so the same metric had two values.
    steps = np.array([7.0, 5, 6, 3, 1])
    tiny = table(steps * 5e-324)  # subnormal multiples of the smallest double: exact
    scores = {"tiny": tiny, "bleu": table([30.0, 25, 24, 20, 10])}
    expected = correlations(steps, HUMAN["gt_others"].to_numpy())["pearson"]
    pairs, ranks = tables_of(scores)
    values = {
        "system_level": system_level_correlations(SUMMARY, HUMAN, tiny, "tiny")["pearson"].iloc[0],
        "williams": pairs.set_index("metric_1").loc["tiny", "r_1"],
        "ranks": ranks.set_index("metric").loc["tiny", "pearson"],
        "meng": correlation_rows(HUMAN, scores, baseline="bleu").set_index("variant").loc["tiny", "pearson"],
        "correlate": correlations(tiny["score"].to_numpy(), HUMAN["gt_others"].to_numpy())["pearson"],
    }
    assert values == dict.fromkeys(values, expected)


def test_a_truncated_system_score_table_is_a_named_error():
    # Before: the truncated table correlated over the systems it had (or none), and ranked first.
    truncated = table([30.0, 25], SYSTEMS[:2], "bleu")
    scores = {"bleu": truncated, "ter": table([1.0, 2, 9, 4, 3])}
    message = ("wmt12 en-cs: the system scores of bleu lack 3 of the pair's 5 judged systems (c, d, e); expected a "
               "score for every judged system (a truncated or stale bleu.sys.tsv? delete it and rerun its scoring)")
    for build in (lambda: tables_of(scores),
                  lambda: system_level_correlations(SUMMARY, HUMAN, truncated, "bleu"),
                  lambda: pair_clusters(PairMetrics(SUMMARY, HUMAN, pd.DataFrame(columns=["system"]),
                                                    {m: t.set_index("system")["score"] for m, t in scores.items()}, {}),
                                        "gt_others", k=10)):
        with pytest.raises(MissingSystemsError) as caught:
            build()
        assert str(caught.value) == message
