"""WMT23 side-by-side MQM on the mirror: the reader's counts, the agreement between single ratings,
and the human ceiling, BLEU, chrF and chance levels (skipped when the mirror is absent)."""

import pytest

from mtmeta.data import wmt23
from mtmeta.metaeval import ceiling_levels
from mtmeta.metrics import get

pytestmark = pytest.mark.realdata

# lp: (rows kept, attention checks dropped, systems, segments, ratings, raters, first line, last line)
COUNTS = {"en-de": (10725, 245, 9, 104, 2808, 10, 1, 139), "zh-en": (24599, 461, 10, 377, 11310, 8, 488, 1238)}
# lp: statistic -> (human ceiling, BLEU, chrF) against the same two-rater means (seed 12345)
LEVELS = {
    "en-de": {"system_accuracy": (83 / 84, 0.8928571428571429, 0.8928571428571429),
              "system_kendall": (0.9761904761904759, 0.7857142857142856, 0.7857142857142856),
              "segment_pearson": (0.6280772410602514, 0.12706980394563236, 0.20366526213036384),
              "segment_acc_eq": (0.6222527472527474, 0.5603250915750917, 0.5971840659340658)},
    "zh-en": {"system_accuracy": (131 / 135, 0.8148148148148149, 0.837037037037037),
              "system_kendall": (0.9407407407407407, 0.6296296296296297, 0.674074074074074),
              "segment_pearson": (0.536459228254493, 0.15557393040683168, 0.13049811326886576),
              "segment_acc_eq": (0.522153453187936, 0.5183023872679042, 0.5361037430002948)},
}
# Slot against slot (each segment's raters in rater order): segment Pearson, system Kendall.
SLOTS = {"en-de": [(0.6025003296844799, 1.0), (0.6691783823750845, 1.0), (0.49614172882753227, 1.0)],
         "zh-en": [(0.5242414035122237, 0.8666666666666666), (0.6197404836647978, 0.911111111111111),
                   (0.43852950024486637, 0.9555555555555554)]}
# Tie-calibrated acc_eq of permuted BLEU, 1000 draws (standard error 0.0003 en-de, 0.0001 zh-en).
CHANCE_BLEU_ACC_EQ = {"en-de": 0.4443, "zh-en": 0.4145}


@pytest.fixture(scope="module", params=["en-de", "zh-en"])
def sxs(request, mirror):
    return wmt23.assemble_sxs(request.param, mirror / "wmt23" / "wmt-mqm-human-evaluation",
                              mirror / "wmt23" / "wmt23-news-systems")


def test_reader_counts(sxs):
    lp = sxs.evalset.lp
    rows, checks, systems, segments, ratings, raters, first, last = COUNTS[lp]
    report = sxs.report.set_index("kind")["count"]
    assert report["mqm_rows"] == rows and report["mqm_attention_checks"] == checks
    assert len(sxs.evalset.systems) == systems and sxs.evalset.n_segments == segments
    assert len(sxs.raters) == ratings and sxs.raters["rater"].nunique() == raters
    assert (sxs.lines["line"].min(), sxs.lines["line"].max()) == (first, last)
    for kind in ("rated_once", "rater_missing", "too_many_raters", "raters_differ", "attention_checks_only"):
        assert report[kind] == 0
    if lp == "en-de":
        assert report["system_rated_twice"] == 1021 and "181 of 312" in sxs.report.set_index("kind").loc[
            "system_rated_twice", "detail"]
    else:
        assert "system_rated_twice" not in report


def test_agreement_between_single_ratings(sxs):
    table = ceiling_levels.slot_agreement(sxs)
    expected = SLOTS[sxs.evalset.lp]
    assert list(table["segment_pearson"]) == pytest.approx([p for p, _ in expected], abs=1e-12)
    assert list(table["system_kendall"]) == pytest.approx([k for _, k in expected], abs=1e-12)


def test_human_ceiling_metrics_and_chance(sxs):
    lp = sxs.evalset.lp
    metrics = {m: ceiling_levels.metric_scores(sxs, get(m)) for m in ("bleu", "chrf")}
    table = ceiling_levels.levels(sxs, metrics, draws=20)
    value = table.set_index(["statistic", "level", "who"])["value"]
    for statistic, (human, bleu, chrf) in LEVELS[lp].items():
        assert value[(statistic, "human", "one rater vs mean of two")] == pytest.approx(human, abs=1e-12)
        assert value[(statistic, "metric", "bleu")] == pytest.approx(bleu, abs=1e-12)
        assert value[(statistic, "metric", "chrf")] == pytest.approx(chrf, abs=1e-12)
    assert value[("system_accuracy", "chance", "permuted bleu")] == 0.5  # no tied system means
    assert value[("segment_acc_eq", "chance", "permuted bleu")] == pytest.approx(CHANCE_BLEU_ACC_EQ[lp], abs=0.01)
    assert value[("segment_acc_eq", "floor", "every pair tied")] < value[("segment_acc_eq", "chance", "permuted bleu")]
