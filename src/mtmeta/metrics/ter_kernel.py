"""TER's shift search and beam edit distance, compiled with numba (or run by Python on lists, as
:func:`mtmeta.metrics.kernels.plain` loads it for ``mtmeta score``: numpy only allocates here, and rows
are passed as offsets into their arrays, never as slices).

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

Memory and time are linear in the length of a pair. sacrebleu (and an earlier version of this kernel)
kept whole (|hyp| + 1) x (|ref| + 1) matrices although the beam never leaves its band: 6.9 GB for a
20,000-word line, a MemoryError for a 1 MB one. Here each row keeps only its band (:func:`_bands`: the
first and last rows whole, so about |ref| + 2 * width * |hyp| cells, 32-bit), a shift candidate
rewrites and compares only the span its block moves over (:func:`_shift_into`), and the reference
start positions tried for a block at hypothesis position i are the 2 * MAX_SHIFT_DIST + 1 around i,
visited in sacrebleu's order, instead of a scan of the whole reference. A shift round is then linear
in the length, and a round that goes on has tried a candidate, so there are at most
MAX_SHIFT_CANDIDATES rounds (a 1 MB line: a few seconds and about 150 MB).
"""

from __future__ import annotations

import math

import numpy as np

from mtmeta.metrics.kernels import njit

COST = 1  # insertion, deletion, substitution and shift all cost one edit
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
INF = 2**30  # above any distance: the matrices hold 32-bit cells, INF plus a few edits still fits
MAX_WORDS = INF - 1  # hypothesis plus reference words of one pair, so that no distance reaches INF

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
def _bands(n_h: int, n_r: int):
    """Where each row of the (n_h + 1) x (n_r + 1) distance matrix keeps its cells: row i holds columns
    [lo[i], hi[i]) (the beam; rows 0 and n_h whole) at flat positions at[i] .. at[i + 1] - 1. A cell
    outside its row's band is never reached (sacrebleu leaves it infinite), so it is not stored: the
    matrix takes about n_r + 2 * width * n_h cells instead of (n_h + 1) * (n_r + 1)."""
    ratio = n_r / n_h if n_h else 1.0
    width = _beam_width(ratio)
    lo = np.empty(n_h + 1, dtype=np.int64)
    hi = np.empty(n_h + 1, dtype=np.int64)
    at = np.empty(n_h + 2, dtype=np.int64)
    lo[0], hi[0], at[0], at[1] = 0, n_r + 1, 0, n_r + 1
    for i in range(1, n_h + 1):
        low, high = _band(i, n_h, n_r, ratio, width)
        lo[i], hi[i] = low, max(low, high)
        at[i + 1] = at[i] + hi[i] - lo[i]
    return lo, hi, at


@njit(cache=True)
def _cell(flat, lo, hi, at, i: int, j: int):
    """Cell (i, j) of a banded matrix (INF outside row i's band)."""
    if lo[i] <= j < hi[i]:
        return flat[at[i] + j - lo[i]]
    return INF


@njit(cache=True)
def _row(hyp_word: int, ref, prev, prev_at: int, prev_lo: int, prev_hi: int, cur, cur_at: int, low: int, high: int,
         ops, track: bool) -> None:
    """One row of the edit-distance matrix within its band [low, high): ``cur[cur_at + j - low]`` (and
    ``ops`` at the same place) from the row before (``prev[prev_at + j - prev_lo]`` for j in
    [prev_lo, prev_hi), INF elsewhere). Rows are read and written at offsets, not as slices: a slice of
    a Python list is a copy, and :func:`mtmeta.metrics.kernels.plain` runs this code on lists."""
    prev_at -= prev_lo
    cur_at -= low
    for j in range(low, high):
        up = prev[prev_at + j] if prev_lo <= j < prev_hi else INF
        if j == 0:
            cur[cur_at] = up + COST
            if track:
                ops[cur_at] = DEL
            continue
        diagonal = prev[prev_at + j - 1] if prev_lo <= j - 1 < prev_hi else INF
        best, op = INF, UNDEF
        if hyp_word == ref[j - 1]:
            cost, kind = diagonal, NOP
        else:
            cost, kind = diagonal + COST, SUB
        if best > cost:
            best, op = cost, kind
        cost = up + COST
        if best > cost:
            best, op = cost, DEL
        if j > low:  # the cell to the left is in the band (INF otherwise, which never wins)
            cost = cur[cur_at + j - 1] + COST
            if best > cost:
                best, op = cost, INS
        cur[cur_at + j] = best
        if track:
            ops[cur_at + j] = op


@njit(cache=True)
def _full_matrix(hyp, ref, lo, hi, at, dist, ops) -> int:
    """Edit distance of ``hyp`` to ``ref`` with every row's band kept (for the trace)."""
    n_h, n_r = len(hyp), len(ref)
    for j in range(n_r + 1):
        dist[j] = j * COST
        ops[j] = INS
    for i in range(1, n_h + 1):
        _row(hyp[i - 1], ref, dist, at[i - 1], lo[i - 1], hi[i - 1], dist, at[i], lo[i], hi[i], ops, True)
    return _cell(dist, lo, hi, at, n_h, n_r)


@njit(cache=True)
def _backward_matrix(hyp, ref, lo, hi, at, back) -> None:
    """``back[i, j]``: edit distance of ``hyp[i:]`` to ``ref[j:]`` along paths inside the band of
    :func:`_full_matrix` (INF where none is), so that ``dist[i, j] + back[i, j]`` is the cost of the
    best full path through cell (i, j). The same bands (row 0 whole, as _full_matrix fills it)."""
    n_h, n_r = len(hyp), len(ref)
    for i in range(n_h, -1, -1):
        low, high, base = lo[i], hi[i], at[i]
        # the row below (i + 1), read in place (a call per cell would cost more than the cell)
        below_lo, below_hi, below_base = (lo[i + 1], hi[i + 1], at[i + 1]) if i < n_h else (0, 0, 0)
        for j in range(high - 1, low - 1, -1):
            if i == n_h and j == n_r:
                back[base + j - low] = 0
                continue
            best = INF
            if j + 1 < high and back[base + j + 1 - low] < INF:  # insertion: ref[j] without a hypothesis word
                best = back[base + j + 1 - low] + COST
            if i < n_h:
                below = back[below_base + j - below_lo] if below_lo <= j < below_hi else INF
                if below < INF and below + COST < best:  # deletion of hyp[i]
                    best = below + COST
                if j < n_r:  # match or substitution
                    diagonal = back[below_base + j + 1 - below_lo] if below_lo <= j + 1 < below_hi else INF
                    if diagonal < INF:
                        cost = diagonal + (0 if hyp[i] == ref[j] else COST)
                        if cost < best:
                            best = cost
            back[base + j - low] = best


@njit(cache=True)
def _distance_between(hyp, ref, lo, hi, at, base, back, start: int, end: int, prev, cur) -> int:
    """Edit distance of ``hyp``, which differs from the hypothesis behind ``base`` (forward rows) and
    ``back`` (backward rows) only in words [start, end): rows start + 1 .. end forward, then the
    least forward + backward cost over row ``end``'s band (INF outside it)."""
    prev[: hi[start] - lo[start]] = base[at[start] : at[start + 1]]
    dummy = np.empty(0, dtype=np.int8)
    for i in range(start + 1, end + 1):
        _row(hyp[i - 1], ref, prev, 0, lo[i - 1], hi[i - 1], cur, 0, lo[i], hi[i], dummy, False)
        prev, cur = cur, prev
    best = INF
    for j in range(lo[end], hi[end]):
        forward, backward = prev[j - lo[end]], back[at[end] + j - lo[end]]
        if forward < INF and backward < INF and forward + backward < best:
            best = forward + backward
    return best


@njit(cache=True)
def _alignment(ops, lo, hi, at, n_h: int, n_r: int, align, ref_err, hyp_err) -> None:
    """Read the trace from the matrix of operations and turn it into sacrebleu's alignment.

    sacrebleu flips insertions and deletions before reading the trace (it rewrites the reference
    into the hypothesis); ``align[r]`` is the hypothesis position of reference word r (for a
    reference word without a hypothesis word, the last hypothesis position before it).
    """
    trace = np.empty(n_h + n_r, dtype=np.int8)
    length = 0
    i, j = n_h, n_r
    while i > 0 or j > 0:
        op = ops[at[i] + j - lo[i]] if lo[i] <= j < hi[i] else UNDEF
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
def _shift_into(words, start: int, length: int, target: int, out):
    """Write into ``out`` (equal to ``words``) ``words`` with the block [start, start + length) moved to
    ``target``, sacrebleu's three cases; only the part that moves is written, and its bounds returned
    (``out`` equals ``words`` outside them), so a candidate costs its span, not the line's length."""
    end = start + length
    if target < start:  # sacrebleu: words[:target] + block + words[target:start] + words[end:]
        _copy(words, target, start, out, _copy(words, start, end, out, target))
        return target, end
    if target > end:  # words[:start] + words[end:target] + block + words[target:]
        _copy(words, start, end, out, _copy(words, end, target, out, start))
        return start, target
    # within the block: words[:start] + words[end:length + target] + block + words[length + target:]
    stop = _copy(words, start, end, out, _copy(words, end, min(length + target, len(words)), out, start))
    return start, stop


@njit(cache=True)
def _first_difference(a, b, low: int, high: int) -> int:
    """The first position in [low, high) where ``a`` and ``b`` differ (they agree outside), or len(a)."""
    for k in range(low, high):
        if a[k] != b[k]:
            return k
    return len(a)


@njit(cache=True)
def _end_of_difference(a, b, first: int, high: int) -> int:
    """One past the last position before ``high`` where ``a`` and ``b`` differ (``first`` if they do not)."""
    for k in range(high - 1, first - 1, -1):
        if a[k] != b[k]:
            return k + 1
    return first


@njit(cache=True)
def translation_edit_rate(hyp, ref) -> int:
    """Number of edits (shifts included) that turn ``hyp`` into ``ref`` (word-id arrays), in memory
    linear in their lengths (the banded matrices of :func:`_bands`)."""
    n_h, n_r = len(hyp), len(ref)
    if n_r == 0:
        return n_h
    lo, hi, at = _bands(n_h, n_r)
    if n_h + n_r > MAX_WORDS:
        raise ValueError("TER: a pair longer than ter_kernel.MAX_WORDS words in all")
    dist = np.empty(at[n_h + 1], dtype=np.int32)
    back = np.empty(at[n_h + 1], dtype=np.int32)
    ops = np.empty(at[n_h + 1], dtype=np.int8)
    prev = np.empty(n_r + 1, dtype=np.int32)
    cur = np.empty(n_r + 1, dtype=np.int32)
    align = np.empty(n_r, dtype=np.int64)
    ref_err = np.zeros(n_r, dtype=np.int64)
    hyp_err = np.zeros(n_h, dtype=np.int64)
    words = hyp.copy()
    shifted = hyp.copy()  # a candidate's words: equal to ``words`` except where a shift is being tried
    shifts = 0
    checked = 0
    while True:
        pre_score = _full_matrix(words, ref, lo, hi, at, dist, ops)
        _backward_matrix(words, ref, lo, hi, at, back)
        _alignment(ops, lo, hi, at, n_h, n_r, align, ref_err, hyp_err)
        found = False
        best_score = best_length = best_neg_start = best_neg_idx = 0
        stop = False
        for start_h in range(n_h):
            if stop:
                break
            # sacrebleu visits every start_r and skips those more than MAX_SHIFT_DIST away: the same order
            for start_r in range(max(0, start_h - MAX_SHIFT_DIST), min(n_r, start_h + MAX_SHIFT_DIST + 1)):
                if stop:
                    break
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
                            low, high = _shift_into(words, start_h, length, idx, shifted)
                            first = _first_difference(words, shifted, low, high)
                            end = _end_of_difference(words, shifted, first, high)
                            score = pre_score - _distance_between(shifted, ref, lo, hi, at, dist, back, first, end,
                                                                  prev, cur)
                            shifted[low:high] = words[low:high]
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
        low, high = _shift_into(words, -best_neg_start, best_length, -best_neg_idx, shifted)
        words[low:high] = shifted[low:high]
    return shifts + _full_matrix(words, ref, lo, hi, at, dist, ops)


@njit(cache=True)
def corpus_edits(hyp_ids, hyp_offsets, ref_ids, ref_offsets):
    """Edits of every (hypothesis, reference) pair k: words [offsets[k], offsets[k + 1]) of each side."""
    out = np.empty(len(hyp_offsets) - 1, dtype=np.int64)
    for k in range(len(out)):
        out[k] = translation_edit_rate(hyp_ids[hyp_offsets[k] : hyp_offsets[k + 1]],
                                       ref_ids[ref_offsets[k] : ref_offsets[k + 1]])
    return out
