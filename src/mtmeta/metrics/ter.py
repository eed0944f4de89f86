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
from mtmeta.metrics.base import check_references
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

    @property
    def stat_names(self) -> list[str]:
        return ["edits", "ref_len"]

    def stats(self, hypotheses, references) -> np.ndarray:
        if self.backend == "sacrebleu":
            return super().stats(hypotheses, references)
        from mtmeta.metrics.ter_kernel import corpus_edits

        check_references(hypotheses, references)
        ref_infos = self._reference_info(references)
        vocabulary: dict[str, int] = {}

        def ids(words: list[str]) -> list[int]:
            return [vocabulary.setdefault(w, len(vocabulary)) for w in words]

        hyp_ids, hyp_offsets, ref_ids, ref_offsets, owner = [], [0], [], [0], []
        out = np.zeros((len(hypotheses), 2), dtype=self.stat_dtype)
        preprocess = self._metric._preprocess_segment
        for k, (hyp, info) in enumerate(zip(hypotheses, ref_infos, strict=True)):
            words = ids(preprocess(hyp).split())
            refs = info["ref_words"]
            out[k, 1] = sum(len(r) for r in refs) / len(refs)  # sacrebleu's average reference length
            for ref in refs:
                hyp_ids += words
                hyp_offsets.append(len(hyp_ids))
                ref_ids += ids(ref)
                ref_offsets.append(len(ref_ids))
                owner.append(k)
        as_array = lambda values: np.asarray(values, dtype=np.int64)  # noqa: E731
        edits = corpus_edits(as_array(hyp_ids), as_array(hyp_offsets), as_array(ref_ids), as_array(ref_offsets))
        best = np.full(len(hypotheses), np.inf)
        np.minimum.at(best, as_array(owner), edits)  # several references: the fewest edits
        out[:, 0] = best
        return out
