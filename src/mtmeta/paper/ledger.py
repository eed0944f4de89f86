"""The reported-vs-reproduced ledger: deltas, reasons and ledger rows."""

from __future__ import annotations

import math

import pandas as pd

LEDGER_COLUMNS = ["seed", "table", "row", "column", "reported", "reproduced", "delta", "reason"]


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


def ledger_table(meteor_tuning: dict[str, pd.DataFrame], parmesan_settings: dict[str, pd.DataFrame],
                 parmesan: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every reported number beside ours, from the paper tables (table name -> table): METEOR tuning
    (seed 001, three-way accuracy), the Meteor settings (seed 002, Pearson) and the tables on the
    paraphrased references (seed 002, already in the ledger's columns). Empty tables, and none at all
    (a config without the seeds' datasets), still give a valid ledger."""
    parts = [ledger_rows("001", name, frame, "three-way accuracy") for name, frame in meteor_tuning.items()]
    parts += [ledger_rows("002", name, frame, "Pearson with > others", value_column="pearson")
              for name, frame in parmesan_settings.items()]
    parts += [frame.assign(seed="002", table=name)[LEDGER_COLUMNS] for name, frame in parmesan.items()]
    return pd.concat([pd.DataFrame(columns=LEDGER_COLUMNS), *parts], ignore_index=True)[LEDGER_COLUMNS]
