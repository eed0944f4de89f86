"""`mtmeta evaluate`'s intervals: printed beside the value they belong to, and the user's metric
resampled as the built-in metrics are (segment-level human scores of an mt-metrics-eval set)."""

import numpy as np
import pandas as pd

from mtmeta.app.cli import _evaluation_text
from mtmeta.metaeval.user_metric_tables import evaluate_pair, segment_table, system_table
from mtmeta.metrics.user_metric import ExternalScores
from mtmeta.stats.human import system_scores

SYSTEMS = ["s1", "s2", "s3", "s4", "s5"]


def _mqm_pair():
    rng = np.random.default_rng(3)
    quality = dict(zip(SYSTEMS, [0.0, -1.0, -2.0, -3.0, -5.0], strict=True))
    human_segments = pd.DataFrame([{"system": s, "seg_id": k, "mqm": quality[s] + rng.normal(0, 1)}
                                   for s in SYSTEMS for k in range(1, 9)])
    means = human_segments.groupby("system")["mqm"].mean()
    human = pd.DataFrame({"system": SYSTEMS, "mqm": means.loc[SYSTEMS].to_numpy()})
    user = pd.DataFrame([{"system": s, "seg_id": k, "score": quality[s] + rng.normal(0, 1)}
                         for s in SYSTEMS for k in range(1, 9)])
    summary = {"dataset": "toy", "lp": "en-de", "kind": "mtme", "reference": "refA", "human_scores": ["mqm"],
               "human_translations": [], "n_segments": 8, "n_judged_segments": 8, "n_tasks": 0, "n_comparisons": 0,
               "description": "toy"}
    other = pd.DataFrame({"system": SYSTEMS, "score": [0.8, 0.75, 0.3, 0.5, 0.2], "signature": "x"})
    return summary, human, human_segments, user, other


def test_the_users_metric_gets_the_segment_bootstrap_of_an_mqm_set():
    # Before: evaluate_pair called bootstrap_table without human_segments: a Fisher-z interval for the
    # user's metric where the built-in metrics get a segment bootstrap.
    summary, human, human_segments, user, other = _mqm_pair()
    metric = ExternalScores("mine", True)
    segments = segment_table(user, metric)
    result = evaluate_pair(summary, human, pd.DataFrame(), metric, system_table(metric, None, segments), segments,
                           {"other": (other, True)}, draws=50, seed=3, human_segments=human_segments,
                           permutations=20)
    row = result.tables["bootstrap"].set_index("human_score").loc["mqm"]
    assert row["interval_method"] == "bootstrap" and row["draws"] == 50
    assert row["pearson_low"] <= row["pearson"] <= row["pearson_high"]


def _judged_pair(seed: int):
    """A pair with pairwise human comparisons of SYSTEMS over 12 segments (noisy around a known
    quality), its human system scores, summary and one other metric's system scores; the generator
    goes on from where the comparisons left it."""
    rng = np.random.default_rng(seed)
    quality = dict(zip(SYSTEMS, [0.9, 0.7, 0.5, 0.4, 0.1], strict=True))
    comparisons = pd.DataFrame([{"lp": "de-en", "seg_id": seg, "sys_a": a, "sys_b": b,
                                 "outcome": "a" if quality[a] - quality[b] + rng.normal(0, 0.3) > 0 else "b"}
                                for seg in range(1, 13) for a in SYSTEMS for b in SYSTEMS if a < b])
    human = system_scores(comparisons).reset_index(drop=True)
    summary = {"dataset": "toy", "lp": "de-en", "n_segments": 12, "n_judged_segments": 12, "n_tasks": 12,
               "n_comparisons": len(comparisons), "description": "toy"}
    other = pd.DataFrame({"system": SYSTEMS, "score": [0.8, 0.75, 0.3, 0.5, 0.2], "signature": "x"})
    return rng, quality, comparisons, human, summary, other


def test_an_interval_is_printed_beside_its_own_value():
    # Before: "pearson 0.8073 [0.1667, 0.9580]", the interval being the segment means' (0.7798).
    rng, quality, comparisons, human, summary, other = _judged_pair(7)
    user = pd.DataFrame([{"system": s, "seg_id": seg, "score": quality[s] + rng.normal(0, 0.2)}
                         for s in SYSTEMS for seg in range(1, 13)])
    metric = ExternalScores("mine", True)
    segments = segment_table(user, metric)
    given = pd.DataFrame({"system": SYSTEMS, "score": [5.0, 4.0, 3.0, 1.0, 2.0]})
    result = evaluate_pair(summary, human, comparisons, metric, system_table(metric, given, segments), segments,
                           {"other": (other, True)}, draws=50, seed=3, permutations=20)
    system = result.tables["system_level"].set_index("human_score").loc["gt_others"]
    boot = result.tables["bootstrap"].set_index("human_score").loc["gt_others"]
    assert f"{system['pearson']:.4f}" != f"{boot['pearson']:.4f}"
    line = next(x for x in _evaluation_text("toy", "de-en", "mine", result, 4).splitlines() if "vs gt_others" in x)
    assert (f"pearson {system['pearson']:.4f} (segment means: pearson {boot['pearson']:.4f} "
            f"[{boot['pearson_low']:.4f}, {boot['pearson_high']:.4f}] bootstrap 95%)") in line


def test_an_unranked_metric_is_printed_with_its_reason():
    # Before: a constant metric (Pearson undefined) was ranked 1 in evaluate's summary.
    _, _, comparisons, human, summary, other = _judged_pair(5)
    metric = ExternalScores("mine", True)
    given = pd.DataFrame({"system": SYSTEMS, "score": [0.5] * 5})
    result = evaluate_pair(summary, human, comparisons, metric, system_table(metric, given, None), None,
                           {"other": (other, True)}, draws=20, seed=3, permutations=20)
    lines = _evaluation_text("toy", "de-en", "mine", result, 4).splitlines()
    assert "     1  other" in "\n".join(lines)
    mine = next(line for line in lines if "<- yours" in line)
    assert mine == ("     -  mine                         n/a  <- yours  (not ranked: Pearson undefined: every one of "
                    "the 5 systems has the same metric score (0.5); a correlation with a constant is undefined)")
    assert "  system pearson (mt-metrics-eval, permutation clusters): n/a, no cluster (undefined) of 1 among 2 " \
           "metrics" in lines
