"""Figures a reader can trust: titles that name the human signal each panel uses, intervals wherever a
point is an estimate, one scale where panels are compared, labels drawn as written (no mathtext), and
tables in the study's order."""

import math

import numpy as np
import pandas as pd
import pytest
from test_figures_readable import drawn

from mtmeta.paper import figures, mqm_figures
from mtmeta.paper.overview import overview_markdown, overview_table


def overview_with_mqm():
    """wmt12 en-cs (> others), wmt14 en-cs (official score only), wmt21 en-de and zh-en (MQM: system
    level only in the overview) and the evaluator set (segment level only)."""
    rows = []
    for dataset, lp, score, tau in (("wmt12", "en-cs", "gt_others", 0.2), ("wmt14", "en-cs", "official", math.nan),
                                    ("wmt21", "en-de", "mqm", math.nan), ("wmt21", "zh-en", "mqm", math.nan),
                                    ("evaluator", "xx-en", None, 0.3)):
        for k, metric in enumerate(["bleu", "chrf"]):
            rows.append({"dataset": dataset, "lp": lp, "metric": metric, "human_score": score,
                         "pearson": math.nan if score is None else 0.8 + 0.05 * k, "segment_tau": tau + 0.01 * k,
                         "williams_rank": math.nan if score is None else 1.0 + k})
    return pd.DataFrame(rows)


def one_line(text: str) -> str:
    return " ".join(text.split())


def test_overview_titles_name_each_panels_human_signal():
    fig = figures.overview_figure(overview_with_mqm(), [])
    pearson, tau = (ax for ax in fig.axes if ax.get_images())
    assert one_line(pearson.get_title(loc="left")) == (
        "System-level Pearson with the human score of each pair: > others on wmt12; the official score on "
        "wmt14; MQM on wmt21; * top Williams group")
    assert one_line(tau.get_title(loc="left")).startswith(
        "Segment-level Kendall tau with pairwise human rankings of segments")
    # WMT21's MQM is segment-level: the note does not say it has no segment-level judgments.
    note = one_line(tau.get_xlabel())
    assert note == ("columns left out (no segment-level judgments): wmt14 en-cs; columns left out (MQM is "
                    "segment-level, but not pairwise rankings: its segment-level agreement is in the MQM "
                    "tables): wmt21 en-de, zh-en")
    assert "> others" not in one_line(fig._suptitle.get_text())


def test_overview_markdown_names_the_human_signals():
    markdown = overview_markdown(overview_with_mqm(), "pearson", "Pearson with: {signals}")
    assert markdown.startswith("**Pearson with: > others on wmt12; the official score on wmt14; MQM on wmt21**")


def test_overview_table_keeps_the_study_order_segment_only_pairs_last():
    system_level = pd.DataFrame({"dataset": ["wmt12", "wmt12"], "lp": ["en-cs"] * 2, "metric": ["ter", "bleu"],
                                 "human_score": ["gt_others"] * 2, "n_systems": [13] * 2, "pearson": [0.7, 0.8],
                                 "pearson_p": [0.01] * 2, "spearman": [0.7, 0.8], "spearman_p": [0.01] * 2})
    segment_level = pd.DataFrame({"dataset": ["evaluator", "evaluator", "wmt12", "wmt12"],
                                  "lp": ["xx-en", "xx-en", "en-cs", "en-cs"],
                                  "metric": ["meteor", "bleu", "ter", "bleu"],
                                  "n_comparisons": [50] * 4, "tau_wmt14": [0.3, 0.2, 0.1, 0.15],
                                  "three_way_accuracy": [0.5] * 4})
    ranks = pd.DataFrame({"dataset": ["wmt12"] * 2, "lp": ["en-cs"] * 2, "metric": ["ter", "bleu"], "rank": [2, 1]})
    table = overview_table(system_level, segment_level, ranks, {"wmt12": "wmt14"})
    assert list(zip(table["dataset"], table["metric"], strict=True)) == [
        ("wmt12", "ter"), ("wmt12", "bleu"), ("evaluator", "bleu"), ("evaluator", "meteor")]
    assert table["pearson"].notna().tolist() == [True, True, False, False]


def test_a_dollar_in_a_name_is_drawn_as_written(tmp_path):
    # Text between two "$" was matplotlib's mathtext: "a$^$b" failed the whole figure (ParseFatalException,
    # raised as ValueError), "$x$" was set in math italics.
    systems = ["sys$1", "$x$-online", "a$^$b"]
    table = pd.DataFrame({"system": systems, "score": [20.0, 22.0, 25.0], "gt_others": [0.4, 0.5, 0.6]})
    fig = figures.system_scatter([{"title": "wmt12 en-cs", "table": table, "pearson": 0.9}], "bl$eu", "gt_others",
                                 [tmp_path / "scatter.png"])
    assert (tmp_path / "scatter.png").stat().st_size > 0
    drawn(fig)
    labels = [t for t in fig.axes[0].texts if t.get_text() in systems]
    assert sorted(t.get_text() for t in labels) == sorted(systems)
    assert not any(t._preprocess_math(t.get_text())[1] for t in labels)  # not math
    panel = {"title": "set $1", "xlabel": "Pearson", "table": pd.DataFrame(
        {"metric": ["m$1", "m2"], "value": [0.9, 0.8], "rank": [1, 1], "low": [0.8, 0.7], "high": [0.95, 0.9]})}
    mqm_figures.ranking_figure([panel], [tmp_path / "ranking.png"])
    assert (tmp_path / "ranking.png").stat().st_size > 0


def ranking_inputs():
    """protocols, clusters and global accuracy (with its interval) of two MQM sets whose Pearsons
    lie far apart (0.9-0.95 and 0.2-0.5)."""
    metrics = ["comet", "bleu", "chrf"]
    protocols, clusters = [], []
    for lp, values in (("en-de", [0.95, 0.92, 0.9]), ("zh-en", [0.5, 0.3, 0.2])):
        for metric, value in zip(metrics, values, strict=True):
            protocols.append({"dataset": "wmt21", "lp": lp, "metric": metric, "level": "system",
                              "statistic": "pearson", "aggregation": "corpus", "human_translations": "excluded",
                              "human_score": "mqm", "value": value, "low": value - 0.1, "high": min(1.0, value + 0.05)})
            clusters.append({"dataset": "wmt21", "lp": lp, "metric": metric, "level": "system",
                             "statistic": "pearson", "human_score": "mqm", "value": value,
                             "rank": 1 + metrics.index(metric)})
    global_accuracy = pd.DataFrame({"metric": metrics, "value": [0.8, 0.7, 0.75], "rank": [1, 2, 2],
                                    "low": [0.75, 0.65, 0.7], "high": [0.85, 0.75, 0.8]})
    return pd.DataFrame(protocols), pd.DataFrame(clusters), global_accuracy


def test_mqm_ranking_compares_sets_on_one_x_range_with_intervals_everywhere():
    from mtmeta.paper.mqm_tables import ranking_panels

    panels = ranking_panels(*ranking_inputs())
    assert [p["title"] for p in panels] == ["global pairwise accuracy with MQM, all MQM sets",
                                            "wmt21 en-de: system-level Pearson with MQM",
                                            "wmt21 zh-en: system-level Pearson with MQM"]
    assert panels[0]["table"][["low", "high"]].to_numpy().tolist() == [[0.75, 0.85], [0.65, 0.75], [0.7, 0.8]]
    fig = mqm_figures.ranking_figure(panels, [])
    accuracy, en_de, zh_en = fig.axes[:3]
    # The two Pearson panels on one range, covering both sets' values and intervals (0.1 to 1.0).
    assert en_de.get_xlim() == zh_en.get_xlim() == pytest.approx((0.1 - 0.036, 1.0 + 0.036))
    # Every panel draws an interval per metric, the global accuracy too.
    for ax in (accuracy, en_de, zh_en):
        (lines,) = ax.collections[:1]
        assert len(lines.get_segments()) == 3
    assert accuracy.get_xlim() == pytest.approx((0.65 - 0.008, 0.85 + 0.008))
    # Under the panels: why paired tests separate metrics whose intervals overlap.
    note = one_line(" ".join(t.get_text() for t in fig.texts))
    assert "paired permutation tests" in note and "different clusters although their intervals overlap" in note


def categories_input():
    rows = []
    for lp, scale in (("en-de", 0.1), ("zh-en", 0.4)):
        for metric in ("bleu", "comet"):
            for k, restriction in enumerate(["all", "Accuracy", "Fluency"]):
                value = scale * (k - 1) if metric == "comet" else scale / 2
                rows.append({"dataset": "wmt21", "lp": lp, "metric": metric, "restriction": restriction,
                             "value": value, "low": value - 0.05, "high": value + 0.05,
                             "n_items": 10 if restriction == "Fluency" and lp == "en-de" else 100})
    return pd.DataFrame(rows)


def test_mqm_categories_one_colour_scale_and_intervals_in_the_cells():
    fig = mqm_figures.categories_figure(categories_input(), [])
    heatmaps = [ax for ax in fig.axes if ax.get_images()]
    assert len(heatmaps) == 2
    # One scale for both panels: the largest |value| shown, 0.4 (zh-en), also on en-de (up to 0.1).
    for ax in heatmaps:
        norm = ax.get_images()[0].norm
        assert (norm.vmin, norm.vmax) == pytest.approx((-0.4, 0.4))
    assert len(fig.axes) == 3  # the two panels and one colour bar
    texts = [t.get_text() for t in heatmaps[0].texts]
    assert "0.05\n[0.00, 0.10]" in texts and "-0.10\n[-0.15, -0.05]" in texts
    assert texts.count("n/a") == 2  # en-de Fluency: 10 items



def test_crowded_scatter_labels_never_overlap_and_the_unlabelled_are_named():
    # 40 systems, most of them in one tight cluster: not every label fits beside its point.
    rng = np.random.default_rng(0)
    systems = [f"system-{k:02d}" for k in range(40)]
    human = np.concatenate([rng.normal(0.5, 0.01, 36), [0.1, 0.2, 0.8, 0.9]])
    table = pd.DataFrame({"system": systems, "score": 20 + 10 * human + rng.normal(0, 0.05, 40), "gt_others": human})
    fig = figures.system_scatter([{"title": "wmt12 en-cs", "table": table, "pearson": 0.9}] * 2, "bleu", "gt_others",
                                 [])
    renderer = drawn(fig)
    for ax in fig.axes[:2]:
        shown = [t for t in ax.texts if t.get_visible()]
        boxes = [t.get_window_extent(renderer) for t in shown]
        assert all(not a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
        frame = ax.get_window_extent(renderer)
        assert all(frame.x0 <= b.x0 and b.x1 <= frame.x1 and frame.y0 <= b.y0 and b.y1 <= frame.y1 for b in boxes)
        note = one_line(ax.get_xlabel())
        assert note.startswith("human: > others not labelled (no room): ")
        named = note.removeprefix("human: > others not labelled (no room): ").split(", ")
        assert sorted([t.get_text() for t in shown] + named) == systems


def test_single_panel_scatter_title_keeps_the_signature_inside_the_page():
    signature = "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|tok:13a|smooth:exp|version:2.4.0"
    table = pd.DataFrame({"system": ["a", "b", "c"], "score": [1.0, 2.0, 3.0], "gt_others": [0.2, 0.5, 0.8],
                          "signature": signature})
    fig = figures.system_scatter([{"title": "wmt12 en-cs", "table": table, "pearson": 1.0}], "chrf", "gt_others", [])
    renderer = drawn(fig)
    title = fig._suptitle
    box = title.get_window_extent(renderer)
    assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1
    # Broken after a "|", every field kept (the version left out, as in every scatter title).
    lines = title.get_text().split("\n")
    first = next(k for k, line in enumerate(lines) if line.startswith("chrF2|"))
    assert len(lines) - first > 1 and "".join(lines[first:]) == figures.signature_short_form([signature])


def test_system_level_markdown_is_one_small_table_per_dataset():
    from mtmeta.metaeval.system_level import summary_markdown

    rows = []
    for dataset, lp, scores in (("wmt12", "cs-en", ["gt_others", "ge_others", "expected_wins"]),
                                ("wmt14", "en-cs", ["official"]), ("wmt14", "cs-en", ["gt_others", "official"]),
                                ("wmt21", "en-de", ["mqm", "mqm-raw"])):
        for k, metric in enumerate(["bleu", "chrf"]):
            for j, score in enumerate(scores):
                rows.append({"dataset": dataset, "lp": lp, "metric": metric, "human_score": score, "n_systems": 10 + j,
                             "pearson": 0.5 + 0.1 * k + 0.01 * j})
    markdown = summary_markdown(pd.DataFrame(rows), "system_level.tsv")
    assert markdown.splitlines() == [
        "System-level Pearson's r of each metric with each pair's primary human score; one table per dataset. "
        "Every human score, Spearman, Kendall, the p-values and the metric signatures: `system_level.tsv` "
        "(16 rows).", "",
        "**wmt12**", "", "| metric | cs-en (> others, n=10) |", "|---|---:|", "| bleu | 0.500 |", "| chrf | 0.600 |",
        "",
        "**wmt14**", "", "| metric | en-cs (official, n=10) | cs-en (> others, n=10) |", "|---|---:|---:|",
        "| bleu | 0.500 | 0.500 |", "| chrf | 0.600 | 0.600 |", "",
        "**wmt21**", "", "| metric | en-de (MQM, n=10) |", "|---|---:|", "| bleu | 0.500 |", "| chrf | 0.600 |"]


def test_human_translations_figure_draws_each_values_interval():
    from mtmeta.paper import mqm_tables

    protocols = pd.DataFrame([
        {"dataset": "ted", "lp": "zh-en", "metric": m, "human_score": "mqm", "level": "system", "statistic": "pearson",
         "grouping": "none", "human_translations": h, "aggregation": "corpus", "value": v, "low": v - 0.1,
         "high": v + 0.05, "n_systems": 13}
        for m, h, v in [("bleu", "excluded", 0.33), ("bleu", "included", 0.78), ("chrf", "excluded", 0.5),
                        ("chrf", "included", 0.6)]])
    table = mqm_tables.human_translations_table(protocols, {("ted", "zh-en"): {"human_scores": ["mqm"],
                                                                        "human_translations": ["refA"]}})
    bleu = table.set_index("metric").loc["bleu"]
    assert (bleu["excluded_low"], bleu["excluded_high"], bleu["included_low"], bleu["included_high"]) == \
        pytest.approx((0.23, 0.38, 0.68, 0.83))
    fig = mqm_figures.human_translations_figure(table, [])
    ax = fig.axes[0]
    from matplotlib.collections import LineCollection

    interval_lines = [c for c in ax.collections if isinstance(c, LineCollection)][1:]  # the first joins the pair
    spans = sorted(tuple(np.round(segment[:, 0], 2)) for lines in interval_lines for segment in lines.get_segments())
    assert spans == [(0.23, 0.38), (0.4, 0.55), (0.5, 0.65), (0.68, 0.83)]
    assert one_line(fig._suptitle.get_text()).endswith("scored as systems); lines: 95% intervals")
    # The protocols give no interval with the human translations: the title says whose intervals are drawn.
    table[["included_low", "included_high"]] = np.nan
    title = one_line(mqm_figures.human_translations_figure(table, [])._suptitle.get_text())
    assert title.endswith("lines: 95% intervals of the MT-systems-only values (none with human translations)")


def test_wrapped_keeps_a_comparison_with_its_word_and_breaks_a_signature_after_a_bar():
    assert figures.wrapped("score (x): > others", 0.9, 8) == ["score (x):", "> others"]
    assert figures.wrapped("BLEU|nrefs:1|case:mixed|eff:no", 1.0, 8) == ["BLEU|nrefs:1|", "case:mixed|", "eff:no"]


def test_mqm_protocols_markdown_gives_the_global_accuracy_its_interval():
    from mtmeta.paper.mqm_tables import protocols_markdown

    _, _, global_accuracy = ranking_inputs()
    markdown = protocols_markdown(pd.DataFrame(columns=["dataset", "lp"]), global_accuracy.assign(lp="a+b"))
    assert "| 1 | comet | 0.800 | [0.750, 0.850] |" in markdown


def test_mqm_categories_prints_no_negative_zero():
    table = categories_input()
    table.loc[0, ["value", "low", "high"]] = [-0.001, -0.004, 0.05]
    texts = [t.get_text() for ax in mqm_figures.categories_figure(table, []).axes for t in ax.texts]
    assert "0.00\n[0.00, 0.05]" in texts and not any("-0.00" in t for t in texts)
