"""The sensitivity table's pieces (mtmeta.paper.sensitivity) on small hand-made inputs."""

import numpy as np
import pandas as pd
import pytest

from mtmeta import metrics
from mtmeta.metrics.score_tables import score_segments
from mtmeta.paper.ledger import measured_reason
from mtmeta.paper.sensitivity import (
    cheap_factors,
    closest_factor,
    human_variants,
    preprocess,
    sensitivity_markdown,
    text_variants,
)


def comparisons(rows):
    return pd.DataFrame(rows, columns=["seg_id", "sys_a", "sys_b", "outcome", "task"])


def test_human_variants_by_hand():
    table = comparisons([
        (1, "A", "B", "a", "t1"), (1, "A", "C", "tie", "t1"), (1, "B", "C", "b", "t1"),
        (2, "A", "B", "b", "t2"), (2, "A", "C", "a", "t2"), (2, "B", "C", "a", "t2"),
        (3, "A", "B", "a", "t3"),
    ])
    h = human_variants(table)
    # A: wins 3 (B, C, B), losses 1 (B), ties 1; against B 2 wins 1 loss, against C 1 win 1 tie.
    assert h.loc["A", "> others (ties ignored)"] == pytest.approx(3 / 4)
    assert h.loc["A", ">= others"] == pytest.approx(4 / 5)
    assert h.loc["A", "wins / all comparisons"] == pytest.approx(3 / 5)
    assert h.loc["A", "expected wins, ties ignored"] == pytest.approx((2 / 3 + 1 / 1) / 2)
    assert h.loc["A", "expected wins, ties counted"] == pytest.approx((2 / 3 + 1 / 2) / 2)
    # Per ranking task: t1 1/1, t2 1/2, t3 1/1.
    assert h.loc["A", "> others per ranking task"] == pytest.approx((1 + 0.5 + 1) / 3)
    # C: in t1 it beat B (outcome "b": sys_b won), in t2 it lost both comparisons.
    assert h.loc["C", "> others per ranking task"] == pytest.approx((1 / 1 + 0 / 2) / 2)


def test_rankings_drop_the_line_pair_of_the_task_label():
    table = comparisons([(1, "A", "B", "a", "group 7 (lines 2,3)"), (1, "A", "C", "b", "group 7 (lines 2,4)"),
                         (2, "A", "B", "a", "line 95")])
    h = human_variants(table)
    # One ranking (group 7: A won 1 of 2) and one more (line 95: A won 1 of 1).
    assert h.loc["A", "> others per ranking task"] == pytest.approx((0.5 + 1.0) / 2)


def _segment_table():
    rng = np.random.default_rng(3)
    words = "the cat sat on a mat and dog ran to house".split()
    refs = [" ".join(rng.choice(words, 8)) for _ in range(12)]
    rows = []
    for k, system in enumerate(["s1", "s2", "s3", "s4", "s5"]):
        for seg, ref in enumerate(refs, start=1):
            hyp = ref.split()
            for i in range(k):  # more systems -> more changed words
                hyp[(seg + i) % len(hyp)] = words[(seg * 7 + i) % len(words)]
            rows.append((system, seg, " ".join(hyp), ref))
    return pd.DataFrame(rows, columns=["system", "seg_id", "hypothesis", "reference"])


def test_cheap_factors_default_subsets_and_leave_one_out():
    segments = _segment_table()
    bleu = metrics.get("bleu")
    seg_table, sys_table = score_segments(segments, bleu)
    # Human: s1 > s2 > ... on segments 1-6 only (so "judged segments" is a real subset).
    systems = ["s1", "s2", "s3", "s4", "s5"]
    table = comparisons([(seg, a, b, "a", f"t{seg}") for seg in range(1, 7)
                         for i, a in enumerate(systems) for b in systems[i + 1:]])
    rows = {(r["factor"], r["variant"]): r for r in cheap_factors(bleu, seg_table, table)}
    default = rows[("default", "corpus statistic, all segments, > others")]
    human = human_variants(table)["> others (ties ignored)"]
    expected = np.corrcoef(sys_table.set_index("system").loc[systems, "score"], human.loc[systems])[0, 1]
    assert default["pearson"] == pytest.approx(expected) and default["n_systems"] == 5
    assert rows[("segments", "judged segments only (union)")]["note"] == "6 of 12 segments"
    loo = [rows[("systems", f"leave one system out: {k}")] for k in ("minimum", "maximum", "largest move")]
    assert all(r["n_systems"] == 4 and r["note"].startswith("without s") for r in loo)
    assert loo[0]["pearson"] <= default["pearson"] <= loo[1]["pearson"]
    assert loo[2]["pearson"] in (loo[0]["pearson"], loo[1]["pearson"])


def test_text_variants_flip_case_and_add_meteor_modes_only_in_full():
    assert [v for _, v, _, _ in text_variants("bleu", {}, full=False)] == ["lowercased"]
    meteor = text_variants("meteor", {}, full=True)
    assert meteor[0][1:3] == ("case-sensitive", {"lowercase": False})
    assert ("text", "Meteor -norm (its tokeniser, lowercased)", {"tokenize": "meteor-norm", "lowercase": True},
            None) in meteor
    assert [pre for *_, pre in meteor][-2:] == ["moses", "lemmas"]


def test_preprocess_moses_then_lemmas():
    segments = pd.DataFrame({"system": ["a"], "seg_id": [1], "hypothesis": ["Psi běželi domů."],
                             "reference": ["Pes běžel domů."]})
    moses = preprocess(segments, "moses", "cs")
    assert moses["hypothesis"].iloc[0] == "Psi běželi domů ."
    lemmas = preprocess(segments, "lemmas", "cs", moses)
    assert lemmas["reference"].iloc[0].split()[-1] == "."
    assert lemmas["hypothesis"].iloc[0].split()[0] == lemmas["reference"].iloc[0].split()[0]  # psi, pes -> pes


def test_closest_factor_and_the_ledger_sentence():
    table = pd.DataFrame({
        "metric": ["m"] * 4, "factor": ["default", "bootstrap", "text", "human score"],
        "variant": ["d", "low", "case-sensitive", ">= others"], "pearson": [0.66, 0.58, 0.84, 0.69],
        "note": ["", "", "", ""],
    })
    assert closest_factor(table, "m", 0.833)["variant"] == "case-sensitive"
    assert measured_reason(table, "sens", "m", 0.833) == (
        "measured (sens): the closest single factor is text: case-sensitive, which gives 0.840 (default 0.660)")
    assert measured_reason(table, "sens", "m", 0.5) == "measured (sens): no single factor moves 0.660 closer to 0.5"
    assert closest_factor(table, "other", 0.8) is None


def test_markdown_lists_every_metric():
    table = pd.DataFrame({"dataset": ["d"] * 2, "lp": ["x-y"] * 2, "metric": ["m", "n"], "factor": ["default"] * 2,
                          "variant": ["v", "v"], "pearson": [0.5, 0.6], "delta": [0.0, 0.0], "n_systems": [5, 5],
                          "note": ["", ""], "signature": ["", ""]})
    text = sensitivity_markdown(table)
    assert "## m" in text and "## n" in text and "| default | v | 0.500 |  | 5 |  |" in text
