"""System-level correlation of metric scores with human scores.

Pearson r, Spearman rho and Kendall tau-b (scipy's default variant), each with its two-sided
p-value from scipy. Fewer than three points, or a constant vector, give NaN: a correlation
is undefined there, and a NaN is more honest than a number.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

KENDALL_VARIANT = "tau-b"


def correlations(metric: np.ndarray, human: np.ndarray) -> dict[str, float]:
    """Pearson, Spearman and Kendall (tau-b) of two paired vectors, with two-sided p-values."""
    metric = np.asarray(metric, dtype=float)
    human = np.asarray(human, dtype=float)
    if metric.shape != human.shape or metric.ndim != 1:
        raise ValueError(f"need two 1-d vectors of equal length, got shapes {metric.shape} and {human.shape}")
    if np.isnan(metric).any() or np.isnan(human).any():
        raise ValueError("NaN in the score vectors; drop unscored systems before correlating")
    result = {"n": int(metric.size)}
    degenerate = metric.size < 3 or np.ptp(metric) == 0 or np.ptp(human) == 0
    for name, function in (("pearson", stats.pearsonr), ("spearman", stats.spearmanr), ("kendall", stats.kendalltau)):
        if degenerate:
            result[name], result[f"{name}_p"] = math.nan, math.nan
            continue
        outcome = function(metric, human)
        result[name] = float(outcome.statistic)
        result[f"{name}_p"] = float(outcome.pvalue)
    return result
