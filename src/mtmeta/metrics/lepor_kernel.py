"""hLEPOR's alignment statistics for a whole corpus, compiled with numba.

The same alignment and sums as :func:`mtmeta.metrics.lepor.align` and :meth:`HLEPOR.stats`'s loop
(tests compare both): hypothesis words left to right each take an unused equal reference word, among
several preferring those whose context confirms them, then the nearest in relative position (the
leftmost on ties); NPD sums |i/c - j/r| over the links in hypothesis order. Texts are word ids
(``values[offsets[t]:offsets[t + 1]]``).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _confirmed(hyp, ref, i: int, j: int, window: int) -> bool:
    c, r = len(hyp), len(ref)
    for k in range(-window, window + 1):
        if k != 0 and 0 <= i + k < c and 0 <= j + k < r and hyp[i + k] == ref[j + k]:
            return True
    return False


@njit(cache=True)
def corpus_alignment(values, offsets, hyp_text, ref_text, window: int):
    """``(aligned, npd)`` of each pair (hypothesis text ``hyp_text[p]``, reference text ``ref_text[p]``)."""
    n_pairs = len(hyp_text)
    aligned = np.zeros(n_pairs, dtype=np.int64)
    npd = np.zeros(n_pairs)
    for p in range(n_pairs):
        hyp = values[offsets[hyp_text[p]] : offsets[hyp_text[p] + 1]]
        ref = values[offsets[ref_text[p]] : offsets[ref_text[p] + 1]]
        c, r = len(hyp), len(ref)
        used = np.zeros(r, dtype=np.bool_)
        candidates = np.empty(r, dtype=np.int64)
        total = 0.0
        links = 0
        for i in range(c):
            n = 0
            for j in range(r):
                if ref[j] == hyp[i] and not used[j]:
                    candidates[n] = j
                    n += 1
            if n == 0:
                continue
            if n > 1:  # keep the confirmed candidates, if any
                m = 0
                for x in range(n):
                    if _confirmed(hyp, ref, i, candidates[x], window):
                        candidates[m] = candidates[x]
                        m += 1
                if m > 0:
                    n = m
            best = candidates[0]
            best_distance = abs((i + 1) / c - (best + 1) / r)
            for x in range(1, n):
                distance = abs((i + 1) / c - (candidates[x] + 1) / r)
                if distance < best_distance:
                    best, best_distance = candidates[x], distance
            used[best] = True
            links += 1
            total += abs((i + 1) / c - (best + 1) / r)
        aligned[p] = links
        npd[p] = total / c if links else 0.0
    return aligned, npd
