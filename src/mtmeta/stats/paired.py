"""Confidence of a corpus score and paired significance between two systems, as sacrebleu defines
them (``sacrebleu.significance``, after Koehn 2004 and MultEval's approximate randomisation). Pure:
the caller turns draws into scores with its metric.

- The bootstrap draws ``n_samples`` resamples of the segments with ``numpy.random.default_rng(seed)
  .choice(n, (n_samples, n))``, sacrebleu's draw; here each is returned as counts per segment, so a
  metric re-scores summed statistics instead of copying rows. The interval is sacrebleu's: the
  mean of the resampled scores and half the distance between the 2.5% and 97.5% order statistics
  (``n // 40`` from each end).
- The paired bootstrap uses one set of resamples for both systems; its p-value counts resamples
  whose centred absolute difference exceeds the observed one, (c + 1) / (n_samples + 1).
- One difference from sacrebleu: two systems with the same corpus score (identical outputs, for
  instance) get p = 1 under both tests; sacrebleu's strict count gives 1 / (n_samples + 1) there,
  the smallest p it can give, and marks them as differing.
- Approximate randomisation swaps each segment's two outputs with probability 1/2 in every trial
  (``rng.integers(2, size=(n_samples, n), dtype=bool)``) and counts trials whose absolute
  difference exceeds the observed one, with the same +1 correction.
"""

from __future__ import annotations

import numpy as np

DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}


def bootstrap_counts(n_segments: int, n_samples: int = 1000, seed: int | None = 12345) -> np.ndarray:
    """sacrebleu's bootstrap resamples as counts: row d says how often each segment is in resample d."""
    rng = np.random.default_rng(seed)
    return _as_counts(rng.choice(n_segments, size=(n_samples, n_segments), replace=True), n_segments)


def randomisation_masks(n_segments: int, n_samples: int = 10000, seed: int | None = 12345,
                        confidence_n: int = 0) -> tuple[np.ndarray, np.ndarray | None]:
    """sacrebleu's approximate-randomisation trials (True where a segment keeps the first system's
    output) and, with ``confidence_n``, the bootstrap resamples (as counts) it draws next from the
    same generator for the system's interval."""
    rng = np.random.default_rng(seed)
    masks = rng.integers(2, size=(n_samples, n_segments), dtype=bool)
    if confidence_n <= 0:
        return masks, None
    return masks, _as_counts(rng.choice(n_segments, size=(confidence_n, n_segments), replace=True), n_segments)


def _as_counts(indices: np.ndarray, n_segments: int) -> np.ndarray:
    counts = np.zeros((len(indices), n_segments), dtype=np.int64)
    np.add.at(counts, (np.arange(len(indices))[:, None], indices), 1)
    return counts


def estimate_ci(scores: np.ndarray) -> tuple[float, float]:
    """Mean of the resampled scores and half the width of their central 95% (sacrebleu's estimate)."""
    scores = np.sort(np.asarray(scores, dtype=float))
    lower = len(scores) // 40
    return float(scores.mean()), float(0.5 * (scores[len(scores) - lower - 1] - scores[lower]))


def p_value(sample_statistics: np.ndarray, observed: float) -> float:
    """(number of samples whose statistic exceeds the observed one + 1) / (samples + 1); 1 when the
    observed difference is 0 (two systems with the same score, identical outputs among them: nothing
    to explain by chance). sacrebleu counts strictly greater statistics there too, so it gives
    1 / (samples + 1), "significant", for a system compared with itself."""
    if observed == 0:
        return 1.0
    return (int(np.sum(np.asarray(sample_statistics) > observed)) + 1) / (len(sample_statistics) + 1)


def paired_bootstrap_p(baseline_draws: np.ndarray, system_draws: np.ndarray, baseline: float, system: float) -> float:
    """The paired bootstrap's p-value from both systems' scores on the same resamples."""
    differences = np.abs(np.asarray(system_draws) - np.asarray(baseline_draws))
    return p_value(differences - differences.mean(), abs(baseline - system))


def randomisation_p(first_trials: np.ndarray, second_trials: np.ndarray, baseline: float, system: float) -> float:
    """Approximate randomisation's p-value from the two pseudo-systems' scores of every trial."""
    return p_value(np.abs(np.asarray(first_trials) - np.asarray(second_trials)), abs(baseline - system))
