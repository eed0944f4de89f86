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

from mtmeta.metrics import kernels

# Pairs from which the compiled counting repays its load where a process prefers the plain path
# (mtmeta.metrics.kernels): numpy's sorting counts about 300,000 pairs of sentences a second.
PLAIN_LIMIT = 30_000


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
    values, offsets, alphabet = symbols
    if not kernels.compiled(len(hyp_text), PLAIN_LIMIT):
        counted = plain_matches(values, offsets, hyp_text, ref_text, order)
        if counted is not None:
            return counted
    from mtmeta.metrics.ngram_kernel import pair_matches, sorted_keys  # numba: imported when first counted

    bits = symbol_bits(alphabet, order)
    if bits is None:  # numbered over more texts than these (a long-lived vocabulary): renumber
        values, alphabet = _ranks(values)
        bits = symbol_bits(alphabet, order)
    if bits is None:
        return None
    keys = sorted_keys(values, offsets, order, bits)
    return pair_matches(keys, offsets, hyp_text.astype(np.int64), ref_text.astype(np.int64), order, bits)


def plain_matches(values: np.ndarray, offsets: np.ndarray, hyp_text: np.ndarray, ref_text: np.ndarray,
                  order: int) -> np.ndarray | None:
    """:func:`matches` without the compiled kernel, the same counts: every position of each pair's two
    texts gets the kernel's key (``order`` symbols packed, the pad past a text's end); one sort by
    (pair, key, side) brings equal n-grams of a pair together for every order at once (a shorter
    n-gram's key is the longer one's prefix, a monotone map), and a run of equal n-grams adds
    ``min(hypothesis count, reference count)``. None when a key does not fit in 63 bits (as the kernel),
    or when pair, key rank and side do not (more than 2**31 positions)."""
    values, alphabet = _ranks(values)
    bits = symbol_bits(alphabet, order)
    if bits is None:
        return None
    n_pairs, key_bits = len(hyp_text), bits * order
    lengths = np.diff(offsets)
    left = np.repeat(offsets[1:], lengths) - np.arange(len(values))  # symbols from each position to its text's end
    padded = np.concatenate([values, np.zeros(order, dtype=values.dtype)])
    keys = np.zeros(len(values), dtype=np.int64)
    for i in range(order):
        keys = (keys << bits) | np.where(left > i, padded[i:i + len(values)], 0)
    pairs, sides, items = [], [], []
    for side, texts in enumerate((np.asarray(hyp_text), np.asarray(ref_text))):
        counts = lengths[texts]
        pairs.append(np.repeat(np.arange(n_pairs, dtype=np.int64), counts))
        sides.append(np.full(int(counts.sum()), side, dtype=np.int64))
        items.append(keys[np.arange(counts.sum()) + np.repeat(offsets[texts] - (np.cumsum(counts) - counts), counts)])
    pair, side, key = np.concatenate(pairs), np.concatenate(sides), np.concatenate(items)
    mask = (1 << bits) - 1
    if max(n_pairs - 1, 1).bit_length() + key_bits + 1 <= 63:  # one integer sort: (pair, key, side) in a number
        codes = np.sort((pair << (key_bits + 1)) | (key << 1) | side)
        side = codes & 1

        def runs(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            """Where each run of one pair's equal n-grams starts, whether it is an n-gram, and its pair."""
            group = codes >> (1 + bits * (order - n))  # (pair, n-gram)
            starts = np.flatnonzero(np.concatenate([[True], group[1:] != group[:-1]]))
            return starts, (group[starts] & mask) != 0, group[starts] >> (bits * n)
    else:  # the keys' ranks in their place (the same order, fewer bits), the keys themselves carried along
        distinct, rank = np.unique(key, return_inverse=True)
        rank_bits = max(len(distinct).bit_length(), 1)
        if max(n_pairs - 1, 1).bit_length() + rank_bits + 1 > 63:
            return None
        ordered = np.argsort((pair << (rank_bits + 1)) | (rank.astype(np.int64) << 1) | side)
        pair, side, key = pair[ordered], side[ordered], key[ordered]
        new_pair = pair[1:] != pair[:-1]

        def runs(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            gram = key >> (bits * (order - n))
            starts = np.flatnonzero(np.concatenate([[True], new_pair | (gram[1:] != gram[:-1])]))
            return starts, (gram[starts] & mask) != 0, pair[starts]
    in_ref = np.concatenate([[0], np.cumsum(side)])  # references among the first k items
    out = np.zeros((n_pairs, order), dtype=np.int64)
    for n in range(1, order + 1):
        starts, whole, owner = runs(n)
        ends = np.append(starts[1:], len(side))
        refs = in_ref[ends] - in_ref[starts]
        # a run whose n-gram ends in the pad runs past its text's end: not an n-gram
        common = np.where(whole, np.minimum(ends - starts - refs, refs), 0)
        out[:, n - 1] = np.bincount(owner, weights=common, minlength=n_pairs)  # float sums below 2**53: exact
    return out
