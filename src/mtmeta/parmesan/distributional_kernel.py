"""The compiled part of :mod:`mtmeta.parmesan.distributional`: the dot products of pairs of sparse rows,
to the bit as scipy computes them one pair at a time."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def block_sum(values: np.ndarray, start: int, n: int) -> float:
    """numpy's sum of up to 128 values: in order below 8, else eight accumulators then the rest."""
    if n < 8:
        total = -0.0
        for i in range(start, start + n):
            total += values[i]
        return total
    r0, r1, r2, r3 = values[start], values[start + 1], values[start + 2], values[start + 3]
    r4, r5, r6, r7 = values[start + 4], values[start + 5], values[start + 6], values[start + 7]
    i = 8
    while i < n - (n % 8):
        at = start + i
        r0 += values[at]
        r1 += values[at + 1]
        r2 += values[at + 2]
        r3 += values[at + 3]
        r4 += values[at + 4]
        r5 += values[at + 5]
        r6 += values[at + 6]
        r7 += values[at + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        total += values[start + i]
        i += 1
    return total


@njit(cache=True)
def pairwise_sum(values: np.ndarray, start: int, n: int) -> float:
    """numpy's sum of the contiguous float64 ``values[start:start + n]`` (its pairwise summation:
    blocks of up to 128 values, halves above, the lower half a multiple of 8), to the bit. Without
    recursion (numba's cache does not reload recursive functions reliably): an explicit stack of
    halves, each node's left sum kept until its right one is known."""
    if n <= 128:
        return block_sum(values, start, n)
    starts = np.empty(128, dtype=np.int64)
    sizes = np.empty(128, dtype=np.int64)
    stages = np.zeros(128, dtype=np.int64)  # 0: nothing summed, 1: left half pending, 2: right half pending
    lefts = np.empty(128)
    top = 0
    starts[0], sizes[0], stages[0] = start, n, 0
    result = 0.0
    while top >= 0:
        m = sizes[top]
        if m <= 128 or stages[top] == 2:
            value = block_sum(values, starts[top], m) if m <= 128 else 0.0
            if m > 128:  # both halves known: the right one is in result
                value = lefts[top] + result
            top -= 1
            if top >= 0 and stages[top] == 1:
                lefts[top] = value
                stages[top] = 2
                half = sizes[top] // 2
                half -= half % 8
                top += 1
                starts[top], sizes[top], stages[top] = starts[top - 1] + half, sizes[top - 1] - half, 0
            else:
                result = value
                while top >= 0 and stages[top] == 2:  # a right half done: finish its parents
                    result = lefts[top] + result
                    top -= 1
                if top >= 0 and stages[top] == 1:
                    lefts[top] = result
                    stages[top] = 2
                    half = sizes[top] // 2
                    half -= half % 8
                    top += 1
                    starts[top], sizes[top], stages[top] = starts[top - 1] + half, sizes[top - 1] - half, 0
        else:
            stages[top] = 1
            half = m // 2
            half -= half % 8
            top += 1
            starts[top], sizes[top], stages[top] = starts[top - 1], half, 0
    return result


@njit(cache=True)
def row_dots(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, first: np.ndarray,
             second: np.ndarray) -> np.ndarray:
    """``out[k]``: the dot product of CSR rows ``first[k]`` and ``second[k]`` (sorted column indices,
    no explicit zeros), as scipy's ``a.multiply(b).sum()`` gives it: the nonzero products of their
    common columns in column order, summed by numpy's ``sum``."""
    out = np.empty(first.size)
    width = 0
    for row in range(indptr.size - 1):
        width = max(width, indptr[row + 1] - indptr[row])
    products = np.empty(width)
    for k in range(first.size):
        p, p_end = indptr[first[k]], indptr[first[k] + 1]
        q, q_end = indptr[second[k]], indptr[second[k] + 1]
        n = 0
        while p < p_end and q < q_end:
            if indices[p] < indices[q]:
                p += 1
            elif indices[p] > indices[q]:
                q += 1
            else:
                product = data[p] * data[q]
                if product != 0.0:  # scipy drops zero products
                    products[n] = product
                    n += 1
                p += 1
                q += 1
        out[k] = pairwise_sum(products, 0, n) if n else 0.0
    return out
