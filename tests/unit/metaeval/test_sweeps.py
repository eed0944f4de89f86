"""Sweeps over cached statistics: grids, targets, cross-validation, and the best-setting table."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mtmeta.errors import ConfigError
from mtmeta.metaeval.sweeps import (
    best_settings,
    expand_grid,
    run_sweep,
    segment_target,
    split_halves,
    system_target,
)


def test_expand_grid_ranges_and_lists():
    grid = expand_grid({"alpha": {"start": 0, "stop": 1, "step": 0.05}, "gamma": [0.0, 0.5]})
    assert len(grid) == 21 * 2
    assert grid[0] == {"alpha": 0.0, "gamma": 0.0}
    assert grid[-1] == {"alpha": 1.0, "gamma": 0.5}
    assert sorted({g["alpha"] for g in grid})[7] == 0.35  # rounded, not 0.35000000000000003


def test_grid_ranges_never_pass_stop_and_empty_axes_are_errors():
    assert [g["a"] for g in expand_grid({"a": {"start": 0, "stop": 1, "step": 0.35}})] == [0.0, 0.35, 0.7]
    assert [g["a"] for g in expand_grid({"a": {"start": 0, "stop": 0.3, "step": 0.1}})] == [0.0, 0.1, 0.2, 0.3]
    with pytest.raises(ConfigError, match=r"grid axis 'a' is empty: stop 0 < start 1"):
        expand_grid({"a": {"start": 1, "stop": 0, "step": 0.1}})
    with pytest.raises(ConfigError, match=r"grid axis 'a': step must be > 0, got -0.1"):
        expand_grid({"a": {"start": 0, "stop": 1, "step": -0.1}})
    with pytest.raises(ConfigError, match=r"grid axis 'b' is empty"):
        expand_grid({"a": [1.0], "b": []})


def test_split_halves_partition_the_segments():
    a, b = split_halves(np.array([5, 1, 2, 2, 3, 4, 1]), seed=7)
    assert a | b == {1, 2, 3, 4, 5} and not a & b
    assert (len(a), len(b)) == (2, 3)
    assert split_halves(np.arange(10), 7) == split_halves(np.arange(10), 7)


def segment_data():
    # Two systems x four segments; the "metric" scores a row by weight * column 0.
    seg = pd.DataFrame({"system": ["s1"] * 4 + ["s2"] * 4, "seg_id": [1, 2, 3, 4] * 2,
                        "x0": [3.0, 1.0, 2.0, 5.0, 1.0, 1.0, 4.0, 2.0]})
    comparisons = pd.DataFrame({"seg_id": [1, 2, 3, 4], "sys_a": ["s1"] * 4, "sys_b": ["s2"] * 4,
                                "outcome": ["a", "tie", "a", "b"]})
    return seg, comparisons


def test_segment_target_three_way_accuracy_by_hand():
    seg, comparisons = segment_data()
    target = segment_target("d", "xx-en", "three_way_accuracy", seg, ["x0"], comparisons)
    table = run_sweep([{"w": 1.0}, {"w": -1.0}], [target], rescore_segments=lambda t, s, p: p["w"] * s[:, 0],
                      corpus_score=None)
    full = table[table.split == "all"].set_index("w")["value"]
    # w = 1: deltas 2, 0, -2, 3 against a, tie, a, b: correct on segments 1 and 2 only.
    assert full[1.0] == pytest.approx(2 / 4)
    # w = -1: deltas -2, 0, 2, -3: correct on segments 2, 3 and 4.
    assert full[-1.0] == pytest.approx(3 / 4)
    halves = table[table.split != "all"]
    assert set(halves["n"]) == {2} and len(halves) == 4


def test_lower_is_better_flips_the_comparison():
    seg, comparisons = segment_data()
    target = segment_target("d", "xx-en", "tau_wmt13", seg, ["x0"], comparisons)
    up = run_sweep([{}], [target], lambda t, s, p: s[:, 0], None)
    down = run_sweep([{}], [target], lambda t, s, p: -s[:, 0], None, higher_is_better=False)
    # tau_wmt13 with deltas 2, -2, 3 on a, a, b (the human tie excluded): (1 - 2) / 3.
    assert up["value"].iloc[0] == pytest.approx(-1 / 3)
    assert down["value"].iloc[0] == pytest.approx(-1 / 3)


def test_comparison_without_statistics_is_an_error():
    seg, comparisons = segment_data()
    comparisons.loc[0, "sys_b"] = "ghost"
    with pytest.raises(ValueError, match="ghost"):
        segment_target("d", "xx-en", "three_way_accuracy", seg, ["x0"], comparisons)


def test_system_target_pearson_matches_scipy():
    rng = np.random.default_rng(0)
    systems = ["a", "b", "c", "d", "e"]
    seg = pd.DataFrame({"system": np.repeat(systems, 6), "seg_id": np.tile(np.arange(1, 7), 5),
                        "x0": rng.random(30)})
    # Every system meets every other on every segment; the lower x0 loses.
    rows = []
    for seg_id in range(1, 7):
        for i, a in enumerate(systems):
            for b in systems[i + 1:]:
                xa = seg[(seg.system == a) & (seg.seg_id == seg_id)]["x0"].iloc[0]
                xb = seg[(seg.system == b) & (seg.seg_id == seg_id)]["x0"].iloc[0]
                rows.append({"seg_id": seg_id, "sys_a": a, "sys_b": b, "outcome": "a" if xa > xb else "b"})
    comparisons = pd.DataFrame(rows)
    target = system_target("d", "xx-en", "pearson", "gt_others", seg, ["x0"], comparisons, systems)
    table = run_sweep([{}], [target], None, lambda t, stats_, w, p: float(np.average(stats_[:, 0], weights=w)))
    means = seg.groupby("system")["x0"].mean().loc[systems].to_numpy()
    wins = {s: 0 for s in systems}
    for row in rows:
        wins[row["sys_a"] if row["outcome"] == "a" else row["sys_b"]] += 1
    gt_others = np.array([wins[s] / (6 * 4) for s in systems])
    value = table[table.split == "all"]["value"].iloc[0]
    assert value == pytest.approx(stats.pearsonr(means, gt_others).statistic, abs=1e-12)
    assert table["statistic"].iloc[0] == "pearson_gt_others"


def test_best_settings_cross_validates():
    rows = []
    values = {"all": [0.50, 0.60, 0.55], "A": [0.70, 0.40, 0.50], "B": [0.30, 0.80, 0.60]}
    for split, per_alpha in values.items():
        for alpha, value in zip([0.0, 0.5, 1.0], per_alpha, strict=True):
            rows.append({"alpha": alpha, "dataset": "d", "lp": "xx-en", "statistic": "acc", "split": split,
                         "value": value})
    best = best_settings(pd.DataFrame(rows), ["alpha"]).iloc[0]
    assert best["best_alpha"] == 0.5 and best["best_value"] == 0.60
    # Chosen on A: alpha 0 (0.70), scored on B: 0.30. Chosen on B: alpha 0.5 (0.80), scored on A: 0.40.
    assert (best["chosen_on_A_alpha"], best["value_on_B"]) == (0.0, 0.30)
    assert (best["chosen_on_B_alpha"], best["value_on_A"]) == (0.5, 0.40)
    assert best["cv_value"] == pytest.approx(0.35)


class ScaledColumn:
    """A stand-in metric re-scored from its statistics: ``w`` times column 0 (``shift`` is fixed)."""

    higher_is_better = True

    def __init__(self, lang):
        self.lang = lang

    def rescore(self, stats_, w, shift):
        return w * stats_[:, 0] + shift

    def corpus_rescore(self, stats_, weights, w, shift):
        return float(w * np.average(stats_[:, 0], weights=weights) + shift)


def test_sweep_metric_builds_targets_tables_and_best(monkeypatch):
    from mtmeta import metrics
    from mtmeta.metaeval.sweeps import sweep_metric, sweep_title

    made = []
    monkeypatch.setattr(metrics, "get_for_dataset",
                        lambda name, lang, params, **k: made.append(lang) or ScaledColumn(lang))
    monkeypatch.setattr(metrics, "metric_class", lambda name: ScaledColumn)
    seg, comparisons = segment_data()
    sweep = {"grid": {"w": [1.0, -1.0]}, "fixed": {"shift": 0.5}, "seed": 3,
             "targets": [{"statistic": "three_way_accuracy", "datasets": ["d"]}]}
    spec = {"id": "scaled", "name": "scaled", "params": {}}
    inputs = {("d", "xx-en"): (seg, comparisons), ("other", "xx-de"): (seg, comparisons)}
    table, best = sweep_metric("tiny", sweep, spec, inputs)
    assert made == ["en"]  # one metric, in the language of the only target's pair
    assert list(table.columns[:4]) == ["sweep", "metric", "shift", "w"]
    full = table[table.split == "all"].set_index("w")["value"]
    assert full[1.0] == pytest.approx(2 / 4) and full[-1.0] == pytest.approx(3 / 4)  # as run_sweep by hand
    assert set(table["dataset"]) == {"d"} and set(table["sweep"]) == {"tiny"} and set(table["shift"]) == {0.5}
    assert best.iloc[0]["sweep"] == "tiny" and best.iloc[0]["best_w"] == -1.0
    assert sweep_title("tiny", sweep, "scaled") == "tiny: scaled (shift 0.5)"
