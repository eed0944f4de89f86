"""chrF and chrF++ through sacrebleu (chrF++ is ``word_order=2``; registered as ``chrf++``).

Statistics are sacrebleu's per-segment character (and word) n-gram counts of the best
reference; the corpus score comes from summed statistics, as in ``sacrebleu.corpus_chrf``.
"""

from __future__ import annotations

import sacrebleu

from mtmeta.metrics.sacrebleu_adapter import SacrebleuMetric


class CHRF(SacrebleuMetric):
    name = "chrf"
    label = "chrF"

    def __init__(
        self,
        lang: str | None = None,
        char_order: int = 6,
        word_order: int = 0,
        beta: int = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ):
        self.lang = lang
        self._orders = char_order + word_order
        super().__init__(
            sacrebleu.CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                           whitespace=whitespace, eps_smoothing=eps_smoothing)
        )

    @property
    def stat_names(self) -> list[str]:
        return [f"{kind}_{n}" for n in range(1, self._orders + 1) for kind in ("hyp", "ref", "match")]


class CHRFPlusPlus(CHRF):
    name = "chrf++"

    def __init__(self, lang: str | None = None, word_order: int = 2, **params):
        super().__init__(lang=lang, word_order=word_order, **params)
