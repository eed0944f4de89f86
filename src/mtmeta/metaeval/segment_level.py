"""Segment-level agreement of metric scores with pairwise human comparisons."""
from __future__ import annotations

import numpy as np
import pandas as pd

SEGMENT_LEVEL_COLUMNS = [
    "dataset", "lp", "metric", "n_comparisons", "n_human_ties", "tau_wmt12", "tau_wmt13", "tau_wmt14", "tau_b",
    "tau_eq", "acc_eq", "acc_eq_calibrated", "epsilon", "three_way_accuracy", "description", "metric_signature",
]  # fmt: skip


def pairwise_deltas(comparisons: pd.DataFrame, segment_scores: pd.DataFrame, higher_is_better: bool = True):
    """Human labels (+1 / -1 / 0) and metric differences (first minus second) for every comparison.

    A comparison whose systems or segment have no metric score is an error (the segment table
    and the comparisons come from the same prepared dataset).
    """

    scores = segment_scores.set_index(["system", "seg_id"])["score"]
    index_a = pd.MultiIndex.from_arrays([comparisons["sys_a"], comparisons["seg_id"]])
    index_b = pd.MultiIndex.from_arrays([comparisons["sys_b"], comparisons["seg_id"]])
    missing = ~index_a.isin(scores.index) | ~index_b.isin(scores.index)
    if missing.any():
        first = comparisons.loc[missing].iloc[0]
        raise ValueError(f"{int(missing.sum())} comparisons have no metric score (first: {first.to_dict()})")
    delta = scores.reindex(index_a).to_numpy() - scores.reindex(index_b).to_numpy()
    if not higher_is_better:
        delta = -delta
    human = comparisons["outcome"].map({"a": 1, "b": -1, "tie": 0}).to_numpy().astype(int)
    return human, np.asarray(delta, dtype=float)


def segment_level_agreement(summary: dict, comparisons: pd.DataFrame, segment_scores: pd.DataFrame, metric_id: str,
                            higher_is_better: bool = True) -> pd.DataFrame:
    """Agreement of one metric's segment scores with every pairwise human comparison of a dataset x lp."""
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
    }
    return pd.DataFrame([row], columns=SEGMENT_LEVEL_COLUMNS)
