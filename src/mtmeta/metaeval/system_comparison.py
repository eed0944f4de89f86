"""Corpus-score confidence and paired tests between systems with any metric, from its segment
statistics (``mtmeta score --confidence``, ``--paired-bs``, ``--paired-ar``): sacrebleu's
definitions (:mod:`mtmeta.stats.paired`), re-scoring summed statistics instead of copied rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mtmeta.metrics.base import Metric, weighted_sums
from mtmeta.stats import paired

_TRIAL_BLOCK = 1000  # randomisation trials summed at once (bounds the float copy of the masks)


def resampled_scores(metric: Metric, stats: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The corpus score of each resample (a row of segment counts)."""
    return np.asarray(metric.corpus_scores_weighted(stats, counts), dtype=float)


def trial_scores(metric: Metric, first: np.ndarray, second: np.ndarray, masks: np.ndarray):
    """Both pseudo-systems' corpus scores in every randomisation trial: the first takes ``first``'s
    statistics where the mask is True and ``second``'s elsewhere, the second the other way round."""
    if type(metric).score_totals is Metric.score_totals:  # no summed-statistics score: row by row
        a = [metric.corpus_score(np.where(m[:, None], first, second)) for m in masks]
        b = [metric.corpus_score(np.where(m[:, None], second, first)) for m in masks]
        return np.array(a, dtype=float), np.array(b, dtype=float)
    a, b = [], []
    for start in range(0, len(masks), _TRIAL_BLOCK):
        keep = masks[start:start + _TRIAL_BLOCK].astype(np.int64)
        swap = 1 - keep
        a.append(metric.score_totals(weighted_sums(first, keep) + weighted_sums(second, swap)))
        b.append(metric.score_totals(weighted_sums(first, swap) + weighted_sums(second, keep)))
    return np.concatenate(a).astype(float), np.concatenate(b).astype(float)


def compare_systems(metric: Metric, systems: dict[str, np.ndarray], test: str | None = None,
                    n_samples: int = 0, confidence_n: int = 1000, seed: int | None = 12345) -> pd.DataFrame:
    """One row per system (the first is the baseline of a paired test): its corpus score, the
    bootstrap mean and 95% half-width (``confidence_n`` resamples; 0: none) and, with ``test``
    (``bs`` or ``ar``), the p-value of its difference from the baseline."""
    names = list(systems)
    n_segments = len(systems[names[0]])
    if any(len(stats) != n_segments for stats in systems.values()):
        raise ValueError(f"the systems have different numbers of segments: "
                         f"{ {name: len(stats) for name, stats in systems.items()} }")
    n_samples = n_samples or paired.DEFAULT_SAMPLES.get(test or "bs")
    scores = {name: metric.corpus_score(stats) for name, stats in systems.items()}
    rows = [{"system": name, "score": scores[name], "mean": np.nan, "ci": np.nan, "p_value": np.nan} for name in names]
    if test == "bs":
        counts = paired.bootstrap_counts(n_segments, n_samples, seed)
        draws = {name: resampled_scores(metric, stats, counts) for name, stats in systems.items()}
        for row in rows:
            row["mean"], row["ci"] = paired.estimate_ci(draws[row["system"]])
        for row in rows[1:]:
            row["p_value"] = paired.paired_bootstrap_p(draws[names[0]], draws[row["system"]], scores[names[0]],
                                                       scores[row["system"]])
        return pd.DataFrame(rows)
    if confidence_n > 0:  # the baseline's (or a single system's) interval from its own resamples
        counts = paired.bootstrap_counts(n_segments, confidence_n, seed)
        targets = rows if test is None else rows[:1]
        for row in targets:
            row["mean"], row["ci"] = paired.estimate_ci(resampled_scores(metric, systems[row["system"]], counts))
    if test == "ar":
        for row in rows[1:]:
            masks, counts = paired.randomisation_masks(n_segments, n_samples, seed, confidence_n)
            first, second = trial_scores(metric, systems[names[0]], systems[row["system"]], masks)
            row["p_value"] = paired.randomisation_p(first, second, scores[names[0]], scores[row["system"]])
            if counts is not None:
                row["mean"], row["ci"] = paired.estimate_ci(resampled_scores(metric, systems[row["system"]], counts))
    elif test is not None:
        raise ValueError(f"unknown paired test {test!r}; expected bs or ar")
    return pd.DataFrame(rows)
