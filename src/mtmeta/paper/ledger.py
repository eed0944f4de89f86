"""The reported-vs-reproduced ledger: deltas, reasons and ledger rows."""

from __future__ import annotations

import math

import pandas as pd

from mtmeta.paper.sensitivity import closest_factor

LEDGER_COLUMNS = ["seed", "table", "row", "column", "reported", "reproduced", "delta", "reason"]
# The reason of a row about a test set the seed does not report (WMT14 en-cs): not a ledger row.
NOT_REPORTED = "not reported: the seed has no table for this test set"


def difference(reproduced, reported):
    if reported is None or reproduced is None or (isinstance(reproduced, float) and math.isnan(reproduced)):
        return math.nan
    return float(reproduced) - float(reported)


def gap_reason(delta: float, rounding: float, explanation: str) -> str:
    if not math.isnan(delta) and abs(delta) <= rounding:
        return "agrees within the reported rounding"
    return explanation


def ledger_rows(seed: str, table_name: str, frame: pd.DataFrame, column: str, value_column: str = "reproduced"
                ) -> pd.DataFrame:
    """Every row of an artefact table that has a reported number, in the ledger's columns."""
    rows = frame[frame["reported"].notna()]
    return pd.DataFrame({
        "seed": seed, "table": table_name, "row": rows["row"], "column": column, "reported": rows["reported"],
        "reproduced": rows[value_column], "delta": rows["delta"], "reason": rows["reason"],
    }, columns=LEDGER_COLUMNS)


def measured_reason(sensitivity: pd.DataFrame, name: str, metric_id: str, reported: float) -> str:
    """What the sensitivity table says about a reported Pearson: the single changed factor that comes
    closest to it, with the number it gives, or that none comes closer than the default."""
    found = closest_factor(sensitivity, metric_id, reported)
    if found is None:
        return ""
    if abs(found["pearson"] - reported) >= abs(found["default"] - reported):
        return f"measured ({name}): no single factor moves {found['default']:.3f} closer to {reported:g}"
    note = f" ({found['note']})" if found["note"] else ""
    return (f"measured ({name}): the closest single factor is {found['factor']}: {found['variant']}{note}, "
            f"which gives {found['pearson']:.3f} (default {found['default']:.3f})")


def with_measured_reasons(seed_table: pd.DataFrame, sensitivity: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """A seed-002 settings table (columns data, metric, reported, reason) with each reason followed
    by what the sensitivity table of its test set measured."""
    by_target = {(t["dataset"].iloc[0], t["lp"].iloc[0]): (name, t) for name, t in sensitivity.items() if len(t)}
    if not by_target:
        return seed_table
    out = seed_table.copy()
    for index, row in out[out["reported"].notna()].iterrows():
        dataset, _, lp = str(row["data"]).partition(" ")
        if (dataset, lp) not in by_target:
            continue
        name, table = by_target[(dataset, lp)]
        measured = measured_reason(table, name, row["metric"], float(row["reported"]))
        if measured:
            out.at[index, "reason"] = f"{row['reason']}; {measured}" if isinstance(row["reason"], str) else measured
    return out


def official_rows(name: str, table: pd.DataFrame) -> pd.DataFrame:
    """The official record's rows (mtmeta.paper.official): each published cell beside the study's
    metric as the task ran it."""
    return pd.DataFrame({
        "seed": table["dataset"].str.upper() + " metrics task", "table": name,
        "row": table["metric"] + " " + table["lp"] + " (" + table["as_run_id"] + ")",
        "column": "Spearman with > others", "reported": table["reported"], "reproduced": table["as_run"],
        "delta": table["as_run_gap"], "reason": table["reason"]}, columns=LEDGER_COLUMNS)


def ledger_table(meteor_tuning: dict[str, pd.DataFrame], parmesan_settings: dict[str, pd.DataFrame],
                 parmesan: dict[str, pd.DataFrame], sensitivity: dict[str, pd.DataFrame] | None = None,
                 official: dict[str, pd.DataFrame] | None = None) -> pd.DataFrame:
    """Every reported number beside ours, from the paper tables (table name -> table): METEOR tuning
    (seed 001, three-way accuracy), the Meteor settings (seed 002, Pearson; each reason followed by
    what the ``sensitivity`` table of its test set measured), the tables on the paraphrased
    references (seed 002, already in the ledger's columns) and the official metrics-task record
    (``official``: the WMT12 Spearman cells). Empty tables, and none at all (a config
    without the seeds' datasets), still give a valid ledger."""
    parts = [ledger_rows("001", name, frame, "three-way accuracy") for name, frame in meteor_tuning.items()]
    parts += [ledger_rows("002", name, with_measured_reasons(frame, sensitivity or {}), "Pearson with > others",
                          value_column="pearson")
              for name, frame in parmesan_settings.items()]
    parts += [frame[frame["reason"] != NOT_REPORTED].assign(seed="002", table=name)[LEDGER_COLUMNS]
              for name, frame in parmesan.items()]
    parts += [official_rows(name, frame) for name, frame in (official or {}).items()]
    return pd.concat([pd.DataFrame(columns=LEDGER_COLUMNS), *parts], ignore_index=True)[LEDGER_COLUMNS]
