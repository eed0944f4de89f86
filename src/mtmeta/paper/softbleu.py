"""BLEU against its embedding-softened variants (seed 000)."""

from __future__ import annotations

import math

import pandas as pd


def _two_sided(p_one_sided: float) -> float:
    return min(1.0, 2 * min(p_one_sided, 1 - p_one_sided))


def seed000_table(system_level: pd.DataFrame, segment_level: pd.DataFrame, williams: pd.DataFrame,
                  metrics: list[str], tau_variant: dict[str, str], human_score: str = "gt_others") -> pd.DataFrame:
    """Every dataset x language pair x metric: system-level Pearson (Williams test against BLEU),
    segment-level tau in the year's variant, and three-way accuracy (the evaluator set)."""
    rows = []
    system = system_level[(system_level["human_score"] == human_score) & system_level["metric"].isin(metrics)]
    system = system.set_index(["dataset", "lp", "metric"])
    segment = segment_level[segment_level["metric"].isin(metrics)].set_index(["dataset", "lp", "metric"])
    tests = williams[williams["human_score"] == human_score]
    pairs = sorted({(d, lp) for d, lp, _ in segment.index} | {(d, lp) for d, lp, _ in system.index})
    for dataset, lp in pairs:
        for metric in metrics:
            row = {"dataset": dataset, "lp": lp, "metric": metric}
            key = (dataset, lp, metric)
            if key in system.index:
                row["n_systems"] = int(system.loc[key, "n_systems"])
                row["pearson"] = float(system.loc[key, "pearson"])
                row["pearson_minus_bleu"] = row["pearson"] - float(system.loc[(dataset, lp, "bleu"), "pearson"])
                if metric != "bleu":
                    test = tests[(tests["dataset"] == dataset) & (tests["lp"] == lp) & (tests["metric_1"] == metric)
                                 & (tests["metric_2"] == "bleu")]
                    if test.empty:
                        raise ValueError(f"no Williams test of {metric} against bleu for {dataset} {lp}")
                    row["williams_t"] = float(test["t"].iloc[0])
                    row["williams_p_two_sided"] = _two_sided(float(test["p_one_sided"].iloc[0]))
            if key in segment.index:
                seg = segment.loc[key]
                variant = tau_variant.get(dataset)
                row["tau_variant"] = variant
                row["tau"] = float(seg[f"tau_{variant}"]) if variant else math.nan
                row["three_way_accuracy"] = float(seg["three_way_accuracy"])
                row["n_comparisons"] = int(seg["n_comparisons"])
                row["signature"] = seg["metric_signature"]
            elif key in system.index:
                row["signature"] = system.loc[key, "metric_signature"]
            rows.append(row)
    return pd.DataFrame(rows)
