"""The evaluator task's baseline: how many hypothesis words occur in the reference.

As the MT-course baseline defines it: split on whitespace (the evaluator data is already
tokenised), keep case, and count every hypothesis token found in the *set* of reference words
(so a repeated hypothesis word counts each time). The segment score is that count; the corpus
score is its mean over segments. Two hypotheses of one segment are compared by their counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtmeta import __version__
from mtmeta.data.tokenize import tokenizer
from mtmeta.metrics.base import Metric, check_references


class WordMatch(Metric):
    name = "wordmatch"

    def __init__(self, lang: str | None = None, tokenize: str = "none", lowercase: bool = False):
        self.lang = lang
        self.tokenize, self.lowercase = tokenize, lowercase
        self._tokenizer = tokenizer(tokenize, lowercase)
        self.num_refs: int | None = None

    @property
    def stat_names(self) -> list[str]:
        return ["matches", "hyp_len"]

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        check_references(hypotheses, references)
        self.num_refs = len(references)
        out = np.zeros((len(hypotheses), 2), dtype=np.int64)
        for row, (hyp, refs) in enumerate(zip(hypotheses, zip(*references, strict=True), strict=True)):
            # "the reference set": with several references, the words of all of them.
            vocabulary = {word for ref in refs if ref is not None for word in self._tokenizer(ref)}
            words = self._tokenizer(hyp)
            out[row] = (sum(word in vocabulary for word in words), len(words))
        return out

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0].astype(float)

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(stats[:, 0].mean()) if len(stats) else 0.0

    def corpus_score_weighted(self, stats: np.ndarray, weights: np.ndarray) -> float:
        return float(np.average(stats[:, 0], weights=weights))

    def corpus_scores_weighted(self, stats: np.ndarray, weights: np.ndarray) -> np.ndarray:
        weights = np.asarray(weights)  # np.average of each row, the same arithmetic
        return (weights * stats[:, 0]).sum(axis=1) / weights.sum(axis=1)

    def signature(self) -> str:
        refs = self.num_refs if self.num_refs is not None else "?"
        case = "lc" if self.lowercase else "mixed"
        return f"WordMatch|nrefs:{refs}|case:{case}|tok:{self.tokenize}|sys:mean|mtmeta:{__version__}"
