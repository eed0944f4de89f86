"""softBLEU's greedy one-to-one assignment, compiled with numba (many small matrices, one per segment)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def greedy_total(credit: np.ndarray) -> float:
    """Rows in order each take their largest credit among the columns still free (the first column
    on ties), if positive; the total of the credits taken, summed in row order."""
    rows, columns = credit.shape
    available = np.ones(columns, dtype=np.bool_)
    total = 0.0
    for i in range(rows):
        best_j, best = 0, credit[i, 0] if available[0] else 0.0
        for j in range(1, columns):
            value = credit[i, j] if available[j] else 0.0
            if value > best:
                best_j, best = j, value
        if best > 0:
            total += best
            available[best_j] = False
    return total
