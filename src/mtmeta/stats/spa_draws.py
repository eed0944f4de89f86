"""PERM-BOTH on soft pairwise accuracy for every pair of a ranking's metrics at once.

A draw of PERM-BOTH (:func:`mtmeta.stats.permutation.perm_both`) mixes the z-scores of metrics a and
b cell by cell (mask M: a's score where M is 1, b's elsewhere) and recomputes soft pairwise accuracy
(:func:`mtmeta.stats.system_pairs.soft_pairwise_accuracy`) of both mixtures: for every pair of systems
(i, j), the share of MTME's 1000 sign permutations (rows of S, one sign per segment) under which the
signed sum of i minus that of j reaches the plain sum of i minus that of j. Done per pair of metrics,
that is a float32 product of the 1000 x segments signs with the draw's systems x segments matrix,
twice per draw: 16 GFLOP per pair of metrics at k = 1000 on a WMT21 pair, and a ranking of 16
metrics has 120 pairs.

Every pair of a ranking is tested with the same masks (the same seed), so the products split by
metric. For system i of draw d,

    S . (a' row i) = S . (M_di o a_i) + S . b_i - S . (M_di o b_i)      (a' = M o a + (1 - M) o b)
    S . (b' row i) = S . a_i + S . b_i - S . (a' row i)                  (a' + b' = a + b)

so each metric's masked products ``A_m = S . (M o m)`` (one float32 matrix product per metric and
block of draws) and plain products ``T_m = S . m`` serve every pair it is in; a pair then costs
additions and comparisons only, done here by a compiled loop. The plain sums (the observed side of
each comparison) split the same way. The arithmetic of a draw's p-values is therefore not the
one-product-per-draw float32 arithmetic (rounding differs in the last bits, which can move a
comparison that is a tie up to rounding); the test is the same test: the same masks, the same
signs, the same statistic, the same early stopping.

Soft pairwise accuracy takes the values 1 - sum_ij |G_ij - C_ij| / (permutations x pairs) for
integer counts G (gold) and C (metric), so every draw's difference stat(a') - stat(b') is kept as an
exact integer (sum |G - C_b'| - sum |G - C_a'|), and compared with the observed difference as
integers: a draw that reproduces the observed p-values counts as >= the observed difference, as it
must, whatever the order of float additions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mtmeta.stats.system_pairs import permutation_signs

BLOCK_CELLS = 12_000_000  # float32 values of masked products held at once per metric and block


@njit(cache=True)
def _null_counts(a, b, ta, tb, ua, ub, va, vb, gold_counts, out):
    """Per draw d (a, b: draws x systems x permutations), the integer difference
    sum_ij |G_ij - C_ij(b')| - sum_ij |G_ij - C_ij(a')| over pairs i < j, where C_ij(x) counts the
    permutations p with x_ip - x_jp >= sum_i - sum_j: the signed sums of the mixtures a' and b'
    rebuilt in float32 from the metrics' masked and plain products (ta, tb: systems x
    permutations), their plain sums in float64 (ua, ub: draws x systems; va, vb: systems)."""
    draws, n, perms = a.shape
    x = np.empty((n, perms), np.float32)
    y = np.empty((n, perms), np.float32)
    sum_a = np.empty(n)
    sum_b = np.empty(n)
    for d in range(draws):
        for i in range(n):
            sum_a[i] = ua[d, i] - ub[d, i] + vb[i]
            sum_b[i] = va[i] + vb[i] - sum_a[i]
            for p in range(perms):
                x[i, p] = a[d, i, p] - b[d, i, p] + tb[i, p]
                y[i, p] = ta[i, p] + tb[i, p] - x[i, p]
        total = np.int64(0)
        q = 0
        for i in range(n):
            for j in range(i + 1, n):
                limit_a = np.float32(sum_a[i] - sum_a[j])
                limit_b = np.float32(sum_b[i] - sum_b[j])
                count_a = 0
                count_b = 0
                for p in range(perms):
                    count_a += x[i, p] - x[j, p] >= limit_a
                    count_b += y[i, p] - y[j, p] >= limit_b
                total += abs(gold_counts[q] - count_b) - abs(gold_counts[q] - count_a)
                q += 1
        out[d] = total


def observed_counts(scores32: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """The permutation counts C_ij (i < j) of one systems x segments float32 matrix, in the arithmetic
    of :func:`mtmeta.stats.system_pairs.pairwise_p_values` (MTME's)."""
    totals = np.sum(scores32, axis=1)
    null = np.matmul(signs, scores32.T)
    i, j = np.triu_indices(len(scores32), k=1)
    return np.sum(null[:, i] - null[:, j] >= (totals[i] - totals[j]), axis=0).astype(np.int64)


class SpaDraws:
    """The draws of PERM-BOTH on soft pairwise accuracy for many metrics on one gold matrix.

    ``gold_counts``: the gold's permutation counts G_ij (i < j); ``z``: metric name -> its z-scores
    (systems x segments, z-scored over every cell as :func:`perm_both` does); ``masks``: draws x cells
    booleans (cells in systems-major order), True where a draw keeps a's score in a'."""

    def __init__(self, gold_counts: np.ndarray, z: dict, masks: np.ndarray, permutations: int = 1000):
        self.gold_counts = np.asarray(gold_counts, dtype=np.int64)
        self.z32 = {name: np.ascontiguousarray(v, dtype=np.float32) for name, v in z.items()}
        first = next(iter(self.z32.values()))
        self.n, self.segments = first.shape
        self.signs = permutation_signs(self.segments, permutations)
        self.permutations = permutations
        self.masks = masks.reshape(len(masks), self.n, self.segments)
        self.plain = {name: (np.matmul(v, self.signs.T), v.astype(np.float64).sum(axis=1))
                      for name, v in self.z32.items()}
        self.observed = {name: observed_counts(v, self.signs) for name, v in self.z32.items()}

    def observed_difference(self, a: str, b: str) -> int:
        """sum |G - C_b| - sum |G - C_a| of the metrics themselves (the observed difference x
        permutations x pairs)."""
        g = self.gold_counts
        return int(np.abs(g - self.observed[b]).sum() - np.abs(g - self.observed[a]).sum())

    def masked(self, name: str, start: int, end: int) -> tuple[np.ndarray, np.ndarray]:
        """(A, U) of draws start..end: A[d, i, p] = S_p . (M_di o m_i) (float32), U[d, i] = sum M_di o m_i."""
        z = self.z32[name]
        weighted = np.where(self.masks[start:end], z, np.float32(0))  # draws x systems x segments
        products = np.matmul(weighted.reshape(-1, self.segments), self.signs.T)  # (draws x systems) x perms
        return products.reshape(end - start, self.n, -1), weighted.sum(axis=2, dtype=np.float64)

    def differences(self, a: str, b: str, masked: dict) -> np.ndarray:
        """The integer differences of a block of draws for the pair (a, b), from the block's masked
        products of both (``masked``: name -> (A, U))."""
        (a_masked, a_sums), (b_masked, b_sums) = masked[a], masked[b]
        (a_plain, a_total), (b_plain, b_total) = self.plain[a], self.plain[b]
        out = np.empty(len(a_masked), dtype=np.int64)
        _null_counts(a_masked, b_masked, a_plain, b_plain, a_sums, b_sums, a_total, b_total, self.gold_counts, out)
        return out
