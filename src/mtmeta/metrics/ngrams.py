"""Clipped n-gram matches for BLEU and chrF: texts as integer symbols, counted by a compiled kernel.

sacrebleu (2.6.0) counts, for each order n, the n-grams a hypothesis shares with its reference,
``sum(min(hyp count, ref count))`` over the hypothesis's n-grams, in Python ``Counter`` objects of
word tuples (BLEU) or substrings (chrF). Here every text becomes an array of symbols 1..A (words or
characters, numbered densely; 0 pads the end of a text), and :mod:`mtmeta.metrics.ngram_kernel`
counts the matches of every hypothesis-reference pair of a call at once.

``matches`` returns None when ``order`` symbols do not fit in 63 bits (more than 2**10 distinct
characters in one call for chrF's 6-grams); the metric then counts with sacrebleu.
``tests/unit/metrics/test_chrf.py``, ``tests/unit/metrics/test_bleu.py`` and ``tests/realdata/test_compiled_parity.py``
compare every count with sacrebleu's.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np


def symbol_bits(alphabet: int, order: int) -> int | None:
    """Bits per symbol for ``alphabet`` symbols and the pad, or None if ``order`` of them exceed 63 bits."""
    bits = max(alphabet.bit_length(), 1)
    return bits if bits * order <= 63 else None


def _offsets(lengths: list[int]) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


def _ranks(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Each value's rank among the distinct values present (1..A), and A."""
    present = np.zeros(int(values.max(initial=0)) + 1, dtype=np.int64)
    present[values] = 1
    rank = np.cumsum(present)
    return rank[values], int(rank[-1])


def character_symbols(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, int]:
    """The texts' characters end to end as symbols 1..A (a code point's rank among those present),
    the offset of each text's start (and the end), and A."""
    code_points = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    values, alphabet = _ranks(code_points)
    return values, _offsets([len(text) for text in texts]), alphabet


class WordIds:
    """Words numbered 1, 2, ... in order of first sight, kept across calls, so that a text's ids are
    computed once (a metric object keeps them per text: the systems of a test set share references)."""

    def __init__(self):
        self.vocabulary: dict[str, int] = Numbering(start=1)

    def __call__(self, words: Sequence[str]) -> np.ndarray:
        # dict lookups in C (map over __getitem__); only a new word runs Python (__missing__)
        return np.fromiter(map(self.vocabulary.__getitem__, words), dtype=np.int64, count=len(words))

    def many(self, texts: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """:meth:`__call__` of each text, in one pass over all their words: the same ids (new words
        numbered in the same order), and one array cut into views instead of an array per text."""
        lengths = [len(words) for words in texts]
        flat = np.fromiter(map(self.vocabulary.__getitem__, itertools.chain.from_iterable(texts)),
                           dtype=np.int64, count=sum(lengths))
        return np.split(flat, np.cumsum(lengths[:-1])) if texts else []


class Registering(dict):
    """A dict whose missing key is registered by ``register(key)`` (which stores and returns its
    value): lookups of known keys stay in C (``map(d.__getitem__, words)``)."""

    def __init__(self, register):
        super().__init__()
        self._register = register

    def __missing__(self, key):
        return self._register(key)


class Numbering(dict):
    """A dict that numbers a missing key ``start``, ``start + 1``, ... in order of first lookup
    (``map(d.__getitem__, keys)`` numbers a batch of keys in C, calling Python only for the new ones)."""

    def __init__(self, start: int = 0):
        super().__init__()
        self._start = start

    def __missing__(self, key):
        self[key] = number = len(self) + self._start
        return number


def packed_words(texts: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray, int]:
    """Word lists numbered as a fresh :class:`WordIds` numbers them (1, 2, ... in order of first
    sight) and packed as :func:`packed` packs them, in one pass: numbering text by text costs an
    array per text, and a corpus has hundreds of thousands."""
    import pandas as pd

    flat = [word for words in texts for word in words]
    codes, uniques = pd.factorize(np.asarray(flat, dtype=object), sort=False)  # 0, 1, ... by first sight
    return codes.astype(np.int64) + 1, _offsets([len(words) for words in texts]), len(uniques)


def packed(texts: Sequence[np.ndarray], alphabet: int) -> tuple[np.ndarray, np.ndarray, int]:
    """As ``character_symbols``, for texts already numbered 1..alphabet (e.g. by ``WordIds``)."""
    values = np.concatenate(texts) if len(texts) else np.zeros(0, dtype=np.int64)
    return values, _offsets([text.size for text in texts]), alphabet


def gram_ids(values: np.ndarray, offsets: np.ndarray, orders: int) -> list[tuple[np.ndarray, int]]:
    """For n = 1..orders: ``(ids, bound)``, where ``ids[i]`` numbers the n-gram starting at position i of
    the packed texts (equal ids for equal n-grams, all below ``bound``; 0 where no whole n-gram of its
    text starts), for softBLEU's unmatched n-grams and NIST's matches. An n-gram's id is the rank of the
    pair (its first n-1 words' id, its last word): time O(L log L) and memory linear in the texts' length L."""
    out = [(values, int(values.max(initial=0)) + 1)]
    ends = np.repeat(offsets[1:], np.diff(offsets))
    positions = np.arange(len(values))
    base = out[0][1]
    for n in range(2, orders + 1):
        valid = positions + n - 1 < ends
        ids = np.zeros(len(values), dtype=np.int64)
        keys = out[-1][0][valid] * base + values[positions[valid] + n - 1]  # below len(values) * base
        distinct, ids[valid] = np.unique(keys, return_inverse=True)
        out.append((ids, len(distinct)))
    return out


def matches(symbols: tuple[np.ndarray, np.ndarray, int], hyp_text: np.ndarray, ref_text: np.ndarray,
            order: int) -> np.ndarray | None:
    """``out[p, n - 1]``: the n-grams (n = 1..order) that text ``hyp_text[p]`` shares with text
    ``ref_text[p]``, clipped; ``symbols`` from ``character_symbols`` or ``packed``. None if
    the keys would not fit in 63 bits."""
    from mtmeta.metrics.ngram_kernel import pair_matches, sorted_keys  # numba: imported when first counted

    values, offsets, alphabet = symbols
    bits = symbol_bits(alphabet, order)
    if bits is None:  # numbered over more texts than these (a long-lived vocabulary): renumber
        values, alphabet = _ranks(values)
        bits = symbol_bits(alphabet, order)
    if bits is None:
        return None
    keys = sorted_keys(values, offsets, order, bits)
    return pair_matches(keys, offsets, hyp_text.astype(np.int64), ref_text.astype(np.int64), order, bits)
