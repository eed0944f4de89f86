"""chrF and chrF++ as sacrebleu defines them (chrF++ is ``word_order=2``; registered as ``chrf++``).

Statistics are sacrebleu's per-segment character (and word) n-gram counts of the best
reference; the corpus score comes from summed statistics, as in ``sacrebleu.corpus_chrf``.
Text goes through sacrebleu's own preprocessing and word split; the n-gram matches are counted by
:mod:`mtmeta.metrics.ngrams` (the same counts, checked on real data), and the best of several
references is chosen with sacrebleu's F-score. Scores from statistics come from a compiled copy of
sacrebleu's F-score (:mod:`mtmeta.metrics.score_kernel`, the same bits). ``backend="sacrebleu"``
counts and scores with sacrebleu itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np
import sacrebleu

from mtmeta.errors import ConfigError
from mtmeta.metrics import kernels, ngrams
from mtmeta.metrics.base import Memo
from mtmeta.metrics.params import MAX_NGRAM_ORDER, Range, Rule, check_rules
from mtmeta.metrics.sacrebleu_adapter import SacrebleuMetric

BACKENDS = ("compiled", "sacrebleu")


class CHRF(SacrebleuMetric):
    name = "chrf"
    label = "chrF"
    PARAM_RANGES: ClassVar[dict] = {"char_order": Range(0, MAX_NGRAM_ORDER), "word_order": Range(0, MAX_NGRAM_ORDER),
                                    "beta": Range(0, 100)}
    # Without a single n-gram order there is nothing to count (and no F-score to average).
    PARAM_RULES: ClassVar[tuple] = (
        Rule(("char_order", "word_order"), lambda char, word: char + word >= 1,
             "char_order + word_order >= 1 (chrF counts character n-grams up to char_order and word n-grams up "
             "to word_order: with both 0 there is nothing to count)"),)

    def __init__(
        self,
        lang: str | None = None,
        char_order: int = 6,
        word_order: int = 0,
        beta: int = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        backend: str = "compiled",
    ):
        if backend not in BACKENDS:
            raise ConfigError(f"{self.name}: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        check_rules(type(self), {"char_order": char_order, "word_order": word_order}, self.name)
        self.lang = lang
        self.backend = backend
        self._orders = char_order + word_order
        super().__init__(
            sacrebleu.CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                           whitespace=whitespace, eps_smoothing=eps_smoothing)
        )
        # Per distinct preprocessed text: the characters sacrebleu counts (whitespace dropped unless
        # kept), and the words of chrF++ (sacrebleu's punctuation split).
        self._characters = Memo(str if whitespace else lambda text: "".join(text.split()))
        self._word_ids = ngrams.WordIds()
        self._words = Memo()  # per preprocessed text: the word ids of chrF++

    def extra_signature(self) -> str:
        return f"|beta:{self._metric.beta}"  # sacrebleu puts it in the score's name (chrF2), not its signature

    def score_label(self) -> str:
        metric = self._metric
        return f"chrF{metric.beta}" + "+" * metric.word_order  # sacrebleu's CHRFScore name: chrF2, chrF2++

    def corpus_details(self, stats: np.ndarray) -> dict:
        return self.segment_details(np.asarray(stats).sum(axis=0))

    def segment_details(self, row: np.ndarray) -> dict:
        """sacrebleu's CHRFScore keeps beta and the orders only; here also each order's precision and
        recall (percent; None where the hypothesis, or the reference, has no n-gram of that order),
        character orders first, and, in the default effective-order mode, the averages the F-score
        is made of: ``precision`` and ``recall`` over the orders where both sides have n-grams
        (sacrebleu's ``_compute_f_score``, in its order of summation)."""
        metric = self._metric
        counts = np.asarray(row).reshape(-1, 3).tolist()
        precision = [100 * match / hyp if hyp > 0 else None for hyp, _, match in counts]
        recall = [100 * match / ref if ref > 0 else None for _, ref, match in counts]
        details = {"beta": metric.beta, "char_order": metric.char_order, "word_order": metric.word_order,
                   "char_precision": precision[:metric.char_order], "char_recall": recall[:metric.char_order],
                   "word_precision": precision[metric.char_order:], "word_recall": recall[metric.char_order:]}
        if not metric.eps_smoothing:
            effective = [(match / hyp, match / ref) for hyp, ref, match in counts if hyp > 0 and ref > 0]
            average_p = average_r = 0.0
            for p, r in effective:
                average_p += p
                average_r += r
            if effective:
                average_p, average_r = average_p / len(effective), average_r / len(effective)
            details.update(precision=100 * average_p, recall=100 * average_r, effective_order=len(effective))
        return details

    @property
    def stat_names(self) -> list[str]:
        return [f"{kind}_{n}" for n in range(1, self._orders + 1) for kind in ("hyp", "ref", "match")]

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        if self.backend == "sacrebleu":
            return super().stats(hypotheses, references)
        metric = self._metric
        texts, hyp_text, ref_text, owner = self._text_pairs(hypotheses, references)
        parts = [(ngrams.character_symbols(self._characters.many(texts)), metric.char_order)]
        if metric.word_order > 0:
            split = metric._remove_punctuation
            words = self._words.many(texts, lambda new: self._word_ids.many([split(text) for text in new]))
            words = ngrams.packed(words, len(self._word_ids.vocabulary))
            parts.append((words, metric.word_order))
        columns = []
        for symbols, order in parts:
            common = ngrams.matches(symbols, hyp_text, ref_text, order)
            if common is None:  # too many distinct symbols for 63-bit keys
                return super().stats(hypotheses, references)
            lengths, orders = np.diff(symbols[1]), np.arange(order)
            n_hyp = np.maximum(lengths[hyp_text, None] - orders, 0)
            n_ref = np.maximum(lengths[ref_text, None] - orders, 0)
            # sacrebleu's triple per order; no hypothesis n-grams are counted where the reference has none
            columns.append(np.stack([np.where(n_ref > 0, n_hyp, 0), n_ref, common], axis=2).reshape(len(owner), -1))
        pair_stats = np.hstack(columns).astype(self.stat_dtype)
        if len(owner) == len(hypotheses):
            return pair_stats
        out = np.zeros((len(hypotheses), len(self.stat_names)), dtype=self.stat_dtype)
        best = np.full(len(hypotheses), -1.0)
        for pair, k in enumerate(owner.tolist()):
            f_score = metric._compute_f_score(pair_stats[pair].tolist())
            if f_score > best[k]:  # sacrebleu's rule: the first reference with the highest F-score
                best[k], out[k] = f_score, pair_stats[pair]
        return out

    # Scores from statistics: sacrebleu's _compute_f_score, compiled (the same bits; see score_kernel).
    def _scores(self, rows: np.ndarray) -> np.ndarray:
        metric = self._metric
        rows = np.ascontiguousarray(rows, dtype=np.float64).reshape(-1, len(self.stat_names))
        if not kernels.compiled(len(rows), kernels.PLAIN_ROWS):  # sacrebleu's own function: the same bits
            return np.array([metric._compute_f_score(row) for row in rows.tolist()], dtype=float)
        from mtmeta.metrics.score_kernel import chrf_scores

        return chrf_scores(rows, metric.order, float(metric.beta ** 2), bool(metric.eps_smoothing))

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return super().segment_scores(stats) if self.backend == "sacrebleu" else self._scores(stats)

    def corpus_score(self, stats: np.ndarray) -> float:
        return super().corpus_score(stats) if self.backend == "sacrebleu" else float(self._scores(stats.sum(axis=0))[0])

    def corpus_score_weighted(self, stats: np.ndarray, weights: np.ndarray) -> float:
        if self.backend == "sacrebleu":
            return super().corpus_score_weighted(stats, weights)
        return float(self._scores((np.asarray(weights)[:, None] * stats).sum(axis=0))[0])

    def score_totals(self, totals: np.ndarray) -> np.ndarray:
        return super().score_totals(totals) if self.backend == "sacrebleu" else self._scores(totals)


class CHRFPlusPlus(CHRF):
    name = "chrf++"

    def __init__(self, lang: str | None = None, word_order: int = 2, **params):
        super().__init__(lang=lang, word_order=word_order, **params)
