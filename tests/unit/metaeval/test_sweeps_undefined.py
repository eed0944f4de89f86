"""A sweep whose values are undefined (NaN: a constant human score, too few systems): an undefined
setting is never the best, and a target with no defined value says so instead of crashing."""

import math

import numpy as np
import pandas as pd

from mtmeta.metaeval.sweeps import best_settings


def _table(values: dict) -> pd.DataFrame:
    return pd.DataFrame([{"alpha": alpha, "dataset": "d", "lp": "xx-en", "statistic": "pearson", "split": split,
                          "value": value} for split, per_alpha in values.items()
                         for alpha, value in zip([0.0, 0.5, 1.0], per_alpha, strict=True)])


def test_an_undefined_setting_is_never_the_best():
    best = best_settings(_table({"all": [np.nan, 0.2, 0.1], "A": [np.nan, 0.3, 0.4], "B": [0.5, 0.1, np.nan]}),
                         ["alpha"]).iloc[0]
    assert (best["best_alpha"], best["best_value"], best["note"]) == (0.5, 0.2, "")
    assert (best["chosen_on_A_alpha"], best["chosen_on_B_alpha"]) == (1.0, 0.0)


def test_no_defined_value_gives_a_reason():
    # Before: pandas' "Encountered all NA values" (idxmax) stopped the sweep.
    best = best_settings(_table({"all": [np.nan] * 3, "A": [np.nan] * 3, "B": [0.5, 0.1, 0.2]}), ["alpha"]).iloc[0]
    assert math.isnan(best["best_value"]) and math.isnan(best["cv_value"]) and best["best_alpha"] is None
    assert best["note"] == "no best setting: every setting's pearson is undefined on the whole pair and half A"
