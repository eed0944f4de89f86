"""System-level correlation of metric scores with human scores.

Pearson r, Spearman rho and Kendall tau-b, each with a two-sided p-value:

- Pearson: scipy's t-test (exact under bivariate normality).
- Spearman: the exact permutation distribution of rho when n <= ``EXACT_SPEARMAN_MAX_N``
  (all n! pairings; conditional on the observed ranks, so ties are handled); scipy's
  t-approximation above that. The approximation is badly off for the handful of systems a
  WMT language pair has: for a perfect ranking of 5 systems it gives p ~ 1e-24, while the
  exact two-sided p is 2/120.
- Kendall: scipy's ``method="auto"``: exact when there are no ties and n <= 33, else normal.

Fewer than three points, a constant vector or a non-finite score give NaN: a correlation is
undefined there, and :func:`undefined_reason` says which (every table that reports a NaN coefficient
states it). Each vector is first scaled by a power of two so that its largest magnitude lies in
[0.5, 1): exact (the coefficients are scale-free and a power of two changes no digit), so scores near
1e308 do not overflow the mean and subnormal scores keep their ratios, and equal to scipy's for every
vector scipy computes without overflow. Every table of the study (system level, bootstrap, Williams,
Meng, ranks) and ``mtmeta correlate`` take Pearson from :func:`correlations` or :func:`correlation`.

The coefficients and p-values are computed here with numpy and ``scipy.special`` in the order of
operations of ``scipy.stats.pearsonr``, ``spearmanr`` and ``kendalltau`` (scipy 1.17), so they are
bit-identical to scipy's (tests/unit/stats/test_correlation_scipy.py compares them on thousands of
vectors): importing ``scipy.stats`` takes most of a second, which every small correlation job of the
workflow would pay. This module stays free of I/O and of ``scipy.stats``.
"""

from __future__ import annotations

import itertools
import math
from functools import cache, lru_cache

import numpy as np
from scipy import special

from mtmeta.stats.memory_limit import check_allocation, pairs_of

KENDALL_VARIANT = "tau-b"
EXACT_SPEARMAN_MAX_N = 9
PAIRWISE_KENDALL_MAX_N = 2000  # above it, Kendall's discordant pairs come from scipy (O(n log n))


@cache
def _permutations(n: int) -> np.ndarray:
    return np.array(list(itertools.permutations(range(n))), dtype=np.int8)


def spearman_exact_p(x: np.ndarray, y: np.ndarray) -> float:
    """Two-sided exact permutation p-value of Spearman's rho (all n! pairings)."""
    rx = rankdata(x)
    ry = rankdata(y)
    rx = (rx - rx.mean()) / np.linalg.norm(rx - rx.mean())
    ry = (ry - ry.mean()) / np.linalg.norm(ry - ry.mean())
    observed = abs(float(rx @ ry))
    null = np.abs(ry[_permutations(len(x))] @ rx)
    return float(np.mean(null >= observed - 1e-12))


def rankdata(values, axis: int = -1) -> np.ndarray:
    """Average ranks (1-based; tied values share the mean of their ranks) along ``axis``, as
    ``scipy.stats.rankdata``: every rank is a whole or half number, so any exact method agrees.
    Vectorised over the other axes (a bootstrap ranks a thousand draws at once)."""
    values = np.moveaxis(np.asarray(values, dtype=float), axis, -1)
    n = values.shape[-1]
    order = np.argsort(values, axis=-1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=-1)
    position = np.broadcast_to(np.arange(n), values.shape)
    starts = np.ones(values.shape, dtype=bool)  # where a run of equal values starts
    starts[..., 1:] = ordered[..., 1:] != ordered[..., :-1]
    ends = np.ones(values.shape, dtype=bool)  # where one ends
    ends[..., :-1] = starts[..., 1:]
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=-1)  # each value's run: first ..
    last = np.flip(np.minimum.accumulate(np.flip(np.where(ends, position, n - 1), axis=-1), axis=-1), axis=-1)
    ranks = np.empty(values.shape, dtype=float)
    np.put_along_axis(ranks, order, (first + last + 2) / 2, axis=-1)  # .. last: mean rank (first+1 + last+1)/2
    return np.moveaxis(ranks, -1, axis)


def pearson(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Pearson r and its two-sided p-value (r's null distribution: beta(n/2 - 1, n/2 - 1) on
    (-1, 1)), for defined input (:func:`_paired`), with ``scipy.stats.pearsonr``'s arithmetic."""
    centred = []
    for v in (x, y):
        deviation = v - np.mean(v, axis=-1, keepdims=True)
        largest = np.max(np.abs(deviation), axis=-1, keepdims=True)  # scaled first: no overflow in the norm
        centred.append(deviation / (largest * np.linalg.norm(deviation / largest, ord=2, axis=-1, keepdims=True)))
    r = np.clip(np.vecdot(centred[0], centred[1], axis=-1), -1.0, 1.0)
    shape = np.asarray(x.shape[-1] / 2 - 1, dtype=float)
    return float(r), float(2 * special.betaincc(shape, shape, (np.abs(r) - -1) / 2))


def spearman(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Spearman rho (Pearson of average ranks, by ``np.corrcoef``) and the t-approximation's
    two-sided p-value, with ``scipy.stats.spearmanr``'s arithmetic."""
    rho = np.corrcoef(np.column_stack((rankdata(x), rankdata(y))), rowvar=False)[1, 0]
    dof = len(x) - 2
    with np.errstate(divide="ignore"):
        t = rho * np.sqrt(np.clip(dof / ((rho + 1.0) * (1.0 - rho)), 0, None))
    return float(rho), float(2 * special.stdtr(dof, -np.abs(t)))


def _tie_counts(values: np.ndarray) -> tuple[int, int, int]:
    """Pairs tied within ``values``, and the two sums over tie groups the variance of S needs."""
    _, counts = np.unique(values, return_counts=True)
    counts = counts[counts > 1].astype(np.int64)
    return (int((counts * (counts - 1) // 2).sum()), int((counts * (counts - 1.0) * (counts - 2)).sum()),
            int((counts * (counts - 1.0) * (2 * counts + 5)).sum()))


def kendall(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Kendall tau-b and its two-sided p-value as ``scipy.stats.kendalltau(method="auto")``: exact
    without ties when n <= 33 (or at most one pair discordant or concordant), else normal."""
    size = len(x)
    if size > PAIRWISE_KENDALL_MAX_N:  # the pairwise signs below would need size^2 memory
        from scipy.stats import kendalltau

        result = kendalltau(x, y)
        return float(result.statistic), float(result.pvalue)
    upper = np.triu_indices(size, k=1)
    dx, dy = np.sign(x[upper[0]] - x[upper[1]]), np.sign(y[upper[0]] - y[upper[1]])
    discordant = int(np.count_nonzero(dx * dy < 0))
    joint_ties = int(np.count_nonzero((dx == 0) & (dy == 0)))
    (x_ties, x0, x1), (y_ties, y0, y1) = _tie_counts(x), _tie_counts(y)
    total = size * (size - 1) // 2
    difference = total - x_ties - y_ties + joint_ties - 2 * discordant  # concordant minus discordant
    tau = np.minimum(1.0, max(-1.0, difference / np.sqrt(total - x_ties) / np.sqrt(total - y_ties)))
    if x_ties == 0 and y_ties == 0 and (size <= 33 or min(discordant, total - discordant) <= 1):
        return float(tau), float(kendall_exact_p(size, total - discordant))
    m = size * (size - 1.0)
    variance = (m * (2 * size + 5) - x1 - y1) / 18 + (2 * x_ties * y_ties) / m + x0 * y0 / (9 * m * (size - 2))
    return float(tau), float(2 * special.ndtr(-np.abs(difference / np.sqrt(variance))))


def kendall_exact_p(n: int, concordant: int) -> float:
    """Two-sided exact p-value of Kendall's tau without ties: twice the probability, over all n!
    orderings, of at most min(C, total - C) concordant pairs (Kendall 1970's recurrence, computed
    as scipy's ``_kendall_p_exact``)."""
    c = min(concordant, n * (n - 1) // 2 - concordant)
    if n <= 2:
        probability = 1.0
    elif c == 0:
        probability = 2.0 / math.factorial(n) if n < 171 else 0.0
    elif c == 1:
        probability = 2.0 / math.factorial(n - 1) if n < 172 else 0.0
    elif 4 * c == n * (n - 1):
        probability = 1.0
    else:
        counts = np.zeros(c + 1)
        counts[0:2] = 1.0
        for j in range(3, n + 1):  # orderings of j items by concordant pairs, truncated at c
            counts = np.cumsum(counts) if n < 171 else np.cumsum(counts) / j
            if j <= c:
                counts[j:] -= counts[: c + 1 - j]
        probability = 2.0 * np.sum(counts) / math.factorial(n) if n < 171 else np.sum(counts)
    return float(np.clip(probability, 0, 1))


def p_value_methods(n: int, x: np.ndarray, y: np.ndarray) -> str:
    ties = len(np.unique(x)) < n or len(np.unique(y)) < n
    spearman = "exact-permutation" if n <= EXACT_SPEARMAN_MAX_N else "t-approx"
    kendall = "normal-approx" if ties else ("exact" if n <= 33 else "scipy-auto")
    return f"pearson:t-test|spearman:{spearman}|kendall:{kendall}"


def normalised(values) -> np.ndarray:
    """``values`` times the power of two that puts the largest finite magnitude of each row (the last
    axis) in [0.5, 1): exact, so every correlation is unchanged; all-zero rows and non-finite values
    are left as they are."""
    values = np.asarray(values, dtype=float)
    magnitude = np.where(np.isfinite(values), np.abs(values), 0.0)
    largest = np.max(magnitude, axis=-1, keepdims=True) if values.size else np.zeros(values.shape[:-1] + (1,))
    _, exponent = np.frexp(largest)
    return np.ldexp(values, np.where(largest > 0, -exponent, 0))


def undefined_reason(metric, human, items: str = "systems") -> str | None:
    """Why the correlation of two paired vectors is undefined (fewer than three ``items``, a
    non-finite score, a constant vector), or None when it is defined."""
    metric, human = np.asarray(metric, dtype=float), np.asarray(human, dtype=float)
    n = int(metric.size)
    if n < 3:
        return f"{n} {items if n != 1 else items.removesuffix('s')}; a correlation needs at least 3"
    for vector, what in ((metric, "metric"), (human, "human")):
        if not np.isfinite(vector).all():
            bad = vector[~np.isfinite(vector)][0]
            return f"a non-finite {what} score ({bad}) among the {n} {items}"
    for vector, what in ((metric, "metric"), (human, "human")):
        if np.ptp(vector) == 0:
            return f"every one of the {n} {items} has the same {what} score ({float(vector[0]):g}); a correlation " \
                   "with a constant is undefined"
    return None


def _paired(metric, human) -> tuple[np.ndarray, np.ndarray, str | None]:
    """Two score vectors as float arrays, checked (1-d, equal length, no NaN) and scaled
    (:func:`normalised`), and why their correlation is undefined (None if it is defined)."""
    metric = np.asarray(metric, dtype=float)
    human = np.asarray(human, dtype=float)
    if metric.shape != human.shape or metric.ndim != 1:
        raise ValueError(f"need two 1-d vectors of equal length, got shapes {metric.shape} and {human.shape}")
    if np.isnan(metric).any() or np.isnan(human).any():
        raise ValueError("NaN in the score vectors; drop unscored systems before correlating")
    return normalised(metric), normalised(human), undefined_reason(metric, human)


UNDEFINED = "undefined: "  # how p_method starts when the correlations are undefined; the reason follows


def correlations(metric: np.ndarray, human: np.ndarray) -> dict:
    """Pearson, Spearman and Kendall (tau-b) of two paired vectors, with two-sided p-values; where they
    are undefined, NaN and ``p_method`` = "undefined: <reason>" (:func:`undefined_reason`)."""
    metric, human, reason = _paired(metric, human)
    n = int(metric.size)
    result: dict = {"n": n}
    if reason is not None:
        for name in ("pearson", "spearman", "kendall"):
            result[name], result[f"{name}_p"] = math.nan, math.nan
        result["p_method"] = UNDEFINED + reason
        return result
    result["pearson"], result["pearson_p"] = pearson(metric, human)
    result["spearman"], spearman_p = spearman(metric, human)
    result["spearman_p"] = spearman_exact_p(metric, human) if n <= EXACT_SPEARMAN_MAX_N else spearman_p
    result["kendall"], result["kendall_p"] = kendall(metric, human)
    result["p_method"] = p_value_methods(n, metric, human)
    return result


def correlation(metric: np.ndarray, human: np.ndarray, statistic: str) -> float:
    """One coefficient of :func:`correlations` (``pearson``, ``spearman`` or ``kendall``), the same
    value, without the other two and the p-values (a sweep needs one number per setting)."""
    compute = {"pearson": pearson, "spearman": spearman, "kendall": kendall}
    if statistic not in compute:
        raise ValueError(f"unknown correlation {statistic!r}; expected one of: {', '.join(compute)}")
    metric, human, reason = _paired(metric, human)
    if reason is not None:
        return math.nan
    return compute[statistic](metric, human)[0]


@lru_cache(maxsize=4)
def resample_weights(n_items: int, n_draws: int = 1000, seed: int = 12345) -> np.ndarray:
    """Bootstrap draws as counts: row d says how often each item (segment) was drawn in draw d.
    Read-only, and the same array for the same arguments (language pairs of one test set share it)."""
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(n_items, np.full(n_items, 1.0 / n_items), size=n_draws)
    weights.flags.writeable = False  # shared by every metric and system of a language pair
    return weights


def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r of each row pair; NaN for fewer than three columns or a constant row."""
    xm = x - x.mean(axis=1, keepdims=True)
    ym = y - y.mean(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (xm * ym).sum(axis=1) / np.sqrt((xm * xm).sum(axis=1) * (ym * ym).sum(axis=1))
    undefined = (np.ptp(x, axis=1) == 0) | (np.ptp(y, axis=1) == 0) | (x.shape[1] < 3)
    return np.where(undefined, math.nan, np.clip(r, -1.0, 1.0))


def _kendall_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall tau-b of each row pair: sum of sign products over sqrt of the untied pair counts."""
    check_allocation(f"Kendall's tau of {x.shape[0]} draws x {pairs_of(x.shape[1])} pairs of systems",
                     x.shape[0] * pairs_of(x.shape[1]), 40)
    i, j = np.triu_indices(x.shape[1], k=1)
    sx, sy = np.sign(x[:, i] - x[:, j]), np.sign(y[:, i] - y[:, j])
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = (sx * sy).sum(axis=1) / np.sqrt((sx * sx).sum(axis=1) * (sy * sy).sum(axis=1))
    undefined = (np.ptp(x, axis=1) == 0) | (np.ptp(y, axis=1) == 0) | (x.shape[1] < 3)
    return np.where(undefined, math.nan, np.clip(tau, -1.0, 1.0))


def correlation_rows(metric: np.ndarray, human: np.ndarray) -> dict[str, np.ndarray]:
    """Pearson, Spearman and Kendall (tau-b) of every row pair of two (draws x systems) matrices,
    without p-values (what a bootstrap needs, vectorised over draws; equal to :func:`correlations`
    up to rounding in the last digits). In a row with NaN, only the columns known on both sides count.
    """
    metric, human = normalised(metric), normalised(human)
    out = {name: np.full(len(metric), math.nan) for name in ("pearson", "spearman", "kendall")}
    partial = np.isnan(metric).any(axis=1) | np.isnan(human).any(axis=1)
    groups = [(np.flatnonzero(~partial), None)]
    groups += [(np.array([d]), ~(np.isnan(metric[d]) | np.isnan(human[d]))) for d in np.flatnonzero(partial)]
    for rows, columns in groups:
        if not len(rows):
            continue
        m, h = metric[rows], human[rows]
        if columns is not None:
            if columns.sum() < 3:  # fewer than three systems known on both sides: undefined (NaN)
                continue
            m, h = m[:, columns], h[:, columns]
        out["pearson"][rows] = _pearson_rows(m, h)
        out["spearman"][rows] = _pearson_rows(rankdata(m, axis=1), rankdata(h, axis=1))
        out["kendall"][rows] = _kendall_rows(m, h)
    return out


def bootstrap_intervals(metric_draws: np.ndarray, human_draws: np.ndarray, alpha: float = 0.05) -> dict:
    """Percentile intervals of Pearson, Spearman and Kendall over paired bootstrap draws.

    ``metric_draws`` and ``human_draws`` are (draws x systems): both re-aggregated from the same
    resampled segments, so the interval reflects the sampling of segments on both sides. Draws
    where a correlation is undefined (a constant vector) are left out and counted.
    """
    metric_draws = np.asarray(metric_draws, dtype=float)
    human_draws = np.asarray(human_draws, dtype=float)
    if metric_draws.shape != human_draws.shape:
        raise ValueError(f"draw matrices differ in shape: {metric_draws.shape} vs {human_draws.shape}")
    values = correlation_rows(metric_draws, human_draws)
    out = {"draws": int(len(metric_draws))}
    for name, draws in values.items():
        draws = np.asarray(draws)
        finite = draws[np.isfinite(draws)]
        out[f"{name}_low"] = float(np.quantile(finite, alpha / 2)) if len(finite) else math.nan
        out[f"{name}_high"] = float(np.quantile(finite, 1 - alpha / 2)) if len(finite) else math.nan
        out[f"{name}_undefined_draws"] = int(len(draws) - len(finite))
    return out


def fisher_z_interval(r: float, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """The (1 - alpha) interval of a Pearson correlation from Fisher's z transform:
    tanh(atanh(r) -/+ z_{1-alpha/2} / sqrt(n - 3)). It needs no resampling (so no segment-level
    judgments), but assumes bivariate normal scores; NaN for n <= 3 or an undefined r."""
    if n <= 3 or not math.isfinite(r):
        return math.nan, math.nan
    if abs(r) >= 1.0:
        return float(r), float(r)
    centre, half = math.atanh(r), float(special.ndtri(1 - alpha / 2)) / math.sqrt(n - 3)
    return math.tanh(centre - half), math.tanh(centre + half)
