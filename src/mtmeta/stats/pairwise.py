"""Segment-level agreement of a metric with pairwise human judgments (pure numpy).

Each item is one human comparison of two outputs: ``human`` is +1 (the first is better), -1
(the second) or 0 (a tie), and ``delta`` is the metric's score of the first minus the second
(negated beforehand for lower-is-better metrics). With a threshold ``epsilon`` the metric calls a
tie when |delta| <= epsilon (epsilon = 0: exact equality).

Counts: C concordant, D discordant (neither side tied), T_h human-only ties, T_m metric-only ties,
T_hm ties on both sides, N all items.

- WMT Kendall variants (human ties always excluded):
  ``wmt12`` metric ties count as discordant: (C - (D + T_m)) / (C + D + T_m);
  ``wmt13`` metric ties are dropped: (C - D) / (C + D);
  ``wmt14`` metric ties stay in the denominator: (C - D) / (C + D + T_m).
- tau_b = (C - D) / sqrt((C + D + T_m)(C + D + T_h)).
- "Ties Matter" (Deutsch, Foster & Freitag 2023): tau_eq = (C + T_hm - D - T_h - T_m) / N and
  acc_eq = (C + T_hm) / N; tie calibration picks the epsilon that maximises acc_eq (or tau_eq).
- Three-way accuracy (the evaluator task): the metric predicts 1 / 0 / -1 from its two scores and
  is right when that equals the label; this is acc_eq at epsilon = 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

WMT_VARIANTS = ("wmt12", "wmt13", "wmt14")


@dataclass(frozen=True)
class Counts:
    concordant: int
    discordant: int
    human_ties: int
    metric_ties: int
    both_ties: int

    @property
    def total(self) -> int:
        return self.concordant + self.discordant + self.human_ties + self.metric_ties + self.both_ties


def _check(human, delta) -> tuple[np.ndarray, np.ndarray]:
    human = np.asarray(human)
    delta = np.asarray(delta, dtype=float)
    if human.shape != delta.shape or human.ndim != 1:
        raise ValueError(f"need two 1-d arrays of equal length, got {human.shape} and {delta.shape}")
    if not np.isin(human, (-1, 0, 1)).all():
        raise ValueError("human labels must be -1, 0 or 1")
    if np.isnan(delta).any():
        raise ValueError("NaN in metric differences")
    return human.astype(int), delta


def counts(human, delta, epsilon: float = 0.0) -> Counts:
    human, delta = _check(human, delta)
    human_tie = human == 0
    metric_tie = np.abs(delta) <= epsilon
    decided = ~human_tie & ~metric_tie
    agree = np.sign(delta).astype(int) == human
    return Counts(
        concordant=int(np.sum(decided & agree)),
        discordant=int(np.sum(decided & ~agree)),
        human_ties=int(np.sum(human_tie & ~metric_tie)),
        metric_ties=int(np.sum(~human_tie & metric_tie)),
        both_ties=int(np.sum(human_tie & metric_tie)),
    )


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else float("nan")


def wmt_kendall(human, delta, variant: str = "wmt14", epsilon: float = 0.0) -> float:
    if variant not in WMT_VARIANTS:
        raise ValueError(f"unknown WMT Kendall variant {variant!r}; known: {', '.join(WMT_VARIANTS)}")
    c = counts(human, delta, epsilon)
    if variant == "wmt12":
        return _ratio(c.concordant - c.discordant - c.metric_ties, c.concordant + c.discordant + c.metric_ties)
    if variant == "wmt13":
        return _ratio(c.concordant - c.discordant, c.concordant + c.discordant)
    return _ratio(c.concordant - c.discordant, c.concordant + c.discordant + c.metric_ties)


def tau_b(human, delta, epsilon: float = 0.0) -> float:
    c = counts(human, delta, epsilon)
    decided = c.concordant + c.discordant
    return _ratio(c.concordant - c.discordant, np.sqrt((decided + c.metric_ties) * (decided + c.human_ties)))


def tau_eq(human, delta, epsilon: float = 0.0) -> float:
    c = counts(human, delta, epsilon)
    return _ratio(c.concordant + c.both_ties - c.discordant - c.human_ties - c.metric_ties, c.total)


def acc_eq(human, delta, epsilon: float = 0.0) -> float:
    c = counts(human, delta, epsilon)
    return _ratio(c.concordant + c.both_ties, c.total)


def three_way_accuracy(human, delta) -> float:
    """Share of labels 1 / 0 / -1 the metric predicts exactly (ties included)."""
    return acc_eq(human, delta, 0.0)


def calibrate_epsilon(human, delta, statistic: str = "acc_eq", weight=None) -> tuple[float, float]:
    """The threshold (among 0 and every |delta|) maximising acc_eq or tau_eq; returns (value, epsilon).

    All candidates are evaluated at once: sorting |delta|, each item turns into a metric tie once
    epsilon reaches its |delta|, which moves it from C or D to T_m, or from T_h to T_hm. ``weight``:
    how often each item counts (distinct comparisons with their repeats), 1 each by default.
    """
    if statistic not in ("acc_eq", "tau_eq"):
        raise ValueError(f"tie calibration optimises acc_eq or tau_eq, not {statistic!r}")
    human, delta = _check(human, delta)
    n = len(human)
    if n == 0:
        return float("nan"), 0.0
    w = np.ones(n, dtype=np.int64) if weight is None else np.asarray(weight, dtype=np.int64)
    if w.shape != human.shape or (w < 0).any():
        raise ValueError(f"need one non-negative weight per item, got shape {w.shape}")
    order = np.argsort(np.abs(delta))  # order within a run of equal |delta| does not matter
    magnitude = np.abs(delta)[order]
    h = human[order]
    w = w[order]
    agree = np.where((np.sign(delta[order]).astype(int) == h) & (h != 0), w, 0)
    disagree = np.where(h != 0, w, 0) - agree
    human_tie = np.where(h == 0, w, 0)
    # After the first k items become metric ties (prefix sums over the sorted order):
    prefix = lambda x: np.concatenate([[0], np.cumsum(x)])  # noqa: E731
    c = agree.sum() - prefix(agree)
    d = disagree.sum() - prefix(disagree)
    t_hm = prefix(human_tie)
    t_h = human_tie.sum() - t_hm
    t_m = prefix(w - human_tie)
    total = int(w.sum())
    if total == 0:
        return float("nan"), 0.0
    # Valid cut points: k = 0 (epsilon below every nonzero |delta|) and the ends of runs of equal |delta|.
    ends = np.concatenate([np.flatnonzero(np.diff(magnitude) > 0) + 1, [n]])
    cuts = np.concatenate([[0], ends]) if magnitude[0] > 0 else ends
    if statistic == "acc_eq":
        values = (c + t_hm)[cuts] / total
    else:
        values = (c + t_hm - d - t_h - t_m)[cuts] / total
    best = int(np.argmax(values))
    k = cuts[best]
    epsilon = 0.0 if k == 0 else float(magnitude[k - 1])
    return float(values[best]), epsilon


def all_pairs(gold, metric) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of items as (human sign, metric difference): Kendall's setting over a vector."""
    gold = np.asarray(gold, dtype=float)
    metric = np.asarray(metric, dtype=float)
    i, j = np.triu_indices(len(gold), k=1)
    return np.sign(gold[i] - gold[j]).astype(int), metric[i] - metric[j]
