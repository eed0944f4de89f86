"""A second annotator as a ceiling for the segment-level Kendall variants of pairwise judgments (WMT12-14).

The WMT findings report inter-annotator agreement on the comparisons judged more than once by
different annotators. Here the same comparisons are scored under the study's segment-level
statistics (:mod:`mtmeta.stats.pairwise`), one judgment as the human label and another as if it were
a metric's decision (+1, -1, or a tie):

- a comparison is a segment and an unordered pair of systems; each of its judgments is oriented to
  the pair's order (the systems sorted by name);
- every ordered pair (i, j) of two judgments of one comparison by different annotators counts once,
  judgment i the label and j the decision, so each unordered pair counts in both directions and the
  agreement is symmetric. Pairs of judgments by the same annotator (intra-annotator repeats) and
  judgments without an annotator id are left out and counted;
- the counts follow the variants' definitions (C, D, T_m: the second judgment tied a pair the first
  decided, T_h, T_hm), so WMT12's Kendall counts a second annotator's tie as discordant, WMT13's drops
  it, WMT14's keeps it in the denominator; ``acc_eq`` (= three-way accuracy) is the share of agreeing
  pairs, and ``kappa`` is the findings' (P(A) - P(E)) / (1 - P(E)) with P(A) = acc_eq and P(E) the sum
  of the squared shares of the three outcomes over the pairs' labels.

Counts are computed per comparison from its judgments' outcomes (no pair is enumerated): with n_+,
n_0, n_- judgments of each outcome, C = n_+(n_+ - 1) + n_-(n_- - 1), D = 2 n_+ n_-, T_m = T_h =
n_0 (n_+ + n_-), T_hm = n_0 (n_0 - 1), minus the same counts within each annotator's own judgments.

Where the source does not record annotators (the mirror's WMT13/WMT14 pairwise files; the WMT13 dev
subset's ranks), every pair of judgments of a comparison counts (``annotators`` "not recorded": a
repeat by the same annotator cannot be told apart); where the source holds no ties (the pairwise
files keep non-tied preferences only), a comparison one annotator tied is missing from it, so only
pairs of decided judgments are seen: WMT13's variant ignores ties anyway, the others are then upper
bounds (``ties`` "not in the source").

Beside the human level, each metric on the same judgments (``repeated``): the metric's decision
(its score difference, lower-is-better negated, a tie at 0) against every label i of the ordered
pairs, each judgment weighted by its number of partners, so it is scored on the same labels as the
second annotator.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

STATISTICS = ("tau_wmt12", "tau_wmt13", "tau_wmt14", "tau_b", "tau_eq", "acc_eq")
COUNT_COLUMNS = ["concordant", "discordant", "metric_ties", "human_ties", "both_ties"]


def oriented(comparisons: pd.DataFrame) -> pd.DataFrame:
    """seg_id, first, second (the pair's systems sorted by name), label (+1 first better, -1, 0 tie)
    and task of every comparison."""
    sys_a, sys_b = comparisons["sys_a"].to_numpy(), comparisons["sys_b"].to_numpy()
    swap = sys_a > sys_b
    outcome = comparisons["outcome"].map({"a": 1, "b": -1, "tie": 0}).to_numpy()
    if np.isnan(outcome.astype(float)).any():
        bad = sorted(set(comparisons["outcome"]) - {"a", "b", "tie"})
        raise ValueError(f"outcomes must be 'a', 'b' or 'tie'; found {bad}")
    return pd.DataFrame({"seg_id": comparisons["seg_id"].to_numpy(), "first": np.where(swap, sys_b, sys_a),
                         "second": np.where(swap, sys_a, sys_b), "label": np.where(swap, -outcome, outcome),
                         "task": comparisons["task"].to_numpy()})


def _pair_counts(plus: np.ndarray, zero: np.ndarray, minus: np.ndarray) -> np.ndarray:
    """(groups x 5) C, D, T_m, T_h, T_hm of the ordered pairs of distinct judgments within each group of
    outcome counts."""
    decided = plus + minus
    return np.column_stack([plus * (plus - 1) + minus * (minus - 1), 2 * plus * minus, zero * decided,
                            zero * decided, zero * (zero - 1)]).astype(float)


def statistics_of(counts) -> dict:
    """The segment-level statistics from C, D, T_m, T_h, T_hm (:mod:`mtmeta.stats.pairwise`'s formulas);
    ``counts`` (..., 5): floats for one set of counts, arrays (NaN where undefined) for draws of them."""
    counts = np.asarray(counts, dtype=float)
    c, d, t_m, t_h, t_hm = np.moveaxis(counts, -1, 0)
    n = c + d + t_m + t_h + t_hm
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = lambda a, b: np.where(b != 0, a / np.where(b != 0, b, 1), np.nan)  # noqa: E731
        out = {"tau_wmt12": ratio(c - d - t_m, c + d + t_m), "tau_wmt13": ratio(c - d, c + d),
               "tau_wmt14": ratio(c - d, c + d + t_m), "tau_b": ratio(c - d, np.sqrt((c + d + t_m) * (c + d + t_h))),
               "tau_eq": ratio(c + t_hm - d - t_h - t_m, n), "acc_eq": ratio(c + t_hm, n)}
    return {k: float(v) for k, v in out.items()} if counts.ndim == 1 else out


def annotator_agreement(comparisons: pd.DataFrame, judges: dict[str, str] | None) -> tuple[dict, pd.DataFrame]:
    """(the second annotator's statistics with kappa and counts, the judgments in repeated comparisons
    with their weight: partners by another annotator). ``judges`` maps a comparison's task to its
    annotator; None where the source records none (every pair of judgments counts)."""
    table = oriented(comparisons)
    recorded = judges is not None
    if recorded:
        table["judge"] = table["task"].map(judges).fillna("")
        unattributed = int((table["judge"] == "").sum())
        table = table[table["judge"] != ""].copy()
    else:
        table["judge"] = np.arange(len(table)).astype(str)  # each judgment its own: every pair counts
        unattributed = 0
    key = ["seg_id", "first", "second"]
    table["plus"], table["zero"], table["minus"] = (table["label"] == 1), (table["label"] == 0), (table["label"] == -1)
    per_comparison = table.groupby(key, sort=False)[["plus", "zero", "minus"]].sum()
    per_judge = table.groupby([*key, "judge"], sort=False)[["plus", "zero", "minus"]].sum()
    # Per segment (for the bootstrap over segments), then in all.
    by_segment = (pd.DataFrame(_pair_counts(*(per_comparison[c].to_numpy() for c in ("plus", "zero", "minus"))),
                               columns=COUNT_COLUMNS).groupby(per_comparison.index.get_level_values("seg_id")).sum()
                  .sub(pd.DataFrame(_pair_counts(*(per_judge[c].to_numpy() for c in ("plus", "zero", "minus"))),
                                    columns=COUNT_COLUMNS).groupby(per_judge.index.get_level_values("seg_id")).sum(),
                       fill_value=0))
    counts = by_segment.sum().to_numpy()
    # Each judgment's partners: the judgments of its comparison by other annotators.
    size = table.groupby(key, sort=False)["label"].transform("size")
    own = table.groupby([*key, "judge"], sort=False)["label"].transform("size")
    table["weight"] = (size - own).to_numpy()
    repeated = table[table["weight"] > 0]
    same_judge = int((own - 1).to_numpy().sum()) // 2 if recorded else 0  # k(k - 1) / 2 per annotator
    total = counts.sum()
    shares = [float((repeated["weight"] * (repeated["label"] == o)).sum() / total) if total else math.nan
              for o in (1, 0, -1)]
    chance_agreement = sum(p * p for p in shares)
    agreement = statistics_of(counts)
    kappa = ((agreement["acc_eq"] - chance_agreement) / (1 - chance_agreement)
             if total and chance_agreement < 1 else math.nan)
    result = {**agreement, "kappa": kappa, "chance_agreement": chance_agreement,
              **dict(zip(COUNT_COLUMNS, counts.astype(int).tolist(), strict=True)),
              "comparisons": int(len(per_comparison)),
              "repeated_comparisons": int(repeated.drop_duplicates(key).shape[0]),
              "judgments_in_repeated": int(len(repeated)), "judgment_pairs": int(total) // 2,
              "same_annotator_pairs": same_judge, "unattributed_judgments": unattributed,
              "annotators": "recorded" if recorded else "not recorded", "segment_counts": by_segment}
    return result, repeated[[*key, "label", "weight"]].reset_index(drop=True)


def repeated_cells(repeated: pd.DataFrame):
    """The cells of the repeated judgments' comparisons (:class:`~mtmeta.metaeval.segment_level.ComparisonCells`)."""
    from mtmeta.metaeval.segment_level import ComparisonCells

    return ComparisonCells(repeated["first"], repeated["second"], repeated["seg_id"])


def metric_on_repeated(repeated: pd.DataFrame, segment_scores: pd.DataFrame, higher_is_better: bool = True,
                       cells=None) -> dict:
    """The metric's statistics against the labels of the repeated judgments, each weighted by its
    partners (the second annotator's pairs, with the metric in the second annotator's place);
    ``cells``: :func:`repeated_cells`, when made once for many metrics."""
    first, second, _ = (cells or repeated_cells(repeated)).scores(segment_scores)
    if np.isnan(first).any() or np.isnan(second).any():
        raise ValueError("a repeated comparison has no metric score (the segment table and the comparisons come "
                         "from the same prepared dataset)")
    sign = np.sign(first - second) * (1 if higher_is_better else -1)
    label, weight = repeated["label"].to_numpy(), repeated["weight"].to_numpy(dtype=float)
    decided, tie = label != 0, sign == 0
    counts = [weight[decided & ~tie & (sign == label)].sum(), weight[decided & ~tie & (sign != label)].sum(),
              weight[decided & tie].sum(), weight[~decided & ~tie].sum(), weight[~decided & tie].sum()]
    return statistics_of(counts)


# The statistics of the WMT12-14 segment-level table with a human level, as segment_level.tsv names
# them (three-way accuracy is acc_eq at epsilon 0).
TABLE_STATISTICS = ("tau_wmt12", "tau_wmt13", "tau_wmt14", "tau_b", "acc_eq")
HUMAN = "second annotator"
LEVEL_COLUMNS = ["dataset", "lp", "level", "who", "statistic", "value", "low", "high", "repeated", "chance",
                 "chance_se", "chance_low", "chance_high", "share", "share_low", "share_high", "draws", "seed",
                 "comparisons", "repeated_comparisons", "judgment_pairs", "same_annotator_pairs",
                 "unattributed_judgments", "annotators", "ties", "kappa"]
PERMUTED = ("tau_wmt13", "tau_b")  # chance levels from permutations when the metric ties (segment_level)


def _by_segment(position: np.ndarray, columns: list[np.ndarray], n_segments: int) -> np.ndarray:
    """(segments x columns) sums of each per-comparison column over the comparisons of each segment."""
    return np.column_stack([np.bincount(position, weights=c.astype(float), minlength=n_segments) for c in columns])


def _metric_segments(comparisons: pd.DataFrame, segments: pd.DataFrame, higher_is_better: bool,
                     seg_ids: np.ndarray, cells=None) -> tuple[np.ndarray, np.ndarray]:
    """Per segment (rows in ``seg_ids`` order): the metric's C, D, T_m, T_h, T_hm at epsilon 0 over the
    pair's comparisons, and the sums behind its exact chance levels (sum of q over the comparisons the
    humans decided, their number, the expected agreements, the comparisons: see chance.py)."""
    from mtmeta.metaeval.segment_level import pairwise_deltas
    from mtmeta.stats.chance import comparison_tie_probability

    human, delta = pairwise_deltas(comparisons, segments, higher_is_better, cells)
    position = np.searchsorted(seg_ids, comparisons["seg_id"].to_numpy())
    sign, decided = np.sign(delta), human != 0
    counts = _by_segment(position, [decided & (sign != 0) & (sign == human), decided & (sign != 0) & (sign != human),
                                    decided & (sign == 0), ~decided & (sign != 0), ~decided & (sign == 0)],
                         len(seg_ids))
    grid = segments.pivot(index="system", columns="seg_id", values="score").reindex(columns=seg_ids)
    q = comparison_tie_probability(grid.to_numpy(float), position)
    exact = _by_segment(position, [np.where(decided, q, 0.0), decided, np.where(decided, (1 - q) / 2, q),
                                   np.ones(len(q))], len(seg_ids))
    return counts, exact


def pair_levels(dataset: str, lp: str, comparisons: pd.DataFrame, judges: dict[str, str] | None, ties: bool,
                metrics: dict[str, tuple[pd.DataFrame, bool]], segment_level: pd.DataFrame, *, draws: int = 1000,
                seed: int = 12345, alpha: float = 0.05) -> pd.DataFrame:
    """One pair's rows of the WMT12-14 segment-level table with its levels: the second annotator
    (``level`` human) and each metric (``metric``: its value over every comparison and its chance
    level, from ``segment_level``'s rows of the pair; ``repeated``: on the judgments the second
    annotator is scored on), with the share of the headroom between its chance level and the
    human level it closes. ``metrics``: id -> (segment table, higher is better); ``ties``: whether
    the source holds human ties.

    Intervals (``low``/``high`` of the value, ``chance_low``/``chance_high``, ``share_low``/``share_high``):
    ``draws`` bootstrap draws over the pair's segments (the study's WMT bootstrap draws,
    :func:`mtmeta.stats.correlation.resample_weights`, ``seed``), the same draws for the second
    annotator, the metric and its chance level, each recomputed from per-segment counts. An exact chance
    level is recomputed in every draw; a permutation one (WMT13's Kendall, tau-b) is the estimate
    ± 1.96 standard errors (under any resampling E[C - D] = 0, so it moves little), kept fixed in
    the share's draws."""
    from mtmeta.metaeval.level_draws import percentiles, share_draws
    from mtmeta.metaeval.segment_level import ComparisonCells
    from mtmeta.stats.ceiling import headroom_share
    from mtmeta.stats.correlation import resample_weights

    human, repeated = annotator_agreement(comparisons, judges)
    seg_ids = np.sort(next(iter(metrics.values()))[0]["seg_id"].unique())
    weights = resample_weights(len(seg_ids), draws, seed).astype(float)
    human_draws = statistics_of(weights @ human["segment_counts"].reindex(seg_ids, fill_value=0).to_numpy(float))
    base = {"dataset": dataset, "lp": lp, **{k: human[k] for k in ("comparisons", "repeated_comparisons",
                                                                    "judgment_pairs", "same_annotator_pairs",
                                                                    "unattributed_judgments", "annotators", "kappa")},
            "ties": "in the source" if ties else "not in the source", "draws": draws, "seed": seed}
    rows = [{**base, "level": "human", "who": HUMAN, "statistic": name, "value": human[name], "repeated": human[name],
             **dict(zip(("low", "high"), percentiles(human_draws[name], alpha), strict=True))}
            for name in TABLE_STATISTICS]
    rows_of = segment_level.set_index("metric")
    cells, again = ComparisonCells.of(comparisons), repeated_cells(repeated) if len(repeated) else None
    for metric_id, (segments, higher_is_better) in metrics.items():
        same = metric_on_repeated(repeated, segments, higher_is_better, again) if len(repeated) else {}
        row = rows_of.loc[metric_id]
        counts, exact = _metric_segments(comparisons, segments, higher_is_better, seg_ids, cells)
        metric_draws = statistics_of(weights @ counts)
        sums = weights @ exact  # draws x (sum q decided, decided, expected agreements, comparisons)
        with np.errstate(divide="ignore", invalid="ignore"):
            chance_draws = {"tau_wmt12": -sums[:, 0] / sums[:, 1], "tau_wmt14": np.zeros(draws),
                            "acc_eq": sums[:, 2] / sums[:, 3]}
        for name in TABLE_STATISTICS:
            level = float(row.get(f"chance_{name}", math.nan))
            se = float(row.get(f"chance_{name}_se", 0.0)) if name in PERMUTED else 0.0
            value = float(row[name])
            if name in chance_draws:
                chance_of_draw = chance_draws[name]
                chance_interval = percentiles(chance_of_draw, alpha)
            else:
                chance_of_draw = np.full(draws, level)
                chance_interval = (level - 1.96 * se, level + 1.96 * se)
            shares = share_draws(metric_draws[name], chance_of_draw, human_draws[name])
            rows.append({**base, "level": "metric", "who": metric_id, "statistic": name, "value": value,
                         **dict(zip(("low", "high"), percentiles(metric_draws[name], alpha), strict=True)),
                         "repeated": same.get(name, math.nan), "chance": level, "chance_se": se,
                         "chance_low": chance_interval[0], "chance_high": chance_interval[1],
                         "share": headroom_share(value, level, human[name]),
                         **dict(zip(("share_low", "share_high"), percentiles(shares, alpha), strict=True))})
    return pd.DataFrame(rows, columns=LEVEL_COLUMNS)


def _interval_text(low: float, high: float, form: str) -> str:
    """`` (low-high)`` after a value; nothing where the interval is undefined."""
    if pd.isna(low) or pd.isna(high):
        return ""
    return " (" + form.format(round(low, 3) + 0.0) + "–" + form.format(round(high, 3) + 0.0) + ")"


def levels_markdown(table: pd.DataFrame) -> str:
    """Per pair: the second annotator's row, then each metric's value [chance] and headroom share."""
    labels = {"tau_wmt12": "WMT12 Kendall", "tau_wmt13": "WMT13 Kendall", "tau_wmt14": "WMT14 Kendall",
              "tau_b": "tau-b", "acc_eq": "acc_eq (3-way accuracy)"}
    lines = ["# Segment-level agreement with pairwise human judgments, between chance and a second annotator", "",
             "Each metric's value over every comparison of the pair (results/correlations/segment_level.tsv), "
             "[c] its chance level", "(its own scores permuted among the systems of each segment, the human ties "
             "kept: exact, or ± the Monte-Carlo", "standard error of seeded permutations for WMT13's Kendall and tau-b "
             "when the metric ties) and the share of the", "headroom between c and the human level it closes, "
             "(metric - c) / (human - c). The human level: one annotator's", "judgment scored as if it were a "
             "metric against another annotator's judgment of the same comparison (the same", "segment and pair of "
             "systems), every ordered pair of judgments by different annotators (mtmeta.metaeval.annotators);",
             "kappa is the findings' inter-annotator kappa on the same pairs. (low–high): 95% percentile interval "
             "over bootstrap", "draws of the pair's segments (the same draws for the annotator, the metric and its "
             "chance level; the TSV has", "every interval). The metric on the same judgments as the second annotator "
             "is in the TSV (`repeated`).", ""]
    for (dataset, lp), group in table.groupby(["dataset", "lp"], sort=False):
        first = group.iloc[0]
        caveats = []
        if first["annotators"] == "recorded":
            caveats.append(f"pairs of judgments by the same annotator left out: {int(first['same_annotator_pairs'])}; "
                           f"judgments without an annotator id: {int(first['unattributed_judgments'])}")
        else:
            caveats.append("the source does not record annotators: every pair of judgments of a comparison counts, "
                           "repeats by one annotator included")
        if first["ties"] != "in the source":
            caveats.append("the source holds no ties (non-tied preferences only): only pairs of decided judgments "
                           "are seen, so every level but WMT13's is an upper bound")
        lines += [f"## {dataset} {lp}", "",
                  f"{int(first['comparisons'])} comparisons; human level on {int(first['judgment_pairs'])} pairs of "
                  f"judgments of {int(first['repeated_comparisons'])} comparisons judged more than once "
                  f"(kappa {first['kappa']:.3f}); " + "; ".join(caveats) + ".", "",
                  "| | " + " | ".join(labels[s] for s in TABLE_STATISTICS) + " |",
                  "|---|" + "---:|" * len(TABLE_STATISTICS)]
        human = group[group["level"] == "human"].set_index("statistic")
        lines.append(f"| **human: {HUMAN}** | " + " | ".join(
            "n/a" if pd.isna(human.at[s, "value"]) else f"**{human.at[s, 'value']:.3f}**"
            + _interval_text(human.at[s, "low"], human.at[s, "high"], "{:.3f}") for s in TABLE_STATISTICS) + " |")
        for metric, rows in group[group["level"] == "metric"].groupby("who", sort=False):
            rows = rows.set_index("statistic")
            cells = []
            for s in TABLE_STATISTICS:
                value, level, se, share = (rows.at[s, k] for k in ("value", "chance", "chance_se", "share"))
                text = "n/a" if pd.isna(value) else f"{value:.3f}"
                if not pd.isna(level):
                    text += f" [{level:.3f}" + (f" ± {se:.3f}]" if not pd.isna(se) and se > 0 else "]")
                if not pd.isna(share):
                    text += f" {round(share, 2) + 0.0:.0%}" + _interval_text(rows.at[s, "share_low"],
                                                                              rows.at[s, "share_high"], "{:.0%}")
                cells.append(text)
            lines.append(f"| {metric} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)
