"""Meteor 1.5's paraphrase candidates for a whole corpus, compiled with numba.

The same candidates, in the same order, as :func:`mtmeta.metrics.meteor.aligner.paraphrase_matcher`
(the readable reference; tests compare both on real tables), on integer word ids of a
:class:`mtmeta.metrics.meteor.phrases.PhraseArrays` table:

1. entries looked up from the reference: at each reference position, phrases of growing length
   (stopping once no table phrase starts with the words so far), each phrase's paraphrases in table
   order, and every occurrence of a paraphrase in the hypothesis, left to right;
2. then the same from the hypothesis, with occurrences in the reference.

A phrase is found through a 64-bit hash of its word ids in an open-addressing table (linear
probing); a found phrase's words are compared, so a hash collision can never make a false match.

The entries of step 1 depend on the reference alone: :func:`corpus_entries` lists them once per
test set and every system's hypotheses reuse them. The helpers that probe the tables are inlined
(an array passed to a compiled function costs two atomic reference-count updates in numba).
"""

from __future__ import annotations

import numpy as np
from numba import njit

MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # odd: the hash of a word sequence, h = h * M + (id + 1)


@njit(cache=True, inline="always")
def hash_step(h, word):
    """The hash of a phrase extended by one word (word ids >= 0); the empty phrase's hash is 0."""
    return h * MULTIPLIER + np.uint64(word + 1)


@njit(cache=True)
def _slot(h, size: int):
    """A hash's home slot in a table of ``size`` slots (a power of two): the top bits of h * M
    (Fibonacci hashing), which every bit of h reaches."""
    if size == 1:
        return np.uint64(0)
    bits = 0
    while (1 << bits) < size:
        bits += 1
    return (h * MULTIPLIER) >> np.uint64(64 - bits)


@njit(cache=True)
def fill_slots(hashes, size: int):
    """An open-addressing table of ``size`` slots (a power of two) holding the index of each hash
    (linear probing from its home slot; -1: empty). Hashes must be distinct."""
    slots = np.full(size, -1, dtype=np.int64)
    mask = np.uint64(size - 1)
    for k in range(len(hashes)):
        s = _slot(hashes[k], size)
        while slots[s] >= 0:
            s = (s + np.uint64(1)) & mask
        slots[s] = k
    return slots


@njit(cache=True)
def _shift(size: int):
    """64 - log2(size) for a table of ``size`` slots (a power of two above 1): home slots are the top
    bits of h * M, as :func:`_slot` computes them."""
    bits = 0
    while (1 << bits) < size:
        bits += 1
    return np.uint64(64 - bits)


@njit(cache=True, inline="always")
def _find(h, slots, hashes, shift) -> int:
    """Index of hash ``h`` in the slot table of ``hashes`` (``shift``: :func:`_shift` of its size),
    or -1."""
    mask = np.uint64(len(slots) - 1)
    s = (h * MULTIPLIER) >> shift if len(slots) > 1 else np.uint64(0)
    while True:
        k = slots[s]
        if k < 0:
            return -1
        if hashes[k] == h:
            return k
        s = (s + np.uint64(1)) & mask


@njit(cache=True, inline="always")
def _same(words, start: int, length: int, phrase_ptr, phrase_words, phrase: int) -> bool:
    """Whether ``words[start:start + length]`` is table phrase ``phrase``."""
    a = phrase_ptr[phrase]
    if phrase_ptr[phrase + 1] - a != length:
        return False
    for x in range(length):
        if words[start + x] != phrase_words[a + x]:
            return False
    return True


@njit(cache=True, inline="always")
def _rest(words, start: int, phrase_words, a: int, length: int) -> bool:
    """Whether ``words[start + 1:start + length]`` are the words after the first of the phrase whose
    words begin at ``phrase_words[a]`` (its length: ``length``)."""
    for x in range(1, length):
        if words[start + x] != phrase_words[a + x]:
            return False
    return True


@njit(cache=True)
def _lookups(out, n: int, words, s0: int, n_s: int, t0: int, n_t: int, target_mark, stamp: int, max_length: int,
             is_first, phrase_ptr, phrase_words, key_phrase, key_hash, key_slots, key_shift, key_ptr, key_paraphrases,
             prefix_hashes, prefix_slots, prefix_shift) -> int:
    """Candidates of the phrases of the hypothesis ``words[s0:s0 + n_s]`` whose paraphrases occur in
    the reference ``words[t0:t0 + n_t]`` (see the module), written to ``out`` from row ``n``; the new
    row count. Rows past ``len(out)`` are counted, not written: then call again with a larger array."""
    size = len(out)
    for start in range(n_s):
        first = words[s0 + start]
        if first < 0 or not is_first[first]:
            continue
        h = np.uint64(0)
        for length in range(1, min(max_length, n_s - start) + 1):
            word = words[s0 + start + length - 1]
            if word < 0:  # a word outside the table: no phrase goes on from here
                break
            h = hash_step(h, word)
            key = _find(h, key_slots, key_hash, key_shift)
            if key >= 0 and _same(words, s0 + start, length, phrase_ptr, phrase_words, key_phrase[key]):
                for e in range(key_ptr[key], key_ptr[key + 1]):
                    p = key_paraphrases[e]
                    a, p_len = phrase_ptr[p], phrase_ptr[p + 1] - phrase_ptr[p]
                    head = phrase_words[a]
                    if target_mark[head] != stamp:  # its first word is not in the target
                        continue
                    for at in range(n_t - p_len + 1):
                        if words[t0 + at] == head and _rest(words, t0 + at, phrase_words, a, p_len):
                            if n < size:  # (ref start, ref length, hyp start, hyp length)
                                out[n, 0], out[n, 1], out[n, 2], out[n, 3] = at, p_len, start, length
                            n += 1
            if _find(h, prefix_slots, prefix_hashes, prefix_shift) < 0:  # no longer phrase starts so
                break
    return n


@njit(cache=True)
def corpus_entries(ref_ids, ref_off, max_length, is_first, phrase_ptr, phrase_words, key_phrase, key_hash, key_slots,
                   key_ptr, key_paraphrases, prefix_hashes, prefix_slots):
    """The table entries looked up from each reference, in the matcher's order: rows (ref start, ref
    length, paraphrase, its first word, its length), those of reference k ``out[off[k]:off[k + 1]]``.
    They depend on the reference alone: computed once, they serve every system's hypotheses."""
    n_refs = len(ref_off) - 1
    off = np.zeros(n_refs + 1, dtype=np.int64)
    out = np.empty((4096, 5), dtype=np.int64)
    n = 0
    key_shift, prefix_shift = _shift(len(key_slots)), _shift(len(prefix_slots))
    for k in range(n_refs):
        r0, n_r = ref_off[k], ref_off[k + 1] - ref_off[k]
        for start in range(n_r if max_length > 0 else 0):
            first = ref_ids[r0 + start]
            if first < 0 or not is_first[first]:
                continue
            h = np.uint64(0)
            for length in range(1, min(max_length, n_r - start) + 1):
                word = ref_ids[r0 + start + length - 1]
                if word < 0:  # a word outside the table: no phrase goes on from here
                    break
                h = hash_step(h, word)
                key = _find(h, key_slots, key_hash, key_shift)
                if key >= 0 and _same(ref_ids, r0 + start, length, phrase_ptr, phrase_words, key_phrase[key]):
                    if n + key_ptr[key + 1] - key_ptr[key] > len(out):
                        grown = np.empty((2 * (n + key_ptr[key + 1] - key_ptr[key]), 5), dtype=np.int64)
                        grown[:n] = out[:n]
                        out = grown
                    for e in range(key_ptr[key], key_ptr[key + 1]):
                        p = key_paraphrases[e]
                        out[n, 0], out[n, 1], out[n, 2] = start, length, p
                        out[n, 3], out[n, 4] = phrase_words[phrase_ptr[p]], phrase_ptr[p + 1] - phrase_ptr[p]
                        n += 1
                if _find(h, prefix_slots, prefix_hashes, prefix_shift) < 0:  # no longer phrase starts so
                    break
        off[k + 1] = n
    return out[:n].copy(), off


@njit(cache=True)
def _found(out, n: int, entries, e0: int, e1: int, words, t0: int, n_t: int, target_mark, stamp: int, phrase_ptr,
           phrase_words) -> int:
    """Candidates of the reference's entries ``entries[e0:e1]`` whose paraphrases occur in the
    hypothesis ``words[t0:t0 + n_t]``, written to ``out`` from row ``n`` as :func:`_lookups` does."""
    size = len(out)
    for e in range(e0, e1):
        head = entries[e, 3]
        if target_mark[head] != stamp:  # its first word is not in the hypothesis
            continue
        p_len = entries[e, 4]
        a = phrase_ptr[entries[e, 2]]
        for at in range(n_t - p_len + 1):
            if words[t0 + at] == head and _rest(words, t0 + at, phrase_words, a, p_len):
                if n < size:  # (ref start, ref length, hyp start, hyp length)
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = entries[e, 0], entries[e, 1], at, p_len
                n += 1
    return n


@njit(cache=True)
def corpus_candidates(hyp_ids, hyp_off, ref_ids, ref_off, skip, entries, entry_off, max_length, is_first, phrase_ptr,
                      phrase_words, key_phrase, key_hash, key_slots, key_ptr, key_paraphrases, prefix_hashes,
                      prefix_slots):
    """Paraphrase candidates (ref start, ref length, hyp start, hyp length) of every pair with
    ``skip[k]`` false, in the paraphrase matcher's order; rows of pair k are ``out[off[k]:off[k + 1]]``.
    Word ids are the table's (-1: a word the table does not have); ``entries``/``entry_off``: the
    references' entries (:func:`corpus_entries`)."""
    n_pairs = len(hyp_off) - 1
    off = np.zeros(n_pairs + 1, dtype=np.int64)
    out = np.empty((1024, 4), dtype=np.int64)
    n = 0
    mark = np.zeros(len(is_first), dtype=np.int64)  # mark[w] == stamp: word w is in the current target
    key_shift, prefix_shift = _shift(len(key_slots)), _shift(len(prefix_slots))
    words = np.empty(256, dtype=np.int64)  # a pair's hypothesis, then its reference
    for k in range(n_pairs):
        if not skip[k] and max_length > 0:
            n_h, n_r = hyp_off[k + 1] - hyp_off[k], ref_off[k + 1] - ref_off[k]
            if len(words) < n_h + n_r:
                words = np.empty(2 * (n_h + n_r), dtype=np.int64)
            words[:n_h] = hyp_ids[hyp_off[k] : hyp_off[k + 1]]
            words[n_h : n_h + n_r] = ref_ids[ref_off[k] : ref_off[k + 1]]
            while True:  # again with a larger output array if the pair's rows did not fit
                # Entries looked up from the reference, found in the hypothesis ...
                for x in range(n_h):
                    if words[x] >= 0:
                        mark[words[x]] = 2 * k + 1
                m = _found(out, n, entries, entry_off[k], entry_off[k + 1], words, 0, n_h, mark, 2 * k + 1,
                           phrase_ptr, phrase_words)
                # ... then from the hypothesis, found in the reference.
                for x in range(n_h, n_h + n_r):
                    if words[x] >= 0:
                        mark[words[x]] = 2 * k + 2
                m = _lookups(out, m, words, 0, n_h, n_h, n_r, mark, 2 * k + 2, max_length, is_first, phrase_ptr,
                             phrase_words, key_phrase, key_hash, key_slots, key_shift, key_ptr, key_paraphrases,
                             prefix_hashes, prefix_slots, prefix_shift)
                if m <= len(out):
                    break
                grown = np.empty((2 * m, 4), dtype=np.int64)
                grown[:n] = out[:n]
                out = grown
            n = m
        off[k + 1] = n
    return out[:n].copy(), off
