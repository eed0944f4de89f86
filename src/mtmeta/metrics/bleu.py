"""BLEU through sacrebleu: its tokenisers, smoothing and statistics, unchanged.

Statistics are sacrebleu's per-segment rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``,
so corpus BLEU equals ``sacrebleu.corpus_bleu`` exactly. Segment scores use sacrebleu's
sentence-level setting (effective order on) on the same rows.

``tokenized=True`` is the mode for text that is already tokenised (e.g. the evaluator set):
sacrebleu's ``none`` tokeniser, i.e. whitespace splitting only, recorded as ``tok:none``.
"""

from __future__ import annotations

import sacrebleu

from mtmeta.errors import ConfigError
from mtmeta.metrics.sacrebleu_adapter import SacrebleuMetric


class BLEU(SacrebleuMetric):
    name = "bleu"
    label = "BLEU"

    def __init__(
        self,
        lang: str | None = None,
        tokenize: str | None = None,
        tokenized: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        lowercase: bool = False,
        max_ngram_order: int = 4,
        effective_order: bool = False,
    ):
        if tokenized:
            if tokenize not in (None, "none"):
                raise ConfigError(f"bleu: tokenized=true means tokenize=none, not {tokenize!r}")
            tokenize = "none"
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
        self.max_ngram_order = max_ngram_order
        super().__init__(
            sacrebleu.BLEU(effective_order=effective_order, **common),
            sacrebleu.BLEU(effective_order=True, **common),
        )

    @property
    def stat_names(self) -> list[str]:
        n = range(1, self.max_ngram_order + 1)
        return ["hyp_len", "ref_len", *(f"correct_{i}" for i in n), *(f"total_{i}" for i in n)]
