"""BLEU through sacrebleu: its tokenisers, smoothing and statistics, unchanged.

Statistics are sacrebleu's per-segment rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``,
so corpus BLEU equals ``sacrebleu.corpus_bleu`` exactly. Segment scores use sacrebleu's
sentence-level setting (effective order on) on the same rows. Scores come from a compiled copy of
sacrebleu's ``compute_bleu`` (:mod:`mtmeta.metrics.score_kernel`, the same bits, 25x faster on a study's
760,000 segments); ``backend="sacrebleu"`` calls sacrebleu's own.

``tokenized=True`` is the mode for text that is already tokenised (e.g. the evaluator set):
sacrebleu's ``none`` tokeniser, i.e. whitespace splitting only, recorded as ``tok:none``.

Text goes through sacrebleu's tokeniser; with one reference per segment, the clipped n-gram matches
are counted by :mod:`mtmeta.metrics.ngrams` (the same counts, checked on real data). Several
references (clipped by the largest count among them), or ``backend="sacrebleu"``, count with sacrebleu.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
import sacrebleu
import sacrebleu.metrics.bleu as sacrebleu_bleu

from mtmeta.data.tokenize import check_available, shared
from mtmeta.errors import ConfigError
from mtmeta.metrics import kernels, ngrams
from mtmeta.metrics.base import Memo
from mtmeta.metrics.params import MAX_NGRAM_ORDER, Range, Rule, check_rules
from mtmeta.metrics.sacrebleu_adapter import SacrebleuMetric

BACKENDS = ("compiled", "sacrebleu")
# tokenized=true is the whitespace split (sacrebleu's "none"): another tokeniser would contradict it.
TOKENIZED_RULE = Rule(("tokenized", "tokenize"),
                      lambda tokenized, tokenize: not tokenized or tokenize in (None, "none"),
                      "tokenize unset or 'none' with tokenized=true (already tokenised text is split at whitespace)")


class BLEU(SacrebleuMetric):
    name = "bleu"
    label = "BLEU"
    PARAM_RANGES: ClassVar[dict] = {
        "tokenize": Range(choices=tuple(sacrebleu_bleu._TOKENIZERS)),
        "smooth_method": Range(choices=tuple(sacrebleu_bleu.BLEU.SMOOTH_DEFAULTS)),
        "smooth_value": Range(0, 100), "max_ngram_order": Range(1, MAX_NGRAM_ORDER)}
    PARAM_RULES: ClassVar[tuple] = (TOKENIZED_RULE,)

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
        backend: str = "compiled",
    ):
        if backend not in BACKENDS:
            raise ConfigError(f"bleu: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        check_rules(type(self), {"tokenized": tokenized, "tokenize": tokenize}, self.name)
        if tokenized:
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
        self.backend = backend
        self.max_ngram_order = max_ngram_order
        chosen = tokenize or sacrebleu.BLEU._TOKENIZER_MAP.get(lang or "", sacrebleu.BLEU.TOKENIZER_DEFAULT)
        default = f" (sacrebleu's default for target language {lang})" if tokenize is None and lang else ""
        check_available(chosen, f"{self.name}: tokenize={chosen!r}{default}", ": install it, or set tokenize (e.g. "
                        "char, or none for text tokenised already)")
        super().__init__(
            sacrebleu.BLEU(effective_order=effective_order, **common),
            sacrebleu.BLEU(effective_order=True, **common),
        )
        if backend == "compiled":  # the same tokens, faster, shared (see mtmeta.data.tokenize)
            self._metric.tokenizer = shared(self._metric.tokenizer.signature(), self._metric.tokenizer)
        self._word_ids = ngrams.WordIds()
        self._words = Memo()  # per preprocessed text: its word ids (sacrebleu's split)

    def extra_signature(self) -> str:
        return f"|order:{self.max_ngram_order}"  # sacrebleu's signature does not name it

    def corpus_details(self, stats: np.ndarray) -> dict:
        return self._details(np.asarray(stats).sum(axis=0), self._metric)

    def segment_details(self, row: np.ndarray) -> dict:
        return self._details(row, self._segment)

    @staticmethod
    def _details(totals: np.ndarray, metric: sacrebleu.BLEU) -> dict:
        """sacrebleu's BLEUScore of summed statistics (its own arithmetic, once per corpus): clipped
        matches and n-gram totals per order, precisions (percent, smoothed as the score uses them),
        brevity penalty, lengths and their ratio, and the text sacrebleu prints after the score."""
        result = metric._compute_score_from_stats([int(value) for value in totals])  # a fresh list: add-k edits it
        # counts and totals as sacrebleu leaves them (add-k adds its k to orders above 1)
        return {"counts": list(result.counts), "totals": list(result.totals),
                "precisions": [float(p) for p in result.precisions], "bp": float(result.bp),
                "sys_len": int(result.sys_len), "hyp_len": int(result.sys_len), "ref_len": int(result.ref_len),
                "ratio": float(result.ratio), "verbose": result._verbose}

    @property
    def stat_names(self) -> list[str]:
        n = range(1, self.max_ngram_order + 1)
        return ["hyp_len", "ref_len", *(f"correct_{i}" for i in n), *(f"total_{i}" for i in n)]

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        if self.backend == "sacrebleu" or len(references) > 1:
            return super().stats(hypotheses, references)
        return self._packed_stats(hypotheses, references, self._packed_pairs(hypotheses, references))

    def _packed_pairs(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]):
        """For the compiled counting (one reference per segment): ``(texts, hyp_text, ref_text, symbols)``,
        this call's distinct preprocessed texts, each pair's two text numbers, and the texts as word ids
        (``ngrams.packed``). softBLEU reads its soft credit off the same."""
        texts, hyp_text, ref_text, _ = self._text_pairs(hypotheses, references)
        words = self._words.many(texts, lambda new: self._word_ids.many([text.split() for text in new]))
        return texts, hyp_text, ref_text, ngrams.packed(words, len(self._word_ids.vocabulary))

    def _packed_stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], pairs) -> np.ndarray:
        """:meth:`stats` of :meth:`_packed_pairs`' ``pairs`` of these hypotheses and references."""
        _, hyp_text, ref_text, symbols = pairs
        correct = ngrams.matches(symbols, hyp_text, ref_text, self.max_ngram_order)
        if correct is None:  # a vocabulary too large for 63-bit keys
            return super().stats(hypotheses, references)
        lengths = np.diff(symbols[1])
        hyp_len, ref_len = lengths[hyp_text], lengths[ref_text]  # one reference: it is the closest
        total = np.maximum(hyp_len[:, None] - np.arange(self.max_ngram_order), 0)
        return np.column_stack([hyp_len, ref_len, correct, total]).astype(self.stat_dtype)

    # Scores from statistics: sacrebleu's compute_bleu, compiled (the same bits; see score_kernel).
    def _scores(self, rows: np.ndarray, metric: sacrebleu.BLEU) -> np.ndarray:
        rows = np.ascontiguousarray(rows, dtype=np.float64).reshape(-1, len(self.stat_names))
        if not kernels.compiled(len(rows), kernels.PLAIN_ROWS):  # sacrebleu's own function: the same bits
            return np.array([metric._compute_score_from_stats(row).score for row in rows.tolist()], dtype=float)
        return bleu_rows(rows, metric.max_ngram_order, metric.smooth_method, metric.smooth_value,
                         metric.effective_order)

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        if self.backend == "sacrebleu":
            return super().segment_scores(stats)
        return self._scores(stats, self._segment)

    def corpus_score(self, stats: np.ndarray) -> float:
        if self.backend == "sacrebleu":
            return super().corpus_score(stats)
        return float(self._scores(stats.sum(axis=0), self._metric)[0])

    def corpus_score_weighted(self, stats: np.ndarray, weights: np.ndarray) -> float:
        if self.backend == "sacrebleu":
            return super().corpus_score_weighted(stats, weights)
        return float(self._scores((np.asarray(weights)[:, None] * stats).sum(axis=0), self._metric)[0])

    def score_totals(self, totals: np.ndarray) -> np.ndarray:
        if self.backend == "sacrebleu":
            return super().score_totals(totals)
        return self._scores(totals, self._metric)


def bleu_rows(rows: np.ndarray, max_order: int, smooth_method: str, smooth_value: float | None,
              effective_order: bool) -> np.ndarray:
    """sacrebleu's BLEU of each statistics row (float64 ``[sys_len, ref_len, correct_1..N, total_1..N]``)."""
    from mtmeta.metrics.score_kernel import SMOOTHING, bleu_scores

    if smooth_value is None:
        smooth_value = sacrebleu.BLEU.SMOOTH_DEFAULTS[smooth_method]
    return bleu_scores(rows, max_order, SMOOTHING[smooth_method], float(smooth_value or 0.0), bool(effective_order))
