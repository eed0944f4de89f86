"""The compiled part of :mod:`mtmeta.metrics.ngrams`: clipped n-gram matches of many text pairs.

Every text is an array of symbols 1..A (0 pads its end), and:

- each start position gets one key, the next ``order`` symbols packed into ``bits`` bits each (the
  first symbol highest); the key is injective, and a position's n-gram key for a smaller n is the key
  shifted right by ``bits * (order - n)``, a monotone map, so one sort per text orders its n-grams of
  every order; an n-gram that runs past the end has the pad as its last symbol and is skipped;
- per hypothesis-reference pair and order, a merge of the two sorted lists counts the multiset
  intersection, ``sum(min(hyp count, ref count))`` over the hypothesis's n-grams.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def same_ngram(values, a: int, b: int, n: int) -> bool:
    """Whether the n symbols from position a of ``values`` equal those from position b."""
    for x in range(n):
        if values[a + x] != values[b + x]:
            return False
    return True


@njit(cache=True)
def sorted_keys(symbols: np.ndarray, offsets: np.ndarray, order: int, bits: int) -> np.ndarray:
    """Each text's start-position keys (``order`` symbols, pad-filled), sorted within the text."""
    keys = np.empty(symbols.size, dtype=np.int64)
    for t in range(offsets.size - 1):
        start, end = offsets[t], offsets[t + 1]
        for j in range(start, end):
            key = 0
            for i in range(order):
                key = (key << bits) | (symbols[j + i] if j + i < end else 0)
            keys[j] = key
        keys[start:end].sort()
    return keys


@njit(cache=True)
def _intersection(hyp: np.ndarray, ref: np.ndarray, shift: int, mask: int) -> int:
    """Multiset intersection of the n-grams (keys >> shift, without a pad as last symbol) of two sorted lists."""
    i = j = common = 0
    while True:
        while i < hyp.size and (hyp[i] >> shift) & mask == 0:
            i += 1
        while j < ref.size and (ref[j] >> shift) & mask == 0:
            j += 1
        if i == hyp.size or j == ref.size:
            return common
        a, b = hyp[i] >> shift, ref[j] >> shift
        if a == b:
            common += 1
            i += 1
            j += 1
        elif a < b:
            i += 1
        else:
            j += 1


@njit(cache=True)
def pair_matches(keys: np.ndarray, offsets: np.ndarray, hyp_text: np.ndarray, ref_text: np.ndarray,
                  order: int, bits: int) -> np.ndarray:
    out = np.zeros((hyp_text.size, order), dtype=np.int64)
    mask = (1 << bits) - 1
    for p in range(hyp_text.size):
        hyp = keys[offsets[hyp_text[p]]:offsets[hyp_text[p] + 1]]
        ref = keys[offsets[ref_text[p]]:offsets[ref_text[p] + 1]]
        for n in range(1, min(order, hyp.size, ref.size) + 1):
            out[p, n - 1] = _intersection(hyp, ref, bits * (order - n), mask)
    return out
