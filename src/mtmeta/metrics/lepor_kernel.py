"""hLEPOR's alignment statistics for a whole corpus, compiled with numba.

The same alignment and sums as :func:`mtmeta.metrics.lepor.align` and :meth:`HLEPOR.stats`'s loop
(tests compare both): hypothesis words left to right each take an unused equal reference word, among
several preferring those whose context confirms them, then the nearest in relative position (the
leftmost on ties); NPD sums |i/c - j/r| over the links in hypothesis order. Texts are word ids
(``values[offsets[t]:offsets[t + 1]]``).

Near-linear in the length (for a fixed ``window``), so that one very long line (a whole document on
one line) takes seconds, not minutes. Comparing a hypothesis word with every reference word, and
every candidate's context, is quadratic (a 170,000-word line took 25 s, and a line repeating one
word far longer). That scan stays for pairs with ``c * r <= SCAN_LIMIT`` (every real segment: it is
the faster one there); longer pairs index the reference once instead:

- its positions grouped by word (``j`` ascending within a group), and for each context offset ``k``
  (0 < |k| <= window) grouped by the word pair ``(ref[j], ref[j + k])``. The candidates confirmed
  through offset ``k`` for hypothesis word ``i`` are exactly the group ``(hyp[i], hyp[i + k])``;
- the nearest unused position of a group to the target ``(i + 1) / c`` is found by bisection and
  two "next unused" / "previous unused" pointer forests (union-find with path halving: each position
  is marked used once, in every index that holds it).

This finds the same position as scanning: |i/c - j/r|, computed in floating point, does not increase
with ``j`` below the target and does not decrease above it (rounding is monotone), so the nearest
unused candidate is the last one below or the first one above; comparing ``(distance, j)`` keeps the
leftmost on ties, as the scan does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SCAN_LIMIT = 1 << 20  # c * r up to which a pair is aligned by scanning (about 1,000 x 1,000 words)
# Most entries (reference positions, once per context offset and once by word) of one pair's index,
# about 40 bytes each: 0.7 GB. With the default window 2 a reference of 3.3 million words.
INDEX_MAX_ENTRIES = 1 << 24


def index_entries(c: int, r: int, window: int) -> int:
    """Entries of the index that aligns a pair of ``c`` and ``r`` words (see INDEX_MAX_ENTRIES)."""
    reach = max(0, min(window, r - 1, c - 1))
    return r * (1 + 2 * reach) - reach * (reach + 1)


@njit(cache=True)
def _confirmed(hyp, ref, i: int, j: int, window: int) -> bool:
    c, r = len(hyp), len(ref)
    for k in range(-window, window + 1):
        if k != 0 and 0 <= i + k < c and 0 <= j + k < r and hyp[i + k] == ref[j + k]:
            return True
    return False


@njit(cache=True)
def _scan_alignment(hyp, ref, window: int):
    """``(aligned, npd)`` of one pair by scanning: every reference word for each hypothesis word."""
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
    return links, (total / c if links else 0.0)


@njit(cache=True)
def _root(parent, x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def _lower_bound(keys, lo: int, hi: int, key: int) -> int:
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _nearest(keys, order, after, before, lo_all: int, hi_all: int, key: int, target: float, r: int,
             best: int, best_distance: float):
    """The unused position nearest ``target`` among group ``key`` of one index (``keys`` sorted over
    ``[lo_all, hi_all)``), if it beats ``(best_distance, best)``; returns the better of the two."""
    lo = _lower_bound(keys, lo_all, hi_all, key)
    hi = _lower_bound(keys, lo, hi_all, key + 1)
    if lo == hi:
        return best, best_distance
    a, b = lo, hi  # first entry of the group whose relative position is past the target
    while a < b:
        mid = (a + b) // 2
        if (order[mid] + 1) / r <= target:
            a = mid + 1
        else:
            b = mid
    below = _root(before, a - 1)  # last unused at or before a - 1 (before lo: none in the group)
    if below >= lo:
        j = order[below]
        distance = abs(target - (j + 1) / r)
        if best < 0 or distance < best_distance or (distance == best_distance and j < best):
            best, best_distance = j, distance
    above = _root(after, a)  # first unused at or after a (hi or beyond: none in the group)
    if above < hi:
        j = order[above]
        distance = abs(target - (j + 1) / r)
        if best < 0 or distance < best_distance or (distance == best_distance and j < best):
            best, best_distance = j, distance
    return best, best_distance


@njit(cache=True)
def _indexed_alignment(hyp, ref, window: int, n_words: int):
    """``(aligned, npd)`` of one pair through an index of the reference (word ids below ``n_words``)."""
    c, r = len(hyp), len(ref)
    if c == 0 or r == 0:
        return 0, 0.0
    # Index 0 groups positions by word; index 1 + 2 (|k| - 1) + (k > 0) by (ref[j], ref[j + k]).
    reach = min(window, r - 1, c - 1)  # no pair of positions is farther apart
    n_index = 1 + 2 * reach
    offset = np.zeros(n_index, dtype=np.int64)
    start = np.zeros(n_index + 1, dtype=np.int64)  # index s: entries start[s] + 1 .. start[s + 1] - 2
    for s in range(n_index):
        offset[s] = 0 if s == 0 else ((s + 1) // 2) * (1 if s % 2 == 0 else -1)
        start[s + 1] = start[s] + (r - abs(offset[s])) + 2  # and one sentinel on each side
    size = start[n_index]
    keys = np.empty(size, dtype=np.int64)
    order = np.empty(size, dtype=np.int64)
    after = np.arange(size)  # union-find to the next unused entry (the right sentinel is a root)
    before = np.arange(size)  # to the previous unused entry (the left sentinel is a root)
    where = np.full((n_index, r), -1, dtype=np.int64)  # entry of position j in each index
    for s in range(n_index):
        k = offset[s]
        first, lo, n = max(0, -k), start[s] + 1, r - abs(k)
        key = np.empty(n, dtype=np.int64)
        for x in range(n):
            j = first + x
            key[x] = ref[j] if k == 0 else ref[j] * n_words + ref[j + k]
        sort = np.argsort(key, kind="mergesort")  # stable: positions ascending within a group
        for x in range(n):
            keys[lo + x] = key[sort[x]]
            order[lo + x] = first + sort[x]
            where[s, first + sort[x]] = lo + x
        keys[lo - 1] = -1  # sentinels: below and above every key
        keys[lo + n] = 9223372036854775807
    total = 0.0
    links = 0
    for i in range(c):
        w = hyp[i]
        lo, hi = start[0] + 1, start[1] - 1
        g_lo = _lower_bound(keys, lo, hi, w)
        g_hi = _lower_bound(keys, g_lo, hi, w + 1)
        first_unused = _root(after, g_lo)
        if first_unused >= g_hi:
            continue  # no unused equal word
        target = (i + 1) / c
        best, best_distance = -1, 0.0
        if _root(after, first_unused + 1) < g_hi:  # several: the nearest confirmed one, if any
            for s in range(1, n_index):
                k = offset[s]
                if 0 <= i + k < c:
                    best, best_distance = _nearest(keys, order, after, before, start[s] + 1, start[s + 1] - 1,
                                                   w * n_words + hyp[i + k], target, r, best, best_distance)
        if best < 0:
            best, best_distance = _nearest(keys, order, after, before, lo, hi, w, target, r, best, best_distance)
        for s in range(n_index):  # used: skipped from now on in every index
            e = where[s, best]
            if e >= 0:
                after[e] = e + 1
                before[e] = e - 1
        links += 1
        total += abs((i + 1) / c - (best + 1) / r)
    return links, (total / c if links else 0.0)


@njit(cache=True)
def corpus_alignment(values, offsets, hyp_text, ref_text, window: int, scan_limit: int = SCAN_LIMIT):
    """``(aligned, npd)`` of each pair (hypothesis text ``hyp_text[p]``, reference text ``ref_text[p]``):
    scanning where ``c * r <= scan_limit``, else through the index (the same numbers)."""
    n_pairs = len(hyp_text)
    aligned = np.zeros(n_pairs, dtype=np.int64)
    npd = np.zeros(n_pairs)
    n_words = values.max() + 1 if len(values) else 1
    for p in range(n_pairs):
        hyp = values[offsets[hyp_text[p]] : offsets[hyp_text[p] + 1]]
        ref = values[offsets[ref_text[p]] : offsets[ref_text[p] + 1]]
        if len(hyp) * len(ref) <= scan_limit:
            aligned[p], npd[p] = _scan_alignment(hyp, ref, window)
        else:
            aligned[p], npd[p] = _indexed_alignment(hyp, ref, window, n_words)
    return aligned, npd
