"""METEOR tuning on the evaluator set (seed 001): alpha, gamma and module tables.

:func:`tables_from_results` builds the three tables from the study's files' contents: the sweeps,
the segment-level table (the word-match baseline) and METEOR's cached statistics, re-scored at the
seed's own settings, which lie off the grid."""

from __future__ import annotations

import math

import pandas as pd

from mtmeta.paper.ledger import difference, gap_reason


def _tuning_frame(rows: list[dict], explanation: str, n_items: int) -> pd.DataFrame:
    """Rows with delta and reason (accuracies are reported to 4 decimals) and the item count."""
    frame = pd.DataFrame(rows)
    frame["delta"] = [difference(r, p) for r, p in zip(frame["reproduced"], frame["reported"], strict=True)]
    frame["reason"] = [gap_reason(d, 0.00005, explanation) if p is not None else ""
                       for d, p in zip(frame["delta"], frame["reported"], strict=True)]
    frame.insert(0, "n_items", n_items)
    return frame


def alpha_table(sweep: pd.DataFrame, baseline_accuracy: float, reported: dict, best: pd.Series,
                  seed_optimum: float, n_items: int) -> pd.DataFrame:
    """The alpha table: METEOR-basic (gamma 0) by alpha, the word-match baseline, best and CV rows."""
    table = reported["tables"]["alpha"]
    explanation = reported["reasons"]["alpha"]
    curve = sweep[(sweep["split"] == "all") & (sweep["gamma"] == 0.0) & (sweep["dataset"] == "evaluator")]
    by_alpha = dict(zip(curve["alpha"].round(10), curve["value"], strict=True))
    rows = [{"row": "baseline (word match)", "alpha": math.nan, "reproduced": baseline_accuracy,
             "reproduced_at_1_minus_alpha": math.nan, "reported": table["rows"]["baseline"]}]
    for alpha_text, value in table["rows"].items():
        if alpha_text == "baseline":
            continue
        alpha = float(alpha_text)
        rows.append({"row": f"alpha {alpha:.2f}", "alpha": alpha, "reproduced": by_alpha.get(round(alpha, 10)),
                     "reproduced_at_1_minus_alpha": by_alpha.get(round(1 - alpha, 10)), "reported": value})
    rows.append({"row": "seed's tuned alpha", "alpha": table["best"]["alpha"], "reproduced": seed_optimum,
                 "reproduced_at_1_minus_alpha": math.nan, "reported": table["best"]["accuracy"]})
    rows.append({"row": "best alpha on all 10,000 (in-sample)", "alpha": best["best_alpha"],
                 "reproduced": best["best_value"], "reproduced_at_1_minus_alpha": math.nan, "reported": None})
    rows.append({"row": "cross-validated (chosen on one half, scored on the other)", "alpha": math.nan,
                 "reproduced": best["cv_value"], "reproduced_at_1_minus_alpha": math.nan, "reported": None})
    return _tuning_frame(rows, explanation, n_items)


def gamma_table(sweep: pd.DataFrame, alpha: float, reported: dict, seed_point: float, best: pd.Series,
                  n_items: int) -> pd.DataFrame:
    """The gamma table (beta 3) at our best alpha, plus the seed's own setting and the overall best."""
    table = reported["tables"]["gamma"]
    explanation = reported["reasons"]["gamma"]
    curve = sweep[(sweep["split"] == "all") & (sweep["alpha"].round(10) == round(alpha, 10))
                  & (sweep["dataset"] == "evaluator")]
    by_gamma = dict(zip(curve["gamma"].round(10), curve["value"], strict=True))
    rows = [{"row": f"gamma {float(g):.2f}", "alpha": alpha, "gamma": float(g),
             "reproduced": by_gamma.get(round(float(g), 10)),
             "reported": v} for g, v in table["rows"].items()]
    rows.append({"row": "seed's tuned setting", "alpha": table["fixed"]["alpha"], "gamma": table["best"]["gamma"],
                 "reproduced": seed_point, "reported": table["best"]["accuracy"]})
    rows.append({"row": "best alpha x gamma (in-sample)", "alpha": best["best_alpha"], "gamma": best["best_gamma"],
                 "reproduced": best["best_value"], "reported": None})
    rows.append({"row": "cross-validated (chosen on one half, scored on the other)", "alpha": math.nan,
                 "gamma": math.nan, "reproduced": best["cv_value"], "reported": None})
    return _tuning_frame(rows, explanation, n_items)


def modules_table(best_by_variant: dict[str, pd.Series], reported: dict, n_items: int) -> pd.DataFrame:
    """Stems and WordNet synonyms: each variant's best alpha x gamma and its cross-validated accuracy."""
    table = reported["tables"]["modules"]["rows"]
    explanation = reported["reasons"]["modules"]
    rows = []
    for variant, best in best_by_variant.items():
        rows.append({"row": variant, "best_alpha": best["best_alpha"], "best_gamma": best["best_gamma"],
                     "reproduced": best["best_value"], "cross_validated": best["cv_value"],
                     "reported": table.get(variant)})
    return _tuning_frame(rows, explanation, n_items)


def tuning_tables(sweep: pd.DataFrame, module_bests: dict[str, pd.Series], baseline_accuracy: float,
                  seed_alpha_point: float, seed_gamma_point: float, reported: dict, n_items: int,
                  dataset: str = "evaluator"):
    """Seed 001's three tables from the alpha x gamma sweeps on the evaluator set (``dataset``).

    ``seed_alpha_point`` / ``seed_gamma_point``: our accuracy at the seed's own tuned settings
    (alpha 0.87; alpha 0.87 with gamma 0.32), which lie off the grid.
    """
    from mtmeta.metaeval.sweeps import best_settings

    evaluator = sweep[sweep["dataset"] == dataset]
    best_basic = best_settings(evaluator[evaluator["gamma"] == 0.0], ["alpha"]).iloc[0]
    best_penalty = best_settings(evaluator, ["alpha", "gamma"]).iloc[0]
    alpha = alpha_table(evaluator, baseline_accuracy, reported, best_basic, seed_alpha_point, n_items)
    gamma = gamma_table(evaluator, float(best_basic["best_alpha"]), reported, seed_gamma_point, best_penalty,
                        n_items)
    modules = modules_table({"exact": best_penalty, **module_bests}, reported, n_items)
    return alpha, gamma, modules


SUBSET = "MT-course evaluator set, first 10,000 of 25,568 labelled tuples (a subset)"
TITLES = {
    "alpha": f"Seed 001, METEOR-basic by alpha; {SUBSET}",
    "gamma": f"Seed 001, METEOR with penalty by gamma; {SUBSET}",
    "modules": f"Seed 001, stems and WordNet synonyms (METEOR with penalty); {SUBSET}",
}


def accuracy_at(metric, seg: pd.DataFrame, comparisons: pd.DataFrame, **setting) -> float:
    """Three-way accuracy with the cached statistics re-scored at one setting."""
    from mtmeta.metaeval.segment_level import pairwise_deltas
    from mtmeta.metrics.score_tables import stat_columns
    from mtmeta.stats.pairwise import three_way_accuracy

    scored = seg.assign(score=metric.rescore(seg[stat_columns(seg)].to_numpy(dtype=float), **setting))
    return three_way_accuracy(*pairwise_deltas(comparisons, scored))


def tables_from_results(sweep: pd.DataFrame, module_bests: dict[str, pd.Series], segment_level: pd.DataFrame,
                        seg: pd.DataFrame, comparisons: pd.DataFrame, metric, reported: dict, baseline: str,
                        dataset: str) -> dict[str, pd.DataFrame]:
    """The alpha, gamma and module tables. ``segment_level``: the target's segment-level table by
    metric id (``baseline``'s accuracy and the item count); ``seg`` / ``comparisons``: METEOR's
    segment statistics and the human comparisons, to score the seed's own settings."""
    tables = reported["tables"]
    alpha, gamma, modules = tuning_tables(
        sweep,
        module_bests,
        float(segment_level.loc[baseline, "three_way_accuracy"]),
        accuracy_at(metric, seg, comparisons, alpha=tables["alpha"]["best"]["alpha"], gamma=0.0),
        accuracy_at(metric, seg, comparisons, alpha=tables["gamma"]["fixed"]["alpha"], beta=3.0,
                    gamma=tables["gamma"]["best"]["gamma"]),
        reported,
        int(segment_level.loc[baseline, "n_comparisons"]),
        dataset,
    )
    return {"alpha": alpha, "gamma": gamma, "modules": modules}
