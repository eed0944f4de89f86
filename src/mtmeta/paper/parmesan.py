"""Targeted paraphrasing (seed 002): correlations on English->Czech with Meng's test against BLEU,
and the tables on the paraphrased references."""

from __future__ import annotations

import math

import pandas as pd

from mtmeta.metaeval.significance import correlation_rows
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.paper.ledger import NOT_REPORTED, difference, gap_reason


def _reported(values: dict, label: str) -> float:
    return values.get(label, math.nan)


def _reasons(reported: dict, label: str) -> dict:
    return reported["reasons"].get(label, {"bleu": NOT_REPORTED, "meteor": NOT_REPORTED, "parmesan": NOT_REPORTED})


def settings_table(label: str, human: pd.DataFrame, system_scores: dict[str, pd.DataFrame], reported: dict,
                   summary: dict, meteor_settings: dict[str, str], baseline: str = "bleu",
                   exact_meteor: str = "meteor-cs-no-paraphrases") -> pd.DataFrame:
    """BLEU and every Meteor paraphrase-table setting: Pearson with > others (the official score for a
    target without judgments), and Meng's test vs BLEU.

    ``meteor_settings``: the seed's setting name -> its metric id (config ``paper.parmesan``);
    ``baseline``: BLEU's id; ``exact_meteor``: exact-match Meteor's, the Treex table's baseline."""
    human_score = primary_human_score(human)
    tests = correlation_rows(human, system_scores, baseline=baseline, human_score=human_score).set_index("variant")
    n = int(tests["n_systems"].iloc[0])
    r = tests["pearson"]
    rows = []
    reported_baseline = _reported(reported["tables"]["simple_substitution"]["baseline"], label)
    rows.append({"row": "BLEU (original references)", "metric": baseline, "pearson": r[baseline],
                 "reported": reported_baseline,
                 "meng_z": math.nan, "meng_p_two_sided": math.nan, "meng_p_one_sided": math.nan,
                 "reason_key": "bleu"})
    variants = reported["tables"]["meteor_variants"]["rows"]
    for setting, metric_id in meteor_settings.items():
        test = tests.loc[metric_id]
        rows.append({"row": f"Meteor, {setting}", "metric": metric_id, "pearson": r[metric_id],
                     "reported": _reported(variants[setting], label), "meng_z": test["meng_z"],
                     "meng_p_two_sided": test["meng_p_two_sided"], "meng_p_one_sided": test["meng_p_one_sided"],
                     "reason_key": "meteor"})
    treex = reported["tables"]["treex"]["rows"]
    rows.append({"row": "BLEU (Treex table's baseline)", "metric": baseline, "pearson": r[baseline],
                 "reported": _reported(treex["BLEU"], label), "meng_z": math.nan, "meng_p_two_sided": math.nan,
                 "meng_p_one_sided": math.nan, "reason_key": "bleu"})
    rows.append({"row": "exact-match Meteor (Treex table's baseline)", "metric": exact_meteor,
                 "pearson": r[exact_meteor], "reported": _reported(treex["exact-Meteor"], label),
                 "meng_z": math.nan, "meng_p_two_sided": math.nan, "meng_p_one_sided": math.nan,
                 "reason_key": "meteor"})
    frame = pd.DataFrame(rows)
    frame["delta"] = [difference(a, b) for a, b in zip(frame["pearson"], frame["reported"], strict=True)]
    explanations = _reasons(reported, label)
    frame["reason"] = [gap_reason(d, 0.0005, explanations[k]) for d, k in zip(frame["delta"], frame["reason_key"],
                                                                          strict=True)]
    frame = frame.drop(columns="reason_key")
    frame.insert(0, "human_score", human_score)
    frame.insert(0, "n_systems", n)
    frame.insert(0, "description", summary["description"])
    frame.insert(0, "data", f"{summary['dataset']} {summary['lp']}")
    frame["signature"] = [system_scores[m]["signature"].iloc[0] for m in frame["metric"]]
    return frame


PARMESAN_METHODS = {"one-word only": "one-word-only", "one-word first": "one-word-first",
                    "multi-word first": "multi-word-first"}
DEPFIX_GAP = "Depfix (rule-based post-editing of the new references) is not available to the study"


def _ledger_frame(rows: list[dict]) -> pd.DataFrame:
    frame = pd.DataFrame(rows)
    frame["delta"] = [difference(a, b) for a, b in zip(frame["reproduced"], frame["reported"], strict=True)]
    frame["reason"] = [reason if math.isnan(d) else gap_reason(d, 0.0005 if "Pearson" in c else 0.005, reason)
                       for d, c, reason in zip(frame["delta"], frame["column"], frame["reason"], strict=True)]
    return frame


def paraphrased_tables(correlations: dict[str, pd.DataFrame], reported: dict, settings: dict,
                       meteor_setting: str | None, meteor_settings: dict[str, str],
                       baseline: str = "bleu") -> dict[str, pd.DataFrame]:
    """Seed 002's tables on the paraphrased references, in long form beside the reported numbers.

    ``correlations``: dataset label (WMT12 / WMT13) -> the correlate_paraphrased table.
    ``settings``: the config's Parmesan settings (name -> order / selection / filter);
    ``meteor_setting``: the setting whose references the Meteor settings (``meteor_settings``, the
    seed's name -> metric id) were scored with, if any; ``baseline``: BLEU's id.
    """
    tables = reported["tables"]
    by_method = {(spec["order"], spec["selection"]): name for name, spec in settings.items() if not spec.get("filter")}
    substitution, replaced, meteor = [], [], []
    for label, corr in correlations.items():
        bleu = corr[corr["metric"] == baseline].set_index("references")
        reasons = _reasons(reported, label)
        in_seed = label in reported["reasons"]  # else no reported number and no Depfix rows
        note = reasons["parmesan"]
        substitution.append({"row": "baseline (original references)", "column": f"{label} Pearson",
                             "reported": _reported(tables["simple_substitution"]["baseline"], label),
                             "reproduced": bleu.loc["original", "pearson"], "meng_p_two_sided": math.nan,
                             "references": "original", "reason": reasons["bleu"]})
        for method, order in PARMESAN_METHODS.items():
            for selection in ("greedy", "alignment"):
                name = by_method.get((order, selection))
                values = tables["simple_substitution"]["rows"][method][selection]
                ours = bleu.loc[name] if name in bleu.index else None
                for depfix, column in (("no_depfix", "no Depfix"), ("full_depfix", "full Depfix"),
                                       ("limited_depfix", "limited Depfix"))[:None if in_seed else 1]:
                    substitution.append({
                        "row": f"{method}, {selection}", "column": f"{label} Pearson, {column}",
                        "reported": _reported(values[depfix], label),
                        "reproduced": ours["pearson"] if ours is not None and depfix == "no_depfix" else math.nan,
                        "meng_p_two_sided": ours["meng_p_two_sided"] if ours is not None and depfix == "no_depfix"
                        else math.nan,
                        "references": name if depfix == "no_depfix" else None,
                        "reason": note if depfix == "no_depfix" else DEPFIX_GAP})
                words, phrases = tables["replaced"]["rows"][method][selection].get(label, (math.nan, math.nan))
                for kind, value, key in (("words", words, "words_per_sentence"),
                                         ("phrases", phrases, "phrases_per_sentence")):
                    replaced.append({"row": f"{method}, {selection}", "column": f"{label} {kind} per sentence",
                                     "reported": value, "reproduced": ours[key] if ours is not None else math.nan,
                                     "references": name, "reason": note})
        if meteor_setting is not None:
            variants = tables["meteor_variants"]
            for setting, metric_id in meteor_settings.items():
                rows = corr[(corr["metric"] == metric_id) & (corr["references"] == meteor_setting)]
                # The seed lists these two numbers per setting: WMT12, then WMT13.
                column = {"WMT12": 0, "WMT13": 1}.get(label)
                before = math.nan if column is None else variants["parmesan_rows"]["before_depfix"][setting][column]
                after = math.nan if column is None else variants["parmesan_rows"]["new"][setting][column]
                value = rows["pearson"].iloc[0] if len(rows) else math.nan
                p = rows["meng_p_two_sided"].iloc[0] if len(rows) else math.nan
                meteor.append({"row": f"Meteor, {setting}", "column": f"{label} Pearson, before Depfix",
                               "reported": before, "reproduced": value, "meng_p_two_sided": p,
                               "references": meteor_setting,
                               "reason": reasons["meteor"] + "; " + note if in_seed else NOT_REPORTED})
                if not in_seed:
                    continue
                meteor.append({"row": f"Meteor, {setting}", "column": f"{label} Pearson, new (after Depfix)",
                               "reported": after, "reproduced": math.nan, "meng_p_two_sided": math.nan,
                               "references": None, "reason": DEPFIX_GAP})
    out = {"parmesan_substitution": _ledger_frame(substitution), "parmesan_replaced": _ledger_frame(replaced)}
    if meteor:
        out["parmesan_meteor"] = _ledger_frame(meteor)
    return out


PARAPHRASED_TITLES = {
    "parmesan_substitution": "Seed 002 (table corrs13): Pearson of BLEU with > others (WMT14, which the seed "
                             "does not report: with the official TrueSkill score), new references",
    "parmesan_replaced": "Seed 002 (table replaced): average replaced words and phrases per sentence",
    "parmesan_meteor": "Seed 002 (table results:12:13): Meteor settings with the new references (WMT14: not "
                       "reported by the seed; with the official score)",
}
HUMAN_SCORE_NAMES = {"gt_others": "\"> others\"", "official": "the official human score"}
VARIANT_COLUMNS = ["metric", "references", "n_systems", "pearson", "meng_z", "meng_p_two_sided",
                   "words_per_sentence", "phrases_per_sentence"]


def variants_markdown(correlations: dict[str, pd.DataFrame]) -> str:
    """Every metric with the original and every setting's references, per target, with Meng's test."""
    from mtmeta.io import markdown_table

    parts = []
    for label, table in correlations.items():
        human = HUMAN_SCORE_NAMES.get(table["human_score"].iloc[0], table["human_score"].iloc[0])
        parts.append(f"**{label} ({table['dataset'].iloc[0]} {table['lp'].iloc[0]}): every metric with the "
                     f"original and every setting's references, Pearson with {human}; Meng's test against the "
                     "original**\n\n")
        parts.append(markdown_table(table[VARIANT_COLUMNS]) + "\n\n")
    return "".join(parts)
