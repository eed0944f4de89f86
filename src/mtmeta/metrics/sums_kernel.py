"""Weighted column sums of floating-point statistics for many weight rows (bootstrap draws), compiled.

Each total is accumulated segment by segment, ``total += weight * value``, the order in which
numpy's ``(weights[:, None] * stats).sum(axis=0)`` adds a C-ordered array's rows, so a draw's total
equals that single weighted sum to the last bit (no fast-math: no reassociation, no fused
multiply-add). ``tests/unit/metrics/test_weighted_sums.py`` checks it against numpy.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def weighted_float_sums(stats: np.ndarray, weights: np.ndarray) -> np.ndarray:
    draws, segments = weights.shape
    columns = stats.shape[1]
    totals = np.zeros((draws, columns))
    for d in range(draws):
        row = totals[d]
        for i in range(segments):
            w = weights[d, i]
            if w == 0.0:  # adding 0.0 * a finite value changes no total (x + 0.0 == x, and -0.0 + 0.0 == 0.0)
                continue
            for c in range(columns):
                row[c] += w * stats[i, c]
    return totals
