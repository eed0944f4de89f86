"""The exclusion report: everything a preparation step left out, changed or could not match.

Nothing is dropped silently: each parser and matcher adds a row saying what it saw, how many
items it concerned and what was done with them. The rows are written next to the prepared
tables and collected study-wide.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

COLUMNS = ["kind", "detail", "count", "action", "file"]


@dataclass
class Report:
    rows: list[dict] = field(default_factory=list)

    def add(self, kind: str, detail: str, count: int, action: str, file: str = "") -> None:
        self.rows.append({"kind": kind, "detail": detail, "count": int(count), "action": action, "file": file})

    def extend(self, other: Report) -> None:
        self.rows.extend(other.rows)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=COLUMNS)
