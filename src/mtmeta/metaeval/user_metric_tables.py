"""The study's meta-evaluation of a user's own metric on one dataset x language pair (``mtmeta
evaluate``): the same tables the workflow writes for a built-in metric, with the built-in metrics
of the pair beside it in the significance tests. Pure: tables in, tables out."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from mtmeta.metaeval.bootstrap import bootstrap_table
from mtmeta.metaeval.segment_level import CHANCE_DRAWS, segment_level_agreement
from mtmeta.metaeval.significance import correlation_rows, metric_pearsons, ranks_table, williams_table
from mtmeta.metaeval.system_level import primary_human_score, system_level_correlations
from mtmeta.metrics.user_metric import ExternalScores


def segment_table(rows: pd.DataFrame, metric: ExternalScores) -> pd.DataFrame:
    """A user's segment scores of one pair as the study's segment table (system, seg_id, score,
    statistics, signature)."""
    rows = rows.sort_values(["system", "seg_id"], kind="stable")
    stats = metric.statistics(rows["score"].to_numpy())
    table = pd.DataFrame(stats, columns=metric.stat_names)
    table.insert(0, "score", metric.segment_scores(stats))
    table.insert(0, "seg_id", rows["seg_id"].to_numpy())
    table.insert(0, "system", rows["system"].to_numpy())
    table["signature"] = metric.segment_signature()
    return table


def system_table(metric: ExternalScores, system_rows: pd.DataFrame | None,
                 segments: pd.DataFrame | None) -> pd.DataFrame:
    """The system scores: as the user gives them, else the mean of each system's segment scores."""
    if system_rows is not None:
        scores = system_rows.set_index("system")["score"].sort_index()
    else:
        scores = segments.groupby("system")[metric.stat_names].sum().pipe(
            lambda totals: pd.Series(metric.score_totals(totals.to_numpy()), index=totals.index))
    counts = segments.groupby("system").size() if segments is not None else pd.Series(dtype=int)
    return pd.DataFrame({"system": scores.index, "metric": metric.metric_id, "score": scores.to_numpy(),
                         "n_segments": [int(counts.get(s, 0)) for s in scores.index],
                         "signature": metric.signature()})


@dataclass
class Evaluation:
    """Every table of one pair, and notes on what could not be computed or how."""

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def evaluate_pair(summary: dict, human: pd.DataFrame, comparisons: pd.DataFrame, metric: ExternalScores,
                  systems: pd.DataFrame, segments: pd.DataFrame | None, builtins: dict[str, tuple[pd.DataFrame, bool]],
                  draws: int = 1000, seed: int = 12345, alpha: float = 0.05, level: float = 0.05,
                  human_segments: pd.DataFrame | None = None, human_translations: pd.DataFrame | None = None,
                  permutations: int = 1000, permutation_seed: int = 12345,
                  chance_draws: int = CHANCE_DRAWS) -> Evaluation:
    """The meta-evaluation of ``metric`` (its ``systems`` table, and its ``segments`` table if the user
    gave segment scores) beside ``builtins`` (metric id -> (system table, higher is better)): the
    study's tables, and mt-metrics-eval's protocols (``protocols``; an MQM set's segment-level human
    scores and human translations in ``human_segments``, ``human_translations``) with significance
    clusters by its permutation tests (``clusters``) among the built-in metrics. ``chance_draws``: the
    permutation draws of the chance levels (segment-level WMT13 Kendall and tau-b, calibrated acc_eq)."""
    result = Evaluation()
    name = metric.metric_id
    if name in builtins:
        raise ValueError(f"{name!r} is the id of a built-in metric of {summary['dataset']} {summary['lp']}; "
                         "give your metric another name")
    if not summary.get("system_level", True):
        return _evaluator_pair(result, summary, comparisons, metric, segments, chance_draws, seed)
    result.tables["system_level"] = system_level_correlations(summary, human, systems, name, metric.higher_is_better)
    if segments is None:
        result.notes.append("no segment scores: no bootstrap intervals (they resample segments) and no "
                            "segment-level agreement")
    else:
        boot = bootstrap_table(summary, comparisons, human, {name: segments}, {name: metric}, draws, seed, alpha,
                               human_segments=human_segments)
        result.tables["bootstrap"] = boot
        means = system_table(metric, None, segments).set_index("system")["score"]
        given = systems.set_index("system")["score"].loc[means.index]
        if not np.allclose(given.to_numpy(), means.to_numpy(), rtol=1e-9, atol=1e-12):
            result.notes.append("the system scores are not the means of the segment scores: the bootstrap's "
                                "point estimates and intervals are those of the segment means (the system_level "
                                "table has the correlations of the given system scores)")
        if not comparisons.empty:
            result.tables["segment_level"] = segment_level_agreement(summary, comparisons, segments, name,
                                                                     metric.higher_is_better, chance_draws, seed)
    human_score = primary_human_score(human)
    tables = {name: systems, **{m: table for m, (table, _) in builtins.items()}}
    directions = {name: metric.higher_is_better, **{m: better for m, (_, better) in builtins.items()}}
    pairs = williams_table(summary, human, tables, directions, human_score)
    result.tables["williams"] = pairs[(pairs["metric_1"] == name) | (pairs["metric_2"] == name)].reset_index(drop=True)
    result.tables["ranks"] = ranks_table(summary, pairs, level,
                                         metric_pearsons(summary, human, tables, directions, human_score))
    signed = {m: table.assign(score=table["score"] * (1.0 if directions[m] else -1.0)) for m, table in tables.items()}
    meng = correlation_rows(human, signed, baseline=name, human_score=human_score)
    meng.insert(0, "human_score", human_score)
    meng.insert(0, "lp", summary["lp"])
    meng.insert(0, "dataset", summary["dataset"])
    result.tables["meng"] = meng.rename(columns={"variant": "metric"})
    _protocols(result, summary, human, metric, systems, segments, tables, directions, draws, seed, level,
               human_segments, human_translations, permutations, permutation_seed, chance_draws)
    return result


def _protocols(result: Evaluation, summary: dict, human: pd.DataFrame, metric: ExternalScores,
               systems: pd.DataFrame, segments: pd.DataFrame | None, tables: dict[str, pd.DataFrame],
               directions: dict[str, bool], draws: int, seed: int, level: float,
               human_segments: pd.DataFrame | None, human_translations: pd.DataFrame | None, permutations: int,
               permutation_seed: int, chance_draws: int = CHANCE_DRAWS) -> None:
    """mt-metrics-eval's protocols of the user's metric and its clusters among the built-in metrics
    (system level; the segment-level clusters need the built-in metrics' segment scores, which
    evaluate does not read)."""
    from mtmeta.metaeval.clusters import PairMetrics, oriented, pair_clusters
    from mtmeta.metaeval.protocols import PairScores, protocol_rows

    empty = pd.DataFrame(columns=["system"])
    human_segments = empty if human_segments is None else human_segments
    human_translations = empty if human_translations is None else human_translations
    names = summary["human_scores"] if summary.get("kind") == "mtme" else [primary_human_score(human)]
    if segments is not None:
        result.tables["protocols"] = protocol_rows(
            metric.metric_id, metric, PairScores(summary, human, human_translations, human_segments, segments, systems),
            names, draws=draws, seed=seed, chance_draws=chance_draws)
    else:
        result.notes.append("no segment scores: mt-metrics-eval's protocols are not computed (their system scores "
                            "include the mean of segment scores, and their intervals resample segments)")
    oriented_systems, _ = oriented(tables, {}, directions)
    clusters = pair_clusters(PairMetrics(summary, human, human_segments, oriented_systems, {}), names[0],
                             k=permutations, seed=permutation_seed, level=level)
    result.tables["clusters"] = clusters


def _evaluator_pair(result: Evaluation, summary: dict, comparisons: pd.DataFrame, metric: ExternalScores,
                    segments: pd.DataFrame | None, chance_draws: int = CHANCE_DRAWS, seed: int = 12345) -> Evaluation:
    """An evaluator-kind pair (each item: two hypotheses, hyp1 and hyp2, and a human preference): its
    "systems" are the two slots, not MT systems, so there is nothing to correlate at the system level
    (as in the workflow, which gives such pairs segment-level tables only)."""
    if segments is None or comparisons.empty:
        raise ValueError(f"{summary['dataset']} {summary['lp']}: segment-level agreement needs segment scores and "
                         "the pair's comparisons")
    result.tables["segment_level"] = segment_level_agreement(summary, comparisons, segments, metric.metric_id,
                                                             metric.higher_is_better, chance_draws, seed)
    result.notes.append("items of two hypotheses (hyp1, hyp2), not systems: segment-level agreement only "
                        "(three_way_accuracy is this dataset's statistic); no system-level correlations, "
                        "bootstrap, Williams, Meng or ranks")
    return result
