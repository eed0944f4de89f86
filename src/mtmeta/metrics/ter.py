"""TER through sacrebleu (Tercom defaults: case-insensitive, punctuation kept, no normalisation).

Statistics per segment are ``[edits, average reference length]``; corpus TER is the sum of
edits over the sum of average reference lengths, as in ``sacrebleu.corpus_ter``. Lower is better.
"""

from __future__ import annotations

import numpy as np
import sacrebleu

from mtmeta.metrics.sacrebleu_adapter import SacrebleuMetric


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
    ):
        self.lang = lang
        super().__init__(
            sacrebleu.TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                          case_sensitive=case_sensitive)
        )

    @property
    def stat_names(self) -> list[str]:
        return ["edits", "ref_len"]
