"""The official WMT12 metrics-task record beside the study's numbers (config/reported/wmt12.yaml;
docs/official-record.md): each published system-level Spearman with "> others", the study's metric
as it runs by default and as close to the task's setting as the study can get, the gap, and what
measurably moves the study's value towards the published one.

Factors, each changed alone and measured on every WMT12 pair (a table like the sensitivity tables):
- METEOR: the jar's ``-norm`` input with the WMT12 parameters (the study's ``meteor-wmt12``; its
  parameters as sourced equal Meteor 1.5's, so this is the input mode alone, and the parameters row
  says so), and the paraphrase module dropped (out of English, where the study's paraphrase resource
  is the MyThes stand-in for Meteor's tables);
- BLEU: words split at ASCII whitespace only (as mteval read the text; Python's ``str.split``, and
  so sacreBLEU's 13a, also breaks at no-break and other Unicode spaces);
- TER: tercom's ``-N`` (``ter-wmt``) against sacreBLEU's default;
- every metric: one system left out (the published correlations give no system counts).
Pure functions; rule rescore_official_wmt12's script re-scores, paper_official_wmt12's reads and joins.
"""

from __future__ import annotations

import math
import re

import pandas as pd

from mtmeta.stats.correlation import correlations

# The re-scored variants (rule rescore_official_wmt12's table, one row per pair, variant and system).
BLEU_ASCII = "bleu-ascii-space"
METEOR_NO_PARAPHRASE = "meteor-no-paraphrase"

# Characters Python's str.split breaks at that are not ASCII whitespace (mteval's Perl \s does not).
NON_ASCII_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
GLUE = "\u00b7"  # a character no tokeniser of the study splits at
WITHIN = 0.02  # the reprint prints two decimals: a gap this small is agreement

OFFICIAL_COLUMNS = ["dataset", "lp", "metric", "statistic", "human_score", "reported", "default_id", "default",
                    "default_gap", "as_run_id", "as_run", "as_run_gap", "closest_factor", "closest_value", "reason"]
FACTOR_COLUMNS = ["dataset", "lp", "metric", "factor", "variant", "spearman", "delta", "n_systems", "note"]


def ascii_space(text: str) -> str:
    """The text with every non-ASCII whitespace glued into its word (mteval's word splitting)."""
    return NON_ASCII_SPACE.sub(GLUE, text)


def spearman(scores: pd.Series, human: pd.Series, higher_is_better: bool = True) -> float:
    """Spearman of system scores with the human score, judged systems only (NaN with fewer than 3)."""
    joined = pd.concat([scores.rename("m"), human.rename("h")], axis=1).dropna()
    if len(joined) < 3:
        return math.nan
    sign = 1.0 if higher_is_better else -1.0
    return float(correlations(sign * joined["m"].to_numpy(), joined["h"].to_numpy())["spearman"])


def factor_rows(dataset: str, lp: str, metric: str, default: pd.Series, human: pd.Series,
                variants: list[tuple[str, str, pd.Series | None, str]], higher_is_better: bool = True) -> list[dict]:
    """The default's Spearman, each variant's (factor, variant, system scores or None for "not
    measured here", note), and leave-one-system-out: the minimum, the maximum and every system's."""
    base = spearman(default, human, higher_is_better)
    n = int(default.index.isin(human.dropna().index).sum())
    row = {"dataset": dataset, "lp": lp, "metric": metric}
    rows = [{**row, "factor": "default", "variant": "the study's setting", "spearman": base, "delta": 0.0,
             "n_systems": n, "note": ""}]
    for factor, variant, scores, note in variants:
        value = spearman(scores, human, higher_is_better) if scores is not None else base
        rows.append({**row, "factor": factor, "variant": variant, "spearman": value, "delta": value - base,
                     "n_systems": n, "note": note})
    for system in default.index[default.index.isin(human.dropna().index)]:
        value = spearman(default.drop(system), human, higher_is_better)
        rows.append({**row, "factor": "systems", "variant": f"without {system}", "spearman": value,
                     "delta": value - base, "n_systems": n - 1, "note": ""})
    return rows


def closest(factors: pd.DataFrame, metric: str, lp: str, reported: float) -> dict | None:
    """The single factor (not the default) whose Spearman comes closest to ``reported``, if it comes
    closer than the default does."""
    rows = factors[(factors["metric"] == metric) & (factors["lp"] == lp)]
    default = rows[rows["factor"] == "default"]
    others = rows[(rows["factor"] != "default") & rows["spearman"].notna()]
    if default.empty or others.empty:
        return None
    best = others.loc[(others["spearman"] - reported).abs().idxmin()]
    if abs(best["spearman"] - reported) >= abs(float(default["spearman"].iloc[0]) - reported):
        return None
    return {"variant": f"{best['factor']}: {best['variant']}", "spearman": float(best["spearman"])}


def official_table(record: dict, values: dict[tuple[str, str], float], factors: pd.DataFrame,
                   defaults: dict[str, str], as_run: dict[str, str]) -> pd.DataFrame:
    """One row per published cell: reported, the study's default metric (``defaults``: official name ->
    metric id) and its value, the metric as the task ran it (``as_run``, e.g. ter-wmt, meteor-wmt12)
    and its value, their gaps, the closest measured factor and the reason (the record's text, or
    agreement)."""
    rows = []
    dataset, human_score = record["dataset"], record["human_score"]
    for metric, cells in record["spearman"].items():
        for lp, reported in cells.items():
            default_id, as_run_id = defaults[metric], as_run[metric]
            default, as_run_value = values.get((default_id, lp), math.nan), values.get((as_run_id, lp), math.nan)
            near = closest(factors, metric, lp, reported)
            reason = record.get("reasons", {}).get(as_run_id, {}).get(lp) or \
                record.get("reasons", {}).get(default_id, {}).get(lp, "")
            if abs(as_run_value - reported) <= WITHIN:
                reason = f"agrees within {WITHIN} (the reprint's two decimals) as the task ran it ({as_run_id})"
            elif near is not None:
                reason = (f"{reason}; " if reason else "") + (f"measured: the closest single factor is "
                                                              f"{near['variant']}, {near['spearman']:.3f}")
            elif not reason:
                reason = "none found: no factor measured here comes closer"
            rows.append({"dataset": dataset, "lp": lp, "metric": metric, "statistic": "spearman",
                         "human_score": human_score, "reported": reported, "default_id": default_id,
                         "default": default, "default_gap": default - reported, "as_run_id": as_run_id,
                         "as_run": as_run_value, "as_run_gap": as_run_value - reported,
                         "closest_factor": near["variant"] if near else "",
                         "closest_value": near["spearman"] if near else math.nan, "reason": reason})
    return pd.DataFrame(rows, columns=OFFICIAL_COLUMNS)


def official_markdown(table: pd.DataFrame, factors: pd.DataFrame) -> str:
    lines = ["# The official WMT12 metrics-task record beside the study", "",
             "System-level Spearman with \"> others\" as the WMT12 metrics task published it (config/reported/"
             "wmt12.yaml, with its sources), the study's metric by default and as the task ran it, and the closest",
             "single measured factor (the factor table below). docs/official-record.md says how each number was "
             "sourced.", "",
             "| metric | pair | reported | default | gap | as run | gap | closest factor | reason |",
             "|---|---|---:|---:|---:|---:|---:|---|---|"]
    for _, row in table.iterrows():
        closest_text = f"{row['closest_factor']} ({row['closest_value']:.3f})" if row["closest_factor"] else ""
        lines.append(f"| {row['metric']} | {row['lp']} | {row['reported']:.2f} | {row['default']:.3f} "
                     f"({row['default_id']}) | {row['default_gap']:+.3f} | {row['as_run']:.3f} ({row['as_run_id']}) | "
                     f"{row['as_run_gap']:+.3f} | {closest_text} | {row['reason']} |")
    within = int((table["as_run_gap"].abs() <= WITHIN).sum())
    lines += ["", f"{within} of {len(table)} published cells are within {WITHIN} as the task ran them.", "",
              "## How far each factor moves the study's Spearman", "",
              "Each row changes one thing from the study's setting; leave-one-out rows give the range over systems.",
              "", "| metric | pair | factor | variant | Spearman | delta | note |", "|---|---|---|---|---:|---:|---|"]
    summary = factors[factors["factor"] != "systems"]
    loo = factors[factors["factor"] == "systems"]
    for (metric, lp), group in summary.groupby(["metric", "lp"], sort=False):
        for _, row in group.iterrows():
            lines.append(f"| {metric} | {lp} | {row['factor']} | {row['variant']} | {row['spearman']:.3f} | "
                         f"{row['delta']:+.3f} | {row['note']} |")
        drops = loo[(loo["metric"] == metric) & (loo["lp"] == lp)]
        if len(drops):
            low, high = drops.loc[drops["spearman"].idxmin()], drops.loc[drops["spearman"].idxmax()]
            lines.append(f"| {metric} | {lp} | systems | leave one out: {low['variant']} .. {high['variant']} | "
                         f"{low['spearman']:.3f} .. {high['spearman']:.3f} | | |")
    return "\n".join(lines) + "\n"
