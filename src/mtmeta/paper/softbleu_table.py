"""BLEU against its embedding-softened variants (seed 000)."""

from __future__ import annotations

import math

import pandas as pd


def _two_sided(p_one_sided: float) -> float:
    return min(1.0, 2 * min(p_one_sided, 1 - p_one_sided))


def softbleu_table(system_level: pd.DataFrame, segment_level: pd.DataFrame, williams: pd.DataFrame,
                   metrics: list[str], tau_variant: dict[str, str], human_score: str = "gt_others",
                   baseline: str = "bleu") -> pd.DataFrame:
    """Every dataset x language pair x metric (``metrics``, the ``baseline`` BLEU among them):
    system-level Pearson (Williams test against BLEU), segment-level tau in the year's variant, and
    three-way accuracy (the evaluator set)."""
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
                row["pearson_minus_bleu"] = row["pearson"] - float(system.loc[(dataset, lp, baseline), "pearson"])
                if metric != baseline:
                    test = tests[(tests["dataset"] == dataset) & (tests["lp"] == lp) & (tests["metric_1"] == metric)
                                 & (tests["metric_2"] == baseline)]
                    if test.empty:
                        raise ValueError(f"no Williams test of {metric} against {baseline} for {dataset} {lp}")
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


def softbleu_markdown(table: pd.DataFrame) -> str:
    """Pearson, segment-level tau and (on the evaluator set) accuracy, one column per metric."""
    from mtmeta.io import markdown_table

    wide = table.pivot_table(index=["dataset", "lp"], columns="metric", values="pearson", sort=False)
    tau = table.pivot_table(index=["dataset", "lp"], columns="metric", values="tau", sort=False)
    accuracy = table[table["dataset"] == "evaluator"].pivot_table(index=["dataset", "lp"], columns="metric",
                                                                  values="three_way_accuracy", sort=False)
    parts = ["**Seed 000: system-level Pearson with > others, BLEU and its embedding-softened variants** "
             "(Williams test against BLEU in results/paper/softbleu.tsv)\n\n",
             markdown_table(wide.reset_index()) + "\n\n",
             "**Segment-level Kendall tau (each year's WMT variant)**\n\n",
             markdown_table(tau.reset_index()) + "\n\n"]
    if not accuracy.empty:
        parts += ["**Three-way pairwise accuracy, evaluator set (first 10,000 tuples)**\n\n",
                  markdown_table(accuracy.reset_index()) + "\n\n"]
    parts.append("Signatures:\n\n" + "".join(f"- `{s}`\n" for s in dict.fromkeys(table["signature"].dropna())))
    return "".join(parts)


def embeddings_markdown(models: list[tuple[dict, pd.DataFrame]]) -> str:
    """The word2vec models behind the metrics: (training summary, nearest-neighbour table) each."""
    from mtmeta.io import markdown_table

    rows = []
    for info, neighbours in models:
        near = "; ".join(f"{probe}: " + ", ".join(f"{w} {c:.2f}" for w, c in
                                                  list(zip(g["neighbour"], g["cosine"], strict=True))[:5])
                         for probe, g in neighbours.groupby("probe", sort=False))
        rows.append({"model": info["model"], "lang": info["lang"], "vocabulary": info["vocabulary"],
                     "training tokens": info.get("corpus_tokens"),
                     "sha256": info["sha256"][:12], "nearest neighbours": near})
    return "**word2vec models of seed 000's metrics**\n\n" + markdown_table(pd.DataFrame(rows))
