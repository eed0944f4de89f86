"""How much a system-level correlation moves when one setting changes: the sensitivity table.

For one test set (a language pair of a dataset) and a few metrics, the Pearson correlation of each
metric with a human score, first as the study computes it (the default: the metric's corpus score
over all segments, against "> others" from pairwise comparisons, ties ignored), then with exactly
one factor changed:

- human score: "≥ others"; wins over all comparisons (ties count as non-wins); expected wins with
  ties ignored (WMT13) and with ties counted; "> others" counted per ranking task (each system's
  wins / (wins + losses) within one ranking of the judgments file, averaged over its rankings);
- segments: only the segments where that system was judged, or only the judged segments (the
  union over systems), instead of all;
- aggregation: the mean of segment scores instead of the corpus statistic;
- text (re-scored): case flipped (lowercased where the default keeps case, case-sensitive where it
  lowercases), for every metric; and for the metrics named so, Meteor 1.5's input modes (-norm,
  -lower, neither), Moses tokenisation (sacremoses) and lemmas (simplemma) of both sides;
- systems: leave one system out (the range over systems, and the system that moves it most).

Beside them, the bootstrap interval of the default (segments resampled, both sides re-aggregated).
The table explains; it never changes a default. Pure functions: the rule's script does the I/O.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd

from mtmeta.metrics.base import Metric
from mtmeta.metrics.score_tables import stat_columns
from mtmeta.stats.correlation import correlations
from mtmeta.stats.human import pairwise_counts, system_scores

DEFAULT = "default"
TEXT_KINDS = ("moses", "lemmas")  # the pre-processings of both sides that text factors re-score on
COLUMNS = ["dataset", "lp", "metric", "factor", "variant", "pearson", "delta", "n_systems", "note", "signature"]


def human_variants(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Per system (index), each human score variant (columns; the first is the default)."""
    scores = system_scores(comparisons).set_index("system")
    pairs = pairwise_counts(comparisons)
    total = pairs["wins"] + pairs["losses"] + pairs["ties"]
    pairs["rate_with_ties"] = np.where(total > 0, pairs["wins"] / total.where(total > 0, 1), np.nan)
    with_ties = pairs.groupby("system")["rate_with_ties"].mean()
    per_task = pairwise_counts_by_task(comparisons)
    decided = per_task["wins"] + per_task["losses"]
    per_task = per_task[decided > 0]
    task_rate = (per_task["wins"] / (per_task["wins"] + per_task["losses"])).groupby(per_task["system"]).mean()
    out = pd.DataFrame({
        "> others (ties ignored)": scores["gt_others"],
        ">= others": scores["ge_others"],
        "wins / all comparisons": scores["wins"] / scores["comparisons"],
        "expected wins, ties ignored": scores["expected_wins"],
        "expected wins, ties counted": with_ties,
        "> others per ranking task": task_rate,
    })
    return out.astype(float)


def ranking_of(task: pd.Series) -> pd.Series:
    """The ranking a comparison comes from: its ``task`` label, without the line pair that some
    judgment files add to it ("group 1574 (lines 2,3)" -> "group 1574": the WMT13 dev subset)."""
    return task.astype(str).str.replace(r" \(lines [^)]*\)$", "", regex=True)


def pairwise_counts_by_task(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Wins and losses of each system within each ranking task (:func:`ranking_of`)."""
    outcome = comparisons["outcome"].to_numpy()
    ranking = ranking_of(comparisons["task"]).to_numpy()
    long = pd.DataFrame({
        "task": np.concatenate([ranking, ranking]),
        "system": np.concatenate([comparisons["sys_a"], comparisons["sys_b"]]),
        "wins": np.concatenate([outcome == "a", outcome == "b"]).astype(int),
        "losses": np.concatenate([outcome == "b", outcome == "a"]).astype(int),
    })
    return long.groupby(["task", "system"], sort=True, as_index=False)[["wins", "losses"]].sum()


def _pearson(metric_scores: pd.Series, human: pd.Series, sign: float) -> float:
    joined = pd.concat([metric_scores.rename("m"), human.rename("h")], axis=1).dropna()
    if len(joined) < 3:
        return math.nan
    return float(correlations(sign * joined["m"].to_numpy(), joined["h"].to_numpy())["pearson"])


def system_stats(segment_table: pd.DataFrame) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per system: (seg_ids, statistics) in segment order."""
    columns = stat_columns(segment_table)
    return {system: (rows["seg_id"].to_numpy(), rows[columns].to_numpy())
            for system, rows in segment_table.sort_values(["system", "seg_id"]).groupby("system", sort=True)}


def corpus_scores(metric: Metric, stats: dict, keep: Callable[[str, np.ndarray], np.ndarray] | None = None,
                  mean_of_segments: bool = False) -> pd.Series:
    """Each system's score from its statistics, optionally over a subset of its segments (``keep``
    gives a boolean mask from the system and its seg_ids) or as the mean of its segment scores."""
    out = {}
    for system, (seg_ids, values) in stats.items():
        if keep is not None:
            values = values[keep(system, seg_ids)]
        if not len(values):
            out[system] = math.nan
        elif mean_of_segments:
            out[system] = float(np.mean(metric.segment_scores(values)))
        else:
            out[system] = float(metric.corpus_score(values))
    return pd.Series(out, dtype=float)


def cheap_factors(metric: Metric, segment_table: pd.DataFrame, comparisons: pd.DataFrame,
                  humans: pd.DataFrame | None = None) -> list[dict]:
    """Default, human-score, segment, aggregation and leave-one-out rows of one metric, from its
    stored statistics (no re-scoring); ``humans``: :func:`human_variants` of ``comparisons``, if
    the caller has it already (one computation for all metrics of a test set)."""
    sign = 1.0 if metric.higher_is_better else -1.0
    stats = system_stats(segment_table)
    humans = human_variants(comparisons) if humans is None else humans
    default_human = humans.iloc[:, 0]
    scores = corpus_scores(metric, stats)
    judged = humans.index[humans.iloc[:, 0].notna()]
    n = int(scores.index.isin(judged).sum())
    rows = [dict(factor=DEFAULT, variant="corpus statistic, all segments, > others",
                 pearson=_pearson(scores, default_human, sign), n_systems=n, note="")]
    for name in humans.columns[1:]:
        rows.append(dict(factor="human score", variant=name, pearson=_pearson(scores, humans[name], sign),
                         n_systems=int(humans[name].notna().sum()), note=""))
    judged_by_system = {s: set(g) for s, g in pd.concat([
        comparisons[["sys_a", "seg_id"]].set_axis(["system", "seg_id"], axis=1),
        comparisons[["sys_b", "seg_id"]].set_axis(["system", "seg_id"], axis=1)]).groupby("system")["seg_id"]}
    union = set(comparisons["seg_id"])
    own = corpus_scores(metric, stats, lambda s, ids: np.isin(ids, list(judged_by_system.get(s, ()))))
    rows.append(dict(factor="segments", variant="each system's judged segments only",
                     pearson=_pearson(own, default_human, sign), n_systems=n,
                     note=f"{min(len(v) for v in judged_by_system.values())}-"
                          f"{max(len(v) for v in judged_by_system.values())} segments per system"))
    shared = corpus_scores(metric, stats, lambda s, ids: np.isin(ids, list(union)))
    rows.append(dict(factor="segments", variant="judged segments only (union)",
                     pearson=_pearson(shared, default_human, sign), n_systems=n,
                     note=f"{len(union)} of {len(next(iter(stats.values()))[0])} segments"))
    mean = corpus_scores(metric, stats, mean_of_segments=True)
    rows.append(dict(factor="aggregation", variant="mean of segment scores",
                     pearson=_pearson(mean, default_human, sign), n_systems=n, note=""))
    left_out = {s: _pearson(scores.drop(s), default_human, sign) for s in scores.index if s in judged}
    default_r = rows[0]["pearson"]
    mover = max(left_out, key=lambda s: abs(left_out[s] - default_r))
    rows.append(dict(factor="systems", variant="leave one system out: minimum", pearson=min(left_out.values()),
                     n_systems=n - 1, note=f"without {min(left_out, key=left_out.get)}"))
    rows.append(dict(factor="systems", variant="leave one system out: maximum", pearson=max(left_out.values()),
                     n_systems=n - 1, note=f"without {max(left_out, key=left_out.get)}"))
    rows.append(dict(factor="systems", variant="leave one system out: largest move", pearson=left_out[mover],
                     n_systems=n - 1, note=f"without {mover}"))
    return rows


def text_variants(metric_name: str, params: dict, full: bool = True) -> list[tuple[str, str, dict, str | None]]:
    """(factor, variant, parameter changes, pre-processing of both sides) of the re-scored factors:
    case flipped, and with ``full`` Meteor's input modes, Moses tokens and lemmas."""
    out = []
    lowercase = bool(params.get("lowercase", metric_name == "meteor"))
    out.append(("text", "case-sensitive" if lowercase else "lowercased", {"lowercase": not lowercase}, None))
    if not full:
        return out
    if metric_name == "meteor":
        out.extend(("text", variant, changes, None) for variant, changes in METEOR_MODES.items())
    # Pre-processed text is scored as already tokenised (split at whitespace), as the study scores
    # a tokenised dataset.
    out.extend(("text", variant, {}, kind) for kind, variant in PREPROCESSED.items())
    return out


# Meteor 1.5's input modes (the jar's -norm, -lower, neither): parameter changes of METEOR.
METEOR_MODES = {
    "Meteor -norm (its tokeniser, lowercased)": {"tokenize": "meteor-norm", "lowercase": True},
    "Meteor -lower (whitespace words, lowercased)": {"tokenize": "whitespace", "lowercase": True},
    "Meteor, neither option (whitespace words, cased)": {"tokenize": "whitespace", "lowercase": False},
}
# The pre-processings of both sides (TEXT_KINDS) and their rows' variant names.
PREPROCESSED = {"moses": "Moses tokenisation (sacremoses)", "lemmas": "lemmas (simplemma, Moses tokens)"}
# Why a metric has no row for a text variant that another metric has (the figure writes "n/a" and this):
# the case flip goes one way per metric, the Meteor modes are METEOR's, and the other text factors are
# measured only for the metrics the config re-scores.
NOT_APPLICABLE = {
    "lowercased": "default lowercases",
    "case-sensitive": "default keeps case",
    **{variant: "METEOR only" for variant in METEOR_MODES},
    **{variant: "not re-scored" for variant in PREPROCESSED.values()},
}


def not_applicable_reason(factor: str, variant: str) -> str:
    """Why a metric has no value for ``factor: variant`` (see ``NOT_APPLICABLE``); "no value" otherwise."""
    return NOT_APPLICABLE.get(variant, "no value") if factor == "text" else "no value"


def preprocess(segments: pd.DataFrame, kind: str, lang: str, moses: pd.DataFrame | None = None) -> pd.DataFrame:
    """The segment table with both sides Moses-tokenised (``moses``), or those tokens replaced by
    their simplemma lemmas (``lemmas``, from the Moses table if given). Each distinct text once."""
    if kind == "moses":
        from sacremoses import MosesTokenizer

        tokenizer = MosesTokenizer(lang=lang)
        process = lambda text: " ".join(tokenizer.tokenize(text, escape=False))  # noqa: E731
    elif kind == "lemmas":
        import simplemma

        if moses is None:
            moses = preprocess(segments, "moses", lang)
        segments = moses
        lemmas: dict[str, str] = {}

        def lemma(word: str) -> str:
            if word not in lemmas:
                lemmas[word] = simplemma.lemmatize(word, lang=lang)
            return lemmas[word]

        process = lambda text: " ".join(lemma(w) for w in text.split())  # noqa: E731
    else:
        raise ValueError(f"unknown pre-processing {kind!r}")
    texts = pd.unique(pd.concat([segments["hypothesis"], segments["reference"]]))
    done = dict(zip(texts, map(process, texts), strict=True))
    return segments.assign(hypothesis=segments["hypothesis"].map(done), reference=segments["reference"].map(done))


def rescore(metric: Metric, segments: pd.DataFrame) -> pd.Series:
    """Each system's corpus score of ``metric`` on the segment table's texts."""
    out = {}
    for system, rows in segments.sort_values(["system", "seg_id"]).groupby("system", sort=True):
        stats = metric.stats(rows["hypothesis"].tolist(), [rows["reference"].tolist()])
        out[system] = float(metric.corpus_score(stats))
    return pd.Series(out, dtype=float)


def sensitivity_table(dataset: str, lp: str, segments: pd.DataFrame, comparisons: pd.DataFrame,
                      seg_tables: dict[str, pd.DataFrame], metrics: dict[str, Metric],
                      rebuild: Callable[[str, dict, bool], Metric], rescored: list[str],
                      specs: dict[str, tuple[str, dict]], lang: str,
                      intervals: dict[str, tuple[float, float]] | None = None,
                      progress: Callable[[str], None] = lambda message: None,
                      preprocessed: dict[str, pd.DataFrame] | None = None) -> pd.DataFrame:
    """The sensitivity rows of every metric (``seg_tables``: the study's segment statistics;
    ``metrics``: the metric objects that wrote them; ``rebuild(metric_id, changes, tokenized)``: the
    metric with parameter changes, for raw or already tokenised text; ``rescored``: the metrics
    whose text factors are all measured (the others: case only); ``specs``: metric id -> (metric
    name, parameters); ``intervals``: the default's bootstrap interval per metric; ``preprocessed``:
    the segment table already through :func:`preprocess` (``moses``, ``lemmas``), else done here)."""
    humans = human_variants(comparisons)
    default_human = humans.iloc[:, 0]
    processed: dict[str, pd.DataFrame] = dict(preprocessed or {})
    rows = []
    for metric_id, table in seg_tables.items():
        metric = metrics[metric_id]
        sign = 1.0 if metric.higher_is_better else -1.0
        metric_rows = cheap_factors(metric, table, comparisons, humans)
        if intervals and metric_id in intervals:
            low, high = intervals[metric_id]
            metric_rows.insert(1, dict(factor="bootstrap", variant="95% interval of the default: low", pearson=low,
                                       n_systems=metric_rows[0]["n_systems"], note="segments resampled"))
            metric_rows.insert(2, dict(factor="bootstrap", variant="95% interval of the default: high",
                                       pearson=high, n_systems=metric_rows[0]["n_systems"],
                                       note="segments resampled"))
        name, params = specs[metric_id]
        for factor, variant, changes, pre in text_variants(name, params, full=metric_id in rescored):
            progress(f"{dataset} {lp} {metric_id}: {variant}")
            texts = segments
            if pre is not None:
                if pre not in processed:
                    processed[pre] = preprocess(segments, pre, lang, processed.get("moses"))
                texts = processed[pre]
            changed = rebuild(metric_id, changes, pre is not None)
            scores = rescore(changed, texts)
            metric_rows.append(dict(factor=factor, variant=variant, pearson=_pearson(scores, default_human, sign),
                                    n_systems=metric_rows[0]["n_systems"], note="",
                                    signature=changed.signature()))
        default_r = metric_rows[0]["pearson"]
        stored_signature = str(table["signature"].iloc[0]) if "signature" in table else ""
        for row in metric_rows:
            row.setdefault("signature", stored_signature)
            rows.append({"dataset": dataset, "lp": lp, "metric": metric_id, **row,
                         "delta": row["pearson"] - default_r if row["factor"] != DEFAULT else 0.0})
    return pd.DataFrame(rows, columns=COLUMNS)


def closest_factor(table: pd.DataFrame, metric_id: str, reported: float) -> dict | None:
    """The single changed factor whose Pearson is closest to ``reported`` (bootstrap and default
    rows aside), with the default's, for the ledger."""
    rows = table[(table["metric"] == metric_id) & ~table["factor"].isin([DEFAULT, "bootstrap"])]
    default = table[(table["metric"] == metric_id) & (table["factor"] == DEFAULT)]
    if rows.empty or default.empty:
        return None
    best = rows.loc[(rows["pearson"] - reported).abs().idxmin()]
    note = best["note"] if isinstance(best["note"], str) else ""
    return {"factor": best["factor"], "variant": best["variant"], "pearson": float(best["pearson"]),
            "note": note, "default": float(default["pearson"].iloc[0])}


def sensitivity_markdown(table: pd.DataFrame) -> str:
    """The table per metric, for reading: each factor's Pearson and its change from the default."""
    if table.empty:
        return "No metrics.\n"
    dataset, lp = table["dataset"].iloc[0], table["lp"].iloc[0]
    lines = [f"# Sensitivity of system-level Pearson on {dataset} {lp}", "",
             "Each row changes one factor from the default (corpus statistic over all segments, against",
             "\"> others\" with ties ignored); delta is the change in Pearson. Bootstrap rows give the",
             "default's 95% interval (segments resampled). Text rows re-score the metric; their settings are",
             "in the TSV's signature column.", ""]
    for metric_id, rows in table.groupby("metric", sort=False):
        lines += [f"## {metric_id}", "", "| factor | variant | Pearson | delta | systems | note |",
                  "|---|---|---:|---:|---:|---|"]
        for _, row in rows.iterrows():
            delta = "" if row["factor"] in (DEFAULT, "bootstrap") else f"{row['delta']:+.3f}"
            lines.append(f"| {row['factor']} | {row['variant']} | {row['pearson']:.3f} | {delta} | "
                         f"{row['n_systems']} | {row['note']} |")
        lines.append("")
    return "\n".join(lines)
