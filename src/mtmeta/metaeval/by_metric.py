"""One metric's meta-evaluation on every dataset x language pair it is scored on, and the joins that
put every metric's pieces into the study-wide tables.

The workflow computes each metric's system-level correlations, segment-level agreement and
bootstrap intervals in one job of its own (rule ``evaluate_metric``), so that rescoring one metric
reruns its piece only; the study-wide tables are joins of the pieces, rows in the study's order
(:func:`join_pieces`). A piece's rows are exactly those of the all-metrics computation: each row
depends on one metric and one pair only.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from mtmeta.metaeval.bootstrap import BOOTSTRAP_COLUMNS, HumanDraws, bootstrap_table
from mtmeta.metaeval.protocols import (
    CATEGORY_COLUMNS,
    CHANCE_DRAWS,
    PROTOCOL_COLUMNS,
    PairScores,
    category_rows,
    protocol_rows,
)
from mtmeta.metaeval.segment_level import SEGMENT_LEVEL_COLUMNS, segment_level_agreement
from mtmeta.metaeval.system_level import SYSTEM_LEVEL_COLUMNS, primary_human_score, system_level_correlations
from mtmeta.metrics.spec import MetricSpec

TABLES = {"system_level": SYSTEM_LEVEL_COLUMNS, "segment_level": SEGMENT_LEVEL_COLUMNS,
          "system_bootstrap": BOOTSTRAP_COLUMNS, "protocols": PROTOCOL_COLUMNS, "categories": CATEGORY_COLUMNS}


@dataclass
class PairInputs:
    """What one metric's meta-evaluation reads of one dataset x language pair."""

    summary: dict
    human: pd.DataFrame  # human_scores.tsv
    comparisons: pd.DataFrame  # pairwise human comparisons (empty for a pair with system scores only)
    segments: pd.DataFrame  # the metric's segment table (scores and statistics)
    systems: pd.DataFrame  # the metric's system table
    system_level: bool  # the pair has human system scores
    judged: bool  # the pair has pairwise segment judgments
    tokenized: bool = False
    # An mt-metrics-eval set's segment-level human scores (system, seg_id, one column per name) and its
    # human translations' system scores; empty for the other kinds.
    human_segments: pd.DataFrame | None = None
    human_translations: pd.DataFrame | None = None
    # MQM restricted to each kind of error (mtmeta.data.mqm.restricted_scores), where the pair has a
    # full error annotation and the config asks for the category analysis; else None.
    categories: pd.DataFrame | None = None
    # The judgments' human-score bootstrap draws, computed once for every metric (rule
    # resample_human_scores); None: the bootstrap computes them.
    human_draws: HumanDraws | None = None


def evaluate_metric(spec: MetricSpec, pairs: list[PairInputs], draws: int, seed: int,
                    chance_draws: int = CHANCE_DRAWS) -> dict[str, pd.DataFrame]:
    """The metric's rows of each study-wide table (:data:`TABLES`), over ``pairs`` in order
    (``chance_draws``: permutation draws of the calibrated acc_eq's chance level)."""
    frames: dict[str, list[pd.DataFrame]] = {name: [] for name in TABLES}
    for pair in pairs:
        lp = pair.summary["lp"]
        if pair.system_level:
            frames["system_level"].append(system_level_correlations(pair.summary, pair.human, pair.systems, spec.id,
                                                                    spec.higher_is_better))
            metric = spec.build(lp.split("-")[1], pair.tokenized)
            frames["system_bootstrap"].append(bootstrap_table(pair.summary, pair.comparisons, pair.human,
                                                              {spec.id: pair.segments}, {spec.id: metric},
                                                              draws=draws, seed=seed,
                                                              human_segments=pair.human_segments,
                                                              shared_draws=pair.human_draws))
            # mt-metrics-eval's protocols: against every human score of an MQM/DA set, against the
            # primary one ("> others", or the official score) of a WMT12-14 pair.
            names = (pair.summary["human_scores"] if pair.summary.get("kind") == "mtme"
                     else [primary_human_score(pair.human)])
            scores = PairScores(pair.summary, pair.human, _or_empty(pair.human_translations),
                                _or_empty(pair.human_segments), pair.segments, pair.systems)
            frames["protocols"].append(protocol_rows(spec.id, metric, scores, names, draws=draws, seed=seed,
                                                     chance_draws=chance_draws))
            if pair.categories is not None:
                frames["categories"].append(category_rows(spec.id, metric, scores, pair.categories, draws=draws,
                                                          seed=seed))
        if pair.judged:
            frames["segment_level"].append(segment_level_agreement(pair.summary, pair.comparisons, pair.segments,
                                                                   spec.id, spec.higher_is_better,
                                                                   chance_draws=chance_draws, seed=seed))
    return {name: _concat(frames[name], columns) for name, columns in TABLES.items()}


def _or_empty(table: pd.DataFrame | None) -> pd.DataFrame:
    return pd.DataFrame(columns=["system"]) if table is None else table


def _concat(frames: list[pd.DataFrame], columns: list[str]) -> pd.DataFrame:
    frames = [frame for frame in frames if not frame.empty]
    if not frames:
        return pd.DataFrame(columns=columns)
    return pd.concat(frames, ignore_index=True)[columns]


def join_pieces(pieces: list[pd.DataFrame], order: list[tuple[str, str, str]]) -> pd.DataFrame:
    """Per-metric tables joined into one, rows sorted by ``order`` ((dataset, lp, metric) keys in the
    study's order: pairs in config order, each pair's metrics in its order); rows of one key keep
    their order. A row whose key ``order`` lacks is an error (a stale piece)."""
    pieces = [piece for piece in pieces if not piece.empty]
    if not pieces:
        return pd.DataFrame()
    table = pd.concat(pieces, ignore_index=True)
    position = {tuple(key): k for k, key in enumerate(order)}
    keys = list(zip(table["dataset"], table["lp"], table["metric"], strict=True))
    unknown = [key for key in dict.fromkeys(keys) if key not in position]
    if unknown:
        raise ValueError(f"rows for {unknown[:3]} are not in the study's (dataset, lp, metric) order")
    table["_order"] = [position[key] for key in keys]
    return table.sort_values("_order", kind="stable").drop(columns="_order").reset_index(drop=True)
