"""Figures (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

HUMAN_LABELS = {"gt_others": "human: > others", "ge_others": "human: ≥ others", "expected_wins": "human: expected wins",
                "official": "human: official score"}


def save(fig, outputs: list[str | Path]) -> None:
    """Write a figure to every path (PNG / PDF) without timestamps, so reruns give identical files."""
    for path in outputs:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        metadata = {"CreationDate": None} if str(path).endswith(".pdf") else {"Software": None}
        fig.savefig(path, dpi=150, metadata=metadata)
    plt.close(fig)


def system_scatter(panels: list[dict], metric_id: str, human_score: str, outputs: list[str | Path]) -> None:
    """One panel per dataset x lp: metric score (y) against human system score (x), r in the title.

    Each panel dict has ``title`` and ``table`` (columns ``system, score, <human_score>``) and ``pearson``;
    a panel's own ``human_score`` (and ``human_label``) replaces ``human_score`` for that panel.
    """
    columns = min(4, len(panels))
    rows = math.ceil(len(panels) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.6 * columns, 3.1 * rows), squeeze=False)
    for ax, panel in zip(axes.flat, panels, strict=False):
        table: pd.DataFrame = panel["table"]
        x = panel.get("human_score", human_score)
        ax.scatter(table[x], table["score"], s=18, color="tab:blue")
        for _, row in table.iterrows():
            ax.annotate(str(row["system"])[:14], (row[x], row["score"]), fontsize=5, alpha=0.7,
                        xytext=(2, 2), textcoords="offset points")
        ax.set_title(f"{panel['title']}\nr = {panel['pearson']:.3f}, n = {len(table)}", fontsize=8)
        ax.set_xlabel(panel.get("human_label", HUMAN_LABELS.get(x, x)), fontsize=7)
        ax.set_ylabel(metric_id, fontsize=7)
        ax.tick_params(labelsize=6)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.tight_layout()
    save(fig, outputs)


def sweep_figure(table: pd.DataFrame, parameters: list[str], title: str, outputs: list[str | Path]) -> None:
    """One panel per target (dataset x lp x statistic), on all segments.

    Two parameters: a heatmap of the first (rows) by the second (columns). One parameter: a curve.
    """
    import numpy as np

    table = table[table["split"] == "all"]
    targets = list(table.groupby(["dataset", "lp", "statistic"], sort=False))
    columns = min(4, len(targets))
    rows = math.ceil(len(targets) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.8 * columns, 3.2 * rows), squeeze=False)
    for ax, ((dataset, lp, statistic), group) in zip(axes.flat, targets, strict=False):
        if len(parameters) == 2:
            grid = group.pivot_table(index=parameters[0], columns=parameters[1], values="value")
            image = ax.imshow(grid.to_numpy(), origin="lower", aspect="auto", cmap="viridis",
                              extent=[grid.columns.min(), grid.columns.max(), grid.index.min(), grid.index.max()])
            best = np.unravel_index(np.nanargmax(grid.to_numpy()), grid.shape)
            ax.plot(grid.columns[best[1]], grid.index[best[0]], "r*", markersize=10)
            ax.set_xlabel(parameters[1], fontsize=7)
            ax.set_ylabel(parameters[0], fontsize=7)
            fig.colorbar(image, ax=ax, fraction=0.046)
        else:
            ax.plot(group[parameters[0]], group["value"], marker="o", markersize=3)
            ax.set_xlabel(parameters[0], fontsize=7)
        ax.set_title(f"{dataset} {lp}: {statistic}", fontsize=8)
        ax.tick_params(labelsize=6)
    for ax in list(axes.flat)[len(targets):]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    save(fig, outputs)


def meteor_tuning_figure(alpha_table: pd.DataFrame, gamma_table: pd.DataFrame, outputs: list[str | Path]) -> None:
    """Seed 001's two sweeps: ours (and ours read with alpha mirrored) beside the reported accuracies."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    rows = alpha_table[alpha_table["row"].str.startswith("alpha ")]
    left.plot(rows["alpha"], rows["reproduced"], marker="o", ms=3, label="ours (first 10,000 tuples)")
    left.plot(rows["alpha"], rows["reproduced_at_1_minus_alpha"], ls="--", color="gray", label="ours at 1 - alpha")
    left.plot(rows["alpha"], rows["reported"], marker="s", ms=3, ls=":", color="tab:red", label="seed 001 (25,568)")
    baseline = alpha_table[alpha_table["row"].str.startswith("baseline")]
    left.axhline(float(baseline["reproduced"].iloc[0]), color="tab:blue", lw=0.8, alpha=0.5)
    left.axhline(float(baseline["reported"].iloc[0]), color="tab:red", lw=0.8, alpha=0.5)
    left.set(xlabel="alpha", ylabel="three-way accuracy", title="METEOR-basic by alpha (lines: word-match baseline)")
    left.legend(fontsize=6)
    rows = gamma_table[gamma_table["row"].str.startswith("gamma ")]
    alpha = rows["alpha"].iloc[0]
    right.plot(rows["gamma"], rows["reproduced"], marker="o", ms=3, label=f"ours, alpha {alpha:.2f}")
    right.plot(rows["gamma"], rows["reported"], marker="s", ms=3, ls=":", color="tab:red", label="seed 001, alpha 0.87")
    right.set(xlabel="gamma (beta 3)", ylabel="three-way accuracy", title="METEOR with penalty by gamma")
    right.legend(fontsize=6)
    for ax in (left, right):
        ax.title.set_fontsize(8)
        ax.tick_params(labelsize=7)
    fig.tight_layout()
    save(fig, outputs)


def overview_figure(table: pd.DataFrame, outputs: list[str | Path]) -> None:
    """Seed 003's overview as two heatmaps: system-level Pearson (with > others; the top Williams
    group starred) and segment-level tau, metrics by dataset and language pair."""
    import numpy as np

    table = table.assign(column=table["dataset"] + " " + table["lp"])
    columns = list(dict.fromkeys(table["column"]))
    metrics = list(dict.fromkeys(table["metric"]))
    fig, axes = plt.subplots(1, 2, figsize=(max(8.0, 0.9 * len(columns) + 3) * 1.6, 0.32 * len(metrics) + 2.2))
    for ax, value, title in ((axes[0], "pearson", "system-level Pearson with > others"),
                             (axes[1], "segment_tau", "segment-level Kendall tau (the year's WMT variant)")):
        grid = table.pivot_table(index="metric", columns="column", values=value, dropna=False).reindex(
            index=metrics, columns=columns)
        image = ax.imshow(grid.to_numpy(dtype=float), aspect="auto", cmap="viridis")
        fig.colorbar(image, ax=ax, fraction=0.03)
        ax.set_xticks(range(len(columns)), columns, rotation=60, ha="right", fontsize=6)
        ax.set_yticks(range(len(metrics)), metrics, fontsize=6)
        ax.set_title(title, fontsize=8)
        if value == "pearson":
            top = table[table["williams_rank"] == 1]
            for _, row in top.iterrows():
                ax.text(columns.index(row["column"]), metrics.index(row["metric"]), "*", ha="center",
                        va="center", color="red", fontsize=8)
        for (i, j), v in np.ndenumerate(grid.to_numpy(dtype=float)):
            if np.isfinite(v):
                ax.text(j, i + 0.3, f"{v:.2f}", ha="center", va="center", color="white", fontsize=4)
    fig.tight_layout()
    save(fig, outputs)


def share_figure(table: pd.DataFrame, baseline: float, label: str, outputs: list[str | Path]) -> None:
    """Seed 002's appendix figure: correlation against the share of paraphrase pairs kept, per ranking."""
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    for ranking, rows in table.groupby("ranking", sort=False):
        ax.plot(100 * rows["fraction"], rows["pearson"], marker="o", label=ranking)
    ax.axhline(baseline, color="grey", linestyle="--", label="original references")
    ax.set_xlabel("paraphrase pairs kept (%)")
    ax.set_ylabel("Pearson r with > others")
    ax.set_title(label, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save(fig, outputs)


def softbleu_figure(table: pd.DataFrame, outputs: list[str | Path]) -> None:
    """System-level Pearson of BLEU and each softened variant, per dataset and language pair."""
    system = table.dropna(subset=["pearson"])
    labels = list(dict.fromkeys(f"{d}\n{lp}" for d, lp in zip(system["dataset"], system["lp"], strict=True)))
    metrics = list(dict.fromkeys(system["metric"]))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.45 * len(labels)), 3.8))
    width = 0.8 / len(metrics)
    for k, metric in enumerate(metrics):
        rows = system[system["metric"] == metric]
        x = [labels.index(f"{d}\n{lp}") + (k - (len(metrics) - 1) / 2) * width
             for d, lp in zip(rows["dataset"], rows["lp"], strict=True)]
        ax.bar(x, rows["pearson"], width=width, label=metric)
    ax.set_xticks(range(len(labels)), labels, fontsize=6)
    ax.set_ylabel("Pearson r with > others")
    ax.set_ylim(min(0.0, float(system["pearson"].min()) - 0.05), 1.0)
    ax.legend(fontsize=7, ncols=len(metrics))
    fig.tight_layout()
    save(fig, outputs)


def sensitivity_figure(table: pd.DataFrame, output: str | Path, metrics: list[str]) -> None:
    """One panel per metric of ``metrics``: the Pearson of each changed factor (dots), the default
    (line) and its bootstrap interval (band)."""
    shown = table[table["metric"].isin(metrics) & ~table["factor"].isin(["default", "bootstrap"])]
    variants = list(dict.fromkeys(f"{f}: {v}" for f, v in zip(shown["factor"], shown["variant"], strict=True)))
    positions = {label: k for k, label in enumerate(variants)}
    n = len(metrics)
    columns = 2 if n > 1 else 1
    rows_ = math.ceil(n / columns)
    fig, axes = plt.subplots(rows_, columns, figsize=(6.5 * columns, 0.32 * len(variants) * rows_ + 1.5),
                             sharey=True, squeeze=False, layout="constrained")
    for ax, metric_id in zip(axes.flat, metrics, strict=False):
        rows = table[table["metric"] == metric_id]
        default = rows.loc[rows["factor"] == "default", "pearson"].iloc[0]
        band = rows.loc[rows["factor"] == "bootstrap", "pearson"].to_numpy()
        if len(band) == 2:
            ax.axvspan(band.min(), band.max(), color="0.88", label="default's 95% bootstrap interval")
        ax.axvline(default, color="0.3", linestyle="--", linewidth=1, label=f"default {default:.3f}")
        labels = [f"{f}: {v}" for f, v in zip(rows["factor"], rows["variant"], strict=True)]
        for label, value in zip(labels, rows["pearson"], strict=True):
            if label in positions:
                ax.plot(value, positions[label], "o", color="C0", markersize=5)
        ax.set_yticks(range(len(variants)), variants, fontsize=8)
        ax.set_title(metric_id, fontsize=10)
        ax.set_xlabel("system-level Pearson")
        ax.grid(axis="x", color="0.9")
        ax.legend(fontsize=7, loc="best")
    axes.flat[0].invert_yaxis()  # once: every panel shares this axis
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    dataset, lp = table["dataset"].iloc[0], table["lp"].iloc[0]
    fig.suptitle(f"{dataset} {lp}: Pearson when one factor changes", fontsize=11)
    save(fig, [output])
