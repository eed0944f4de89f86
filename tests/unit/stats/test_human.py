import math

import numpy as np
import pandas as pd
import pytest

from mtmeta.stats.human import system_scores


def comparisons(rows):
    return pd.DataFrame(rows, columns=["sys_a", "sys_b", "outcome"])


def test_hand_computed_scores():
    table = system_scores(comparisons([
        ("A", "B", "a"), ("A", "B", "a"), ("A", "B", "tie"), ("B", "A", "a"),
        ("A", "C", "tie"), ("B", "C", "b"), ("C", "B", "tie"),
    ])).set_index("system")
    assert table.loc["A", ["wins", "losses", "ties", "comparisons"]].tolist() == [2, 1, 2, 5]
    assert table.loc["A", "gt_others"] == pytest.approx(2 / 3)
    assert table.loc["A", "ge_others"] == pytest.approx(4 / 5)
    # A never beat or lost to C, so only B enters A's expected wins.
    assert table.loc["A", "expected_wins"] == pytest.approx(2 / 3)
    assert table.loc["A", ["opponents", "ew_opponents"]].tolist() == [2, 1]
    assert table.loc["B", ["gt_others", "ge_others", "expected_wins"]].tolist() == pytest.approx([1 / 4, 1 / 2, 1 / 6])
    assert table.loc["C", ["gt_others", "ge_others", "expected_wins"]].tolist() == pytest.approx([1.0, 1.0, 1.0])


def test_only_ties_gives_undefined_gt_others():
    table = system_scores(comparisons([("A", "B", "tie")])).set_index("system")
    assert math.isnan(table.loc["A", "gt_others"]) and table.loc["A", "ge_others"] == 1.0


def test_bad_outcome_and_empty_input():
    with pytest.raises(ValueError, match="outcomes must be"):
        system_scores(comparisons([("A", "B", "win")]))
    assert system_scores(comparisons([])).empty


def test_weights_equal_repeated_comparisons():
    rows = comparisons([("A", "B", "a"), ("B", "C", "tie"), ("C", "A", "b"), ("A", "C", "b")])
    weights = np.array([2, 0, 1, 3])
    repeated = rows.loc[rows.index.repeat(weights)].reset_index(drop=True)
    pd.testing.assert_frame_equal(system_scores(rows, weights).drop(columns=["opponents"]),
                                  system_scores(repeated).drop(columns=["opponents"]), check_dtype=False)


def test_score_draws_equal_system_scores_of_each_draw():
    from mtmeta.stats.human import score_draws

    rng = np.random.default_rng(2)
    systems = ["A", "B", "C", "D"]
    rows = []
    for seg in range(1, 31):
        for a, b in (("A", "B"), ("B", "C"), ("A", "D"), ("C", "D")):
            rows.append((seg, a, b, rng.choice(["a", "b", "tie"])))
    frame = pd.DataFrame(rows, columns=["seg_id", "sys_a", "sys_b", "outcome"])
    seg_ids = np.arange(1, 31)
    weights = rng.multinomial(30, np.full(30, 1 / 30), size=5)
    draws = score_draws(frame, systems, weights, seg_ids, chunk=2)
    for d in range(5):
        expected = system_scores(frame, weights[d][frame["seg_id"].to_numpy() - 1]).set_index("system")
        for name in ("gt_others", "ge_others", "expected_wins"):
            np.testing.assert_allclose(draws[name][d], expected.loc[systems, name].to_numpy(dtype=float))
