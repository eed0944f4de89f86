"""TER as sacrebleu defines it (Tercom defaults: case-insensitive, punctuation kept, no normalisation).

Statistics per segment are ``[edits, average reference length]``; corpus TER is the sum of
edits over the sum of average reference lengths, as in ``sacrebleu.corpus_ter``. Lower is better.

Text goes through sacrebleu's own Tercom tokeniser; the edit counting (shift search and beam edit
distance, the costly part) runs in :mod:`mtmeta.metrics.ter_kernel`, a compiled port of sacrebleu's
algorithm that gives the same edit count on every segment (checked on real data). ``backend="sacrebleu"``
counts with sacrebleu itself.
"""

from __future__ import annotations

import numpy as np
import sacrebleu

from mtmeta.errors import ConfigError
from mtmeta.metrics import ngrams
from mtmeta.metrics.base import Memo
from mtmeta.metrics.sacrebleu_adapter import SacrebleuMetric

BACKENDS = ("compiled", "sacrebleu")


class TER(SacrebleuMetric):
    name = "ter"
    label = "TER"
    higher_is_better = False
    stat_dtype = np.float64

    def __init__(
        self,
        lang: str | None = None,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        backend: str = "compiled",
    ):
        if backend not in BACKENDS:
            raise ConfigError(f"ter: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        self.lang = lang
        self.backend = backend
        super().__init__(
            sacrebleu.TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                          case_sensitive=case_sensitive)
        )
        self._word_ids = ngrams.WordIds()
        self._words = Memo(lambda text: self._word_ids(text.split()))  # per preprocessed text, sacrebleu's split

    @property
    def stat_names(self) -> list[str]:
        return ["edits", "ref_len"]

    def stats(self, hypotheses, references) -> np.ndarray:
        if self.backend == "sacrebleu":
            return super().stats(hypotheses, references)
        from mtmeta.metrics.ter_kernel import corpus_edits

        texts, hyp_text, ref_text, owner = self._text_pairs(hypotheses, references)
        words = [self._words(text) for text in texts]  # word ids per distinct preprocessed text, kept
        lengths = np.array([len(w) for w in words], dtype=np.int64)

        def flat(numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            offsets = np.zeros(len(numbers) + 1, dtype=np.int64)
            np.cumsum(lengths[numbers], out=offsets[1:])
            values = np.concatenate([words[t] for t in numbers.tolist()]) if len(numbers) else offsets[:0]
            return values.astype(np.int64), offsets

        out = np.zeros((len(hypotheses), 2), dtype=self.stat_dtype)
        # sacrebleu's average reference length (sum of integers over their number: the same float)
        out[:, 1] = np.bincount(owner, weights=lengths[ref_text], minlength=len(hypotheses)) / np.bincount(
            owner, minlength=len(hypotheses))
        edits = corpus_edits(*flat(hyp_text), *flat(ref_text))
        best = np.full(len(hypotheses), np.inf)
        np.minimum.at(best, owner, edits)  # several references: the fewest edits
        out[:, 0] = best
        return out
