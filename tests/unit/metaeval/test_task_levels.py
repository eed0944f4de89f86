"""Reference levels of the official tasks: chance equal to enumeration or to simulation of metrics
without information, the all-tied floor, the human level equal to the ceiling module's on the same
rotations, the raters file checked, and the levels in the command's tables, never ranked."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from mtmeta.app.cli import main
from mtmeta.errors import InputError
from mtmeta.metaeval import task_levels
from mtmeta.metaeval.tasks import official_task_set, run_task_set
from mtmeta.stats.ceiling import human_ceiling
from mtmeta.stats.grouped import grouped_correlation, layout
from mtmeta.stats.system_pairs import pairwise_accuracy, soft_pairwise_accuracy
from mtmeta.stats.tie_calibration import calibrate, enumerate_pairs
from tests.unit.metaeval.test_tasks import MT, N, build_root


def test_correlations_are_zero_and_pooled_accuracy_is_half_the_untied_pairs_by_enumeration():
    gold_a, gold_b = np.array([3.0, 1.0, 1.0, 0.0]), np.array([2.0, 2.0, 5.0])
    level = task_levels.chance_level("accuracy", np.concatenate([gold_a, gold_b]), set_sizes=[4, 3])
    agree = pairs = 0
    for pa in itertools.permutations(range(4)):  # every ordering of distinct metric values, per set
        for pb in itertools.permutations(range(3)):
            for gold, metric in ((gold_a, np.array(pa, float)), (gold_b, np.array(pb, float))):
                n = len(gold)
                agree += pairwise_accuracy(gold, metric) * n * (n - 1) / 2
                pairs += n * (n - 1) / 2
    assert level.value == pytest.approx(agree / pairs, abs=1e-12)
    assert level.value == pytest.approx((5 + 2) / 2 / 9)  # 5 and 2 untied gold pairs of 6 + 3
    for fcn in ("pearson", "spearman", "kendall", "KendallLike"):
        assert task_levels.chance_level(fcn, np.ones((3, 4))).value == 0.0


def test_soft_pairwise_accuracy_level_matches_metrics_without_information():
    rng = np.random.default_rng(3)
    gold = rng.normal(size=(5, 60)) + np.arange(5)[:, None] * 0.15
    level = task_levels.chance_level("pce", gold)
    simulated = np.array([soft_pairwise_accuracy(gold, rng.normal(size=gold.shape)) for _ in range(150)])
    error = simulated.std(ddof=1) / math.sqrt(len(simulated))
    assert abs(level.value - simulated.mean()) < 4 * error + 0.005  # + the discreteness of 1000-draw p-values
    assert 0.5 < level.value < 0.75


def test_calibrated_level_is_the_mean_of_seeded_noise_draws_and_above_the_floor():
    rng = np.random.default_rng(4)
    gold = rng.integers(0, 3, size=(4, 30)).astype(float)
    level = task_levels.chance_level("KendallWithTiesOpt", gold, avg_by="item", draws=20, seed=9)
    draws = np.random.default_rng(9)
    expected = [calibrate(enumerate_pairs(layout(gold, draws.standard_normal(gold.shape), "item")), "acc_eq").value
                for _ in range(20)]
    assert (level.value, level.draws) == (pytest.approx(np.mean(expected), abs=1e-15), 20)
    assert level.standard_error == pytest.approx(np.std(expected, ddof=1) / math.sqrt(20))
    floor = task_levels.floor_level("KendallWithTiesOpt", gold, avg_by="item")
    assert level.value >= floor.value > 0
    assert math.isnan(task_levels.floor_level("pearson", gold).value)
    assert task_levels.chance_level("KendallWithTiesOpt", gold, avg_by="item", draws=20, seed=9) == level
    with pytest.raises(ValueError, match="at least 2 draws"):
        task_levels.chance_level("KendallWithTiesOpt", gold, avg_by="item", draws=1)


def three_raters(rng, systems=4, segments=12, raters=5):
    """Every segment rated by three of ``raters`` raters, every system of it; a shared signal."""
    truth = rng.normal(size=(systems, segments))
    ratings = np.full((raters, systems, segments), np.nan)
    for j in range(segments):
        for r in rng.choice(raters, 3, replace=False):
            ratings[r, :, j] = truth[:, j] + rng.normal(scale=0.7, size=systems)
    return ratings


def test_human_level_equals_the_ceiling_module_on_the_same_rotations():
    ratings = three_raters(np.random.default_rng(5))
    pearson = lambda g, m: grouped_correlation(g, m, "pearson", average_by="none").value  # noqa: E731
    level = task_levels.human_level("pearson", "seg", [ratings], seed=7)
    assert level.value == pytest.approx(human_ceiling(ratings, pearson, seed=7).human, abs=1e-12)
    assert (level.draws, level.value > 0.3) == (3, True)
    acc = task_levels.human_level("accuracy", "sys", [ratings, ratings[:, :3]], seed=7)
    assert 0.5 < acc.value <= 1.0
    one_rater = ratings.copy()
    one_rater[1:] = np.nan
    assert math.isnan(task_levels.human_level("pearson", "seg", [one_rater]).value)


def write_raters(root, lp: str, rows: list[dict]) -> None:
    pd.DataFrame(rows, columns=["system", "seg_id", "rater", "score"]).to_csv(
        root / "wmt23" / f"{lp}.raters.tsv", sep="\t", index=False)


def ratings_of(rng) -> list[dict]:
    return [{"system": s, "seg_id": j, "rater": f"r{r}", "score": -float(rng.integers(0, 5))}
            for j in range(1, N + 1) for r in ((j % 4), (j + 1) % 4, (j + 2) % 4) for s in MT + ["refB"]]


def test_task_tables_carry_the_levels_unranked_and_the_human_only_with_raters(tmp_path, capsys):
    root = build_root(tmp_path / "root")
    result = run_task_set(official_task_set("wmt23", k=0), root)
    assert result.levels["chance"] == pytest.approx(
        sum((t.chance.value - t.task.range[0]) / (t.task.range[1] - t.task.range[0]) * w
            for t, w in zip(result.tasks, result.task_set.weights, strict=True)))
    assert math.isnan(result.levels["human"])
    assert all(math.isnan(t.human.value) for t in result.tasks)
    assert "chance" not in result.average  # a level is never ranked
    rng = np.random.default_rng(1)
    for lp in ("en-de", "he-en", "zh-en"):
        write_raters(root, lp, ratings_of(rng))
    result = run_task_set(official_task_set("wmt23", k=0), root)
    assert all(not math.isnan(t.human.value) for t in result.tasks)
    assert any("one rater against the mean of the other two" in n for n in result.notes)
    assert main(["tasks", "wmt23", "--root", str(root), "--k", "0", "--all-metrics", "--format", "markdown",
                 "--out", str(tmp_path / "out")]) == 0
    printed = capsys.readouterr().out
    assert "| _chance_ |" in printed and "| _human_ |" in printed and "| _all tied_ |" in printed
    levels = pd.read_csv(tmp_path / "out" / "levels.tsv", sep="\t")
    assert set(levels["level"]) == {"chance", "all tied", "human"}
    assert levels.loc[(levels["level"] == "chance") & (levels["task"] == 0), "value"].item() == pytest.approx(
        result.levels["chance"])
    ranking = pd.read_csv(tmp_path / "out" / "ranking.tsv", sep="\t")
    assert not ranking["metric"].isin(["chance", "human", "all tied"]).any()
    text = (tmp_path / "out" / "table.txt").read_text()
    assert "level chance (not ranked): avg-corr" in text


def test_a_bad_raters_file_is_named(tmp_path):
    root = build_root(tmp_path / "root")
    rows = ratings_of(np.random.default_rng(2))
    write_raters(root, "en-de", rows + [{**rows[0], "seg_id": N + 5}])
    with pytest.raises(InputError, match=rf"en-de.raters.tsv.*line {len(rows) + 2}: seg_id.*1..{N}"):
        run_task_set(official_task_set("wmt23", k=0), root)
    write_raters(root, "en-de", rows + [rows[0]])
    with pytest.raises(InputError, match="rated sys1 segment 1 twice"):
        run_task_set(official_task_set("wmt23", k=0), root)
    pd.DataFrame({"system": ["sys1"], "score": [1.0]}).to_csv(root / "wmt23" / "en-de.raters.tsv", sep="\t",
                                                              index=False)
    with pytest.raises(InputError, match=r"no column\(s\) \['rater', 'seg_id'\]"):
        run_task_set(official_task_set("wmt23", k=0), root)
