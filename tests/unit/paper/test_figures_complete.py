"""Every figure says what it shows (mtmeta.paper.figures), asserted on the matplotlib objects: a
title on every figure, the scatter's title naming the metric, its signature and the human score,
the METEOR-tuning legend naming the baselines, "n/a" with its reason where a sensitivity factor does
not apply, and no text a reader has to read below the minimum size."""

import numpy as np
import pandas as pd
import pytest
from matplotlib.text import Text

from mtmeta.paper import figures, mqm_figures
from mtmeta.paper.sensitivity import METEOR_MODES, NOT_APPLICABLE, text_variants

BLEU = "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:4|sacrebleu:2.6.0|mtmeta:0.1.0"
METEOR_CS = "meteor|lang:cs|mods:ex+pa|a:0.95|beam:40|nrefs:1|case:lc|mtmeta:0.1.0"
METEOR_EN = "meteor|lang:en|mods:ex+st+sy+pa|a:0.85|beam:40|nrefs:1|case:lc|mtmeta:0.1.0"


def scatter_panels(signatures):
    """One panel per signature; the last one against the official score."""
    panels = []
    for k, signature in enumerate(signatures):
        table = pd.DataFrame({"system": ["a", "b", "c"], "score": [1.0, 2.0, 3.0 + k], "gt_others": [0.2, 0.5, 0.8],
                              "official": [0.1, 0.4, 0.9], "signature": signature})
        panels.append({"title": f"wmt12 l{k}-en", "table": table, "pearson": 0.9})
    panels[-1].update(human_score="official", human_label="human: official (TrueSkill)")
    return panels


def test_signature_short_form_keeps_shared_fields_and_names_those_that_differ():
    assert figures.signature_short_form([BLEU, BLEU]) == "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:4"
    assert figures.signature_short_form([METEOR_CS, METEOR_EN, METEOR_CS]) == (
        "meteor|beam:40|nrefs:1|case:lc (per pair: lang, mods, a)")
    assert figures.signature_short_form(["", np.nan]) == ""


def test_scatter_title_names_metric_signature_and_human_score():
    fig = figures.system_scatter(scatter_panels([BLEU, BLEU, BLEU]), "bleu", "gt_others", [])
    title = fig._suptitle.get_text()
    first, second = title.split("\n")[:2]
    assert first.startswith("bleu: ")
    assert "human score (x): > others; official (TrueSkill) on 1 panel" in first
    assert second == "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:4"
    # Without signatures, the title still names the metric and the human score.
    panels = scatter_panels([BLEU])
    panels[0]["table"] = panels[0]["table"].drop(columns="signature")
    assert fig._suptitle is not None
    assert figures.system_scatter(panels, "mine", "gt_others", [])._suptitle.get_text().startswith("mine: ")


def test_scatter_says_when_r_is_that_of_the_negated_score():
    # TER falls as the human score rises; the study correlates -TER, so its r is positive.
    table = pd.DataFrame({"system": ["a", "b", "c", "d"], "score": [60.0, 55.0, 52.0, 40.0],
                          "gt_others": [0.2, 0.4, 0.5, 0.9]})
    r = float(np.corrcoef(table["gt_others"], -table["score"])[0, 1])
    fig = figures.system_scatter([{"title": "wmt12 cs-en", "table": table, "pearson": r}], "ter", "gt_others", [])
    assert "lower ter is better, so r is Pearson's r of -ter" in " ".join(fig._suptitle.get_text().split())
    assert fig.axes[0].get_ylabel() == "ter (lower is better)"
    # The same points read as they are (BLEU-like: r of the score itself) say nothing of the kind.
    fig = figures.system_scatter([{"title": "wmt12 cs-en", "table": table, "pearson": -r}], "bleu", "gt_others", [])
    assert "lower" not in fig._suptitle.get_text() and fig.axes[0].get_ylabel() == "bleu"


def tuning_tables():
    alpha = pd.DataFrame({
        "n_items": 10000,
        "row": ["baseline (word match)", "alpha 0.10", "alpha 0.50", "alpha 0.90", "seed's tuned alpha"],
        "alpha": [np.nan, 0.1, 0.5, 0.9, 0.87], "reproduced": [0.52, 0.55, 0.56, 0.57, 0.575],
        "reproduced_at_1_minus_alpha": [np.nan, 0.57, 0.56, 0.55, np.nan],
        "reported": [0.51, 0.58, 0.56, 0.54, 0.59]})
    gamma = pd.DataFrame({"n_items": 10000, "row": ["gamma 0.00", "gamma 0.50"], "alpha": [0.9, 0.9],
                          "gamma": [0.0, 0.5], "reproduced": [0.57, 0.58], "reported": [0.56, 0.59]})
    return alpha, gamma


def test_meteor_tuning_legend_names_both_baselines():
    fig = figures.meteor_tuning_figure(*tuning_tables(), [])
    left = fig.axes[0]
    labels = [text.get_text() for text in left.get_legend().get_texts()]
    assert "word-match baseline, ours (0.520)" in labels
    assert "word-match baseline, seed 001 (0.510)" in labels
    # Every line drawn on the panel is in its legend.
    assert len(labels) == len(left.get_lines())
    assert "first 10,000 tuples" in fig._suptitle.get_text()


def sensitivity_rows():
    """wmt12 en-cs: bleu (keeps case) and meteor (lowercases, has Meteor's modes), each with its text factors."""
    rows = []
    for metric in ("bleu", "meteor"):
        rows += [(metric, "default", "corpus statistic, all segments, > others", 0.7),
                 (metric, "bootstrap", "95% interval of the default: low", 0.6),
                 (metric, "bootstrap", "95% interval of the default: high", 0.8),
                 (metric, "human score", ">= others", 0.72)]
        rows += [(metric, factor, variant, 0.65) for factor, variant, _, _ in text_variants(metric, {})]
    return pd.DataFrame([{"dataset": "wmt12", "lp": "en-cs", "metric": m, "factor": f, "variant": v, "pearson": p}
                         for m, f, v, p in rows])


def test_sensitivity_writes_n_a_and_why_where_a_factor_does_not_apply(tmp_path):
    fig = figures.sensitivity_figure(sensitivity_rows(), tmp_path / "sensitivity.png", ["bleu", "meteor"])
    bleu, meteor = fig.axes[:2]
    rows = [label.get_text() for label in bleu.get_yticklabels()]

    def n_a(ax):
        return {rows[int(round(t.get_position()[1]))]: t.get_text() for t in ax.texts if t.get_text().startswith("n/a")}

    # bleu keeps case: it has no case-sensitive row and none of Meteor's modes.
    assert n_a(bleu) == {"text: case-sensitive": "n/a: " + NOT_APPLICABLE["case-sensitive"],
                         **{f"text: {mode}": "n/a: METEOR only" for mode in METEOR_MODES}}
    # meteor lowercases by default: its case flip is the case-sensitive row.
    assert n_a(meteor) == {"text: lowercased": "n/a: default lowercases"}
    # A row with a point has no "n/a", and the figure says what "n/a" means.
    assert "n/a" in fig._suptitle.get_text()
    points = {rows[int(round(line.get_ydata()[0]))] for line in bleu.get_lines() if line.get_marker() == "o"}
    assert points.isdisjoint(n_a(bleu))
    # The legend (below the panels) names the band, the line and the points.
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == [
        "the default's 95% bootstrap interval", "the default (study's setting)", "one factor changed"]


def all_figures(tmp_path):
    """Every kind of figure the study makes, on small inputs."""
    from test_figures_readable import overview_with_gaps, softbleu_inputs, sweep_table

    table, bootstrap = softbleu_inputs()
    share = pd.DataFrame({"ranking": ["random"] * 2 + ["thesaurus"] * 2, "fraction": [0.5, 1.0] * 2,
                          "pearson": [0.8, 0.82, 0.81, 0.83]})
    return {
        "overview": figures.overview_figure(overview_with_gaps(), []),
        "scatter": figures.system_scatter(scatter_panels([BLEU, BLEU]), "bleu", "gt_others", []),
        "tuning": figures.meteor_tuning_figure(*tuning_tables(), []),
        "sensitivity": figures.sensitivity_figure(sensitivity_rows(), tmp_path / "s.png", ["bleu", "meteor"]),
        "sweep": figures.sweep_figure(sweep_table((0.5, 0.5)), ["alpha", "gamma"], "a sweep", []),
        "share": figures.share_figure(share, 0.79, "wmt12 en-cs, bleu", []),
        "softbleu": figures.softbleu_figure(table, [], bootstrap=bootstrap),
        "mqm ranking": mqm_figures.ranking_figure(ranking_panels(7, 16), []),
        "levels": levels_figure(),
    }


def levels_figure():
    """The levels figure at the study's size: 17 pairs of 16 metrics."""
    from mtmeta.paper import levels

    rows = [{"label": f"wmt12 pair-{k}", "values": np.linspace(0.2, 0.3, 16), "names": [f"metric-{m}" for m in
                                                                                       range(16)],
             "chance": np.zeros(16), "human": 0.45, "human_low": 0.4, "human_high": 0.5} for k in range(17)]
    return levels.levels_figure(rows, "2012-14 relative rankings, segment level: each metric between its chance "
                                "level and a second annotator (WMT13's Kendall)", "WMT13's Kendall", [])


def ranking_panels(panels: int, metrics: int) -> list[dict]:
    """The MQM ranking figure's input at the study's size: seven rankings of 16-19 metrics."""
    values = np.linspace(0.9, 0.3, metrics)
    table = pd.DataFrame({"metric": [f"metric-{k}" for k in range(metrics)], "value": values,
                          "rank": np.repeat([1, 2, 3, 4], -(-metrics // 4))[:metrics],
                          "low": values - 0.3, "high": np.minimum(values + 0.1, 1.0)})
    return [{"title": f"set {k}: system-level Pearson with mqm", "xlabel": "Pearson (MT systems)", "table": table}
            for k in range(panels)]


def drawn_texts(fig):
    """Every text a reader sees: tick labels of ticks inside their axis's view (matplotlib keeps, but
    does not draw, the others), and every other visible, non-empty text."""
    ticks = [tick for ax in fig.axes for axis in (ax.xaxis, ax.yaxis)
             for tick in axis.get_major_ticks() + axis.get_minor_ticks()]
    tick_labels = {id(label) for tick in ticks for label in (tick.label1, tick.label2)}
    texts = [t for t in fig.findobj(Text) if id(t) not in tick_labels]
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            tolerance = 1e-9 * max(1.0, abs(high - low))
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if low - tolerance <= tick.get_loc() <= high + tolerance:
                    texts += [tick.label1, tick.label2]
    return [t for t in texts if t.get_visible() and t.get_text().strip()
            and all(a.get_visible() for a in (t.axes,) if a is not None)]


def test_every_figure_has_a_title_and_no_text_below_the_minimum_or_outside(tmp_path):
    from test_figures_readable import drawn

    for name, fig in all_figures(tmp_path).items():
        renderer = drawn(fig)  # tick labels exist once the figure is drawn
        page = fig.bbox
        suptitle = fig._suptitle.get_text() if fig._suptitle is not None else ""
        titles = [ax.get_title(loc) for ax in fig.axes for loc in ("left", "center")]
        assert suptitle or (len(fig.axes) == 1 and titles[0] + titles[1]), name
        texts = drawn_texts(fig)
        assert len(texts) > 10, name
        for text in texts:
            assert text.get_fontsize() >= figures.MIN_FONT, (name, text.get_text())
            # Inside the saved page (a title wider than the figure is cut off at both ends).
            box = text.get_window_extent(renderer)
            assert page.x0 - 1 <= box.x0 and box.x1 <= page.x1 + 1, (name, text.get_text())
            assert page.y0 - 1 <= box.y0 and box.y1 <= page.y1 + 1, (name, text.get_text())


def test_share_figure_legend_names_the_rankings_and_the_baseline():
    share = pd.DataFrame({"ranking": ["random", "thesaurus"], "fraction": [1.0, 1.0], "pearson": [0.8, 0.81]})
    fig = figures.share_figure(share, 0.79, "wmt12 en-cs, bleu", [])
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["pairs ranked: random", "pairs ranked: thesaurus", "original references (0.790)"]
    assert fig.axes[0].get_title().startswith("Seed 002 appendix")


@pytest.mark.parametrize("metric", ["bleu", "meteor"])
def test_every_text_variant_has_a_reason_when_missing(metric):
    # The reasons cover every text variant a metric can have (a new one must say why it may be missing).
    for _, variant, _, _ in text_variants(metric, {}) + text_variants(metric, {"lowercase": True}):
        assert variant in NOT_APPLICABLE


def test_figure_titles_do_not_overlap_the_panels(tmp_path):
    from test_figures_readable import drawn

    figures_ = all_figures(tmp_path)
    # A tall scatter figure (the study's 24 pairs): a title placed at a fraction of the height sinks
    # into the first row of panels.
    figures_["tall scatter"] = figures.system_scatter(scatter_panels([METEOR_CS, METEOR_EN] * 12), "meteor",
                                                      "gt_others", [])
    for name, fig in figures_.items():
        if fig._suptitle is None:
            continue
        renderer = drawn(fig)
        title = fig._suptitle.get_window_extent(renderer)
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            boxes = [ax.get_window_extent(renderer)] + [t.get_window_extent(renderer) for t in
                                                          (ax.title, ax._left_title) if t.get_text()]
            assert not any(title.overlaps(box) for box in boxes), (name, ax.get_title())
