"""BLEU through sacrebleu: its tokenisers, smoothing and statistics, unchanged.

Statistics are sacrebleu's own per-segment rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``
(computed with its reference cache), so corpus BLEU equals ``sacrebleu.corpus_bleu`` exactly.
Segment scores use sacrebleu's sentence-level setting, effective order on, from the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sacrebleu

from mtmeta.metrics.base import Metric, check_references


class BLEU(Metric):
    name = "bleu"

    def __init__(
        self,
        lang: str | None = None,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        lowercase: bool = False,
        max_ngram_order: int = 4,
        effective_order: bool = False,
    ):
        common = dict(
            lowercase=lowercase,
            tokenize=tokenize,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            max_ngram_order=max_ngram_order,
            trg_lang=lang or "",
            force=True,  # the "tokenised period" heuristic is noise on WMT data
        )
        self.lang = lang
        self._corpus = sacrebleu.BLEU(effective_order=effective_order, **common)
        self._sentence = sacrebleu.BLEU(effective_order=True, **common)
        self.max_ngram_order = max_ngram_order
        self._cached: tuple[tuple[tuple[str, ...], ...], list] | None = None

    @property
    def stat_names(self) -> list[str]:
        n = range(1, self.max_ngram_order + 1)
        return ["hyp_len", "ref_len", *(f"correct_{i}" for i in n), *(f"total_{i}" for i in n)]

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        check_references(hypotheses, references)
        key = tuple(tuple(stream) for stream in references)
        if self._cached is None or self._cached[0] != key:
            # Every system of a test set shares the references: extract their n-grams once.
            self._cached = (key, self._corpus._cache_references(references))
        cache = self._cached[1]
        # Both objects must know the reference count for their signatures.
        self._sentence.num_refs = self._corpus.num_refs
        rows = [self._corpus._compute_segment_statistics(self._corpus._preprocess_segment(h), c)
                for h, c in zip(hypotheses, cache, strict=True)]
        return np.asarray(rows, dtype=np.int64).reshape(len(rows), len(self.stat_names))

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        # compute_bleu may modify its lists in place (add-k), so every row goes in as a fresh list.
        return np.array([self._sentence._compute_score_from_stats(row.tolist()).score for row in stats])

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self._corpus._compute_score_from_stats(stats.sum(axis=0).tolist()).score)

    def signature(self) -> str:
        return "BLEU|" + self._corpus.get_signature().format()

    def segment_signature(self) -> str:
        return "BLEU|" + self._sentence.get_signature().format()
