"""Figures (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
# Every text is drawn as written: labels carry names from the data (systems, metrics, signatures), and
# a "$" in one would otherwise start matplotlib's mathtext (a ParseFatalException on an odd count).
# Every figure module imports pyplot from here, so this one setting covers them all.
matplotlib.rcParams["text.parse_math"] = False
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from mtmeta.io import atomic_path  # noqa: E402

HUMAN_LABELS = {"gt_others": "human: > others", "ge_others": "human: ≥ others", "expected_wins": "human: expected wins",
                "official": "human: official score", "mqm": "human: MQM"}

# The overview's heatmaps: a perceptually uniform, colour-blind-safe sequential map (dark low, light
# high), each panel over its own range (panel_scale), spaced by Fisher's z (correlation_norm).
OVERVIEW_CMAP = "viridis"
CORRELATION_LIMIT = 0.995  # the colour scale's ends stay inside +-this (Fisher's z of +-1 is infinite)
# Smallest font (points) of any text a reader has to read; at the saved 150 dpi, 6 pt is 12.5 px.
MIN_FONT = 6.0


def number(value: float, digits: int) -> str:
    """``value`` to ``digits`` decimals, without a minus sign on a value that rounds to zero ("-0.000")."""
    return f"{0.0 if round(value, digits) == 0 else value:.{digits}f}"


def relative_luminance(color) -> float:
    """WCAG 2 relative luminance of a matplotlib colour (0 black, 1 white)."""
    from matplotlib.colors import to_rgb

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in to_rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a, b) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21; 4.5 is the minimum for small text)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_color_on(background) -> str:
    """Black or white, whichever contrasts more with ``background`` (at least 4.58:1)."""
    return "black" if contrast_ratio("black", background) >= contrast_ratio("white", background) else "white"


def cell_edges(values) -> np.ndarray:
    """Edges of the cells centred on sorted grid ``values`` (half a step beyond the first and last)."""
    v = np.asarray(values, dtype=float)
    if len(v) == 1:
        half = 0.5 if v[0] == 0 else 0.5 * abs(v[0])
        return np.array([v[0] - half, v[0] + half])
    mids = (v[1:] + v[:-1]) / 2
    return np.concatenate([[v[0] - (mids[0] - v[0])], mids, [v[-1] + (v[-1] - mids[-1])]])


def fixed_tight_layout(fig) -> None:
    """Lay ``fig`` out once, as ``tight_layout`` does, and keep that layout. tight_layout leaves a
    placeholder layout engine behind, and with any engine savefig draws the whole figure once more
    before drawing it to the file; with the layout final, the engine is dropped. A figure title
    (suptitle) must be placed first, at the top (:func:`top_title`): the layout makes room below it."""
    fig.tight_layout()
    fig.set_layout_engine(None)


def figure_title(fig, text: str, fontsize: float, **kwargs):
    """The figure's title (suptitle), each of its lines wrapped to the figure's width, so that no
    title runs off the page of a narrow figure (one panel)."""
    lines = [part for line in text.split("\n") for part in wrapped(line, fig.get_figwidth() - 0.3, fontsize)]
    return fig.suptitle("\n".join(lines), fontsize=fontsize, **kwargs)


def top_title(fig, text: str, fontsize: float):
    """The figure's title (:func:`figure_title`), its top a fixed 0.08 inch below the figure's top
    edge. matplotlib's default places it at 98% of the height, which on a tall figure (24 scatter
    panels) is low enough for the panels' titles to run into it."""
    return figure_title(fig, text, fontsize, y=1 - 0.08 / fig.get_figheight(), va="top")


def save(fig, outputs: list[str | Path]) -> None:
    """Write a figure to every path (PNG / PDF) without timestamps, so reruns give identical files.

    The figure is closed (released by pyplot) but stays a complete object: the plotting functions
    return it so that tests can inspect what a reader sees."""
    for path in outputs:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        metadata = {"CreationDate": None} if str(path).endswith(".pdf") else {"Software": None}
        with atomic_path(path) as part:
            fig.savefig(part, dpi=150, metadata=metadata)
    plt.close(fig)


# Signature fields that name a software version: the same in every panel of a run, and no help to a
# reader telling metrics apart, so a figure's title leaves them out.
VERSION_FIELDS = ("sacrebleu", "mtmeta", "version")


def signature_short_form(signatures) -> str:
    """One line for a figure title from the signatures of its panels: the metric's name and the fields
    that every panel shares (without software versions), then the keys of the fields that differ
    between panels (e.g. METEOR's per-language parameters), as "per pair: lang, mods". Empty
    signatures are skipped; none at all gives ""."""
    parsed = []
    for signature in dict.fromkeys(str(s) for s in signatures if isinstance(s, str) and s):
        name, *fields = signature.split("|")
        parsed.append((name, [tuple(f.split(":", 1)) if ":" in f else (f, "") for f in fields]))
    if not parsed:
        return ""
    names = list(dict.fromkeys(name for name, _ in parsed))
    keys = list(dict.fromkeys(k for _, fields in parsed for k, _ in fields if k not in VERSION_FIELDS))
    values = [dict(fields) for _, fields in parsed]
    common = [k for k in keys if all(k in v for v in values) and len({v[k] for v in values}) == 1]
    varying = [k for k in keys if k not in common]
    text = "|".join(["/".join(names), *(f"{k}:{values[0][k]}" if values[0][k] else k for k in common)])
    return text + (f" (per pair: {', '.join(varying)})" if varying else "")


def x_axes_summary(panels: list[dict], human_score: str) -> str:
    """What the scatter panels' x axes show, for the title: the default human score, and any other
    with the number of panels that use it ("> others; official (TrueSkill) on 5 panels")."""
    labels = [panel.get("human_label", HUMAN_LABELS.get(panel.get("human_score", human_score),
                                                        panel.get("human_score", human_score)))
              for panel in panels]
    default = HUMAN_LABELS.get(human_score, human_score)
    counts = {label: labels.count(label) for label in dict.fromkeys(labels)}
    main = default if default in counts else max(counts, key=counts.get)
    others = [f"{label.removeprefix('human: ')} on {n} panel{'s' * (n > 1)}"
              for label, n in counts.items() if label != main]
    return main.removeprefix("human: ") + "".join(f"; {other}" for other in others)


def reads_negated(panel: dict, x: str) -> bool:
    """Whether the panel's ``pearson`` is that of the negated score (a lower-is-better metric, as the
    study correlates it): the points' own Pearson is its opposite, not itself."""
    table = panel["table"]
    if len(table) < 3 or not np.isfinite(panel["pearson"]) or abs(panel["pearson"]) < 1e-9:
        return False
    from mtmeta.stats.correlation import correlation  # the routine of every table (exact on any scale)

    own = correlation(table[x].to_numpy(dtype=float), table["score"].to_numpy(dtype=float), "pearson")
    return bool(np.isclose(own, -panel["pearson"], atol=1e-9))


def system_scatter(panels: list[dict], metric_id: str, human_score: str, outputs: list[str | Path]):
    """One panel per dataset x lp: metric score (y) against human system score (x), r in the title.

    Each panel dict has ``title`` and ``table`` (columns ``system, score, <human_score>``, and the
    metric's ``signature`` if known) and ``pearson``; a panel's own ``human_score`` (and ``human_label``)
    replaces ``human_score`` for that panel. The figure's title names the metric, the short form of
    its signature (:func:`signature_short_form`) and the human score on the x axes; for a metric
    whose lower scores are better (TER, WER) it says that r is the correlation of the negated score,
    which is why r is positive where the points fall.
    """
    columns = min(4, len(panels))
    rows = math.ceil(len(panels) / columns)
    lower_is_better = any(reads_negated(panel, panel.get("human_score", human_score)) for panel in panels)
    y_label = f"{metric_id} (lower is better)" if lower_is_better else metric_id
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.5 * rows + 0.5), squeeze=False)
    for ax, panel in zip(axes.flat, panels, strict=False):
        table: pd.DataFrame = panel["table"]
        x = panel.get("human_score", human_score)
        ax.scatter(table[x], table["score"], s=18, color="tab:blue")
        ax.margins(x=0.1, y=0.12)  # room for the labels of the outermost points
        for _, row in table.iterrows():
            # Not part of the layout: place_labels keeps every label inside its axes.
            ax.annotate(short_name(row["system"]), (row[x], row["score"]), fontsize=MIN_FONT, color="0.2",
                        xytext=LABEL_OFFSETS[0][:2], textcoords="offset points", ha=LABEL_OFFSETS[0][2],
                        va=LABEL_OFFSETS[0][3], in_layout=False)
        ax.set_title(f"{panel['title']}\nr = {number(panel['pearson'], 3)}, n = {len(table)}", fontsize=8)
        ax.set_xlabel(panel.get("human_label", HUMAN_LABELS.get(x, x)), fontsize=7)
        ax.set_ylabel(y_label, fontsize=7)
        ax.tick_params(labelsize=MIN_FONT)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    signature = signature_short_form(
        s for panel in panels if "signature" in panel["table"] for s in panel["table"]["signature"])
    title = f"{metric_id}: system score (y) against the human score (x): {x_axes_summary(panels, human_score)}"
    if lower_is_better:
        title += f"; lower {metric_id} is better, so r is Pearson's r of -{metric_id}"
    top_title(fig, f"{title}\n{signature}" if signature else title, 8)
    fixed_tight_layout(fig)
    drawn_axes = list(axes.flat)[:len(panels)]
    hidden = [place_labels(ax) for ax in drawn_axes]
    if any(hidden):
        # A panel too crowded to label every point names the others under its x label; the layout
        # is redone for those lines and the labels placed again.
        xlabels = [ax.get_xlabel() for ax in drawn_axes]
        for ax, xlabel, names in zip(drawn_axes, xlabels, hidden, strict=True):
            ax.set_xlabel(xlabel + unlabelled_note(names, ax), fontsize=7)
        fixed_tight_layout(fig)
        for ax, xlabel in zip(drawn_axes, xlabels, strict=True):
            for line in ax.lines[:]:
                line.remove()  # leader lines
            for label in ax.texts:
                label.set_visible(True)
            names = place_labels(ax)
            ax.set_xlabel(xlabel + unlabelled_note(names, ax), fontsize=7)
    save(fig, outputs)
    return fig


def short_name(system) -> str:
    """A system's name as its point's label: at most 14 characters, a cut one ending in "…"."""
    name = str(system)
    return name if len(name) <= 14 else name[:13] + "…"


def unlabelled_note(names: list[str], ax) -> str:
    """The lines under a panel's x label that name the points left without a label (no room)."""
    if not names:
        return ""
    width = ax.get_position().width * ax.figure.get_figwidth()
    return "\n" + "\n".join(wrapped(f"not labelled (no room): {', '.join(names)}", width, 7))


# Where a point's label may go (offset in points, horizontal and vertical alignment), first choice first:
# beside the point, then further out in eight directions (a thin line then joins label and point).
LABEL_OFFSETS = [(3, 3, "left", "bottom"), (3, -3, "left", "top"), (-3, 3, "right", "bottom"),
                 (-3, -3, "right", "top"), (3, 10, "left", "bottom"), (3, -10, "left", "top"),
                 (-3, 10, "right", "bottom"), (-3, -10, "right", "top")]
LABEL_OFFSETS += [(dx * far, dy * far, ha, va) for far in (1, 2, 3) for dx, dy, ha, va in (
    (8, 0, "left", "center"), (-8, 0, "right", "center"), (0, 9, "center", "bottom"), (0, -9, "center", "top"),
    (7, 14, "left", "bottom"), (7, -14, "left", "top"), (-7, 14, "right", "bottom"), (-7, -14, "right", "top"))]
LEADER_FROM = 9  # points: a label further than this from its point gets a line to it


def place_labels(ax) -> list[str]:
    """Move each point label of ``ax`` (its annotations) to the first of ``LABEL_OFFSETS`` where it
    overlaps no point, no label placed before it, and stays inside the axes. Greedy, in the order the
    labels were added; run after the layout is final. A label with no free place is hidden rather than
    drawn over another: the texts of those are returned (the caller names them)."""
    from matplotlib.lines import Line2D
    from matplotlib.transforms import Bbox

    renderer = ax.figure.canvas.get_renderer()
    ax.get_xlim(), ax.get_ylim()  # the limits as drawn (autoscaled now), then kept: leader lines do not move them
    ax.set_autoscale_on(False)
    frame = ax.get_window_extent(renderer)
    # The points themselves are obstacles too (a square of the marker's size around each).
    radius = 2.2 * ax.figure.dpi / 72  # s=18 markers: about 4.2 points across
    placed = [Bbox.from_extents(px - radius, py - radius, px + radius, py + radius)
              for collection in ax.collections for px, py in ax.transData.transform(collection.get_offsets())]

    def overlap(a, b) -> float:
        w = min(a.x1, b.x1) - max(a.x0, b.x0)
        h = min(a.y1, b.y1) - max(a.y0, b.y0)
        return w * h if w > 0 and h > 0 else 0.0

    hidden = []
    for label in ax.texts:
        if not hasattr(label, "xyann"):
            continue
        free = None
        # The label's size is measured once; each candidate's box follows from the point, the offset
        # and the alignment (with 1.5 px of room around it, so that no two labels touch).
        size = label.get_window_extent(renderer)
        px, py = ax.transData.transform(label.xy)
        scale = ax.figure.dpi / 72
        for dx, dy, ha, va in LABEL_OFFSETS:
            x = px + dx * scale - {"left": 0.0, "center": 0.5, "right": 1.0}[ha] * size.width
            y = py + dy * scale - {"bottom": 0.0, "center": 0.5, "top": 1.0}[va] * size.height
            box = Bbox.from_extents(x - 1.5, y - 1.5, x + size.width + 1.5, y + size.height + 1.5)
            inside = overlap(box, frame) >= box.width * box.height - 1e-6
            if inside and not any(overlap(box, other) > 0 for other in placed):
                free = (dx, dy, ha, va, box)
                break
        if free is None:
            label.set_visible(False)
            hidden.append(label.get_text())
            continue
        dx, dy, ha, va, box = free
        label.xyann = (dx, dy)
        label.set_ha(ha)
        label.set_va(va)
        if math.hypot(dx, dy) > LEADER_FROM:  # a line from the point to the label's nearest edge, under both
            point = ax.transData.transform(label.xy)
            edge = ax.transData.inverted().transform(_nearest_edge(box, point))
            ax.add_line(Line2D([label.xy[0], edge[0]], [label.xy[1], edge[1]], color="0.65", linewidth=0.5,
                               zorder=0.5))
        placed.append(box)
    return hidden


def _nearest_edge(box, point) -> tuple[float, float]:
    """The point of ``box``'s outline (pixels) nearest to ``point``."""
    x = min(max(point[0], box.x0), box.x1)
    y = min(max(point[1], box.y0), box.y1)
    return x, y


def sweep_figure(table: pd.DataFrame, parameters: list[str], title: str, outputs: list[str | Path]):
    """One panel per target (dataset x lp x statistic), on all segments.

    Two parameters: a heatmap of the first (rows) by the second (columns), each cell centred on its
    grid value, the best cell starred (fully visible also on the grid's edge); the colour bar is the
    panel's own statistic over its own range. One parameter: a curve.
    """
    table = table[table["split"] == "all"]
    targets = list(table.groupby(["dataset", "lp", "statistic"], sort=False))
    columns = min(4, len(targets))
    rows = math.ceil(len(targets) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.8 * columns, 3.2 * rows + 0.3), squeeze=False,
                             layout="constrained")
    for ax, ((dataset, lp, statistic), group) in zip(axes.flat, targets, strict=False):
        if len(parameters) == 2:
            grid = group.pivot_table(index=parameters[0], columns=parameters[1], values="value")
            values = grid.to_numpy(dtype=float)
            # Cells centred on the grid values: the edge settings get whole cells, and the axes
            # reach half a step beyond them, so a star on the first or last setting is not clipped.
            mesh = ax.pcolormesh(cell_edges(grid.columns), cell_edges(grid.index), np.ma.masked_invalid(values),
                                 cmap="viridis", shading="flat")
            best = np.unravel_index(np.nanargmax(values), grid.shape)
            best_text = (f"best {number(values[best], 3)} at {parameters[0]} {grid.index[best[0]]:g}, "
                         f"{parameters[1]} {grid.columns[best[1]]:g}")
            ax.plot(grid.columns[best[1]], grid.index[best[0]], marker="*", color="red", markeredgecolor="white",
                    markeredgewidth=0.8, markersize=12, linestyle="none", clip_on=False, zorder=5, label=best_text)
            ax.set_xlabel(parameters[1], fontsize=7)
            ax.set_ylabel(parameters[0], fontsize=7)
            bar = fig.colorbar(mesh, ax=ax, fraction=0.046)
            bar.set_label(statistic, fontsize=7)
            bar.ax.tick_params(labelsize=MIN_FONT + 1)
        else:
            ax.plot(group[parameters[0]], group["value"], marker="o", markersize=3)
            ax.set_xlabel(parameters[0], fontsize=7)
            ax.set_ylabel(statistic, fontsize=7)
            top = group.loc[group["value"].idxmax()]
            best_text = f"best {number(top['value'], 3)} at {parameters[0]} {top[parameters[0]]:g}"
        # The best setting and its value in the title: the star (or the curve's peak) says where, this how much.
        ax.set_title(f"{dataset} {lp}: {statistic}\n{best_text}", fontsize=8)
        ax.tick_params(labelsize=MIN_FONT)
    for ax in list(axes.flat)[len(targets):]:
        ax.set_visible(False)
    shown = f"rows {parameters[0]}, columns {parameters[1]}" if len(parameters) == 2 else f"x: {parameters[0]}"
    figure_title(fig, f"{title}\n{shown}; all segments" + ("; star: the best setting" if len(parameters) == 2 else ""),
                 9)
    save(fig, outputs)
    return fig


def meteor_tuning_figure(alpha_table: pd.DataFrame, gamma_table: pd.DataFrame, outputs: list[str | Path]):
    """Seed 001's two sweeps: ours (and ours read with alpha mirrored) beside the reported accuracies;
    the word-match baseline (ours and the seed's) as horizontal lines, named in the legend."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.8))
    rows = alpha_table[alpha_table["row"].str.startswith("alpha ")]
    n_items = int(alpha_table["n_items"].iloc[0]) if "n_items" in alpha_table else None
    ours_label = f"ours (first {n_items:,} tuples)" if n_items else "ours"
    left.plot(rows["alpha"], rows["reproduced"], marker="o", ms=3, label=ours_label)
    left.plot(rows["alpha"], rows["reproduced_at_1_minus_alpha"], ls="--", color="gray",
              label="ours at 1 - alpha (the alpha axis mirrored)")
    left.plot(rows["alpha"], rows["reported"], marker="s", ms=3, ls=":", color="tab:red", label="seed 001 (25,568)")
    baseline = alpha_table[alpha_table["row"].str.startswith("baseline")]
    ours, reported = float(baseline["reproduced"].iloc[0]), float(baseline["reported"].iloc[0])
    left.axhline(ours, color="tab:blue", lw=0.8, alpha=0.5, label=f"word-match baseline, ours ({ours:.3f})")
    left.axhline(reported, color="tab:red", lw=0.8, alpha=0.5,
                 label=f"word-match baseline, seed 001 ({reported:.3f})")
    left.set(xlabel="alpha", ylabel="three-way accuracy", title="METEOR-basic by alpha")
    left.legend(fontsize=6)
    rows = gamma_table[gamma_table["row"].str.startswith("gamma ")]
    alpha = rows["alpha"].iloc[0]
    right.plot(rows["gamma"], rows["reproduced"], marker="o", ms=3, label=f"ours, alpha {alpha:.2f} (our best)")
    seed = gamma_table[gamma_table["row"] == "seed's tuned setting"]
    seed_alpha = f", alpha {float(seed['alpha'].iloc[0]):.2f}" if len(seed) else ""
    right.plot(rows["gamma"], rows["reported"], marker="s", ms=3, ls=":", color="tab:red",
               label=f"seed 001{seed_alpha}")
    if len(seed):
        # The two curves are at different alphas; the seed's own setting, scored by us, compares like with like.
        setting = f"alpha {float(seed['alpha'].iloc[0]):.2f}, gamma {float(seed['gamma'].iloc[0]):.2f}"
        right.plot(seed["gamma"], seed["reproduced"], marker="D", ms=5, ls="none", color="tab:blue",
                   markeredgecolor="white", label=f"ours at the seed's setting ({setting})")
        right.plot(seed["gamma"], seed["reported"], marker="D", ms=5, ls="none", color="tab:red",
                   markeredgecolor="white", label=f"seed 001 at its setting ({setting})")
    right.set(xlabel="gamma (beta 3)", ylabel="three-way accuracy", title="METEOR with penalty by gamma")
    right.legend(fontsize=6)
    for ax in (left, right):
        ax.title.set_fontsize(8)
        ax.tick_params(labelsize=7)
    subset = f"ours: first {n_items:,} tuples; " if n_items else ""
    top_title(fig, "Seed 001: METEOR tuning by three-way accuracy on the MT-course evaluator set "
              f"({subset}seed 001: all 25,568)", 9)
    fixed_tight_layout(fig)
    save(fig, outputs)
    return fig


def wrapped(text: str, inches: float, points: float) -> list[str]:
    """``text`` in lines that fit ``inches`` at ``points`` (an average character is taken as 0.6 of
    the font size wide, which DejaVu Sans stays under), broken at spaces but not after ">" or "≥"
    ("> others" stays whole); a word longer than a line (a metric's signature,
    "BLEU|nrefs:1|case:mixed|...") is also broken after its "|"."""
    chars = max(8, int(inches * 72 / (0.6 * points)))
    glue = "\ue000"  # "> others", "≥ others": a comparison stays with its word
    text = re.sub(r"(?<=[>≥<≤]) ", glue, text)
    lines: list[str] = []
    line = ""
    for word in text.split():
        pieces = [word] if len(word) <= chars else [p for p in re.split(r"(?<=\|)", word) if p]
        for k, piece in enumerate(pieces):
            candidate = (line + ("" if k else " ") + piece) if line else piece
            if line and len(candidate) > chars:
                lines.append(line)
                line = piece
            else:
                line = candidate
    if line:
        lines.append(line)
    return [line.replace(glue, " ") for line in lines] or [""]


def line_height(points: float) -> float:
    """Inches one line of text at ``points`` takes, with matplotlib's default 1.2 line spacing."""
    return 1.2 * points / 72


def panel_scale(values, step: float = 0.01) -> tuple[float, float]:
    """The colour range of one heatmap panel: its smallest to its largest value, widened outwards to
    multiples of ``step`` (the printed precision, so the colour bar's ends are values a cell can
    print; coarser steps would waste much of a Fisher-z scale near 1: 0.99 to 0.995 alone is over a
    tenth of z's span from 0 to 0.995), at least one step wide, and inside +-``CORRELATION_LIMIT``
    (where z is finite)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if not len(v):
        return 0.0, CORRELATION_LIMIT
    # Rounded to 9 decimals first: 0.95 / 0.05 is 18.999999999999996, whose ceil must stay 19.
    low = math.floor(round(v.min() / step, 9)) * step
    high = math.ceil(round(v.max() / step, 9)) * step
    if high - low < step:
        high = low + step
    return round(max(low, -CORRELATION_LIMIT), 10), round(min(high, CORRELATION_LIMIT), 10)


def fisher_z(r):
    """Fisher's z = atanh(r), with r clipped to +-``CORRELATION_LIMIT`` (z of +-1 is infinite)."""
    return np.arctanh(np.clip(np.asarray(r, dtype=float), -CORRELATION_LIMIT, CORRELATION_LIMIT))


def correlation_norm(low: float, high: float):
    """The colour scale of a correlation heatmap: ``low`` to ``high``, spaced by Fisher's z. On z the
    sampling error of a correlation is about constant (1 / sqrt(n - 3) for Pearson), so a colour
    step means about as much at 0.95 as at 0.3; near 1, where most system-level correlations lie,
    the values spread over the map instead of sharing its last shade."""
    from matplotlib.colors import FuncNorm

    return FuncNorm((fisher_z, np.tanh), vmin=low, vmax=high)


def colour_bar_ticks(low: float, high: float) -> list[float]:
    """Ticks for a Fisher-z colour bar from ``low`` to ``high``: both ends, and between them round
    values (the coarsest step of 0.2, 0.1, 0.05, 0.02, 0.01 that gives at least three, plus 0.95 and
    0.99, where z stretches the scale) none of which crowds an end or the tick before it."""
    span = float(fisher_z(high) - fisher_z(low))
    gap = 0.06 * span  # in z: about 6% of the bar's length
    for step in (0.2, 0.1, 0.05, 0.02, 0.01):
        candidates = {round(k * step, 10) for k in range(math.ceil(low / step), math.floor(high / step) + 1)}
        candidates |= {-0.99, -0.95, 0.95, 0.99}
        inner, last = [], float(fisher_z(low))
        for tick in sorted(t for t in candidates if low < t < high):
            z = float(fisher_z(tick))
            if z - last > gap and float(fisher_z(high)) - z > gap:
                inner.append(tick)
                last = z
        if len(inner) >= 3:
            break
    return [low, *inner, high]


def overview_figure(table: pd.DataFrame, outputs: list[str | Path]):
    """Seed 003's overview as two heatmaps, one above the other: system-level Pearson (with > others,
    or the official score where a pair has no judgments; the top Williams group starred) and
    segment-level tau, metrics by dataset and language pair.

    Each panel shows the metrics and the pairs that have values in it; a note under the panel names
    the rows and columns it leaves out and why (e.g. metrics scored on the evaluator set only have no
    system-level correlation). Each panel has its own colour scale, from its smallest to its largest
    value (:func:`panel_scale`, printed on its colour bar), spaced by Fisher's z
    (:func:`correlation_norm`), on a colour-blind-safe sequential map (``OVERVIEW_CMAP``): the
    values cluster (most system-level Pearsons between 0.6 and 1), and a fixed linear -1..1 scale
    made them near-identical. Every cell prints its value in black or white,
    whichever contrasts more with the cell; grey cells: the metric is not scored on that pair
    ("n/a" where it is scored and has no value). Cells keep one size in both panels, whatever the
    number of metrics and columns."""
    from matplotlib import colormaps

    from mtmeta.paper.overview import LEVELS, left_out_note, panel_title

    table = table.assign(column=table["dataset"] + " " + table["lp"])
    all_columns = list(dict.fromkeys(table["column"]))
    all_metrics = list(dict.fromkeys(table["metric"]))
    scored = set(zip(table["metric"], table["column"], strict=True))
    panels, missing_panels = [], []
    for value in ("pearson", "segment_tau"):
        full = table.pivot_table(index="metric", columns="column", values=value, dropna=False).reindex(
            index=all_metrics, columns=all_columns)
        has = full.notna()
        metrics = [m for m in all_metrics if has.loc[m].any()]
        columns = [c for c in all_columns if has[c].any()]
        if not metrics:  # a panel with no values at all is left out, and the title says so
            missing_panels.append(f"no {value.replace('_', ' ')} panel: {LEVELS[value]} on any pair")
            continue
        # The title names the human signal of each column shown (> others, the official score, MQM).
        title = panel_title(table, value, columns) + ("; * top Williams group" if value == "pearson" else "")
        panels.append((value, title, metrics, columns, full.loc[metrics, columns].to_numpy(dtype=float),
                       left_out_note(table, metrics, columns, value)))
    if not panels:
        fig = plt.figure(figsize=(6, 1.2))
        figure_title(fig, "Metric overview: no values to show (" + "; ".join(missing_panels) + ")", 9)
        save(fig, outputs)
        return fig
    # Laid out in inches, so that a cell is cell_w x cell_h in both panels whatever their numbers of
    # rows and columns: per panel, top to bottom, its title, its grid, its column labels and its note.
    # Titles and notes are wrapped to the width they have.
    cell_w, cell_h = 0.5, 0.3  # room for "-0.12*" at MIN_FONT + 0.5
    label_w = 0.08 * max(len(m) for m in all_metrics) + 0.5  # row labels
    label_h = 0.06 * max(len(c) for c in all_columns) + 0.3  # column labels, at 60 degrees
    # Each colour bar's label runs along the bar, wrapped to its height; the bar, its ticks and
    # those lines take the right margin.
    bar_labels = [wrapped(f"{'Pearson r' if p[0] == 'pearson' else 'tau'}: this panel's range, "
                          f"{panel_scale(p[4])[0]:g} to {panel_scale(p[4])[1]:g} (spaced by Fisher's z)",
                          cell_h * len(p[2]), MIN_FONT + 1) for p in panels]
    bar_space = 0.12 + 0.14 + 0.45 + line_height(MIN_FONT + 1) * max(map(len, bar_labels)) + 0.1
    width = label_w + cell_w * max(len(p[3]) for p in panels) + bar_space
    suptitle = wrapped("Metric overview: every metric on every dataset and language pair (grey: not scored on "
                       "that pair; each panel has its own colour scale)"
                       + "".join(f"; {text}" for text in missing_panels), width - 0.2, 9)
    titles = [wrapped(p[1], width - label_w - 0.1, 9) for p in panels]
    notes = [wrapped(p[5], width - label_w - 0.1, MIN_FONT + 1) for p in panels]
    blocks = [line_height(9) * len(title) + 0.15 + cell_h * len(p[2]) + label_h
              + line_height(MIN_FONT + 1) * len(note) + 0.15
              for p, title, note in zip(panels, titles, notes, strict=True)]
    suptitle_h = line_height(9) * len(suptitle) + 0.2
    height = suptitle_h + sum(blocks)
    fig = plt.figure(figsize=(width, height))
    axes, top = [], height - suptitle_h
    for (_, _, metrics, columns, _, _), title, block in zip(panels, titles, blocks, strict=True):
        grid_w, grid_h = cell_w * len(columns), cell_h * len(metrics)
        bottom = top - line_height(9) * len(title) - 0.15 - grid_h
        ax = fig.add_axes((label_w / width, bottom / height, grid_w / width, grid_h / height))
        bar_ax = fig.add_axes(((label_w + grid_w + 0.12) / width, bottom / height, 0.14 / width, grid_h / height))
        axes.append((ax, bar_ax))
        top -= block
    cmap = colormaps[OVERVIEW_CMAP].with_extremes(bad="0.72")
    for (ax, bar_ax), (value, _, metrics, columns, grid, _), title, note, bar_label in zip(
            axes, panels, titles, notes, bar_labels, strict=True):
        low, high = panel_scale(grid)
        norm = correlation_norm(low, high)
        image = ax.imshow(np.ma.masked_invalid(grid), aspect="auto", cmap=cmap, norm=norm, interpolation="nearest")
        ax.set_xticks(range(len(columns)), columns, rotation=60, ha="right", rotation_mode="anchor",
                      fontsize=MIN_FONT + 1)
        ax.set_yticks(range(len(metrics)), metrics, fontsize=MIN_FONT + 1)
        ax.tick_params(length=2)
        ax.set_title("\n".join(title), fontsize=9, loc="left")
        top_group = set()
        if value == "pearson" and "williams_rank" in table:
            ranked = table[table["williams_rank"] == 1]
            top_group = set(zip(ranked["metric"], ranked["column"], strict=True))
        for (i, j), v in np.ndenumerate(grid):
            if np.isfinite(v):
                star = "*" if (metrics[i], columns[j]) in top_group else ""
                ax.text(j, i, f"{number(v, 2)}{star}", ha="center", va="center", fontsize=MIN_FONT + 0.5,
                        color=text_color_on(cmap(norm(v))))
            elif (metrics[i], columns[j]) in scored:
                ax.text(j, i, "n/a", ha="center", va="center", fontsize=MIN_FONT + 0.5,
                        color=text_color_on(cmap.get_bad()))
        ax.set_xlabel("\n".join(note), fontsize=MIN_FONT + 1, loc="left")
        bar = fig.colorbar(image, cax=bar_ax, ticks=colour_bar_ticks(low, high), format="{x:g}")
        bar.set_label("\n".join(bar_label), fontsize=MIN_FONT + 1)
        bar.ax.tick_params(labelsize=MIN_FONT + 1)
    fig.suptitle("\n".join(suptitle), fontsize=9, y=1 - 0.1 / height, va="top")
    save(fig, outputs)
    return fig


def share_figure(table: pd.DataFrame, baseline: float, label: str, outputs: list[str | Path]):
    """Seed 002's appendix figure: correlation against the share of paraphrase pairs kept, one line
    per ranking of the pairs (``label``: the target, metric and setting, under the title)."""
    fig, ax = plt.subplots(figsize=(5.5, 3.9))
    for ranking, rows in table.groupby("ranking", sort=False):
        ax.plot(100 * rows["fraction"], rows["pearson"], marker="o", label=f"pairs ranked: {ranking}")
    ax.axhline(baseline, color="grey", linestyle="--", label=f"original references ({baseline:.3f})")
    ax.set_xlabel("paraphrase pairs kept, from the top of the ranking (%)")
    ax.set_ylabel("Pearson r with > others")
    ax.set_title(f"Seed 002 appendix: system-level Pearson by share of the lexicon kept\n{label}", fontsize=9)
    ax.legend(fontsize=8)
    fixed_tight_layout(fig)
    save(fig, outputs)
    return fig


def softbleu_figure(table: pd.DataFrame, outputs: list[str | Path], bootstrap: pd.DataFrame | None = None,
                    human_score: str = "gt_others", baseline: str | None = None):
    """System-level Pearson of BLEU and each softened variant with its bootstrap interval, one panel
    per dataset and language pair.

    Points with error bars, not bars: each panel's y-axis spans its own points and intervals (it
    does not start at 0, and says so), so a difference of 0.01 between metrics is visible beside
    the uncertainty. The intervals are ``bootstrap``'s ``pearson_low`` / ``pearson_high`` for
    ``human_score`` (the study's ``system_bootstrap.tsv`` rows), else the table's own columns of
    those names. The dashed line is ``baseline``'s Pearson (default: the table's first metric)."""
    system = table.dropna(subset=["pearson"])
    level = "95%"
    if bootstrap is not None:
        bootstrap = bootstrap[bootstrap["human_score"] == human_score]
        if "confidence" in bootstrap and bootstrap["confidence"].nunique() == 1:
            level = f"{float(bootstrap['confidence'].iloc[0]):.0%}"
        intervals = bootstrap[["dataset", "lp", "metric", "pearson_low", "pearson_high"]]
        system = system.drop(columns=["pearson_low", "pearson_high"], errors="ignore").merge(
            intervals, on=["dataset", "lp", "metric"], how="left")
    has_intervals = {"pearson_low", "pearson_high"} <= set(system.columns)
    pairs = list(dict.fromkeys(zip(system["dataset"], system["lp"], strict=True)))
    metrics = list(dict.fromkeys(system["metric"]))
    baseline = baseline if baseline in metrics else metrics[0]
    columns = min(5, len(pairs))
    rows = math.ceil(len(pairs) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(2.3 * columns, 1.9 * rows + 0.9), squeeze=False,
                             layout="constrained")
    for ax, (dataset, lp) in zip(axes.flat, pairs, strict=False):
        rows_ = system[(system["dataset"] == dataset) & (system["lp"] == lp)].set_index("metric")
        for k, metric in enumerate(metrics):
            if metric not in rows_.index:
                continue
            row = rows_.loc[metric]
            y = float(row["pearson"])
            if has_intervals and pd.notna(row["pearson_low"]) and pd.notna(row["pearson_high"]):
                error = [[y - float(row["pearson_low"])], [float(row["pearson_high"]) - y]]
            else:
                error = None
            ax.errorbar([k], [y], yerr=error, fmt="o", color=f"C{k}", markersize=4, capsize=2.5, elinewidth=1,
                        label=metric)
        if baseline in rows_.index:
            ax.axhline(float(rows_.loc[baseline, "pearson"]), color="0.5", linestyle="--", linewidth=0.8, zorder=0)
        n = rows_["n_systems"].dropna() if "n_systems" in rows_ else pd.Series(dtype=float)
        ax.set_title(f"{dataset} {lp}" + (f" ({int(n.iloc[0])} systems)" if len(n) else ""), fontsize=8)
        ax.set_xticks([])
        ax.set_xlim(-0.6, len(metrics) - 0.4)
        ax.tick_params(labelsize=MIN_FONT + 1)
        ax.grid(axis="y", color="0.92")
    for ax in list(axes.flat)[len(pairs):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("Pearson r", fontsize=8)
    legend = {}  # every metric once, also if the first panel lacks one
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            legend.setdefault(label, handle)
    legend = {m: legend[m] for m in metrics if m in legend}
    from matplotlib.lines import Line2D

    legend[f"{baseline}'s Pearson (each panel's)"] = Line2D([], [], color="0.5", linestyle="--", linewidth=0.8)
    # One row if it fits the figure's width, else as many columns as fit (an entry: its label at 8 pt
    # and the marker).
    entries = [0.6 * 8 / 72 * len(label) + 0.6 for label in legend]
    ncols = len(entries) if sum(entries) <= fig.get_figwidth() else int(fig.get_figwidth() / max(entries))
    fig.legend(list(legend.values()), list(legend), loc="outside lower center", fontsize=8, frameon=False,
               ncols=max(1, ncols))
    interval = f"{level} bootstrap interval (bars), " if has_intervals else ""
    figure_title(fig, f"System-level Pearson with > others, on the pairs with pairwise judgments: {interval}dashed "
                 f"line {baseline}\neach panel's y-axis spans its own values and does not start at 0", 9)
    save(fig, outputs)
    return fig


def sensitivity_figure(table: pd.DataFrame, output: str | Path, metrics: list[str]):
    """One panel per metric of ``metrics``: the Pearson of each changed factor (dots), the default
    (line) and its bootstrap interval (band). The panels share their rows (every factor of any
    metric); where a factor does not apply to a metric (the case flip goes the other way, Meteor's
    input modes are METEOR's), its row says "n/a" and why, instead of staying blank."""
    from matplotlib.transforms import blended_transform_factory

    from mtmeta.paper.sensitivity import not_applicable_reason

    shown = table[table["metric"].isin(metrics) & ~table["factor"].isin(["default", "bootstrap"])]
    variant_keys = list(dict.fromkeys(zip(shown["factor"], shown["variant"], strict=True)))
    variants = [f"{f}: {v}" for f, v in variant_keys]
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
        interval = ""
        if len(band) == 2:
            ax.axvspan(band.min(), band.max(), color="0.88", label="the default's 95% bootstrap interval")
            interval = f", interval {number(band.min(), 3)} to {number(band.max(), 3)}"
        ax.axvline(default, color="0.3", linestyle="--", linewidth=1, label="the default (study's setting)")
        labels = [f"{f}: {v}" for f, v in zip(rows["factor"], rows["variant"], strict=True)]
        drawn_rows = set()
        for label, value in zip(labels, rows["pearson"], strict=True):
            if label in positions and pd.notna(value):
                ax.plot(value, positions[label], "o", color="C0", markersize=5, label="one factor changed")
                drawn_rows.add(label)
        # x in axes fractions, y in rows: "n/a" at the panel's left edge of each row it has no value in.
        left_edge = blended_transform_factory(ax.transAxes, ax.transData)
        for label, (factor, variant) in zip(variants, variant_keys, strict=True):
            if label not in drawn_rows:
                ax.text(0.01, positions[label], f"n/a: {not_applicable_reason(factor, variant)}",
                        transform=left_edge, ha="left", va="center", fontsize=7, color="0.3", style="italic")
        ax.set_yticks(range(len(variants)), variants, fontsize=8)
        ax.set_title(f"{metric_id} (default {number(default, 3)}{interval})", fontsize=10)
        ax.set_xlabel("system-level Pearson")
        ax.grid(axis="x", color="0.9")
    axes.flat[0].invert_yaxis()  # once: every panel shares this axis
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    legend = {}  # one legend for all panels (below them: inside a panel it would hide points)
    for ax in list(axes.flat)[:n]:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            legend.setdefault(label, handle)
    fig.legend(list(legend.values()), list(legend), loc="outside lower center", ncols=len(legend), fontsize=8,
               frameon=False)
    dataset, lp = table["dataset"].iloc[0], table["lp"].iloc[0]
    figure_title(fig, f"{dataset} {lp}: system-level Pearson with > others when one factor changes\n"
                 "(n/a: the factor does not apply to that metric, for the reason given)", 11)
    save(fig, [output])
    return fig
