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
def weighted_float_sums(stats: np.ndarray, by_segment: np.ndarray) -> np.ndarray:
    """``totals[d, c]``: the sum over segments i, in order, of ``by_segment[i, d] * stats[i, c]``
    (``by_segment``: the draws' weights transposed, segments x draws, C order).

    Segment by segment, every draw's total grows by one product: the innermost loop runs over draws,
    contiguous in memory and independent of each other, so it is vectorised, and each total still
    sees the segments in numpy's order. A zero weight adds +0.0 or -0.0, which changes no finite total
    (and a total is never -0.0: it starts at +0.0, and +0.0 + -0.0 == +0.0)."""
    segments, draws = by_segment.shape
    columns = stats.shape[1]
    totals = np.zeros((columns, draws))
    for i in range(segments):
        for c in range(columns):
            value = stats[i, c]
            for d in range(draws):
                totals[c, d] += by_segment[i, d] * value
    return totals.T.copy()
