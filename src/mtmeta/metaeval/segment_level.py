"""Segment-level agreement of metric scores with pairwise human comparisons.

Beside every statistic, its chance level (``chance_<statistic>``; :func:`mtmeta.stats.chance.judgment_chance`):
what the metric's own segment scores, permuted among the systems of each segment, score in
expectation, the human labels (ties included) kept. Exact where a formula exists; WMT13's Kendall
and tau-b, whose denominators are random once the metric can tie, from ``chance_draws`` seeded
permutations (``chance_tau_wmt13_se``, ``chance_tau_b_se``: their Monte-Carlo standard errors; 0 and
no draws where the metric never ties). Tie-calibrated acc_eq's level (``chance_acc_eq_calibrated``)
redoes the calibration on every permuted copy, from the same draws (``chance_acc_eq_calibrated_se``);
where the humans tied nothing it is acc_eq's exact level, since calibration then keeps epsilon 0.
``floor`` is the acc_eq of a metric tying every comparison (the share of human ties), which
calibration can always reach.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

SEGMENT_LEVEL_COLUMNS = [
    "dataset", "lp", "metric", "n_comparisons", "n_human_ties", "tau_wmt12", "tau_wmt13", "tau_wmt14", "tau_b",
    "tau_eq", "acc_eq", "acc_eq_calibrated", "epsilon", "three_way_accuracy", "description", "metric_signature",
    "chance_tau_wmt12", "chance_tau_wmt13", "chance_tau_wmt13_se", "chance_tau_wmt14", "chance_tau_b",
    "chance_tau_b_se", "chance_tau_eq", "chance_acc_eq", "chance_acc_eq_calibrated", "chance_acc_eq_calibrated_se",
    "chance_three_way_accuracy", "chance_draws", "chance_seed",
    "floor",
]  # fmt: skip
CHANCE_DRAWS = 100  # permutation draws of the chance levels of WMT13's Kendall, tau-b and calibrated acc_eq
# The table's column of each statistic of mtmeta.stats.chance.JUDGMENT_TABLE.
CHANCE_COLUMNS = {"wmt12": "tau_wmt12", "wmt13": "tau_wmt13", "wmt14": "tau_wmt14", "tau_b": "tau_b",
                  "tau_eq": "tau_eq", "acc_eq": "acc_eq", "acc_eq_calibrated": "acc_eq_calibrated",
                  "three_way_accuracy": "three_way_accuracy"}


class ComparisonCells:
    """The two (system, seg_id) cells of every comparison, numbered once, so that each metric's segment
    table (columns system, seg_id, score) is read against them by position, not name by name: a pair's
    comparisons are read against many metrics."""

    def __init__(self, first_systems, second_systems, seg_ids):
        first_systems, second_systems = pd.Series(first_systems), pd.Series(second_systems)
        codes, systems = pd.factorize(pd.concat([first_systems, second_systems], ignore_index=True))
        self.first, self.second = codes[: len(first_systems)], codes[len(first_systems):]
        self.segment, segments = pd.factorize(pd.Series(seg_ids))
        self.systems, self.segments = pd.Index(systems), pd.Index(segments)

    @classmethod
    def of(cls, comparisons: pd.DataFrame) -> ComparisonCells:
        """The cells of a comparisons table (sys_a, sys_b, seg_id)."""
        return cls(comparisons["sys_a"], comparisons["sys_b"], comparisons["seg_id"])

    def scores(self, segment_scores: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(first, second, found): each comparison's two scores and whether the table has both cells
        (else both NaN; a comparison without a system name or segment id has none). A cell the table
        gives twice is an error."""
        rows = self.systems.get_indexer(segment_scores["system"])
        columns = self.segments.get_indexer(segment_scores["seg_id"])
        keep = (rows >= 0) & (columns >= 0)
        cells = rows[keep] * len(self.segments) + columns[keep]
        size = max(1, len(self.systems) * len(self.segments))
        if len(cells) and np.bincount(cells, minlength=size).max() > 1:
            twice = segment_scores[keep][pd.Series(cells).duplicated().to_numpy()].iloc[0]
            raise ValueError(f"the segment table scores system {str(twice['system'])!r} on segment "
                             f"{twice['seg_id']} more than once")
        grid, present = np.full(size, np.nan), np.zeros(size, dtype=bool)
        grid[cells] = segment_scores["score"].to_numpy(dtype=float)[keep]
        present[cells] = True
        named = (self.first >= 0) & (self.second >= 0) & (self.segment >= 0)  # pd.factorize: -1 for a missing value
        first = np.where(named, self.first * len(self.segments) + self.segment, 0)
        second = np.where(named, self.second * len(self.segments) + self.segment, 0)
        found = named & present[first] & present[second]
        return np.where(found, grid[first], np.nan), np.where(found, grid[second], np.nan), found


OUTCOMES = {"a": 1, "b": -1, "tie": 0}  # a comparison's outcome -> the human label


def human_labels(comparisons: pd.DataFrame) -> np.ndarray:
    """The human label of each comparison (+1: sys_a better, -1: sys_b better, 0: a tie)."""
    outcome = comparisons["outcome"]
    known = outcome.isin(list(OUTCOMES)).to_numpy(dtype=bool)
    if not known.all():
        raise ValueError(f"{int((~known).sum())} comparisons have an outcome other than {', '.join(OUTCOMES)} "
                         f"(first: {outcome[~known].iloc[0]!r})")
    return np.select([outcome.eq("a").to_numpy(dtype=bool), outcome.eq("b").to_numpy(dtype=bool)], [1, -1], 0)


def pairwise_deltas(comparisons: pd.DataFrame, segment_scores: pd.DataFrame, higher_is_better: bool = True,
                    cells: ComparisonCells | None = None):
    """Human labels (+1 / -1 / 0) and metric differences (first minus second) for every comparison
    (``cells``: :meth:`ComparisonCells.of` the comparisons, when made once for many metrics).

    A comparison whose systems or segment have no metric score is an error (the segment table
    and the comparisons come from the same prepared dataset).
    """
    first, second, found = (cells or ComparisonCells.of(comparisons)).scores(segment_scores)
    if not found.all():
        example = comparisons.loc[~found].iloc[0]
        raise ValueError(f"{int((~found).sum())} comparisons have no metric score (first: {example.to_dict()})")
    delta = first - second
    if not higher_is_better:
        delta = -delta
    return human_labels(comparisons), np.asarray(delta, dtype=float)


def chance_levels(comparisons: pd.DataFrame, segment_scores: pd.DataFrame, human: np.ndarray, draws: int = CHANCE_DRAWS,
                  seed: int = 12345) -> dict:
    """The ``chance_*`` columns of one metric on one pair (:func:`mtmeta.stats.chance.judgment_chance`),
    its segment scores permuted among all the pair's systems of each segment."""
    from mtmeta.stats import chance

    grid = segment_scores.pivot(index="system", columns="seg_id", values="score")
    if grid.isna().to_numpy().any():
        raise ValueError("the segment table does not score every system on every segment; the chance level "
                         "permutes a segment's scores among its systems")
    levels = chance.judgment_chance(grid.to_numpy(float), grid.columns.get_indexer(comparisons["seg_id"]),
                                    grid.index.get_indexer(comparisons["sys_a"]),
                                    grid.index.get_indexer(comparisons["sys_b"]), human, draws=draws, seed=seed)
    row = {f"chance_{CHANCE_COLUMNS[name]}": estimate.value for name, estimate in levels.items()}
    row.update(chance_tau_wmt13_se=levels["wmt13"].standard_error, chance_tau_b_se=levels["tau_b"].standard_error,
               chance_acc_eq_calibrated_se=levels["acc_eq_calibrated"].standard_error,
               chance_draws=max(levels[name].draws for name in ("wmt13", "tau_b", "acc_eq_calibrated")),
               chance_seed=seed,
               floor=float(np.mean(human == 0)) if len(human) else float("nan"))
    return row


def segment_level_agreement(summary: dict, comparisons: pd.DataFrame, segment_scores: pd.DataFrame, metric_id: str,
                            higher_is_better: bool = True, chance_draws: int = CHANCE_DRAWS,
                            seed: int = 12345) -> pd.DataFrame:
    """Agreement of one metric's segment scores with every pairwise human comparison of a dataset x lp,
    each statistic with its chance level (:func:`chance_levels`)."""
    from mtmeta.stats import pairwise

    signatures = segment_scores["signature"].unique()
    human, delta = pairwise_deltas(comparisons, segment_scores, higher_is_better)
    calibrated, epsilon = pairwise.calibrate_epsilon(human, delta, "acc_eq")
    row = {
        "dataset": summary["dataset"],
        "lp": summary["lp"],
        "metric": metric_id,
        "n_comparisons": int(len(human)),
        "n_human_ties": int((human == 0).sum()),
        **{f"tau_{v}": pairwise.wmt_kendall(human, delta, v) for v in pairwise.WMT_VARIANTS},
        "tau_b": pairwise.tau_b(human, delta),
        "tau_eq": pairwise.tau_eq(human, delta),
        "acc_eq": pairwise.acc_eq(human, delta),
        "acc_eq_calibrated": calibrated,
        "epsilon": epsilon,
        "three_way_accuracy": pairwise.three_way_accuracy(human, delta),
        "description": summary["description"],
        "metric_signature": signatures[0] if len(signatures) == 1 else ";".join(signatures),
        **chance_levels(comparisons, segment_scores, human, chance_draws, seed),
    }
    return pd.DataFrame([row], columns=SEGMENT_LEVEL_COLUMNS)
