"""Run any sacrebleu metric through mtmeta's statistics interface, without re-implementing it.

sacrebleu metrics expose the hooks this needs: a reference cache, per-segment statistics
and a score from (summed) statistics. Corpus scores therefore equal sacrebleu's
``corpus_score`` exactly, and segment scores equal its ``sentence_score``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from mtmeta import __version__
from mtmeta.metrics.base import Memo, Metric, check_references, text_pairs


class SacrebleuMetric(Metric):
    """Subclasses set ``label`` and ``stat_dtype`` and build ``self._metric`` (and ``self._segment``)."""

    label: ClassVar[str]
    stat_dtype: ClassVar[type] = np.int64

    def __init__(self, corpus_metric, segment_metric=None):
        self._metric = corpus_metric
        self._segment = segment_metric or corpus_metric
        self._references = Memo()  # per segment: its tuple of reference strings -> sacrebleu's entry
        # sacrebleu's preprocessing of one text (tokenisation, lowercasing), kept per distinct text:
        # sweeps over references re-score the same outputs, and softened metrics re-read the same words.
        self.preprocess = Memo(self._metric._preprocess_segment)

    def _reference_info(self, references: Sequence[Sequence[str]]) -> list:
        """sacrebleu's preprocessed references, one entry per segment.

        Each segment's entry depends on its reference strings only, so it is kept: the systems of a
        test set share their references, and paraphrased references (one set per system) differ in a
        few segments only. ``num_refs`` is set as sacrebleu sets it for the whole call.
        """
        segments = self._reference_segments(references)
        return self._references.many(
            segments, lambda new: self._metric._cache_references(list(zip(*new, strict=True))))

    def _reference_segments(self, references: Sequence[Sequence[str]]) -> list[tuple]:
        """Each segment's tuple of references; sets ``num_refs`` as sacrebleu sets it for the whole call."""
        segments = list(zip(*references, strict=True))
        counts = {sum(ref is not None for ref in segment) for segment in segments}
        self._metric.num_refs = self._segment.num_refs = counts.pop() if len(counts) == 1 else -1
        return segments

    def _text_pairs(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]):
        """For compiled counting: this call's distinct preprocessed texts, and per hypothesis-reference
        pair (one per present reference, in reference order) the numbers of its two texts and its segment."""
        check_references(hypotheses, references)
        return text_pairs(self.name, hypotheses, self._reference_segments(references), self.preprocess)

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        check_references(hypotheses, references)
        ref_infos = self._reference_info(references)
        metric, preprocess = self._metric, self.preprocess
        rows = [metric._compute_segment_statistics(preprocess(hyp), ref_info)
                for hyp, ref_info in zip(hypotheses, ref_infos, strict=True)]
        return np.asarray(rows, dtype=self.stat_dtype).reshape(len(rows), len(self.stat_names))

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        # Fresh lists per row: some score functions modify their input (BLEU's add-k smoothing).
        return np.array([self._segment._compute_score_from_stats(row.tolist()).score for row in stats], dtype=float)

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self._metric._compute_score_from_stats(stats.sum(axis=0).tolist()).score)

    def corpus_score_weighted(self, stats: np.ndarray, weights: np.ndarray) -> float:
        total = (np.asarray(weights)[:, None] * stats).sum(axis=0)
        return float(self._metric._compute_score_from_stats(total.tolist()).score)

    def score_totals(self, totals: np.ndarray) -> np.ndarray:
        return np.array([self._metric._compute_score_from_stats(row.tolist()).score for row in totals], dtype=float)

    def signature(self) -> str:
        """sacrebleu's signature, then the settings it leaves out that change the score
        (:meth:`extra_signature`), then both tools' versions (``sacrebleu:X|mtmeta:Y``)."""
        return self._signature_of(self._metric)

    def segment_signature(self) -> str:
        """The same format as :meth:`signature`, from the segment-level sacrebleu object (BLEU's
        ``eff:yes``)."""
        return self._signature_of(self._segment)

    def _signature_of(self, metric) -> str:
        own, _, version = metric.get_signature().format().rpartition("|version:")
        return f"{self.label}|{own}{self.extra_signature()}|sacrebleu:{version}|mtmeta:{__version__}"

    def extra_signature(self) -> str:
        return ""

    def signature_abbreviations(self) -> dict[str, str]:
        """sacrebleu's own short names of this metric's keys (its Signature class's table)."""
        return {**super().signature_abbreviations(), **self._metric.get_signature()._abbr}
