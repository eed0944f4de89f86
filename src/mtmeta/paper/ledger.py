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
