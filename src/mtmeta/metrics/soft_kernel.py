"""softBLEU's per-segment work for a whole corpus, compiled with numba.

Texts are word ids (``values[offsets[t]:offsets[t + 1]]`` is text t); a pair p is hypothesis text
``hyp_text[p]`` and reference text ``ref_text[p]``. The functions follow
:mod:`mtmeta.metrics.softbleu`'s readable code step by step (tests compare both):

- :func:`unmatched`: the n-grams left after clipped exact matching, as ``softbleu._unmatched`` leaves
  them: a hypothesis n-gram beyond its item's clipped count (in order), and on the reference side the
  first ``max(ref count - hyp count, 0)`` copies of each item, in reference order;
- :func:`unmatched_ids`: the same from n-gram ids, by counting (linear time; what softBLEU runs;
  :func:`unmatched` compares n-grams pairwise, the reference the tests hold it to);
- :func:`greedy_many`: ``assign_kernel.greedy_total`` of many credit matrices, with the generation
  method's neighbour condition and the floor applied first;
- :func:`phrase_credit`: the phrase method's credit for one order, with the greedy assignment.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mtmeta.metrics.assign_kernel import greedy_total
from mtmeta.metrics.ngram_kernel import same_ngram as _same


@njit(cache=True)
def _gram_count(offsets, texts, n: int) -> int:
    """The number of n-grams in the texts ``texts`` (one per pair; a text may repeat)."""
    total = 0
    for t in texts:
        total += max(offsets[t + 1] - offsets[t] - n + 1, 0)
    return total


@njit(cache=True)
def unmatched(values, offsets, hyp_text, ref_text, n: int):
    """Start positions (in ``values``) of each pair's unmatched hypothesis and reference n-grams:
    ``(hyp_starts, hyp_off, ref_starts, ref_off)``, pair p's at ``[off[p]:off[p + 1]]``."""
    n_pairs = len(hyp_text)
    hyp_off = np.zeros(n_pairs + 1, dtype=np.int64)
    ref_off = np.zeros(n_pairs + 1, dtype=np.int64)
    hyp_starts = np.empty(_gram_count(offsets, hyp_text, n), dtype=np.int64)
    ref_starts = np.empty(_gram_count(offsets, ref_text, n), dtype=np.int64)
    c_h = 0
    c_r = 0
    for p in range(n_pairs):
        h0, r0 = offsets[hyp_text[p]], offsets[ref_text[p]]
        n_h = max(offsets[hyp_text[p] + 1] - h0 - n + 1, 0)
        n_r = max(offsets[ref_text[p] + 1] - r0 - n + 1, 0)
        for i in range(n_h):  # left if its earlier copies in the hypothesis already use up the reference's
            before = 0
            for x in range(i):
                if _same(values, h0 + x, h0 + i, n):
                    before += 1
            in_ref = 0
            for y in range(n_r):
                if _same(values, r0 + y, h0 + i, n):
                    in_ref += 1
            if before >= in_ref:
                hyp_starts[c_h] = h0 + i
                c_h += 1
        for j in range(n_r):  # kept if fewer earlier reference copies than the reference count left over
            before = 0
            for y in range(j):
                if _same(values, r0 + y, r0 + j, n):
                    before += 1
            in_ref = before
            for y in range(j + 1, n_r):
                if _same(values, r0 + y, r0 + j, n):
                    in_ref += 1
            in_ref += 1
            in_hyp = 0
            for x in range(n_h):
                if _same(values, h0 + x, r0 + j, n):
                    in_hyp += 1
            if before < in_ref - in_hyp:
                ref_starts[c_r] = r0 + j
                c_r += 1
        hyp_off[p + 1] = c_h
        ref_off[p + 1] = c_r
    return hyp_starts[:c_h].copy(), hyp_off, ref_starts[:c_r].copy(), ref_off


@njit(cache=True)
def _neighbour_slot(neigh_ids, ref_word: int, hyp_word: int) -> int:
    """Where ``hyp_word`` is among ``ref_word``'s nearest neighbours, or -1."""
    for x in range(neigh_ids.shape[1]):
        if neigh_ids[ref_word, x] == hyp_word:
            return x
    return -1


@njit(cache=True)
def greedy_many(credit, credit_off, rows, columns, floor: float, generation: bool, hyp_words, hyp_off, ref_words,
                ref_off, neigh_ids):
    """Greedy totals of pair p's credit matrix ``credit[credit_off[p]:credit_off[p + 1]]`` (rows[p] x
    columns[p]; hypothesis words ``hyp_words[hyp_off[p]:...]``, reference words likewise). With
    ``generation``, an entry counts only if its hypothesis word is one of its reference word's
    neighbours; entries at or below ``floor`` count as 0."""
    n_pairs = len(rows)
    out = np.zeros(n_pairs)
    for p in range(n_pairs):
        if rows[p] == 0 or columns[p] == 0:
            continue
        matrix = credit[credit_off[p] : credit_off[p + 1]].copy().reshape((rows[p], columns[p]))
        for i in range(rows[p]):
            for j in range(columns[p]):
                value = matrix[i, j]
                if generation and _neighbour_slot(neigh_ids, ref_words[ref_off[p] + j], hyp_words[hyp_off[p] + i]) < 0:
                    value = 0.0
                matrix[i, j] = value if value > floor else 0.0
        out[p] = greedy_total(matrix)
    return out


@njit(cache=True)
def phrase_credit(values, hyp_starts, hyp_off, ref_starts, ref_off, n: int, floor: float, neigh_ids, neigh_sims):
    """The phrase method's greedy credit of each pair for order n: each unmatched hypothesis n-gram
    in order takes, among the unmatched reference n-grams still free that differ from it in exactly
    one word, the one whose word there is closest (the first on ties), if its neighbour cosine is
    above ``floor``; the credits summed in hypothesis order."""
    n_pairs = len(hyp_off) - 1
    out = np.zeros(n_pairs)
    for p in range(n_pairs):
        n_r = ref_off[p + 1] - ref_off[p]
        if n_r == 0:
            continue
        taken = np.zeros(n_r, dtype=np.bool_)
        total = 0.0
        for a in range(hyp_off[p], hyp_off[p + 1]):
            h = hyp_starts[a]
            best_j, best = -1, 0.0
            for j in range(n_r):
                if taken[j]:
                    continue
                r = ref_starts[ref_off[p] + j]
                position = -1
                for x in range(n):
                    if values[h + x] != values[r + x]:
                        if position >= 0:  # a second difference
                            position = -2
                            break
                        position = x
                if position < 0:
                    continue
                slot = _neighbour_slot(neigh_ids, values[r + position], values[h + position])
                similarity = neigh_sims[values[r + position], slot] if slot >= 0 else 0.0
                if similarity > floor and similarity > best:
                    best_j, best = j, similarity
            if best_j >= 0:
                total += best
                taken[best_j] = True
        out[p] = total
    return out


@njit(cache=True)
def unmatched_ids(grams, n_ids: int, offsets, hyp_text, ref_text, n: int):
    """:func:`unmatched` from n-gram ids: ``grams[i]`` numbers the n-gram at position i (equal ids for
    equal n-grams; ``n_ids`` bounds them; read only where a whole n-gram starts). The same output in
    time linear in the texts' lengths, by counting each pair's n-grams."""
    n_pairs = len(hyp_text)
    hyp_off = np.zeros(n_pairs + 1, dtype=np.int64)
    ref_off = np.zeros(n_pairs + 1, dtype=np.int64)
    hyp_starts = np.empty(_gram_count(offsets, hyp_text, n), dtype=np.int64)
    ref_starts = np.empty(_gram_count(offsets, ref_text, n), dtype=np.int64)
    in_ref = np.zeros(n_ids, dtype=np.int64)  # the pair's reference count of each n-gram
    in_hyp = np.zeros(n_ids, dtype=np.int64)  # hypothesis copies seen so far (then: its count)
    ref_seen = np.zeros(n_ids, dtype=np.int64)  # reference copies seen so far
    c_h = 0
    c_r = 0
    for p in range(n_pairs):
        h0, r0 = offsets[hyp_text[p]], offsets[ref_text[p]]
        n_h = max(offsets[hyp_text[p] + 1] - h0 - n + 1, 0)
        n_r = max(offsets[ref_text[p] + 1] - r0 - n + 1, 0)
        for y in range(n_r):
            in_ref[grams[r0 + y]] += 1
        for i in range(n_h):  # left if its earlier copies in the hypothesis already use up the reference's
            g = grams[h0 + i]
            if in_hyp[g] >= in_ref[g]:
                hyp_starts[c_h] = h0 + i
                c_h += 1
            in_hyp[g] += 1
        for j in range(n_r):  # kept if fewer earlier reference copies than the reference count left over
            g = grams[r0 + j]
            if ref_seen[g] < in_ref[g] - in_hyp[g]:
                ref_starts[c_r] = r0 + j
                c_r += 1
            ref_seen[g] += 1
        for y in range(n_r):
            in_ref[grams[r0 + y]] = 0
            ref_seen[grams[r0 + y]] = 0
        for i in range(n_h):
            in_hyp[grams[h0 + i]] = 0
        hyp_off[p + 1] = c_h
        ref_off[p + 1] = c_r
    return hyp_starts[:c_h].copy(), hyp_off, ref_starts[:c_r].copy(), ref_off
