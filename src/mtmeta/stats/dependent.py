"""Is metric 1 significantly better than metric 2 on the same data? (pure numpy/scipy)

Notation: r12 = corr(human, metric 1), r13 = corr(human, metric 2), r23 = corr(metric 1, metric 2),
n = number of items (systems or segments). One-sided p-values test H1: r12 > r13.

- :func:`meng_test`: Meng, Rosenthal & Rubin (1992), the test seed 002 uses:
  z_i = atanh(r_i); mean r^2 = (r12^2 + r13^2)/2; f = min(1, (1 - r23) / (2 (1 - mean r^2)));
  h = (1 - f mean r^2) / (1 - mean r^2); Z = (z12 - z13) sqrt((n - 3) / (2 (1 - r23) h)), standard normal.
  The confidence interval is for z12 - z13: (z12 - z13) +- z_{1-a/2} sqrt(2 (1 - r23) h / (n - 3)).
- :func:`williams_test`: Williams (1959) as WMT uses it (Graham & Baldwin 2014):
  t = (r12 - r13) sqrt((n - 1)(1 + r23)) / sqrt(2 ((n - 1)/(n - 3)) |R| + rbar^2 (1 - r23)^3), df = n - 3,
  |R| = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23, rbar = (r12 + r13)/2.
- :func:`permutation_test`: swap the two metrics' scores item by item (paired), any statistic.
- :func:`paired_bootstrap`: resample items, the distribution of the statistic's difference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats


@dataclass(frozen=True)
class TestResult:
    statistic: float
    p_two_sided: float
    p_one_sided: float  # H1: metric 1 agrees better than metric 2
    ci_low: float = float("nan")
    ci_high: float = float("nan")
    df: float = float("nan")
    method: str = ""


def meng_test(r12: float, r13: float, r23: float, n: int, alpha: float = 0.05) -> TestResult:
    if n <= 3:
        raise ValueError(f"Meng's test needs n > 3, got {n}")
    z12, z13 = np.arctanh(r12), np.arctanh(r13)
    mean_r2 = (r12**2 + r13**2) / 2
    f = min(1.0, (1 - r23) / (2 * (1 - mean_r2)))
    h = (1 - f * mean_r2) / (1 - mean_r2)
    spread = np.sqrt(2 * (1 - r23) * h / (n - 3))
    with np.errstate(divide="ignore", invalid="ignore"):  # r23 = 1 (the same ranking twice): undefined, NaN
        z = (z12 - z13) / spread
    margin = stats.norm.ppf(1 - alpha / 2) * spread
    return TestResult(
        statistic=float(z),
        p_two_sided=float(2 * stats.norm.sf(abs(z))),
        p_one_sided=float(stats.norm.sf(z)),
        ci_low=float(z12 - z13 - margin),
        ci_high=float(z12 - z13 + margin),
        method="meng-rosenthal-rubin-1992",
    )


def williams_test(r12: float, r13: float, r23: float, n: int) -> TestResult:
    if n <= 3:
        raise ValueError(f"Williams' test needs n > 3, got {n}")
    det = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    rbar = (r12 + r13) / 2
    with np.errstate(divide="ignore", invalid="ignore"):  # r23 = 1 (the same ranking twice): undefined, NaN
        t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23)) / np.sqrt(
            2 * ((n - 1) / (n - 3)) * det + rbar**2 * (1 - r23) ** 3
        )
    df = n - 3
    return TestResult(
        statistic=float(t),
        p_two_sided=float(2 * stats.t.sf(abs(t), df)),
        p_one_sided=float(stats.t.sf(t, df)),
        df=float(df),
        method="williams-1959",
    )


Statistic = Callable[[np.ndarray, np.ndarray], float]


def permutation_test(human: np.ndarray, metric1: np.ndarray, metric2: np.ndarray, statistic: Statistic,
                     n_resamples: int = 1000, seed: int = 12345) -> TestResult:
    """Paired permutation: each item's two metric scores are swapped with probability 1/2.

    p-values are (1 + number of resamples at least as extreme) / (1 + n_resamples).
    """
    human, metric1, metric2 = (np.asarray(x, dtype=float) for x in (human, metric1, metric2))
    observed = statistic(human, metric1) - statistic(human, metric2)
    rng = np.random.default_rng(seed)
    deltas = np.empty(n_resamples)
    for k in range(n_resamples):
        swap = rng.random(len(human)) < 0.5
        a = np.where(swap, metric2, metric1)
        b = np.where(swap, metric1, metric2)
        deltas[k] = statistic(human, a) - statistic(human, b)
    return TestResult(
        statistic=float(observed),
        p_two_sided=float((1 + np.sum(np.abs(deltas) >= abs(observed) - 1e-12)) / (1 + n_resamples)),
        p_one_sided=float((1 + np.sum(deltas >= observed - 1e-12)) / (1 + n_resamples)),
        method=f"paired-permutation|n:{n_resamples}|seed:{seed}",
    )


def paired_bootstrap(human: np.ndarray, metric1: np.ndarray, metric2: np.ndarray, statistic: Statistic,
                     n_resamples: int = 1000, seed: int = 12345, alpha: float = 0.05) -> TestResult:
    """Resample items with replacement; percentile CI of the difference and the share of draws <= 0."""
    human, metric1, metric2 = (np.asarray(x, dtype=float) for x in (human, metric1, metric2))
    observed = statistic(human, metric1) - statistic(human, metric2)
    rng = np.random.default_rng(seed)
    n = len(human)
    deltas = np.empty(n_resamples)
    for k in range(n_resamples):
        idx = rng.integers(0, n, n)
        deltas[k] = statistic(human[idx], metric1[idx]) - statistic(human[idx], metric2[idx])
    deltas = deltas[np.isfinite(deltas)]
    one_sided = float(np.mean(deltas <= 0))
    return TestResult(
        statistic=float(observed),
        p_two_sided=float(min(1.0, 2 * min(one_sided, np.mean(deltas >= 0)))),
        p_one_sided=one_sided,
        ci_low=float(np.quantile(deltas, alpha / 2)),
        ci_high=float(np.quantile(deltas, 1 - alpha / 2)),
        method=f"paired-bootstrap|n:{n_resamples}|seed:{seed}",
    )
