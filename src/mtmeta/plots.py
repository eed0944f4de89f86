"""Figures (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

HUMAN_LABELS = {"gt_others": "human: > others", "ge_others": "human: ≥ others", "expected_wins": "human: expected wins"}


def system_scatter(panels: list[dict], metric_id: str, human_score: str, outputs: list[str | Path]) -> None:
    """One panel per dataset x lp: metric score (y) against human system score (x), r in the title.

    Each panel dict has ``title`` and ``table`` (columns ``system, score, <human_score>``) and ``pearson``.
    """
    columns = min(4, len(panels))
    rows = math.ceil(len(panels) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.6 * columns, 3.1 * rows), squeeze=False)
    for ax, panel in zip(axes.flat, panels, strict=False):
        table: pd.DataFrame = panel["table"]
        ax.scatter(table[human_score], table["score"], s=18, color="tab:blue")
        for _, row in table.iterrows():
            ax.annotate(str(row["system"])[:14], (row[human_score], row["score"]), fontsize=5, alpha=0.7,
                        xytext=(2, 2), textcoords="offset points")
        ax.set_title(f"{panel['title']}\nr = {panel['pearson']:.3f}, n = {len(table)}", fontsize=8)
        ax.set_xlabel(HUMAN_LABELS.get(human_score, human_score), fontsize=7)
        ax.set_ylabel(metric_id, fontsize=7)
        ax.tick_params(labelsize=6)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.tight_layout()
    for path in outputs:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        # Fixed metadata keeps PDFs byte-identical across runs.
        metadata = {"CreationDate": None} if str(path).endswith(".pdf") else {"Software": None}
        fig.savefig(path, dpi=150, metadata=metadata)
    plt.close(fig)
