"""TER's shift search and beam edit distance, compiled with numba.

This is sacrebleu's Tercom port (``sacrebleu.metrics.lib_ter``, 2.6.0) step for step, on integer
word ids instead of strings, so that every segment gets the same edit count:

- the beam edit distance stays within ``BEAM_WIDTH`` cells of the pseudo-diagonal ``i * |ref| / |hyp|``
  (wider for very unequal lengths), except on the last row; ties prefer match/substitution, then
  deletion, then insertion (sacrebleu's order, which it flips to read the alignment);
- the greedy shift loop takes, in each round, the shift that reduces the edit distance most (then
  the longest, then the earliest in the hypothesis, then the earliest target), tried in sacrebleu's
  order and under its limits: blocks of at most ``MAX_SHIFT_SIZE`` words moved at most
  ``MAX_SHIFT_DIST`` positions, and at most ``MAX_SHIFT_CANDIDATES`` candidates per segment, counted
  across rounds; the round in which that limit is reached is discarded, as sacrebleu does.

sacrebleu memoises edit-distance rows in a trie of hypothesis prefixes; that saves time and changes
no number. Here each candidate computes rows only where the shift changed the hypothesis: it starts
from the unshifted hypothesis's row before the first changed word, and after the last changed word it
joins the unshifted hypothesis's backward rows (the distance of each suffix to each suffix of the
reference, over the same band). The banded matrix is a shortest-path problem on a grid, and every path
crosses each row, so the least sum of forward and backward cost over one row is the distance itself.
``tests/realdata/test_compiled_parity.py`` checks the statistics against sacrebleu on every segment
of every system of WMT12 en-cs and WMT13 de-en.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

COST = 1  # insertion, deletion, substitution and shift all cost one edit
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
INF = 10**16

# Edit operations, as sacrebleu names them in its trace.
NOP, SUB, INS, DEL, UNDEF = 0, 1, 2, 3, 4


@njit(cache=True)
def _beam_width(ratio: float) -> int:
    if BEAM_WIDTH < ratio / 2:
        return math.ceil(ratio / 2 + BEAM_WIDTH)
    return BEAM_WIDTH


@njit(cache=True)
def _band(i: int, n_h: int, n_r: int, ratio: float, width: int):
    diagonal = math.floor(i * ratio)
    low = max(0, diagonal - width)
    high = min(n_r + 1, diagonal + width)
    if i == n_h:
        high = n_r + 1
    return low, high


@njit(cache=True)
def _row(hyp_word: int, ref, prev, cur, ops, low: int, high: int, track: bool) -> None:
    """One row of the edit-distance matrix (``cur`` from ``prev``) within the band [low, high)."""
    for j in range(len(cur)):
        cur[j] = INF
        if track:
            ops[j] = UNDEF
    for j in range(low, high):
        if j == 0:
            cur[0] = prev[0] + COST
            if track:
                ops[0] = DEL
            continue
        if hyp_word == ref[j - 1]:
            cost, op = prev[j - 1], NOP
        else:
            cost, op = prev[j - 1] + COST, SUB
        if cur[j] > cost:
            cur[j] = cost
            if track:
                ops[j] = op
        cost = prev[j] + COST
        if cur[j] > cost:
            cur[j] = cost
            if track:
                ops[j] = DEL
        cost = cur[j - 1] + COST
        if cur[j] > cost:
            cur[j] = cost
            if track:
                ops[j] = INS


@njit(cache=True)
def _full_matrix(hyp, ref, dist, ops) -> int:
    """Edit distance of ``hyp`` to ``ref`` with every row kept (for the trace)."""
    n_h, n_r = len(hyp), len(ref)
    ratio = n_r / n_h if n_h else 1.0
    width = _beam_width(ratio)
    for j in range(n_r + 1):
        dist[0, j] = j * COST
        ops[0, j] = INS
    for i in range(1, n_h + 1):
        low, high = _band(i, n_h, n_r, ratio, width)
        _row(hyp[i - 1], ref, dist[i - 1], dist[i], ops[i], low, high, True)
    return dist[n_h, n_r]


@njit(cache=True)
def _backward_matrix(hyp, ref, back) -> None:
    """``back[i, j]``: edit distance of ``hyp[i:]`` to ``ref[j:]`` along paths inside the band of
    :func:`_full_matrix` (INF where none is), so that ``dist[i, j] + back[i, j]`` is the cost of the
    best full path through cell (i, j)."""
    n_h, n_r = len(hyp), len(ref)
    ratio = n_r / n_h if n_h else 1.0
    width = _beam_width(ratio)
    for i in range(n_h, -1, -1):
        if i == 0:
            low, high = 0, n_r + 1  # _full_matrix fills all of row 0
        else:
            low, high = _band(i, n_h, n_r, ratio, width)
        for j in range(n_r + 1):
            back[i, j] = INF
        for j in range(high - 1, low - 1, -1):
            if i == n_h and j == n_r:
                back[i, j] = 0
                continue
            best = INF
            if j + 1 < high and back[i, j + 1] < INF:  # insertion: ref[j] without a hypothesis word
                best = back[i, j + 1] + COST
            if i < n_h:
                if back[i + 1, j] < INF and back[i + 1, j] + COST < best:  # deletion of hyp[i]
                    best = back[i + 1, j] + COST
                if j < n_r and back[i + 1, j + 1] < INF:  # match or substitution
                    cost = back[i + 1, j + 1] + (0 if hyp[i] == ref[j] else COST)
                    if cost < best:
                        best = cost
            back[i, j] = best


@njit(cache=True)
def _distance_between(hyp, ref, base, back, start: int, end: int, prev, cur) -> int:
    """Edit distance of ``hyp``, which differs from the hypothesis behind ``base`` (forward rows) and
    ``back`` (backward rows) only in words [start, end): rows start + 1 .. end forward, then the
    least forward + backward cost over row ``end``."""
    n_h, n_r = len(hyp), len(ref)
    ratio = n_r / n_h if n_h else 1.0
    width = _beam_width(ratio)
    prev[:] = base[start]
    dummy = np.empty(0, dtype=np.int8)
    for i in range(start + 1, end + 1):
        low, high = _band(i, n_h, n_r, ratio, width)
        _row(hyp[i - 1], ref, prev, cur, dummy, low, high, False)
        prev, cur = cur, prev
    best = INF
    for j in range(n_r + 1):
        if prev[j] < INF and back[end, j] < INF and prev[j] + back[end, j] < best:
            best = prev[j] + back[end, j]
    return best


@njit(cache=True)
def _alignment(ops, n_h: int, n_r: int, align, ref_err, hyp_err) -> None:
    """Read the trace from the matrix of operations and turn it into sacrebleu's alignment.

    sacrebleu flips insertions and deletions before reading the trace (it rewrites the reference
    into the hypothesis); ``align[r]`` is the hypothesis position of reference word r (for a
    reference word without a hypothesis word, the last hypothesis position before it).
    """
    trace = np.empty(n_h + n_r, dtype=np.int8)
    length = 0
    i, j = n_h, n_r
    while i > 0 or j > 0:
        op = ops[i, j]
        trace[length] = op
        length += 1
        if op == NOP or op == SUB:
            i -= 1
            j -= 1
        elif op == INS:
            j -= 1
        elif op == DEL:
            i -= 1
        else:
            raise ValueError("TER: undefined edit operation on the trace")
    pos_hyp = pos_ref = -1
    for k in range(length - 1, -1, -1):
        op = trace[k]
        if op == NOP or op == SUB:
            pos_hyp += 1
            pos_ref += 1
            align[pos_ref] = pos_hyp
            err = 0 if op == NOP else 1
            hyp_err[pos_hyp] = err
            ref_err[pos_ref] = err
        elif op == DEL:  # flipped: a hypothesis word without a reference word
            pos_hyp += 1
            hyp_err[pos_hyp] = 1
        else:  # INS, flipped: a reference word without a hypothesis word
            pos_ref += 1
            align[pos_ref] = pos_hyp
            ref_err[pos_ref] = 1


@njit(cache=True)
def _copy(words, lo: int, hi: int, out, k: int) -> int:
    """words[lo:hi] into out from position k; the position after them."""
    for x in range(lo, hi):
        out[k] = words[x]
        k += 1
    return k


@njit(cache=True)
def _perform_shift(words, start: int, length: int, target: int, out) -> None:
    """``words`` with the block [start, start + length) moved to ``target`` (sacrebleu's three cases)."""
    n = len(words)
    end = start + length
    if target < start:
        spans = ((0, target), (start, end), (target, start), (end, n))
    elif target > end:
        spans = ((0, start), (end, target), (start, end), (target, n))
    else:  # within the shifted block: sacrebleu moves it right by target - start
        spans = ((0, start), (end, min(length + target, n)), (start, end), (length + target, n))
    k = 0
    for lo, hi in spans:
        k = _copy(words, lo, hi, out, k)


@njit(cache=True)
def _first_difference(a, b) -> int:
    for k in range(len(a)):
        if a[k] != b[k]:
            return k
    return len(a)


@njit(cache=True)
def _end_of_difference(a, b, first: int) -> int:
    """One past the last position where ``a`` and ``b`` differ (``first`` if they do not)."""
    for k in range(len(a) - 1, first - 1, -1):
        if a[k] != b[k]:
            return k + 1
    return first


@njit(cache=True)
def translation_edit_rate(hyp, ref) -> int:
    """Number of edits (shifts included) that turn ``hyp`` into ``ref`` (word-id arrays)."""
    n_h, n_r = len(hyp), len(ref)
    if n_r == 0:
        return n_h
    dist = np.empty((n_h + 1, n_r + 1), dtype=np.int64)
    back = np.empty((n_h + 1, n_r + 1), dtype=np.int64)
    ops = np.empty((n_h + 1, n_r + 1), dtype=np.int8)
    prev = np.empty(n_r + 1, dtype=np.int64)
    cur = np.empty(n_r + 1, dtype=np.int64)
    align = np.empty(n_r, dtype=np.int64)
    ref_err = np.zeros(n_r, dtype=np.int64)
    hyp_err = np.zeros(n_h, dtype=np.int64)
    words = hyp.copy()
    shifted = np.empty_like(words)
    best_words = np.empty_like(words)
    shifts = 0
    checked = 0
    while True:
        pre_score = _full_matrix(words, ref, dist, ops)
        _backward_matrix(words, ref, back)
        _alignment(ops, n_h, n_r, align, ref_err, hyp_err)
        found = False
        best_score = best_length = best_neg_start = best_neg_idx = 0
        stop = False
        for start_h in range(n_h):
            if stop:
                break
            for start_r in range(n_r):
                if stop:
                    break
                if abs(start_r - start_h) > MAX_SHIFT_DIST:
                    continue
                length = 0
                while words[start_h + length] == ref[start_r + length] and length < MAX_SHIFT_SIZE:
                    length += 1
                    # (start_h, start_r, length) is a candidate block, as _find_shifted_pairs yields it.
                    wrong = 0
                    for x in range(start_h, start_h + length):
                        wrong += hyp_err[x]
                    ref_wrong = 0
                    for x in range(start_r, start_r + length):
                        ref_wrong += ref_err[x]
                    inside = start_h <= align[start_r] < start_h + length
                    if wrong != 0 and ref_wrong != 0 and not inside:
                        prev_idx = -1
                        for offset in range(-1, length):
                            if start_r + offset == -1:
                                idx = 0
                            elif start_r + offset < n_r:
                                idx = align[start_r + offset] + 1
                            else:
                                break
                            if idx == prev_idx:
                                continue
                            prev_idx = idx
                            _perform_shift(words, start_h, length, idx, shifted)
                            first = _first_difference(words, shifted)
                            end = _end_of_difference(words, shifted, first)
                            score = pre_score - _distance_between(shifted, ref, dist, back, first, end, prev, cur)
                            checked += 1
                            better = not found
                            if not better:
                                if score != best_score:
                                    better = score > best_score
                                elif length != best_length:
                                    better = length > best_length
                                elif -start_h != best_neg_start:
                                    better = -start_h > best_neg_start
                                else:
                                    better = -idx > best_neg_idx
                            if better:
                                found = True
                                best_score, best_length, best_neg_start, best_neg_idx = score, length, -start_h, -idx
                                best_words[:] = shifted
                        if checked >= MAX_SHIFT_CANDIDATES:
                            stop = True
                    if stop:
                        break
                    if n_h == start_h + length or n_r == start_r + length:
                        break
        if checked >= MAX_SHIFT_CANDIDATES:
            break
        if not found or best_score <= 0:
            break
        shifts += 1
        words[:] = best_words
    return shifts + _full_matrix(words, ref, dist, ops)


@njit(cache=True)
def corpus_edits(hyp_ids, hyp_offsets, ref_ids, ref_offsets):
    """Edits of every (hypothesis, reference) pair k: words [offsets[k], offsets[k + 1]) of each side."""
    out = np.empty(len(hyp_offsets) - 1, dtype=np.int64)
    for k in range(len(out)):
        out[k] = translation_edit_rate(hyp_ids[hyp_offsets[k] : hyp_offsets[k + 1]],
                                       ref_ids[ref_offsets[k] : ref_offsets[k + 1]])
    return out
