"""What a reader sees in the figures (mtmeta.paper.figures), asserted on the matplotlib objects the
plotting functions return, not on pixels: the overview heatmap's per-panel colour scale, its left-out
rows and columns, and legible cell text; the softened-BLEU intervals and zoomed axis; the sweep's
star inside the axes; the scatter labels' size and placement."""

import itertools

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.image import AxesImage

from mtmeta.paper import figures


def overview_table(metrics=("bleu", "chrf", "ter"), pairs=(("wmt12", "en-cs"), ("wmt13", "de-en")), low=0.70,
                   high=0.80):
    """An overview table whose Pearson values span low..high and whose tau values span 0.10..0.20."""
    rows = list(itertools.product(pairs, metrics))
    pearson = np.linspace(low, high, len(rows))
    tau = np.linspace(0.10, 0.20, len(rows))
    return pd.DataFrame({
        "dataset": [d for (d, _), _ in rows], "lp": [lp for (_, lp), _ in rows], "metric": [m for _, m in rows],
        "pearson": pearson, "segment_tau": tau, "williams_rank": [1.0] + [2.0] * (len(rows) - 1)})


def drawn(fig):
    """A renderer for ``fig`` after drawing it as saved (pyplot has closed it: give it an Agg canvas
    again), so that extents are those of the saved file."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def value_texts(ax):
    """The heatmap's cell texts with the value each prints (the top-group star stripped)."""
    return [(t, float(t.get_text().rstrip("*"))) for t in ax.texts if t.get_text().rstrip("*")]


def test_contrast_helpers():
    assert figures.contrast_ratio("black", "white") == pytest.approx(21.0)
    assert figures.contrast_ratio("white", "white") == pytest.approx(1.0)
    assert figures.text_color_on("yellow") == "black"
    assert figures.text_color_on("navy") == "white"


def heatmaps(fig):
    """The overview's heatmap axes (not its colour bars), top to bottom."""
    return [ax for ax in fig.axes if any(isinstance(im, AxesImage) for im in ax.get_images())]


def colour_bar_labels(fig):
    return [ax.get_ylabel() for ax in fig.axes if ax not in heatmaps(fig) and ax.get_ylabel()]


@pytest.mark.parametrize(("values", "scale"), [
    ([0.634, 0.981], (0.63, 0.99)), ([0.70, 0.80], (0.7, 0.8)), ([-0.18, 0.95], (-0.18, 0.95)),
    ([0.95], (0.95, 0.96)), ([0.1, np.nan, 0.2], (0.1, 0.2)), ([-0.013, 0.3], (-0.02, 0.3)),
    ([0.2, 0.998], (0.2, 0.995)), ([-1.0, 0.5], (-0.995, 0.5))])
def test_panel_scale_spans_the_values_to_printed_precision_inside_z_limits(values, scale):
    assert figures.panel_scale(values) == pytest.approx(scale)


def test_correlation_scale_is_fishers_z():
    norm = figures.correlation_norm(0.4, 0.99)
    z = np.arctanh
    assert norm(0.9) == pytest.approx((z(0.9) - z(0.4)) / (z(0.99) - z(0.4)))
    # Near 1 the colours spread out: 0.90 to 0.97 is more than twice the colour step of 0.40 to 0.47.
    assert norm(0.97) - norm(0.90) > 2 * (norm(0.47) - norm(0.40))
    # The colour bar's ticks: both ends and round values that do not crowd them.
    assert figures.colour_bar_ticks(-0.15, 0.995) == [-0.15, 0.2, 0.4, 0.6, 0.8, 0.95, 0.99, 0.995]
    assert figures.colour_bar_ticks(0.1, 0.2) == [0.1, 0.12, 0.14, 0.16, 0.18, 0.2]


def test_overview_colour_scale_spans_each_panels_values(tmp_path):
    # Values 0.70-0.80 (Pearson) and 0.10-0.20 (tau): on a fixed -1..1 scale they would be one colour.
    fig = figures.overview_figure(overview_table(), [tmp_path / "overview.png"])
    pearson, tau = heatmaps(fig)
    assert (pearson.get_images()[0].norm.vmin, pearson.get_images()[0].norm.vmax) == pytest.approx((0.7, 0.8))
    assert (tau.get_images()[0].norm.vmin, tau.get_images()[0].norm.vmax) == pytest.approx((0.1, 0.2))
    # Each colour bar prints its panel's range and its spacing.
    labels = colour_bar_labels(fig)
    labels = [" ".join(label.split()) for label in labels]  # wrapped along the bar
    assert any("0.7 to 0.8 (spaced by Fisher's z)" in label for label in labels)
    assert any("0.1 to 0.2" in label for label in labels)
    # The lowest and the highest cell of a panel are far apart in lightness, not near-identical.
    image = pearson.get_images()[0]
    low, high = (figures.relative_luminance(image.cmap(image.norm(v))) for v in (0.70, 0.80))
    assert high - low > 0.6
    # The map is the colour-blind-safe sequential one; a narrower table gives a narrower scale.
    assert image.cmap.name.startswith(figures.OVERVIEW_CMAP)
    other = heatmaps(figures.overview_figure(overview_table(low=0.744, high=0.756), []))[0].get_images()[0]
    assert (other.norm.vmin, other.norm.vmax) == pytest.approx((0.74, 0.76))


def overview_with_gaps():
    """wmt12 en-cs and wmt14 en-de (system level only: no segment tau) and the evaluator set
    (segment level only), with two metrics everywhere, meteor-cs-x on en-cs only and meteor-stem
    scored on the evaluator set only."""
    rows = []
    for (dataset, lp), system, segment in ((("wmt12", "en-cs"), True, True), (("wmt14", "en-de"), True, False),
                                           (("evaluator", "xx-en"), False, True)):
        metrics = ["bleu", "chrf"] + (["meteor-cs-x"] if lp == "en-cs" else []) + (
            ["meteor-stem"] if dataset == "evaluator" else [])
        for k, metric in enumerate(metrics):
            rows.append({"dataset": dataset, "lp": lp, "metric": metric,
                         "pearson": 0.8 + 0.05 * k if system else np.nan,
                         "segment_tau": 0.2 + 0.02 * k if segment else np.nan,
                         "williams_rank": 1.0 if system else np.nan})
    return pd.DataFrame(rows)


def test_overview_leaves_out_empty_rows_and_columns_and_says_why():
    fig = figures.overview_figure(overview_with_gaps(), [])
    pearson, tau = heatmaps(fig)
    rows = lambda ax: [label.get_text() for label in ax.get_yticklabels()]  # noqa: E731
    columns = lambda ax: [label.get_text() for label in ax.get_xticklabels()]  # noqa: E731
    # System level: meteor-stem (evaluator only) has no value, and the evaluator column none.
    assert rows(pearson) == ["bleu", "chrf", "meteor-cs-x"]
    assert columns(pearson) == ["wmt12 en-cs", "wmt14 en-de"]
    note = " ".join(pearson.get_xlabel().split())  # as one line (the figure wraps it)
    assert "meteor-stem" in note and "evaluator xx-en" in note and "no system-level human score" in note
    # Segment level: every metric has a value (meteor-stem on the evaluator set); wmt14 en-de has none.
    assert rows(tau) == ["bleu", "chrf", "meteor-cs-x", "meteor-stem"]
    assert columns(tau) == ["wmt12 en-cs", "evaluator xx-en"]
    note = " ".join(tau.get_xlabel().split())
    assert "wmt14 en-de" in note and "no segment-level judgments" in note and "meteor-stem" not in note
    # No row left in either panel is empty.
    for ax in (pearson, tau):
        grid = ax.get_images()[0].get_array()
        assert not np.ma.getmaskarray(grid).all(axis=1).any()


def test_overview_without_one_level_draws_the_other_and_says_so():
    evaluator_only = overview_with_gaps().query("dataset == 'evaluator'")
    fig = figures.overview_figure(evaluator_only, [])
    (tau,) = heatmaps(fig)
    assert tau.get_title(loc="left").startswith("Segment-level")
    assert "no pearson panel: no system-level human score on any pair" in " ".join(fig._suptitle.get_text().split())
    empty = evaluator_only.assign(segment_tau=np.nan)
    fig = figures.overview_figure(empty, [])
    assert not heatmaps(fig) and "no values to show" in fig._suptitle.get_text()


def test_overview_marks_a_scored_cell_without_value_n_a():
    table = overview_with_gaps()
    table.loc[(table["metric"] == "chrf") & (table["lp"] == "en-de"), "pearson"] = np.nan
    fig = figures.overview_figure(table, [])
    pearson = heatmaps(fig)[0]
    assert [(t.get_position()) for t in pearson.texts if t.get_text() == "n/a"] == [(1, 1)]  # chrf x en-de
    # meteor-cs-x is not scored on en-de: grey, no text.
    assert not [t for t in pearson.texts if tuple(t.get_position()) == (1, 2)]


def test_overview_cell_text_contrasts_with_its_cell():
    # Dark cells (0.9) and light ones (0.05) in one panel.
    fig = figures.overview_figure(overview_table(low=0.05, high=0.95), [])
    ax = heatmaps(fig)[0]
    image = ax.get_images()[0]
    colours = set()
    for text, value in value_texts(ax):
        cell = image.cmap(image.norm(value))
        assert figures.contrast_ratio(text.get_color(), cell) >= 4.5, (text.get_text(), text.get_color())
        colours.add(text.get_color())
    assert colours == {"black", "white"}


def test_overview_cell_text_is_readable_and_fits_its_cell():
    fig = figures.overview_figure(overview_table(metrics=[f"metric-{k}" for k in range(12)]), [])
    renderer = drawn(fig)
    for ax in heatmaps(fig):
        texts = value_texts(ax)
        assert texts
        frame = ax.get_window_extent(renderer)
        n_rows, n_columns = ax.get_images()[0].get_array().shape
        cell_w, cell_h = frame.width / n_columns, frame.height / n_rows
        for text, _ in texts:
            assert text.get_fontsize() >= figures.MIN_FONT
            box = text.get_window_extent(renderer)
            assert box.width < cell_w and box.height < cell_h
        for label in ax.get_xticklabels() + ax.get_yticklabels():
            assert label.get_fontsize() >= figures.MIN_FONT


def test_overview_figure_grows_with_the_table():
    # Cells keep one size (0.5 x 0.3 inch), whatever the numbers of metrics and pairs.
    wide_pairs = [("wmt12", f"l{k}-en") for k in range(20)]
    tables = {"small": overview_table(metrics=["a", "b"]),
              "tall": overview_table(metrics=[f"m{k}" for k in range(20)]),
              "wide": overview_table(metrics=["a", "b"], pairs=wide_pairs)}
    sizes = {}
    for name, table in tables.items():
        fig = figures.overview_figure(table, [])
        sizes[name] = fig.get_size_inches()
        for ax in heatmaps(fig):
            rows, columns = ax.get_images()[0].get_array().shape
            box = ax.get_position().transformed(fig.transFigure).transformed(fig.dpi_scale_trans.inverted())
            assert (box.width / columns, box.height / rows) == pytest.approx((0.5, 0.3)), name
    assert sizes["tall"][1] > sizes["small"][1] + 5 and sizes["wide"][0] > sizes["small"][0] + 5


def softbleu_inputs():
    """Two pairs x three metrics, Pearson 0.70-0.80, and their bootstrap intervals (+ a ge_others
    row that must not be used)."""
    rows = []
    for (dataset, lp), base in ((("wmt12", "en-cs"), 0.70), (("wmt13", "de-en"), 0.78)):
        for k, metric in enumerate(["bleu", "bleu-w2v", "bleu-w2v-opt"]):
            rows.append({"dataset": dataset, "lp": lp, "metric": metric, "n_systems": 12,
                         "pearson": base + 0.01 * k})
    table = pd.DataFrame(rows)
    bootstrap = table[["dataset", "lp", "metric"]].assign(
        human_score="gt_others", pearson_low=table["pearson"] - 0.05, pearson_high=table["pearson"] + 0.03,
        confidence=0.95)
    wrong = bootstrap.assign(human_score="ge_others", pearson_low=0.0, pearson_high=1.0)
    return table, pd.concat([bootstrap, wrong], ignore_index=True)


def test_softbleu_draws_the_bootstrap_intervals(tmp_path):
    table, bootstrap = softbleu_inputs()
    fig = figures.softbleu_figure(table, [tmp_path / "softbleu.png"], bootstrap=bootstrap)
    expected = bootstrap[bootstrap["human_score"] == "gt_others"].set_index(["dataset", "lp", "metric"])
    seen = 0
    for ax in fig.axes:
        title = ax.get_title()
        if not ax.get_visible() or not title:
            continue
        dataset, lp = title.split(" (")[0].split()
        containers = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        assert len(containers) == 3
        for container in containers:
            metric = container.get_label()
            (segment,) = container.lines[2][0].get_segments()
            low, high = sorted(segment[:, 1])
            row = expected.loc[(dataset, lp, metric)]
            assert (low, high) == pytest.approx((row["pearson_low"], row["pearson_high"]))
            seen += 1
    assert seen == 6
    assert "95% bootstrap interval" in " ".join(fig._suptitle.get_text().split())


def test_softbleu_axis_is_zoomed_to_the_data_and_uses_points_not_bars():
    table, _ = softbleu_inputs()
    fig = figures.softbleu_figure(table, [])
    panels = [ax for ax in fig.axes if ax.get_visible() and ax.has_data()]
    assert panels
    for ax in panels:
        low, high = ax.get_ylim()
        assert (low, high) != (0.0, 1.0)
        assert low > 0.6 and high < 0.9  # the data span 0.70-0.80
        assert high - low < 0.2
        assert not any(isinstance(c, BarContainer) for c in ax.containers)
    # The figure states that the axis does not start at 0.
    assert "does not start at 0" in " ".join(fig._suptitle.get_text().split())  # wrapped to the width


def sweep_table(best):
    """A 3 x 3 alpha x gamma grid whose best cell is ``best`` (alpha, gamma)."""
    grid = [0.0, 0.5, 1.0]
    rows = [{"dataset": "wmt12", "lp": "en-cs", "statistic": "pearson_gt_others", "split": "all",
             "alpha": a, "gamma": g, "value": 0.5 - 0.1 * (abs(a - best[0]) + abs(g - best[1]))}
            for a in grid for g in grid]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("best", [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (0.5, 0.5)])
def test_sweep_star_is_fully_inside_the_axes(best, tmp_path):
    fig = figures.sweep_figure(sweep_table(best), ["alpha", "gamma"], "test sweep", [tmp_path / "sweep.png"])
    ax = fig.axes[0]
    (star,) = [line for line in ax.get_lines() if line.get_marker() == "*"]
    x, y = star.get_xdata()[0], star.get_ydata()[0]
    assert (y, x) == best  # rows alpha, columns gamma
    # The title says how good the best setting is (0.5 at the best cell of sweep_table).
    assert ax.get_title().endswith(f"\nbest 0.500 at alpha {best[0]:g}, gamma {best[1]:g}")
    renderer = drawn(fig)
    frame = ax.get_window_extent(renderer)
    px, py = ax.transData.transform((x, y))
    half = star.get_markersize() / 2 * fig.dpi / 72
    assert frame.x0 <= px - half and px + half <= frame.x1
    assert frame.y0 <= py - half and py + half <= frame.y1
    # The best cell is centred on the star: the axes reach half a step beyond the grid.
    assert ax.get_xlim() == pytest.approx((-0.25, 1.25))
    assert ax.get_ylim() == pytest.approx((-0.25, 1.25))


def test_system_scatter_labels_are_readable_and_do_not_overlap():
    # Four systems close together in the middle of the panel (their labels at one fixed offset
    # overlap each other), one at each end.
    systems = ["online-A", "online-B", "uedin-wmt12", "cu-bojar", "far-low", "far-high"]
    table = pd.DataFrame({"system": systems, "score": [20.0, 20.0, 19.6, 19.6, 10.0, 30.0],
                          "gt_others": [0.45, 0.48, 0.46, 0.49, 0.2, 0.8]})
    fig = figures.system_scatter([{"title": "wmt12 en-cs", "table": table, "pearson": 0.9}], "bleu", "gt_others",
                                 [])
    ax = fig.axes[0]
    labels = [t for t in ax.texts if t.get_text() in systems]
    assert len(labels) == len(systems)
    renderer = drawn(fig)
    boxes = []
    for label in labels:
        assert label.get_fontsize() >= figures.MIN_FONT
        assert label.get_alpha() in (None, 1.0)
        boxes.append(label.get_window_extent(renderer))
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)
