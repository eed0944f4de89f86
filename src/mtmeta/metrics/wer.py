"""Word error rate and position-independent error rate, normalised by reference length.

WER = word-level Levenshtein distance (insertion, deletion, substitution each cost 1) / reference
length. PER (as Moses' PerScorer) counts errors as |ref| - correct + max(0, |hyp| - |ref|), with
correct = |multiset(hyp) ∩ multiset(ref)|, over |ref|. Both are reported as percentages and are
lower-is-better. With several references each segment uses the reference giving the lowest
segment rate (the first on ties). Corpus scores are summed errors over summed reference lengths.
An empty reference gives 0 for an empty hypothesis and 100 otherwise (as TER does).

Edit distances come from rapidfuzz (C++), the engine jiwer uses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein

from mtmeta import __version__
from mtmeta.data.tokenize import tokenizer
from mtmeta.metrics import ngrams
from mtmeta.metrics.base import Metric, check_references, text_pairs

NUMBER_WORDS_ABOVE = 2**20  # |hyp| x |ref| past which WER numbers the words first (WER.errors)


def _rate(errors, ref_len) -> np.ndarray:
    """Errors per 100 reference words; an empty reference gives 0 or 100."""
    errors, ref_len = np.asarray(errors, dtype=float), np.asarray(ref_len, dtype=float)
    safe = np.where(ref_len > 0, ref_len, 1.0)
    return np.where(ref_len > 0, 100.0 * errors / safe, np.where(errors > 0, 100.0, 0.0))


def _segment_rate(errors: int, ref_len: int) -> float:
    """:func:`_rate` of one segment in plain Python: the same operations, the same float."""
    if ref_len > 0:
        return 100.0 * errors / ref_len
    return 100.0 if errors > 0 else 0.0


def per_errors(hyp: list[str], ref: list[str]) -> int:
    correct = sum((Counter(hyp) & Counter(ref)).values())
    return len(ref) - correct + max(0, len(hyp) - len(ref))


class _ErrorRate(Metric):
    higher_is_better = False
    label = ""

    def __init__(self, lang: str | None = None, tokenize: str = "13a", lowercase: bool = False):
        self.lang = lang
        self.tokenize = tokenize
        self.lowercase = lowercase
        self._tokenizer = tokenizer(tokenize, lowercase)
        self.num_refs: int | None = None
        self._numbers = ngrams.Numbering()  # word -> number, kept across calls (see WER.errors)

    @property
    def stat_names(self) -> list[str]:
        return ["errors", "ref_len"]

    def errors(self, hyp: list[str], ref: list[str]) -> int:
        raise NotImplementedError

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        check_references(hypotheses, references)
        self.num_refs = len(references)
        out = np.zeros((len(hypotheses), 2), dtype=np.int64)
        for row, (hyp, refs) in enumerate(zip(hypotheses, zip(*references, strict=True), strict=True)):
            if all(ref is None for ref in refs):
                raise ValueError(f"{self.name}: segment {row + 1} has no reference")
            hyp_words = self._tokenizer(hyp)
            candidates = [
                (self.errors(hyp_words, ref_words), len(ref_words))
                for ref_words in (self._tokenizer(ref) for ref in refs if ref is not None)
            ]
            out[row] = min(candidates, key=lambda c: _segment_rate(*c))  # min keeps the first on ties
        return out

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return _rate(stats[:, 0], stats[:, 1])

    def corpus_score(self, stats: np.ndarray) -> float:
        total = stats.sum(axis=0)
        return float(_rate(total[0], total[1]))

    def corpus_score_weighted(self, stats: np.ndarray, weights: np.ndarray) -> float:
        total = (np.asarray(weights)[:, None] * stats).sum(axis=0)
        return float(_rate(total[0], total[1]))

    def score_totals(self, totals: np.ndarray) -> np.ndarray:
        return np.asarray(_rate(totals[:, 0], totals[:, 1]), dtype=float)

    def signature(self) -> str:
        refs = self.num_refs if self.num_refs is not None else "?"
        case = "lc" if self.lowercase else "mixed"
        return f"{self.label}|nrefs:{refs}|case:{case}|tok:{self.tokenize}|scale:100|mtmeta:{__version__}"


class WER(_ErrorRate):
    name = "wer"
    label = "WER"

    def errors(self, hyp: list[str], ref: list[str]) -> int:
        if len(hyp) * len(ref) <= NUMBER_WORDS_ABOVE:
            return Levenshtein.distance(hyp, ref)
        # rapidfuzz compares hashable elements; on a long pair, numbers instead of strings give the same
        # distance (the numbering is one-to-one) in a third of the time (a 1 MB line of WMT12 English:
        # 43 s -> 14 s). On short segments numbering would cost more than it saves (0.07 -> 0.5 s for
        # WMT12 en-cs's 39,039 pairs).
        number = self._numbers.__getitem__
        return Levenshtein.distance(list(map(number, hyp)), list(map(number, ref)))


class PER(_ErrorRate):
    name = "per"
    label = "PER"

    def errors(self, hyp: list[str], ref: list[str]) -> int:
        return per_errors(hyp, ref)

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        """The loop of :meth:`_ErrorRate.stats` with every pair's common words counted at once
        (``ngrams.matches`` of order 1: the size of the multiset intersection, as ``per_errors``)."""
        check_references(hypotheses, references)
        self.num_refs = len(references)
        texts, hyp_text, ref_text, owner = text_pairs(self.name, hypotheses, zip(*references, strict=True))
        symbols = ngrams.packed_words([self._tokenizer(text) for text in texts])
        correct = ngrams.matches(symbols, hyp_text, ref_text, 1)
        if correct is None:  # a vocabulary too large for the packed keys
            return super().stats(hypotheses, references)
        lengths = np.diff(symbols[1])
        hyp_len, ref_len = lengths[hyp_text], lengths[ref_text]
        errors = ref_len - correct[:, 0] + np.maximum(0, hyp_len - ref_len)
        out = np.zeros((len(hypotheses), 2), dtype=np.int64)
        best = np.full(len(hypotheses), np.inf)
        for e, r, k in zip(errors.tolist(), ref_len.tolist(), owner.tolist(), strict=True):  # the first lowest rate
            rate = _segment_rate(e, r)
            if rate < best[k]:
                best[k] = rate
                out[k] = (e, r)
        return out
