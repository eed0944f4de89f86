"""A metric known only by the scores a user brings (``mtmeta evaluate``, config's ``external_scores``).

It has no text scorer. Its sufficient statistics are each segment's score and a count of one, so
the meta-evaluation treats it like every built-in metric: a bootstrap draw's system score is the
mean of the drawn segments' scores (the usual system score of a segment-level metric: COMET,
BLEURT, ...). A system score the user gives is used as is for the point correlations.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtmeta.errors import MtmetaError
from mtmeta.metrics.base import Metric


class ExternalScores(Metric):
    name = "external"

    def __init__(self, metric_id: str = "external", higher_is_better: bool = True, signature: str = ""):
        self.metric_id = metric_id
        self.higher_is_better = bool(higher_is_better)  # per object: each user metric says its direction
        self._signature = signature or f"external|id:{metric_id}|higher_is_better:{self.higher_is_better}"

    @property
    def stat_names(self) -> list[str]:
        return ["value", "count"]

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        raise MtmetaError(f"{self.metric_id} is an external metric: it has scores from a file, no text scorer")

    @staticmethod
    def statistics(scores) -> np.ndarray:
        """The statistics of segment scores: each score and a count of one."""
        scores = np.asarray(scores, dtype=np.float64)
        return np.column_stack([scores, np.ones_like(scores)])

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return np.asarray(stats, dtype=np.float64)[:, 0]

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self.score_totals(np.asarray(stats, dtype=np.float64).sum(axis=0)[None, :])[0])

    def score_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.asarray(totals, dtype=np.float64)
        return totals[:, 0] / totals[:, 1]

    def signature(self) -> str:
        return self._signature
