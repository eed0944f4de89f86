"""Pairs with too few judged systems, or none (every human score None): every table of a metric and
of the significance tests gets a row with a stated reason, the pair named; nothing crashes and
nothing undefined is ranked."""

import numpy as np
import pandas as pd
import pytest

from mtmeta.metaeval.by_metric import PairInputs, evaluate_metric
from mtmeta.metaeval.clusters import PairMetrics, oriented, pair_clusters
from mtmeta.metaeval.significance import metric_pearsons, ranks_table, williams_table
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.metaeval.user_metric_tables import segment_table, system_table
from mtmeta.metrics.spec import MetricSpec
from mtmeta.metrics.user_metric import ExternalScores
from mtmeta.stats.human import system_scores

SYSTEMS = ["s1", "s2", "s3", "s4", "s5"]
SPEC = MetricSpec("toy", "external", {"higher_is_better": True})
SUMMARY = {"dataset": "toy", "lp": "xx-en", "n_segments": 4, "n_judged_segments": 4, "n_tasks": 1,
           "description": "toy"}


def _pair(human, comparisons, mtme=False):
    rng = np.random.default_rng(1)
    rows = pd.DataFrame([{"system": s, "seg_id": k, "score": rng.random()} for s in SYSTEMS for k in range(1, 5)])
    metric = ExternalScores("toy")
    segments = segment_table(rows, metric)
    summary = {**SUMMARY, "n_comparisons": len(comparisons)}
    pair = PairInputs(summary, human, comparisons, segments, system_table(metric, None, segments), system_level=True,
                      judged=not comparisons.empty)
    if mtme:
        summary.update(kind="mtme", human_scores=["mqm"], human_translations=[], reference="refA")
        pair.human_segments = pd.DataFrame([{"system": s, "seg_id": k, "mqm": np.nan} for s in SYSTEMS
                                            for k in range(1, 5)])
        pair.human_translations = pd.DataFrame(columns=["system", "mqm"])
    return pair


def _significance(pair):
    score = primary_human_score(pair.human)
    tables = {"toy": pair.systems, "other": pair.systems.assign(score=pair.systems["score"][::-1].to_numpy())}
    directions = {"toy": True, "other": True}
    williams = williams_table(pair.summary, pair.human, tables, directions, score)
    ranks = ranks_table(pair.summary, williams, 0.05, metric_pearsons(pair.summary, pair.human, tables, directions,
                                                                      score))
    systems, segments = oriented(tables, {}, directions)
    empty = pd.DataFrame(columns=["system"]) if pair.human_segments is None else pair.human_segments
    clusters = pair_clusters(PairMetrics(pair.summary, pair.human, empty, systems, segments), score, k=20)
    return williams, ranks, clusters


@pytest.mark.parametrize("judged", [1, 2])
def test_one_or_two_judged_systems(judged):
    # Before: "Williams' test needs n > 3, got 1" (test_significance), and the bootstrap stopped on
    # fewer than two judged systems.
    comparisons = pd.DataFrame({"seg_id": [1, 2, 3], "sys_a": ["s1"] * 3, "sys_b": ["s2"] * 3,
                                "outcome": ["a", "b", "a"], "task": ["t"] * 3})
    human = system_scores(comparisons)
    if judged == 1:
        human.loc[human["system"] == "s2", ["gt_others", "ge_others", "expected_wins"]] = np.nan
    pair = _pair(human, comparisons)
    tables = evaluate_metric(SPEC, [pair], draws=20, seed=7)
    n = len(human.dropna(subset=["gt_others"]))
    assert tables["system_level"]["pearson"].isna().all()
    assert tables["system_level"]["p_method"].str.startswith("undefined: ").all()
    boot = tables["system_bootstrap"]
    assert len(boot) == 3 and (boot["draws"] == 0).all()
    judged_names = ", ".join(sorted(human.dropna(subset=["gt_others"])["system"]))
    assert set(boot["interval_method"]) == {f"undefined: toy xx-en has {n} system(s) with a human score "
                                            f"({judged_names}); a correlation needs at least 3"}
    williams, ranks, clusters = _significance(pair)
    assert williams["p_one_sided"].isna().all()
    assert set(williams["note"]) == {f"not tested: Williams' test needs at least 4 judged systems; toy xx-en has {n}"}
    assert ranks["rank"].isna().all() and ranks["note"].str.startswith("not ranked: Williams' test needs").all()
    # MTME's clusters: an undefined value gets no rank (two systems give Pearson +-1 there, as in MTME)
    assert (clusters["rank"].isna() == clusters["value"].isna()).all() and clusters["value"].isna().any() == (n == 1)


def test_every_human_score_none():
    # Before: the bootstrap's draws had shape (100, 0) ("need at least one array to concatenate") and
    # test_significance / rank_metrics stopped with "no human score 'gt_others' (have: none)".
    human = pd.DataFrame({"system": SYSTEMS, "mqm": [np.nan] * 5})
    pair = _pair(human, pd.DataFrame(columns=["seg_id", "sys_a", "sys_b", "outcome", "task"]), mtme=True)
    tables = evaluate_metric(SPEC, [pair], draws=20, seed=7)
    row = tables["system_level"].iloc[0]
    assert (row["human_score"], row["n_systems"], row["p_method"]) == ("mqm", 0, "undefined: 0 systems; a correlation "
                                                                                 "needs at least 3")
    assert tables["system_bootstrap"]["interval_method"].tolist() == [
        "undefined: toy xx-en has 0 system(s) with a human score (none); a correlation needs at least 3"]
    protocols = tables["protocols"]
    interval = protocols[protocols["interval_method"].notna()]
    assert set(interval["interval_method"]) == {"undefined: toy xx-en has 0 system(s) with mqm; a system-level "
                                                "interval needs at least 3"}
    williams, ranks, clusters = _significance(pair)
    assert ranks["rank"].isna().all() and clusters["rank"].isna().all()
    small = "not ranked: Williams' test needs at least 4 judged systems; toy xx-en has 0"
    assert ranks["note"].str.startswith(small).all()
