"""Reading a metric's segment table against a pair's comparisons (segment_level.ComparisonCells)."""

import numpy as np
import pandas as pd
import pytest

from mtmeta.metaeval.segment_level import ComparisonCells, human_labels, pairwise_deltas

SCORES = pd.DataFrame({"system": ["x", "y", "z", "x", "y", "z"], "seg_id": [1, 1, 1, 2, 2, 2],
                       "score": [0.5, 0.25, 0.75, 1.0, 2.0, 3.0]})
COMPARISONS = pd.DataFrame({"seg_id": [2, 1, 1, 2], "sys_a": ["z", "x", "y", "x"], "sys_b": ["x", "z", "x", "y"],
                            "outcome": ["a", "b", "tie", "b"]})


def test_each_comparison_reads_its_two_cells_in_any_row_order():
    shuffled = SCORES.sample(frac=1, random_state=3)
    first, second, found = ComparisonCells.of(COMPARISONS).scores(shuffled)
    assert first.tolist() == [3.0, 0.5, 0.25, 1.0] and second.tolist() == [1.0, 0.75, 0.5, 2.0]
    assert found.all()
    human, delta = pairwise_deltas(COMPARISONS, shuffled, higher_is_better=False)
    assert human.tolist() == [1, -1, 0, -1] and delta.tolist() == [-2.0, 0.25, 0.25, 1.0]


def test_a_missing_or_repeated_cell_is_named():
    first, _, found = ComparisonCells.of(COMPARISONS).scores(SCORES[SCORES["system"] != "y"])
    assert found.tolist() == [True, True, False, False] and np.isnan(first[2])
    with pytest.raises(ValueError, match="2 comparisons have no metric score"):
        pairwise_deltas(COMPARISONS, SCORES[SCORES["system"] != "y"])
    with pytest.raises(ValueError, match="scores system 'z' on segment 2 more than once"):
        ComparisonCells.of(COMPARISONS).scores(pd.concat([SCORES, SCORES.iloc[[5]]]))
    # A comparison without a segment id or a system name reads no cell (not a neighbouring one).
    unnamed = COMPARISONS.astype({"seg_id": float}).assign(seg_id=[2, np.nan, 1, 2], sys_b=["x", "z", None, "y"])
    first, second, found = ComparisonCells.of(unnamed).scores(SCORES)
    assert found.tolist() == [True, False, False, True] and np.isnan(first[1:3]).all() and np.isnan(second[1:3]).all()
    with pytest.raises(ValueError, match="2 comparisons have no metric score"):
        pairwise_deltas(unnamed, SCORES)


def test_an_unknown_outcome_is_an_error():
    with pytest.raises(ValueError, match="1 comparisons have an outcome other than a, b, tie .first: 'A'"):
        human_labels(COMPARISONS.assign(outcome=["a", "A", "tie", "b"]))
