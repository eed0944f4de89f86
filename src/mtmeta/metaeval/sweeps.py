"""Parameter sweeps from cached sufficient statistics (no re-alignment, no I/O).

A sweep re-scores a metric's stored statistics for every setting of a grid and measures each
setting against human judgments on several *targets*:

- ``three_way_accuracy`` / ``tau_<variant>`` / ``acc_eq`` ...: segment level, over the pairwise
  human comparisons of a dataset x language pair (the statistics of :mod:`mtmeta.stats.pairwise`);
- ``pearson`` / ``spearman`` / ``kendall``: system level, the metric's corpus scores (re-scored from
  summed statistics) against a human system score.

Cross-validation: the segments are split into two halves at random (seeded). For each half the
best setting is chosen on it and evaluated on the other half, so the gap between the in-sample
optimum and the held-out value shows how much tuning on test data flatters a setting.
"""

from __future__ import annotations

import itertools
import logging
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mtmeta.errors import ConfigError
from mtmeta.metrics import score_tables
from mtmeta.stats import pairwise
from mtmeta.stats.correlation import correlation
from mtmeta.stats.human import system_scores

log = logging.getLogger(__name__)

SYSTEM_STATISTICS = ("pearson", "spearman", "kendall")


# More settings than this is a typo (a step of 1e-9), not a study: each setting re-scores every target.
MAX_SETTINGS = 100_000


def _axis(name: str, values) -> list:
    """One grid axis's values: a list, or a ``{start, stop, step}`` range, counted before it is built."""
    if isinstance(values, dict):
        start, stop, step = (float(values[k]) for k in ("start", "stop", "step"))
        if not step > 0:
            raise ConfigError(f"grid axis {name!r}: step must be > 0, got {values['step']!r}")
        if stop < start:
            raise ConfigError(f"grid axis {name!r} is empty: stop {values['stop']!r} < start {values['start']!r}")
        count = math.floor((stop - start) / step + 1e-9) + 1
        if count > MAX_SETTINGS:
            raise ConfigError(f"grid axis {name!r} has {count:,} values (start {values['start']!r}, stop "
                              f"{values['stop']!r}, step {values['step']!r}); expected at most {MAX_SETTINGS:,} "
                              "settings in a sweep")
        values = [round(start + k * step, 10) for k in range(count)]
    if not len(values):
        raise ConfigError(f"grid axis {name!r} is empty")
    return [float(v) if not isinstance(v, (list, tuple)) else list(v) for v in values]


def expand_grid(grid: dict) -> list[dict]:
    """Every combination of a grid whose values are lists or ``{start, stop, step}`` ranges.

    A range runs from ``start`` in steps of ``step`` up to ``stop`` and never past it (``stop`` itself
    when it is on the grid, up to a rounding error of 1e-9 steps); an empty axis is an error, and so is
    a grid of more than :data:`MAX_SETTINGS` settings (counted before any is built).
    """
    axes = {name: _axis(name, values) for name, values in grid.items()}
    size = math.prod(len(values) for values in axes.values())
    if size > MAX_SETTINGS:
        counts = " x ".join(f"{len(values):,} {name}" for name, values in axes.items())
        raise ConfigError(f"the grid has {size:,} settings ({counts}); expected at most {MAX_SETTINGS:,}")
    names = list(axes)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(axes[n] for n in names))]


@dataclass
class SegmentTarget:
    """One dataset x lp judged by pairwise comparisons."""

    dataset: str
    lp: str
    statistic: str
    stats: np.ndarray  # segment statistics, one row per (system, segment)
    index_a: np.ndarray  # row of the first output of each comparison
    index_b: np.ndarray
    human: np.ndarray  # +1 / -1 / 0
    seg_of_comparison: np.ndarray


@dataclass
class SystemTarget:
    """One dataset x lp judged at system level."""

    dataset: str
    lp: str
    statistic: str
    human_score: str
    stats: np.ndarray  # segment statistics, rows grouped by system
    system_of_row: np.ndarray  # system index of each row
    seg_of_row: np.ndarray
    comparisons: pd.DataFrame
    systems: list[str]


def segment_target(dataset: str, lp: str, statistic: str, seg_table: pd.DataFrame, stat_columns: list[str],
                   comparisons: pd.DataFrame) -> SegmentTarget:
    rows = {key: k for k, key in enumerate(zip(seg_table["system"], seg_table["seg_id"], strict=True))}
    try:
        index_a = np.array([rows[key] for key in zip(comparisons["sys_a"], comparisons["seg_id"], strict=True)])
        index_b = np.array([rows[key] for key in zip(comparisons["sys_b"], comparisons["seg_id"], strict=True)])
    except KeyError as exc:
        raise ValueError(f"{dataset} {lp}: comparison of {exc.args[0]} has no statistics") from None
    human = comparisons["outcome"].map({"a": 1, "b": -1, "tie": 0}).to_numpy().astype(int)
    return SegmentTarget(dataset, lp, statistic, seg_table[stat_columns].to_numpy(dtype=float), index_a, index_b,
                         human, comparisons["seg_id"].to_numpy())


def system_target(dataset: str, lp: str, statistic: str, human_score: str, seg_table: pd.DataFrame,
                  stat_columns: list[str], comparisons: pd.DataFrame, judged: list[str]) -> SystemTarget:
    table = seg_table[seg_table["system"].isin(judged)]
    systems = sorted(table["system"].unique())
    position = {s: k for k, s in enumerate(systems)}
    return SystemTarget(dataset, lp, statistic, human_score, table[stat_columns].to_numpy(dtype=float),
                        table["system"].map(position).to_numpy(), table["seg_id"].to_numpy(), comparisons, systems)


def split_halves(seg_ids: np.ndarray, seed: int) -> tuple[set, set]:
    """Two random halves of the distinct segment ids (seeded)."""
    unique = np.unique(seg_ids)
    rng = np.random.default_rng(seed)
    shuffled = rng.permutation(unique)
    half = len(shuffled) // 2
    return set(shuffled[:half].tolist()), set(shuffled[half:].tolist())


def evaluate_segment(target: SegmentTarget, scores: np.ndarray, mask: np.ndarray, higher_is_better: bool) -> float:
    delta = scores[target.index_a[mask]] - scores[target.index_b[mask]]
    if not higher_is_better:
        delta = -delta
    human = target.human[mask]
    statistic = target.statistic
    if statistic == "three_way_accuracy":
        return pairwise.three_way_accuracy(human, delta)
    if statistic.startswith("tau_") and statistic[4:] in pairwise.WMT_VARIANTS:
        return pairwise.wmt_kendall(human, delta, statistic[4:])
    return {"tau_b": pairwise.tau_b, "tau_eq": pairwise.tau_eq, "acc_eq": pairwise.acc_eq}[statistic](human, delta)


def evaluate_system(target: SystemTarget, corpus_scores: np.ndarray, human: np.ndarray, higher_is_better: bool):
    sign = 1.0 if higher_is_better else -1.0
    usable = ~np.isnan(human)
    return correlation(sign * corpus_scores[usable], human[usable], target.statistic)


def run_sweep(settings: list[dict], targets: list, rescore_segments, corpus_score, higher_is_better: bool = True,
              seed: int = 12345) -> pd.DataFrame:
    """Evaluate every setting on every target, on all segments and on each random half.

    ``rescore_segments(target, stats, setting)`` gives segment scores; ``corpus_score(target, stats,
    weights, setting)`` a corpus score from statistics counted with weights (0/1 to select a half of
    the segments). Both get the target, whose language may set the metric's other parameters.
    Returns a tidy table: one row per setting x target x split (``all``, ``A``, ``B``).
    """
    records = []
    for target in targets:
        seg_ids = target.seg_of_comparison if isinstance(target, SegmentTarget) else target.seg_of_row
        half_a, half_b = split_halves(seg_ids, seed)
        splits = {"all": None, "A": half_a, "B": half_b}
        if isinstance(target, SystemTarget):
            human = {}
            for split, keep in splits.items():
                chosen = target.comparisons
                if keep is not None:
                    chosen = chosen[chosen["seg_id"].isin(keep)]
                scores = system_scores(chosen).set_index("system")[target.human_score]
                human[split] = scores.reindex(target.systems).to_numpy(dtype=float)
            weights = {split: np.ones(len(target.stats)) if keep is None else np.isin(target.seg_of_row, list(keep))
                       .astype(float) for split, keep in splits.items()}
            # Each system's rows and weights, sliced once rather than once per setting.
            rows = [np.flatnonzero(target.system_of_row == k) for k in range(len(target.systems))]
            parts = {split: [(target.stats[r], w[r]) for r in rows] for split, w in weights.items()}
        else:
            masks = {split: np.ones(len(target.human), bool) if keep is None else np.isin(target.seg_of_comparison,
                                                                                          list(keep))
                     for split, keep in splits.items()}
        for setting in settings:
            if isinstance(target, SegmentTarget):
                scores = rescore_segments(target, target.stats, setting)
                for split, mask in masks.items():
                    records.append({**setting, "dataset": target.dataset, "lp": target.lp,
                                    "statistic": target.statistic, "split": split, "n": int(mask.sum()),
                                    "value": evaluate_segment(target, scores, mask, higher_is_better)})
            else:
                for split, by_system in parts.items():
                    corpus = np.array([corpus_score(target, stats, w, setting) for stats, w in by_system])
                    records.append({**setting, "dataset": target.dataset, "lp": target.lp,
                                    "statistic": f"{target.statistic}_{target.human_score}", "split": split,
                                    "n": len(target.systems),
                                    "value": evaluate_system(target, corpus, human[split], higher_is_better)})
    return pd.DataFrame(records)


def best_settings(table: pd.DataFrame, parameters: list[str]) -> pd.DataFrame:
    """Per dataset x lp x statistic: the in-sample best setting and the cross-validated estimate.

    ``cv_value`` is the mean over the two halves of the value, on one half, of the setting chosen
    on the other. Ties between settings go to the first in grid order. A setting whose value is
    undefined (NaN) is never the best; where every setting's value is undefined (on the pair or on a
    half), the row has NaN values, no setting, and ``note`` says so.
    """
    rows = []
    for (dataset, lp, statistic), group in table.groupby(["dataset", "lp", "statistic"], sort=False):
        by_split = {split: frame.reset_index(drop=True) for split, frame in group.groupby("split")}
        full = by_split["all"]
        undefined = [split for split in ("all", "A", "B") if by_split[split]["value"].isna().all()]
        if undefined:
            rows.append({"dataset": dataset, "lp": lp, "statistic": statistic,
                         **{f"best_{p}": None for p in parameters}, "best_value": math.nan,
                         **{f"chosen_on_A_{p}": None for p in parameters}, "value_on_B": math.nan,
                         **{f"chosen_on_B_{p}": None for p in parameters}, "value_on_A": math.nan,
                         "cv_value": math.nan,
                         "note": f"no best setting: every setting's {statistic} is undefined on "
                                 + " and ".join("the whole pair" if s == "all" else f"half {s}" for s in undefined)})
            continue
        best = full.loc[full["value"].idxmax()]
        held_out = []
        for choose, report in (("A", "B"), ("B", "A")):
            chosen = by_split[choose].loc[by_split[choose]["value"].idxmax(), parameters]
            match = (by_split[report][parameters] == chosen.to_numpy()).all(axis=1)
            held_out.append((chosen.to_dict(), float(by_split[report].loc[match, "value"].iloc[0])))
        rows.append({
            "dataset": dataset, "lp": lp, "statistic": statistic,
            **{f"best_{p}": best[p] for p in parameters}, "best_value": best["value"],
            **{f"chosen_on_A_{p}": held_out[0][0][p] for p in parameters}, "value_on_B": held_out[0][1],
            **{f"chosen_on_B_{p}": held_out[1][0][p] for p in parameters}, "value_on_A": held_out[1][1],
            "cv_value": (held_out[0][1] + held_out[1][1]) / 2, "note": "",
        })
    return pd.DataFrame(rows)


def sweep_targets(sweep: dict, inputs: dict[tuple[str, str], tuple[pd.DataFrame, pd.DataFrame]]) -> list:
    """The targets of a sweep's config entry (``targets``: statistic, datasets, human score) on the
    inputs: (dataset, lp) -> (segment scores with statistics, human comparisons)."""
    targets = []
    for target in sweep["targets"]:
        for (dataset, lp), (seg, comparisons) in inputs.items():
            if dataset not in target["datasets"]:
                continue
            columns = score_tables.stat_columns(seg)
            if target["statistic"] in SYSTEM_STATISTICS:
                judged = sorted(set(comparisons["sys_a"]) | set(comparisons["sys_b"]))
                targets.append(system_target(dataset, lp, target["statistic"], target["human_score"], seg, columns,
                                             comparisons, judged))
            else:
                targets.append(segment_target(dataset, lp, target["statistic"], seg, columns, comparisons))
    return targets


def sweep_metric(name: str, sweep: dict, spec,
                 inputs: dict[tuple[str, str], tuple[pd.DataFrame, pd.DataFrame]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A configured sweep ``name`` of a metric (a :class:`~mtmeta.metrics.spec.MetricSpec` or its entry) on its inputs:
    the tidy table of every setting x target x split, and the best settings (:func:`best_settings`)."""
    from mtmeta.data.corpus import split_lp
    from mtmeta.metrics.spec import MetricSpec

    spec = MetricSpec.of(spec)
    by_language = {}

    def metric_for(target):
        """The metric in the target language: language presets set the parameters a grid leaves fixed."""
        trg = split_lp(target.lp)[1]
        if trg not in by_language:
            by_language[trg] = spec.build(trg)
            if not hasattr(by_language[trg], "rescore"):
                raise ValueError(f"metric {spec.id} cannot be re-scored from its statistics")
        return by_language[trg]

    targets = sweep_targets(sweep, inputs)
    fixed = sweep.get("fixed", {})
    settings = expand_grid(sweep["grid"])
    log.info("%s: %d settings x %d targets", name, len(settings), len(targets))
    table = run_sweep(
        settings,
        targets,
        rescore_segments=lambda target, stats, setting: metric_for(target).rescore(stats, **fixed, **setting),
        corpus_score=lambda target, stats, weights, setting: metric_for(target).corpus_rescore(
            stats, weights, **fixed, **setting),
        higher_is_better=spec.higher_is_better,
        seed=sweep.get("seed", 12345),
    )
    for parameter, value in fixed.items():
        table.insert(0, parameter, value)
    table.insert(0, "metric", spec.id)
    table.insert(0, "sweep", name)
    best = best_settings(table, list(sweep["grid"]))
    best.insert(0, "sweep", name)
    return table, best


def sweep_title(name: str, sweep: dict, metric_id: str) -> str:
    fixed = sweep.get("fixed", {})
    return f"{name}: {metric_id} ({', '.join(f'{k} {v:g}' for k, v in fixed.items())})"
