"""The WMT metrics tasks' baselines (BLEU, NIST, TER, Meteor) against each year's official human
system score, so a reader can put the study's baseline correlations beside the published ones."""

from __future__ import annotations

import pandas as pd

COLUMNS = ["dataset", "lp", "metric", "human_score", "official_human_score", "n_systems", "pearson",
           "pearson_low", "pearson_high", "spearman", "spearman_low", "spearman_high", "reported_spearman",
           "spearman_gap", "bootstrap_draws", "interval_method", "metric_signature"]


def reported_values(record: dict, official_ids: dict[str, list[str]]) -> dict[tuple[str, str, str], float]:
    """(dataset, lp, study metric id) -> the published Spearman of an official record
    (config/reported/wmt12.yaml), for the study ids each official metric is compared with."""
    values = {}
    for official, cells in record.get("spearman", {}).items():
        for metric_id in official_ids.get(official, []):
            for lp, value in cells.items():
                values[(record["dataset"], lp, metric_id)] = float(value)
    return values
COMPARISON_COLUMNS = ["dataset", "lp", "metric", "n_systems", "official", "gt_others", "expected_wins",
                      "official_minus_gt_others"]


def baselines_table(system_level: pd.DataFrame, bootstrap: pd.DataFrame, metrics: list[str],
                    human_scores: dict[str, dict], reported: dict[tuple[str, str, str], float] | None = None
                    ) -> pd.DataFrame:
    """One row per dataset x language pair x metric: Pearson and Spearman with the dataset's human score
    and their intervals (bootstrap, or Fisher's z for an official score), and where the metrics task
    published the Spearman (``reported``: :func:`reported_values`), it and the gap (ours minus it). A
    requested correlation missing from the inputs is an error."""
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
                           "spearman_low", "spearman_high", "draws", "interval_method"]].rename(
        columns={"draws": "bootstrap_draws"})
    table = table.merge(intervals, on=["dataset", "lp", "metric", "human_score"], how="left", validate="1:1")
    reported = reported or {}
    table["reported_spearman"] = [reported.get(key, float("nan"))
                                  for key in zip(table["dataset"], table["lp"], table["metric"], strict=True)]
    table["spearman_gap"] = table["spearman"] - table["reported_spearman"]
    return table[COLUMNS]


def official_comparison(system_level: pd.DataFrame, metrics: list[str], human_scores: dict[str, dict]) -> pd.DataFrame:
    """For each dataset whose table uses the official score: on the pairs that also have judgments, each
    metric's Pearson with the official score beside those with "> others" and expected wins (computed
    from the judgments), so a reader sees how far the choice of human score moves a correlation."""
    rows = []
    for dataset, score in human_scores.items():
        if score["human_score"] != "official":
            continue
        part = system_level[(system_level["dataset"] == dataset) & system_level["metric"].isin(metrics)]
        wide = part.pivot_table(index=["lp", "metric"], columns="human_score", values="pearson", sort=False)
        n = part[part["human_score"] == "official"].set_index(["lp", "metric"])["n_systems"]
        if "gt_others" not in wide:
            continue
        for (lp, metric), values in wide.dropna(subset=["gt_others", "official"]).iterrows():
            rows.append({"dataset": dataset, "lp": lp, "metric": metric, "n_systems": int(n[(lp, metric)]),
                         "official": values["official"], "gt_others": values["gt_others"],
                         "expected_wins": values["expected_wins"],
                         "official_minus_gt_others": values["official"] - values["gt_others"]})
    table = pd.DataFrame(rows, columns=COMPARISON_COLUMNS)
    order = {m: k for k, m in enumerate(metrics)}
    return table.sort_values(["dataset", "lp", "metric"], key=lambda c: c.map(order) if c.name == "metric" else c,
                             kind="stable", ignore_index=True)


def comparison_markdown(table: pd.DataFrame, human_scores: dict[str, dict]) -> str:
    """Per dataset: metrics x language pairs, cells "official / > others"."""
    out = []
    for dataset, part in table.groupby("dataset", sort=False):
        lps = list(dict.fromkeys(part["lp"]))
        name = human_scores[dataset]["official"]
        out += [f"**{dataset}: Pearson with the official score ({name}) / with \"> others\" from the pairwise "
                "judgments**, on the pairs that have both (expected wins in the TSV)", "",
                "| metric | " + " | ".join(lps) + " |", "|---|" + "---:|" * len(lps)]
        for metric, rows in part.groupby("metric", sort=False):
            cells = {row.lp: f"{row.official:.3f} / {row.gt_others:.3f}" for row in rows.itertuples()}
            out.append(f"| {metric} | " + " | ".join(cells.get(lp, "") for lp in lps) + " |")
        deltas = part["official_minus_gt_others"]
        out += ["", f"Official minus \"> others\": mean {deltas.mean():+.3f}, range {deltas.min():+.3f} to "
                f"{deltas.max():+.3f} over {len(part)} metric x pair cells.", ""]
    return "\n".join(out)


HUMAN_NAMES = {"gt_others": "> others", "ge_others": "≥ others", "expected_wins": "expected wins",
               "official": "the official score"}


INTERVAL_NAMES = {"bootstrap": "bootstrap", "fisher-z": "Fisher-z (Pearson only)"}


def baselines_markdown(table: pd.DataFrame, comparison: pd.DataFrame | None = None,
                       human_scores: dict[str, dict] | None = None) -> str:
    """Per dataset: metrics (rows) x language pairs (columns), cells "Pearson / Spearman"."""
    out = []
    for dataset, part in table.groupby("dataset", sort=False):
        used, official = part["human_score"].iloc[0], part["official_human_score"].iloc[0]
        used_name = HUMAN_NAMES[used]
        if used == "official":
            used_name, note = f"the official score ({official})", "read from the metrics task's own file"
        elif used_name == official:
            note = "the score that year's metrics task used"
        else:
            note = (f"that year's metrics task used {official}, which the study does not compute; read these as "
                    f"correlations with {used_name}, not as the official ones")
        lps = list(dict.fromkeys(part["lp"]))
        # "undefined: ..." (too few judged systems) has no interval: said once beside the others' names
        named = [INTERVAL_NAMES[m] for m in part["interval_method"] if m in INTERVAL_NAMES]
        method = " and ".join(dict.fromkeys(named)) or "no"
        undefined = "; none where a correlation is undefined" if len(named) < len(part) else ""
        out += [f"**{dataset}: system-level Pearson / Spearman with {used_name}** ({note}; "
                f"95% {method} intervals in the TSV{undefined})", "",
                "| metric | " + " | ".join(f"{lp} ({part.loc[part['lp'] == lp, 'n_systems'].iloc[0]})" for lp in lps)
                + " |", "|---|" + "---:|" * len(lps)]
        for metric, rows in part.groupby("metric", sort=False):
            cells = {row.lp: f"{row.pearson:.3f} / {row.spearman:.3f}" + (
                f" (published {row.reported_spearman:.2f})" if row.reported_spearman == row.reported_spearman else "")
                for row in rows.itertuples()}
            out.append(f"| {metric} | " + " | ".join(cells[lp] for lp in lps) + " |")
        out.append("")
    if comparison is not None and not comparison.empty:
        out.append(comparison_markdown(comparison, human_scores or {}))
    signatures = table.drop_duplicates(["metric", "metric_signature"])
    out += ["Column headers give the number of systems. TER is negated (lower is better), so for every metric "
            "a higher correlation is better. \"Published\": the Spearman the metrics task published for its "
            "metric (config/reported/; results/paper/official_wmt12.md compares each with the study's metric as "
            "the task ran it).", "", "Signatures (one per target language where it names it):", ""]
    out += [f"- {row.metric}: `{row.metric_signature}`" for row in signatures.itertuples()]
    return "\n".join(out) + "\n"
