"""The study's metric scores of an mt-metrics-eval set written back in its layout, so that they can
go straight into mt-metrics-eval: ``<base>/metric-scores/<lp>/<NAME>-<REF>.{sys,seg}.score``.

NAME is the metric id; REF the reference it scored against (the pair's standard one); every system
the pair scores has a score, in segment order at the segment level. mt-metrics-eval reads every
score as higher-is-better, so a lower-is-better metric (TER, WER, PER) is written negated, and the
file says so in nothing but its values: the study's own tables keep the metric's direction.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mtmeta.data.evalset import write_metric_scores


def export_metric(base: str | Path, summary: dict, metric_id: str, higher_is_better: bool,
                  segments: pd.DataFrame, systems: pd.DataFrame) -> list[Path]:
    """Write one metric's system and segment scores of one pair; the files written."""
    lp, reference = summary["lp"], summary["reference"]
    sign = 1.0 if higher_is_better else -1.0
    names = sorted(systems["system"])
    seg = segments[["system", "seg_id", "score"]].assign(score=lambda t: sign * t["score"])
    sys = systems[["system", "score"]].assign(score=lambda t: sign * t["score"])
    return [write_metric_scores(base, lp, metric_id, reference, "sys", sys, systems=[*names, reference]),
            write_metric_scores(base, lp, metric_id, reference, "seg", seg, systems=[*names, reference],
                                n_segments=summary["n_segments"])]
