"""The WMT metrics tasks' baselines (BLEU, NIST, TER, Meteor) against each year's official human
system score, so a reader can put the study's baseline correlations beside the published ones."""

from __future__ import annotations

import pandas as pd

COLUMNS = ["dataset", "lp", "metric", "human_score", "official_human_score", "n_systems", "pearson",
           "pearson_low", "pearson_high", "spearman", "spearman_low", "spearman_high", "bootstrap_draws",
           "metric_signature"]


def baselines_table(system_level: pd.DataFrame, bootstrap: pd.DataFrame, metrics: list[str],
                    human_scores: dict[str, dict]) -> pd.DataFrame:
    """One row per dataset x language pair x metric: Pearson and Spearman with the dataset's human score
    and their bootstrap intervals. A requested correlation missing from the inputs is an error."""
    parts = []
    for dataset, score in human_scores.items():
        rows = system_level[(system_level["dataset"] == dataset)
                            & (system_level["human_score"] == score["human_score"])]
        for lp in dict.fromkeys(system_level.loc[system_level["dataset"] == dataset, "lp"]):
            for metric in metrics:
                row = rows[(rows["lp"] == lp) & (rows["metric"] == metric)]
                if len(row) != 1:
                    raise ValueError(f"wmt_baselines: {len(row)} system-level rows for {dataset}/{lp} {metric} "
                                     f"with {score['human_score']} (expected 1)")
                parts.append(row.assign(official_human_score=score["official"]))
    if not parts:
        raise ValueError(f"wmt_baselines: no system-level rows for {', '.join(human_scores)}")
    table = pd.concat(parts, ignore_index=True)
    intervals = bootstrap[["dataset", "lp", "metric", "human_score", "pearson_low", "pearson_high",
                           "spearman_low", "spearman_high", "draws"]].rename(columns={"draws": "bootstrap_draws"})
    table = table.merge(intervals, on=["dataset", "lp", "metric", "human_score"], how="left", validate="1:1")
    return table[COLUMNS]


HUMAN_NAMES = {"gt_others": "> others", "ge_others": "≥ others", "expected_wins": "expected wins"}


def baselines_markdown(table: pd.DataFrame) -> str:
    """Per dataset: metrics (rows) x language pairs (columns), cells "Pearson / Spearman"."""
    out = []
    for dataset, part in table.groupby("dataset", sort=False):
        used, official = part["human_score"].iloc[0], part["official_human_score"].iloc[0]
        used_name = HUMAN_NAMES[used]
        note = ("the score that year's metrics task used" if used_name == official else
                f"that year's metrics task used {official}, which the study does not compute; read these as "
                f"correlations with {used_name}, not as the official ones")
        lps = list(dict.fromkeys(part["lp"]))
        out += [f"**{dataset}: system-level Pearson / Spearman with {used_name}** ({note}; "
                "95% bootstrap intervals in the TSV)", "",
                "| metric | " + " | ".join(f"{lp} ({part.loc[part['lp'] == lp, 'n_systems'].iloc[0]})" for lp in lps)
                + " |", "|---|" + "---:|" * len(lps)]
        for metric, rows in part.groupby("metric", sort=False):
            cells = {row.lp: f"{row.pearson:.3f} / {row.spearman:.3f}" for row in rows.itertuples()}
            out.append(f"| {metric} | " + " | ".join(cells[lp] for lp in lps) + " |")
        out.append("")
    signatures = table.drop_duplicates(["metric", "metric_signature"])
    out += ["Column headers give the number of systems. TER is negated (lower is better), so for every metric "
            "a higher correlation is better.", "", "Signatures (one per target language where it names it):", ""]
    out += [f"- {row.metric}: `{row.metric_signature}`" for row in signatures.itertuples()]
    return "\n".join(out) + "\n"
