"""The reference levels of an official task: what a metric without information scores (chance),
what a metric that ties every pair scores (the acc_eq floor) and, where several raters rated the
same outputs, what one rater scores against the others (human).

Chance: the expected value of the task's statistic for a metric whose scores are independent of
everything, drawn afresh for every cell (i.i.d. standard normal; it never ties). That one metric
serves every row of a task table, so the level is the same for every metric in the task:

- Pearson, Spearman, Kendall (any grouping) and KendallLike: 0, exactly (:mod:`mtmeta.stats.chance`);
- pairwise accuracy, pooled over pairs: half of the pairs the gold does not tie, exactly;
- soft pairwise accuracy: a permutation test's p-value is uniform on [0, 1] under its null, and
  E|p_gold - U| = (p_gold^2 + (1 - p_gold)^2) / 2 for U uniform, so the level is 1 - the mean of that
  over the gold's pairs;
- tie-calibrated acc_eq / tau_eq: no closed form (the calibrated threshold maximises over each
  draw), so the mean over ``draws`` seeded draws of the noise metric, each calibrated on its own, with
  the Monte-Carlo standard error. A metric that ties often has another level (its own scores permuted:
  the study's protocol and level tables give it); the floor row says what tying every pair gets.

Human (:func:`human_level`): each segment's three raters; one held out by the seeded rule of
:mod:`mtmeta.stats.ceiling`, the task's statistic of that single rating against the mean of the
other two, averaged over the three rotations. It is measured against the two-rater mean, not the
task's three-rater gold, so it is the level of a metric against that same two-rater gold (the
study's level tables compare the metrics there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mtmeta.data.wmt23 import rating_array
from mtmeta.stats.chance import all_tied_acc_eq, expected_global_accuracy
from mtmeta.stats.grouped import layout
from mtmeta.stats.system_pairs import pairwise_p_values, pooled_pairwise_accuracy
from mtmeta.stats.tie_calibration import calibrate, enumerate_pairs

LEVEL_DRAWS = 100  # noise metrics drawn for a tie-calibrated task's chance level
CHANCE = "chance"
FLOOR = "all tied"
HUMAN = "human"
CHANCE_NOTE = ("chance: a metric without information (independent standard normal scores, never tied): exact for "
               "correlations (0), pairwise accuracy (half the gold's untied pairs) and soft pairwise accuracy "
               "(uniform p-values); for tie-calibrated acc_eq the mean over {draws} seeded draws, each calibrated")
FLOOR_NOTE = "all tied: the acc_eq of a metric that ties every pair (the share of gold-tied pairs), which tie " \
             "calibration can always reach"
HUMAN_NOTE = ("human: one rater against the mean of the other two raters of each segment (seeded held-out rule, "
              "three rotations averaged), from {files}; it is measured against that two-rater mean, not against "
              "the task's gold")


@dataclass(frozen=True)
class Level:
    value: float
    standard_error: float = 0.0  # Monte-Carlo standard error (0 for an exact level)
    draws: int = 0
    method: str = "exact"


NO_LEVEL = Level(math.nan, math.nan, 0, "none")


def _variant(args: dict) -> str:
    return {"acc23": "acc_eq", "23": "tau_eq"}[args.get("variant", "acc23")]


def chance_level(corr_fcn: str, gold: np.ndarray, *, avg_by: str = "none", args: dict | None = None,
                 set_sizes=None, draws: int = LEVEL_DRAWS, seed: int = 12345) -> Level:
    """The chance level of one task (``gold``: systems x items, or the pooled system vector with
    ``set_sizes`` for ``accuracy``)."""
    gold = np.asarray(gold, dtype=float)
    if corr_fcn in ("pearson", "spearman", "kendall", "KendallLike"):
        return Level(0.0)
    if corr_fcn == "accuracy":
        bounds = np.concatenate([[0], np.cumsum(set_sizes if set_sizes is not None else [gold.size])])
        flat = gold.ravel()
        return Level(expected_global_accuracy([(flat[a:b], None) for a, b in zip(bounds[:-1], bounds[1:],
                                                                                 strict=True)]))
    if corr_fcn == "pce":
        if len(gold) < 2:
            return NO_LEVEL
        p = pairwise_p_values(gold)[np.triu_indices(len(gold), k=1)]
        return Level(float(1.0 - np.mean((p ** 2 + (1 - p) ** 2) / 2)), 0.0, 0, "exact (uniform p-values)")
    if corr_fcn == "KendallWithTiesOpt":
        if draws < 2:
            raise ValueError(f"need at least 2 draws for a tie-calibrated chance level, got {draws}")
        variant = _variant(args or {})
        rng = np.random.default_rng(seed)
        values = np.array([calibrate(enumerate_pairs(layout(gold, rng.standard_normal(gold.shape), avg_by)),
                                     variant).value for _ in range(draws)])
        values = values[np.isfinite(values)]
        if len(values) < 2:
            return NO_LEVEL
        return Level(float(values.mean()), float(values.std(ddof=1) / math.sqrt(len(values))), len(values),
                     f"noise draws, seed {seed}")
    return NO_LEVEL


def floor_level(corr_fcn: str, gold: np.ndarray, *, avg_by: str = "none", args: dict | None = None) -> Level:
    """A tie-calibrated acc_eq task's floor: every pair tied. None for other tasks."""
    if corr_fcn != "KendallWithTiesOpt" or _variant(args or {}) != "acc_eq":
        return NO_LEVEL
    return Level(all_tied_acc_eq(np.asarray(gold, dtype=float), average_by=avg_by))


def read_raters(path: str | Path, systems: list[str], n_segments: int) -> np.ndarray:
    """raters x systems x segments from ``<lp>.raters.tsv`` (system, seg_id, rater, score), the
    systems in ``systems``' order, segments 1..n_segments; NaN where a rater did not rate a cell."""
    import pandas as pd

    from mtmeta.errors import InputError

    path = Path(path)
    table = pd.read_csv(path, sep="\t", dtype={"system": str, "rater": str}, keep_default_na=False)
    missing = {"system", "seg_id", "rater", "score"} - set(table.columns)
    if missing:
        raise InputError(path, f"no column(s) {sorted(missing)}", expected="columns system, seg_id, rater, score")
    scores = pd.to_numeric(table["score"], errors="coerce")
    seg_ids = pd.to_numeric(table["seg_id"], errors="coerce")
    bad = scores.isna() | seg_ids.isna() | (seg_ids % 1 != 0) | (seg_ids < 1) | (seg_ids > n_segments)
    if bad.any():
        line = int(np.flatnonzero(bad.to_numpy())[0]) + 2
        raise InputError(path, f"line {line}: seg_id {table['seg_id'].iloc[line - 2]!r} or score "
                         f"{table['score'].iloc[line - 2]!r} is not usable",
                         expected=f"an integer seg_id in 1..{n_segments} and a numeric score")
    if table.duplicated(["system", "seg_id", "rater"]).any():
        first = table[table.duplicated(["system", "seg_id", "rater"])].iloc[0]
        raise InputError(path, f"rater {first['rater']} rated {first['system']} segment {first['seg_id']} twice",
                         expected="one score per rater, system and segment")
    checked = table.assign(seg_id=seg_ids.astype(int), score=scores)
    return rating_array(checked, list(systems), range(1, n_segments + 1))[1]


def _system_means(gold: np.ndarray, metric: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each system's mean of the gold and of the metric over the segments its gold rates (NaN for a
    system with none), as a task's system-level gold averages its segments."""
    known = ~np.isnan(gold)
    means = [np.array([row[k].mean() if k.any() else np.nan for row, k in zip(matrix, known, strict=True)])
             for matrix in (gold, metric)]
    return means[0], means[1]


def _task_value(corr_fcn: str, level: str, gold: np.ndarray, metric: np.ndarray, avg_by: str, args: dict) -> float:
    """The task's statistic of a (gold, metric) pair of systems x segments matrices; at system level
    each system's mean over the segments it was rated on."""
    from mtmeta.stats.kendall_like import grouped_kendall_like
    from mtmeta.stats.permutation import metric_value

    if level == "sys" and corr_fcn != "pce":
        gold, metric = _system_means(gold, metric)
    if corr_fcn == "KendallLike":
        return grouped_kendall_like(gold, metric, average_by=avg_by, threshold=float(args.get("thresh", 25.0))).value
    if corr_fcn == "KendallWithTiesOpt":
        return calibrate(enumerate_pairs(layout(gold, metric, avg_by)), _variant(args)).value
    if corr_fcn == "pce":
        keep = ~np.isnan(gold).any(axis=0)
        return metric_value(gold[:, keep], metric[:, keep], "spa")
    return metric_value(gold, metric, corr_fcn, average_by=avg_by)


def human_level(corr_fcn: str, level: str, ratings: list[np.ndarray], *, avg_by: str = "none",
                args: dict | None = None, seed: int = 12345) -> Level:
    """The human level of one task: ``ratings`` holds, per pair of the task, raters x systems x
    segments (the task's systems; those no rater rated are left out, and the method says how many);
    rotation r holds out the same slot order as
    :func:`mtmeta.stats.ceiling.rotations` with ``seed``; pooled accuracy pools each rotation's pairs."""
    from mtmeta.stats.ceiling import rater_slots, rotations

    args = args or {}
    # A system no rater rated (a human translation that was not in the rating) has no human level.
    rated = [np.isfinite(r).any(axis=(0, 2)) for r in ratings]
    unrated = sum(int((~keep).sum()) for keep in rated)
    ratings = [r[:, keep] for r, keep in zip(ratings, rated, strict=True)]
    if any(r.shape[1] < 2 or rater_slots(r, 3)[1].sum() == 0 for r in ratings):
        return NO_LEVEL
    by_pair = [list(rotations(r, 3, seed)) for r in ratings]
    values = []
    for rotation in zip(*by_pair, strict=True):
        if corr_fcn == "accuracy":
            values.append(pooled_pairwise_accuracy([_system_means(gold, single) for single, gold in rotation])[0])
        else:
            single, gold = rotation[0]
            values.append(_task_value(corr_fcn, level, gold, np.where(np.isnan(gold), 0.0, single), avg_by, args))
    values = np.array(values, dtype=float)
    if not np.isfinite(values).all():
        return NO_LEVEL
    method = f"three rotations, seed {seed}" + (f"; {unrated} system(s) without ratings left out" if unrated else "")
    return Level(float(values.mean()), 0.0, len(values), method)


def average_level(levels: list[Level], ranges: list[tuple[float, float]], weights: list[float]) -> float:
    """A row of levels averaged as MTME's ``AverageCorrs`` averages a metric: each rescaled to [0, 1]
    by its task's range, weighted; NaN unless every task has the level."""
    if not levels or any(math.isnan(level.value) for level in levels):
        return math.nan
    return float(sum((level.value - b) / (e - b) * w for level, (b, e), w in zip(levels, ranges, weights,
                                                                                  strict=True)))
