"""NIST, matching mteval-v13a (NLTK's ``nist_score`` deviates and is not used).

- Information weights come from all reference segments of the test set (every reference
  set pooled): info(w1..wn) = log2(count(w1..w{n-1}) / count(w1..wn)), the unigram numerator
  being the total number of reference words. Counts of the (n-1)-gram are its counts as an
  n-gram of its own, wherever it occurs.
- A hypothesis n-gram is clipped at its maximum count in any single reference.
- Per order n = 1..5: sum of the information of matched n-grams over the number of
  hypothesis n-grams (at least 1), accumulated over the corpus; NIST is the sum over orders
  times BP = exp(beta * ln^2(min(sys_len / avg_ref_len, 1))), beta = ln 0.5 / ln^2 1.5, where
  avg_ref_len = total reference words / number of reference sets.

Statistics per segment: hypothesis n-gram counts and matched information per order, the
hypothesis length and the reference length averaged over the reference sets (so that summed
statistics give mteval's average reference length, and a metric object that did not compute
them can score them, e.g. for bootstrap resampling). The weights are fitted on the references
passed to :meth:`NIST.stats` (the whole test set, shared by all its systems).

A segment whose references have no words (after tokenisation) is an error naming it: mteval-v13a
computes every segment's NIST, and its length penalty divides by the reference length, so the
script stops there ("Illegal division by zero"), whatever the hypothesis. An empty hypothesis
against a real reference scores 0, as in mteval (ratio 0, penalty 0).

Tokenisation is sacrebleu's 13a (mteval-v13a's own). mteval lowercases by default and is
case-sensitive with ``-c``; this metric is case-sensitive by default like sacrebleu's BLEU
(``lowercase=True`` gives mteval's default). The published mteval-v13a values for NLTK's
"guide to action" example (5.0379 and 2.1139) are case-sensitive.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from mtmeta import __version__
from mtmeta.data.tokenize import tokenizer
from mtmeta.errors import ConfigError, MtmetaError
from mtmeta.metrics import ngrams
from mtmeta.metrics.base import Metric, check_references
from mtmeta.metrics.params import MAX_NGRAM_ORDER, Range

BETA = math.log(0.5) / math.log(1.5) ** 2
BACKENDS = ("compiled", "python")


def _ngrams(words: list[str], n: int) -> Counter:
    # zip of n shifted views gives the tuples words[i:i + n], without slicing a list per n-gram
    return Counter(zip(*(words[k:] for k in range(n)), strict=False))


class NIST(Metric):
    name = "nist"
    PARAM_RANGES: ClassVar[dict] = {"max_ngram_order": Range(1, MAX_NGRAM_ORDER)}

    def __init__(self, lang: str | None = None, max_ngram_order: int = 5, tokenize: str = "13a",
                 lowercase: bool = False, backend: str = "compiled"):
        if backend not in BACKENDS:
            raise ConfigError(f"nist: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        self.backend = backend  # python: the loop in stats(), the reference; the same statistics
        self.lang = lang
        self.order = max_ngram_order
        self.tokenize = tokenize
        self.lowercase = lowercase
        self._tokenizer = tokenizer(tokenize, lowercase)
        self._fitted: tuple[tuple, dict, list] | None = None
        self.num_refs: int | None = None

    @property
    def stat_names(self) -> list[str]:
        n = range(1, self.order + 1)
        return [*(f"hyp_ngrams_{i}" for i in n), *(f"info_{i}" for i in n), "hyp_len", "avg_ref_len"]

    def _fit(self, references: Sequence[Sequence[str]]):
        """Tokenise the references and compute the information weight of every reference n-gram."""
        key = tuple(tuple(stream) for stream in references)
        if self._fitted is not None and self._fitted[0] == key:
            return self._fitted[1], self._fitted[2]
        per_segment = [
            [self._tokenizer(ref) for ref in refs if ref is not None] for refs in zip(*references, strict=True)
        ]
        for k, refs in enumerate(per_segment):
            if not any(refs):
                raise self._empty_reference(k + 1, len(references))
        counts: Counter = Counter()
        total_words = 0
        for refs in per_segment:
            for words in refs:
                total_words += len(words)
                for n in range(1, self.order + 1):
                    counts.update(_ngrams(words, n))
        info = {
            gram: math.log2((counts[gram[:-1]] if len(gram) > 1 else total_words) / count)
            for gram, count in counts.items()
        }
        # Clipping counts and the reference length, per segment.
        ref_info = []
        for refs in per_segment:
            max_counts: dict = {}
            for words in refs:
                for n in range(1, self.order + 1):
                    for gram, c in _ngrams(words, n).items():
                        if c > max_counts.get(gram, 0):
                            max_counts[gram] = c
            ref_info.append((max_counts, sum(len(words) for words in refs) / len(references)))
        self.num_refs = len(references)
        self._fitted = (key, info, ref_info)
        self._reference_words = per_segment
        return info, ref_info

    def _empty_reference(self, segment: int, streams: int) -> MtmetaError:
        """mteval-v13a scores every segment (also without -d 2) with the length penalty of hypothesis
        words over the average reference length, a Perl division that stops the script ("Illegal
        division by zero") when a segment's references have no words, whatever its hypothesis. NIST is
        undefined there, so the segment is an error, as in mteval, rather than a nan or an invented 0."""
        side = "reference is empty" if streams == 1 else "references are all empty"
        return MtmetaError(f"nist: segment {segment}: the {side} (no words after tokenisation), so NIST's length "
                           f"penalty (hypothesis words over average reference words) is undefined; mteval-v13a stops "
                           f"on such a segment ('Illegal division by zero'). Give the segment a reference or leave "
                           f"it out of the test set")

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        check_references(hypotheses, references)
        info, ref_info = self._fit(references)
        if self.backend == "compiled":
            return self._compiled_stats(hypotheses, info, ref_info)
        out = np.zeros((len(hypotheses), 2 * self.order + 2))
        for row, (hyp, (max_counts, ref_len)) in enumerate(zip(hypotheses, ref_info, strict=True)):
            words = self._tokenizer(hyp)
            for n in range(1, self.order + 1):
                grams = _ngrams(words, n)
                out[row, n - 1] = sum(grams.values())
                out[row, self.order + n - 1] = sum(
                    info[gram] * min(c, max_counts[gram]) for gram, c in grams.items() if gram in max_counts
                )
            out[row, -2] = len(words)
            out[row, -1] = ref_len
        return out

    def _compiled_stats(self, hypotheses: Sequence[str], info: dict, ref_info: list) -> np.ndarray:
        """:meth:`stats` through :mod:`mtmeta.metrics.nist_kernel`: the references' words, each with
        the information weight of the n-grams starting there, then every hypothesis."""
        from mtmeta.metrics.nist_kernel import corpus_stats

        if getattr(self, "_reference_part", None) is None or self._reference_part[0] is not self._fitted:
            word_ids = ngrams.WordIds()  # numbers kept with the fit: every system reuses the references'
            texts, weights, ref_ptr = [], [], [0]
            for refs in self._reference_words:
                for words in refs:
                    texts.append(word_ids(words))
                    at = np.zeros((len(words), self.order))
                    for n in range(1, min(self.order, len(words)) + 1):
                        at[: len(words) - n + 1, n - 1] = [info[tuple(words[i : i + n])]
                                                           for i in range(len(words) - n + 1)]
                    weights.append(at)
                ref_ptr.append(len(texts))
            self._reference_part = (self._fitted, word_ids, texts, np.vstack(weights) if weights else
                                    np.zeros((0, self.order)), np.asarray(ref_ptr, dtype=np.int64))
        _, word_ids, ref_texts, ref_weights, ref_ptr = self._reference_part
        texts = list(ref_texts)
        n_refs = len(texts)
        hyp_words = [self._tokenizer(hyp) for hyp in hypotheses]
        # One array of every hypothesis word's id, cut into texts: numbering text by text costs an
        # array per text (a corpus has thousands).
        flat = word_ids([word for words in hyp_words for word in words])
        ends = np.cumsum([len(words) for words in hyp_words])
        texts += np.split(flat, ends[:-1]) if len(hyp_words) else []
        values, offsets, _ = ngrams.packed(texts, len(word_ids.vocabulary))
        weights = np.vstack([ref_weights, np.zeros((len(values) - int(offsets[n_refs]), self.order))])
        grams = np.vstack([ids for ids, _ in ngrams.gram_ids(values, offsets, self.order)])
        counts, gains = corpus_stats(grams, offsets, weights, np.arange(n_refs, len(texts)), ref_ptr,
                                     np.arange(n_refs), self.order)
        lengths = np.array([len(words) for words in hyp_words], dtype=float)
        return np.column_stack([counts, gains, lengths, [ref_len for _, ref_len in ref_info]]).reshape(
            len(hypotheses), 2 * self.order + 2)

    def _score(self, stats: np.ndarray) -> np.ndarray:
        """NIST of each row of (possibly summed) statistics."""
        stats = np.atleast_2d(stats)
        hyp_ngrams = stats[:, : self.order]
        info = stats[:, self.order : 2 * self.order]
        gain = (info / np.maximum(hyp_ngrams, 1)).sum(axis=1)
        if (stats[:, -1] <= 0).any():  # stats() refuses such segments (_empty_reference)
            row = int(np.flatnonzero(stats[:, -1] <= 0)[0])
            raise MtmetaError(f"nist: statistics row {row + 1} has an average reference length of "
                              f"{stats[row, -1]:g}; NIST's length penalty divides by it (mteval-v13a stops there)")
        with np.errstate(divide="ignore", invalid="ignore"):  # log(0) where the hypothesis is empty: BP 0
            ratio = stats[:, -2] / stats[:, -1]
            bp = np.where(ratio >= 1, 1.0, np.where(ratio <= 0, 0.0, np.exp(BETA * np.log(ratio) ** 2)))
        return gain * bp

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return self._score(stats)

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self._score(stats.sum(axis=0))[0])

    def corpus_score_weighted(self, stats: np.ndarray, weights: np.ndarray) -> float:
        return float(self._score((np.asarray(weights)[:, None] * stats).sum(axis=0))[0])

    def score_totals(self, totals: np.ndarray) -> np.ndarray:
        return self._score(totals)

    def signature(self) -> str:
        refs = self.num_refs if self.num_refs is not None else "?"
        case = "lc" if self.lowercase else "mixed"
        return (f"NIST|nrefs:{refs}|case:{case}|tok:{self.tokenize}|order:{self.order}|info:testset-refs"
                f"|mtmeta:{__version__}")
