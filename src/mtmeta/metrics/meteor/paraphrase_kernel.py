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
"""

from __future__ import annotations

import numpy as np
from numba import njit

MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # odd: the hash of a word sequence, h = h * M + (id + 1)


@njit(cache=True)
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
def _find(h, slots, hashes) -> int:
    """Index of hash ``h`` in the slot table of ``hashes``, or -1."""
    mask = np.uint64(len(slots) - 1)
    s = _slot(h, len(slots))
    while True:
        k = slots[s]
        if k < 0:
            return -1
        if hashes[k] == h:
            return k
        s = (s + np.uint64(1)) & mask


@njit(cache=True)
def _same(words, start: int, length: int, phrase_ptr, phrase_words, phrase: int) -> bool:
    """Whether ``words[start:start + length]`` is table phrase ``phrase``."""
    a = phrase_ptr[phrase]
    if phrase_ptr[phrase + 1] - a != length:
        return False
    for x in range(length):
        if words[start + x] != phrase_words[a + x]:
            return False
    return True


@njit(cache=True)
def _emit(out, n: int, a: int, b: int, c: int, d: int):
    """Append row (a, b, c, d) to ``out`` (growing it when full); the new array and row count."""
    if n == len(out):
        grown = np.empty((2 * len(out) + 16, 4), dtype=np.int64)
        grown[:n] = out[:n]
        out = grown
    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = a, b, c, d
    return out, n + 1


@njit(cache=True)
def _lookups(out, n: int, source, target, target_mark, stamp: int, from_reference: bool, max_length: int, is_first,
             phrase_ptr, phrase_words, key_phrase, key_hash, key_slots, key_ptr, key_paraphrases, prefix_hashes,
             prefix_slots):
    """Candidates of the phrases of ``source`` whose paraphrases occur in ``target`` (see the module)."""
    n_s, n_t = len(source), len(target)
    for start in range(n_s):
        if source[start] < 0 or not is_first[source[start]]:
            continue
        h = np.uint64(0)
        for length in range(1, min(max_length, n_s - start) + 1):
            word = source[start + length - 1]
            if word < 0:  # a word outside the table: no phrase goes on from here
                break
            h = hash_step(h, word)
            key = _find(h, key_slots, key_hash)
            if key >= 0 and _same(source, start, length, phrase_ptr, phrase_words, key_phrase[key]):
                for e in range(key_ptr[key], key_ptr[key + 1]):
                    p = key_paraphrases[e]
                    a, p_len = phrase_ptr[p], phrase_ptr[p + 1] - phrase_ptr[p]
                    if target_mark[phrase_words[a]] != stamp:  # its first word is not in the target
                        continue
                    for at in range(n_t - p_len + 1):
                        if _same(target, at, p_len, phrase_ptr, phrase_words, p):
                            if from_reference:  # (ref start, ref length, hyp start, hyp length)
                                out, n = _emit(out, n, start, length, at, p_len)
                            else:
                                out, n = _emit(out, n, at, p_len, start, length)
            if _find(h, prefix_slots, prefix_hashes) < 0:  # no longer phrase starts so
                break
    return out, n


@njit(cache=True)
def corpus_candidates(hyp_ids, hyp_off, ref_ids, ref_off, skip, max_length, is_first, phrase_ptr, phrase_words,
                      key_phrase, key_hash, key_slots, key_ptr, key_paraphrases, prefix_hashes, prefix_slots):
    """Paraphrase candidates (ref start, ref length, hyp start, hyp length) of every pair with
    ``skip[k]`` false, in the paraphrase matcher's order; rows of pair k are ``out[off[k]:off[k + 1]]``.
    Word ids are the table's (-1: a word the table does not have)."""
    n_pairs = len(hyp_off) - 1
    off = np.zeros(n_pairs + 1, dtype=np.int64)
    out = np.empty((1024, 4), dtype=np.int64)
    n = 0
    vocabulary = len(is_first)
    hyp_mark = np.zeros(vocabulary, dtype=np.int64)  # hyp_mark[w] == k + 1: word w is in pair k's hypothesis
    ref_mark = np.zeros(vocabulary, dtype=np.int64)
    for k in range(n_pairs):
        if not skip[k] and max_length > 0:
            hyp = hyp_ids[hyp_off[k] : hyp_off[k + 1]]
            ref = ref_ids[ref_off[k] : ref_off[k + 1]]
            for w in hyp:
                if w >= 0:
                    hyp_mark[w] = k + 1
            for w in ref:
                if w >= 0:
                    ref_mark[w] = k + 1
            out, n = _lookups(out, n, ref, hyp, hyp_mark, k + 1, True, max_length, is_first, phrase_ptr, phrase_words,
                              key_phrase, key_hash, key_slots, key_ptr, key_paraphrases, prefix_hashes, prefix_slots)
            out, n = _lookups(out, n, hyp, ref, ref_mark, k + 1, False, max_length, is_first, phrase_ptr,
                              phrase_words, key_phrase, key_hash, key_slots, key_ptr, key_paraphrases, prefix_hashes,
                              prefix_slots)
        off[k + 1] = n
    return out[:n].copy(), off
