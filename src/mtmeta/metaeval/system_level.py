"""System-level correlations of metric scores with human system scores.

``chance``: the chance level of each of the three correlations, a metric's system scores permuted at
random: 0 exactly wherever the correlation is defined (:mod:`mtmeta.stats.chance`), NaN where it is
not. There is no human level at this level: WMT12-14 have no second, independent human ranking of
whole systems (the official scores are other aggregations of the same judgments).
"""
from __future__ import annotations

import pandas as pd

from mtmeta.errors import MissingSystemsError
from mtmeta.stats.human import COLUMNS, OFFICIAL, SCORE_COLUMNS

NOT_SCORES = set(COLUMNS) - set(SCORE_COLUMNS)  # the counts beside the scores computed from judgments

SYSTEM_LEVEL_COLUMNS = [
    "dataset", "lp", "metric", "human_score", "n_systems", "n_systems_unjudged",
    "pearson", "pearson_p", "spearman", "spearman_p", "kendall", "kendall_p", "kendall_variant", "p_method",
    "chance", "n_segments", "n_judged_segments", "n_tasks", "n_comparisons", "description", "metric_signature",
]  # fmt: skip


def system_level_correlations(
    summary: dict, human: pd.DataFrame, system_scores: pd.DataFrame, metric_id: str, higher_is_better: bool = True
) -> pd.DataFrame:
    """Correlation of one metric with each human system score, for one dataset x lp.

    Only systems with both a human score and a metric score take part; the number left
    out for lack of a human score is reported beside ``n_systems``. The human scores are those the
    pair has (:func:`human_scores_of`).
    """
    # Imported here: scipy.stats takes most of a second to import, and the scatter figures' jobs
    # only need primary_human_score from this module.
    from mtmeta.stats.correlation import KENDALL_VARIANT, correlations

    signatures = system_scores["signature"].unique()
    if len(signatures) != 1:
        raise ValueError(f"{metric_id}: expected one signature per score file, found {list(signatures)}")
    # The human translations an mt-metrics-eval set scores as systems are not MT systems: left out here
    # (human_scores.tsv holds the MT systems), not counted as unjudged (the MTME tables add them back).
    system_scores = system_scores[~system_scores["system"].isin(summary.get("human_translations", []))]
    scored = set(system_scores.dropna(subset=["score"])["system"])
    judged = human.loc[human[human_scores_of(human)].notna().any(axis=1), "system"] if len(human) else []
    missing = set(judged) - scored
    if missing:  # a truncated or stale score table: its correlation would be over fewer systems than the others'
        raise MissingSystemsError(f"{summary['dataset']} {summary['lp']}", metric_id, missing, len(judged))
    joined = system_scores.merge(human, on="system", how="inner", validate="one_to_one")
    sign = 1.0 if higher_is_better else -1.0
    rows = []
    # No human score with a value (every one None): one row for the pair's primary score, saying so.
    for human_score in human_scores_of(human) or [primary_human_score(human)]:
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
                "chance": 0.0 if stats["pearson"] == stats["pearson"] else float("nan"),
                "n_segments": summary["n_segments"],
                "n_judged_segments": summary["n_judged_segments"],
                "n_tasks": summary["n_tasks"],
                "n_comparisons": summary["n_comparisons"],
                "description": summary["description"],
                "metric_signature": signatures[0],
            }
        )
    return pd.DataFrame(rows, columns=SYSTEM_LEVEL_COLUMNS)


def human_scores_of(human: pd.DataFrame) -> list[str]:
    """The human scores a pair's table holds: the three computed from judgments (if it has any
    judgments), the official score (if the dataset reads one), or the scores an mt-metrics-eval set
    has (MQM, DA ...; every other column, the primary one first, as prepare writes them)."""
    if any(c in human for c in SCORE_COLUMNS) or OFFICIAL in human:
        computed = [c for c in SCORE_COLUMNS if c in human]
        if OFFICIAL in human and not human[computed].notna().any().any():
            computed = []  # a pair without judgments
        return [*computed, *([OFFICIAL] if OFFICIAL in human and human[OFFICIAL].notna().any() else [])]
    return [c for c in human.columns if c not in NOT_SCORES and human[c].notna().any()]


def primary_human_score(human: pd.DataFrame, preferred: str = "gt_others") -> str:
    """The human score a pair's single-score tables use (Williams groups, overview, scatter plots):
    ``preferred`` where the pair has it, else the official score (pairs without judgments), else an
    mt-metrics-eval set's primary score (its first)."""
    available = human_scores_of(human)
    if preferred in available:
        return preferred
    if OFFICIAL in available:
        return OFFICIAL
    if available and not any(c in human for c in SCORE_COLUMNS):
        return available[0]
    # No score has a value (every human score None): the column still names the score, and every
    # table says that no system is judged instead of stopping here.
    declared = [c for c in human.columns if c not in NOT_SCORES and c != "system"]
    for name in (preferred, OFFICIAL, *declared):
        if name in declared:
            return name
    raise ValueError(f"no human score {preferred!r} (have: {', '.join(available) or 'none'})")


# Human scores as a reader knows them (the column heads of summary_markdown).
SIGNAL_NAMES = {"gt_others": "> others", "ge_others": "≥ others", "expected_wins": "expected wins",
                OFFICIAL: "official", "mqm": "MQM"}


def summary_markdown(table: pd.DataFrame, full_table: str) -> str:
    """The system-level table for reading: per dataset, metrics (rows) by language pair (columns), each
    cell Pearson's r with the pair's primary human score ("> others"; the official score for a pair
    without judgments; an mt-metrics-eval set's first score), that score and the number of systems
    in the column's head. Every other human score, Spearman, Kendall, p-values and signatures are in ``full_table``
    (named in the opening line), the TSV this Markdown sits beside."""
    def primary(scores: pd.Series) -> str:
        for name in ("gt_others", OFFICIAL):
            if (scores == name).any():
                return name
        return scores.iloc[0]

    chosen = table.groupby(["dataset", "lp"], sort=False)["human_score"].transform(primary)
    rows = table[table["human_score"] == chosen]
    lines = [f"System-level Pearson's r of each metric with each pair's primary human score; one table per "
             f"dataset. Every human score, Spearman, Kendall, the p-values and the metric signatures: "
             f"`{full_table}` ({len(table)} rows).", ""]
    for dataset, group in rows.groupby("dataset", sort=False):
        pairs = list(dict.fromkeys(group["lp"]))
        heads = group.groupby("lp", sort=False).agg(score=("human_score", "first"), n=("n_systems", "max"))
        lines += [f"**{dataset}**", "",
                  "| metric | " + " | ".join(f"{lp} ({SIGNAL_NAMES.get(heads.at[lp, 'score'], heads.at[lp, 'score'])}, "
                                             f"n={int(heads.at[lp, 'n'])})" for lp in pairs) + " |",
                  "|---|" + "---:|" * len(pairs)]
        wide = group.pivot_table(index="metric", columns="lp", values="pearson", sort=False, dropna=False)
        for metric in dict.fromkeys(group["metric"]):
            cells = ["" if lp not in wide or pd.isna(wide.at[metric, lp]) else f"{wide.at[metric, lp]:.3f}"
                     for lp in pairs]
            lines.append(f"| {metric} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)
