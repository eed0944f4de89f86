"""Bootstrap intervals of system-level statistics that resample systems, segments or both.

A system-level correlation has two sources of sampling error: which systems took part, and which
segments they were scored on. The study's other bootstrap (``metaeval.bootstrap``) resamples
segments only. Here, after Deutsch, Dror & Roth (2021, "A Statistical Analysis of Summarization
Evaluation Metrics using Resampling Methods"), each draw resamples

- ``systems``: the systems with replacement, segments fixed (their BOOT-SYSTEMS);
- ``segments``: the segments with replacement, systems fixed (BOOT-INPUTS);
- ``both``: both, independently (BOOT-BOTH): the interval a claim about new systems on new text needs.

A draw's system scores come from its segment weights: :func:`system_means` averages segment scores
(the "mean of segment scores" aggregation; missing gold cells are left out of the mean), and a
caller with corpus-level metrics (BLEU, chrF ...) re-aggregates their sufficient statistics with
``plan.segment_counts`` instead and passes the draws. The drawn systems then pick the columns.
A system drawn twice is two points for Pearson, Spearman and Kendall (its copies tie on both sides,
which tau-b leaves out); pairwise accuracy skips pairs of copies of one system, which compare nothing.
Draws where the statistic is undefined (a constant vector, fewer than three distinct systems) are
left out of the percentiles and counted. Every interval names its method (``boot-systems``,
``boot-segments``, ``boot-both``), its draws and seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mtmeta.stats import correlation
from mtmeta.stats.memory_limit import check_allocation, pairs_of

METHODS = ("systems", "segments", "both")
STATISTICS = ("pearson", "spearman", "kendall", "accuracy")


@dataclass(frozen=True)
class ResamplingPlan:
    method: str
    systems: np.ndarray  # draws x systems: which system fills each position (identity rows if not resampled)
    segment_counts: np.ndarray | None  # draws x segments: how often each segment is drawn (None: all once)
    seed: int

    @property
    def draws(self) -> int:
        return len(self.systems)


@dataclass(frozen=True)
class Interval:
    statistic: str
    method: str  # boot-systems, boot-segments or boot-both
    low: float
    high: float
    draws: int
    undefined_draws: int
    alpha: float
    seed: int


def resampling_plan(n_systems: int, n_segments: int, method: str, n_draws: int = 1000,
                    seed: int = 12345) -> ResamplingPlan:
    """The draws of one bootstrap: systems first, then segments, from ``default_rng(seed)``."""
    if method not in METHODS:
        raise ValueError(f"unknown resampling method {method!r}; expected one of: {', '.join(METHODS)}")
    rng = np.random.default_rng(seed)
    if method in ("systems", "both"):
        systems = rng.integers(0, n_systems, size=(n_draws, n_systems))
    else:
        systems = np.tile(np.arange(n_systems), (n_draws, 1))
    counts = None
    if method in ("segments", "both"):
        drawn = rng.integers(0, n_segments, size=(n_draws, n_segments))
        offsets = (np.arange(n_draws) * n_segments)[:, None]  # one bincount over all draws at once
        counts = np.bincount((drawn + offsets).ravel(), minlength=n_draws * n_segments).reshape(n_draws, n_segments)
    return ResamplingPlan(method, systems, counts, seed)


def system_means(segment_scores, segment_counts: np.ndarray | None) -> np.ndarray:
    """(draws x systems) means of each system's segment scores under each draw's segment counts
    (one row, the plain means, without counts); NaN cells are left out, NaN if none is left."""
    scores = np.asarray(segment_scores, dtype=float)
    if scores.ndim != 2:
        raise ValueError(f"need a systems x segments matrix, got shape {scores.shape}")
    known = ~np.isnan(scores)
    counts = np.ones((1, scores.shape[1])) if segment_counts is None else np.asarray(segment_counts, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (counts @ np.where(known, scores, 0.0).T) / (counts @ known.T)


def _picked(system_draws: np.ndarray, plan: ResamplingPlan) -> np.ndarray:
    system_draws = np.asarray(system_draws, dtype=float)
    if system_draws.ndim == 1:
        system_draws = system_draws[None, :]
    if system_draws.shape[0] == 1:
        system_draws = np.broadcast_to(system_draws, (plan.draws, system_draws.shape[1]))
    if system_draws.shape[0] != plan.draws or plan.systems.max(initial=0) >= system_draws.shape[1]:
        raise ValueError(f"system scores per draw have shape {system_draws.shape}; the plan has {plan.draws} "
                         f"draws over {plan.systems.max(initial=0) + 1} or more systems")
    return np.take_along_axis(system_draws, plan.systems, axis=1)


def resampled_values(gold_draws, metric_draws, plan: ResamplingPlan, statistic: str) -> np.ndarray:
    """The statistic of every draw; gold and metric system scores are (draws x systems), or one row
    when fixed (a metric whose system scores do not depend on the segments drawn)."""
    if statistic not in STATISTICS:
        raise ValueError(f"unknown statistic {statistic!r}; expected one of: {', '.join(STATISTICS)}")
    if statistic != "accuracy":
        return correlation.correlation_rows(_picked(metric_draws, plan), _picked(gold_draws, plan))[statistic]
    agree, pairs = _agreement(gold_draws, metric_draws, plan)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pairs > 0, agree / pairs, math.nan)


def _agreement(gold_draws, metric_draws, plan: ResamplingPlan) -> tuple[np.ndarray, np.ndarray]:
    """Per draw, agreeing system pairs and pairs counted (two distinct systems with gold scores)."""
    gold, metric = _picked(gold_draws, plan), _picked(metric_draws, plan)
    n_systems = plan.systems.shape[1]
    check_allocation(f"pairwise accuracy of {gold.shape[0]} draws x {pairs_of(n_systems)} pairs of systems",
                     gold.shape[0] * pairs_of(n_systems), 40)
    i, j = np.triu_indices(n_systems, k=1)
    counted = (plan.systems[:, i] != plan.systems[:, j]) & ~np.isnan(gold[:, i]) & ~np.isnan(gold[:, j])
    agree = (np.sign(gold[:, i] - gold[:, j]) == np.sign(metric[:, i] - metric[:, j])) & counted
    return agree.sum(axis=1), counted.sum(axis=1)


def percentile_interval(values: np.ndarray, statistic: str, plan: ResamplingPlan, alpha: float = 0.05) -> Interval:
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    low = float(np.quantile(finite, alpha / 2)) if len(finite) else math.nan
    high = float(np.quantile(finite, 1 - alpha / 2)) if len(finite) else math.nan
    return Interval(statistic, f"boot-{plan.method}", low, high, plan.draws, int(len(values) - len(finite)),
                    alpha, plan.seed)


def system_level_interval(gold_draws, metric_draws, plan: ResamplingPlan, statistic: str,
                          alpha: float = 0.05) -> Interval:
    """The percentile interval of a system-level statistic over the plan's draws."""
    return percentile_interval(resampled_values(gold_draws, metric_draws, plan, statistic), statistic, plan, alpha)


def segment_mean_interval(gold_segments, metric_segments, statistic: str, *, method: str, n_draws: int = 1000,
                          seed: int = 12345, alpha: float = 0.05) -> Interval:
    """The interval when both sides' system scores are means of segment scores (systems x segments)."""
    gold_segments = np.asarray(gold_segments, dtype=float)
    plan = resampling_plan(gold_segments.shape[0], gold_segments.shape[1], method, n_draws, seed)
    gold = system_means(gold_segments, plan.segment_counts)
    metric = system_means(metric_segments, plan.segment_counts)
    return system_level_interval(gold, metric, plan, statistic, alpha)


def pooled_accuracy_interval(sets, alpha: float = 0.05) -> Interval:
    """Pooled pairwise accuracy over several eval sets: ``sets`` holds (gold_draws, metric_draws, plan)
    per set, all plans with the same number of draws and method; each draw pools agreeing pairs and
    pairs over the sets."""
    sets = list(sets)
    plans = [plan for _, _, plan in sets]
    if len({(p.draws, p.method) for p in plans}) != 1:
        raise ValueError("pooled accuracy needs plans with the same number of draws and method")
    agree = pairs = 0
    for gold_draws, metric_draws, plan in sets:
        set_agree, set_pairs = _agreement(gold_draws, metric_draws, plan)
        agree, pairs = agree + set_agree, pairs + set_pairs
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.where(pairs > 0, agree / pairs, math.nan)
    return percentile_interval(values, "accuracy", plans[0], alpha)
