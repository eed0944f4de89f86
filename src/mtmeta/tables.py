"""Result tables built from prepared datasets and metric scores (no file formats here)."""

from __future__ import annotations

import pandas as pd

from mtmeta.stats.correlation import KENDALL_VARIANT, correlations
from mtmeta.stats.human import SCORE_COLUMNS

SYSTEM_LEVEL_COLUMNS = [
    "dataset", "lp", "metric", "human_score", "n_systems", "n_systems_unjudged",
    "pearson", "pearson_p", "spearman", "spearman_p", "kendall", "kendall_p", "kendall_variant", "p_method",
    "n_segments", "n_judged_segments", "n_tasks", "n_comparisons", "description", "metric_signature",
]  # fmt: skip


def system_level_correlations(
    summary: dict, human: pd.DataFrame, system_scores: pd.DataFrame, metric_id: str, higher_is_better: bool = True
) -> pd.DataFrame:
    """Correlation of one metric with each human system score, for one dataset x lp.

    Only systems with both a human score and a metric score take part; the number left
    out for lack of a human score is reported beside ``n_systems``.
    """
    signatures = system_scores["signature"].unique()
    if len(signatures) != 1:
        raise ValueError(f"{metric_id}: expected one signature per score file, found {list(signatures)}")
    joined = system_scores.merge(human, on="system", how="inner", validate="one_to_one")
    sign = 1.0 if higher_is_better else -1.0
    rows = []
    for human_score in SCORE_COLUMNS:
        usable = joined.dropna(subset=[human_score])
        stats = correlations(sign * usable["score"].to_numpy(), usable[human_score].to_numpy())
        rows.append(
            {
                "dataset": summary["dataset"],
                "lp": summary["lp"],
                "metric": metric_id,
                "human_score": human_score,
                "n_systems": stats.pop("n"),
                "n_systems_unjudged": int(len(system_scores) - len(usable)),
                **stats,
                "kendall_variant": KENDALL_VARIANT,
                "n_segments": summary["n_segments"],
                "n_judged_segments": summary["n_judged_segments"],
                "n_tasks": summary["n_tasks"],
                "n_comparisons": summary["n_comparisons"],
                "description": summary["description"],
                "metric_signature": signatures[0],
            }
        )
    return pd.DataFrame(rows, columns=SYSTEM_LEVEL_COLUMNS)


def _format_cell(value) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "n/a"
        return f"{value:.3g}" if abs(value) < 0.001 and value != 0 else f"{value:.3f}"
    return str(value).replace("|", "\\|")


def markdown_table(table: pd.DataFrame, columns: list[str] | None = None) -> str:
    """A GitHub-flavoured Markdown rendering; p-values below 0.001 keep three significant digits."""
    columns = columns or [c for c in table.columns if c not in ("description", "metric_signature")]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for _, row in table[columns].iterrows():
        lines.append("| " + " | ".join(_format_cell(row[c]) for c in columns) + " |")
    return "\n".join(lines) + "\n"


SEGMENT_LEVEL_COLUMNS = [
    "dataset", "lp", "metric", "n_comparisons", "n_human_ties", "tau_wmt12", "tau_wmt13", "tau_wmt14", "tau_b",
    "tau_eq", "acc_eq", "acc_eq_calibrated", "epsilon", "three_way_accuracy", "description", "metric_signature",
]  # fmt: skip


def pairwise_deltas(comparisons: pd.DataFrame, segment_scores: pd.DataFrame, higher_is_better: bool = True):
    """Human labels (+1 / -1 / 0) and metric differences (first minus second) for every comparison.

    A comparison whose systems or segment have no metric score is an error (the segment table
    and the comparisons come from the same prepared dataset).
    """
    import numpy as np

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
