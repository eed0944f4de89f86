"""METEOR: Meteor 1.5's formula and aligner, the presets, and re-scoring from cached statistics."""

import numpy as np
import pytest

from mtmeta import metrics
from mtmeta.errors import ConfigError
from mtmeta.lexicons.paraphrases import ParaphraseTable
from mtmeta.lexicons.stemmers import make_stemmer
from mtmeta.metrics.meteor import scoring
from mtmeta.metrics.meteor.aligner import Aligner, count_chunks, exact_matcher, paraphrase_matcher, stem_matcher


@pytest.fixture
def resources(english_function_words):
    """A resources folder holding an English function-word list, fetched as the workflow does."""
    return english_function_words(["the", "a", "of", "to", "is"])


def meteor(resources, **params):
    params.setdefault("modules", ["exact"])
    return metrics.get("meteor", lang="en", tokenize="none", resources=str(resources), **params)


def test_meteor15_published_formula_check_is_bit_exact():
    # Meteor 1.5 -ssOut of the README example (4 stages, English rank parameters).
    hyp = [(16268, 20842), (485, 26), (820, 119), (3813, 3162)]
    ref = [(16268, 20842), (489, 22), (845, 94), (3954, 2717)]
    row = [61600, 62469, 32289, 31101]
    for (hc, hf), (rc, rf) in zip(hyp, ref, strict=True):
        row += [hc, hf, rc, rf]
    row += [20118, 45535, 45231]
    out = scoring.scores(np.array([row]), 4, alpha=0.85, beta=0.20, gamma=0.60, delta=0.75,
                         weights=[1.0, 0.6, 0.8, 0.6], details=True)
    assert float(out["precision"][0]) == 0.6767347074578696
    assert float(out["recall"][0]) == 0.6500539115850005
    assert float(out["fmean"][0]) == 0.6539211143997783
    assert float(out["penalty"][0]) == 0.5099053526424513
    assert float(out["score"][0]) == 0.3204832379614146


def test_presets():
    en = scoring.preset("rank", "en")
    assert (en.alpha, en.beta, en.gamma, en.delta, en.modules, en.weights) == (
        0.85, 0.20, 0.60, 0.75, ("exact", "stem", "synonym", "paraphrase"), (1.0, 0.6, 0.8, 0.6))
    cs = scoring.preset("rank", "cs")
    assert (cs.alpha, cs.beta, cs.gamma, cs.delta, cs.modules, cs.weights) == (
        0.95, 0.20, 0.60, 0.80, ("exact", "paraphrase"), (1.0, 0.4))
    li = scoring.preset("rank", "hi")  # no rank preset: Meteor falls back to li, exact only (no Snowball)
    assert (li.alpha, li.beta, li.gamma, li.delta, li.modules) == (0.75, 1.40, 0.70, 0.50, ("exact",))
    assert scoring.preset("li", "de").modules == ("exact", "stem")
    textbook = scoring.preset("textbook", "en")
    assert (textbook.alpha, textbook.beta, textbook.gamma, textbook.full_match_rule) == (0.9, 3.0, 0.5, False)


def test_wmt12_preset_has_the_published_rank_parameters_of_its_five_languages(resources):
    # Task "rank" of Meteor's Constants.java (cmu-mtlab/meteor @ 3f42664ffbc8, VERSION "1.5"): PARAM_RANK
    # {alpha, beta, gamma, delta} and WEIGHT_RANK, its weights in the order of the language's modules.
    # docs/official-record.md: WMT12 ran Meteor 1.3, whose own table the look-ups do not hold; for
    # English these values give the official WMT12 es-en Meteor scores (tests/realdata/test_official_record_real.py).
    published = {
        "en": ((0.85, 0.20, 0.60, 0.75), ("exact", "stem", "synonym", "paraphrase"), (1.0, 0.6, 0.8, 0.6)),
        "cs": ((0.95, 0.20, 0.60, 0.80), ("exact", "paraphrase"), (1.0, 0.4)),
        "fr": ((0.90, 1.40, 0.60, 0.65), ("exact", "stem", "paraphrase"), (1.0, 0.2, 0.4)),
        "es": ((0.65, 1.30, 0.50, 0.80), ("exact", "stem", "paraphrase"), (1.0, 0.8, 0.6)),
        "de": ((0.95, 1.00, 0.55, 0.55), ("exact", "stem", "paraphrase"), (1.0, 0.8, 0.2)),
    }
    for lang, (parameters, modules, weights) in published.items():
        preset = scoring.preset("wmt12", lang)
        assert (preset.alpha, preset.beta, preset.gamma, preset.delta) == parameters, lang
        assert (preset.modules, preset.weights, preset.full_match_rule) == (modules, weights, True), lang
    with pytest.raises(ConfigError, match=r"preset 'wmt12'.*en, cs, de, es, fr, not 'ru'"):
        scoring.preset("wmt12", "ru")
    # A labelled setting, never the default: the default stays Meteor 1.5's rank preset.
    assert metrics.get("meteor", lang="en", resources=str(resources)).preset == "rank"
    labelled = meteor(resources, preset="wmt12", modules=None)
    assert labelled.signature().startswith(
        "meteor|lang:en|preset:wmt12|mods:ex+st+sy+pa|w:1_0.6_0.8_0.6|a:0.85|b:0.2|g:0.6|d:0.75|fullmatch:meteor15")


def test_identical_strings_under_both_fragmentation_rules(resources):
    text = "the cat sat on a mat"
    # Meteor 1.5: a fully matched single chunk has no fragmentation, so the score is exactly 1.
    exact15 = meteor(resources, preset="rank")
    assert exact15.segment_scores(exact15.stats([text], [[text]]))[0] == 1.0
    # The seeds' formula has no such exception: 1 - gamma (1/m)^beta with m = 6 matches, one chunk.
    seed = meteor(resources, preset="penalty", gamma=0.5)
    assert seed.segment_scores(seed.stats([text], [[text]]))[0] == pytest.approx(1 - 0.5 * (1 / 6) ** 3)
    textbook = meteor(resources, preset="textbook", modules=["exact"])
    assert textbook.segment_scores(textbook.stats([text], [[text]]))[0] == pytest.approx(1 - 0.5 * (1 / 6) ** 3)


def test_empty_sides_score_zero(resources):
    metric = meteor(resources)
    stats = metric.stats(["", "a b", ""], [["a b", "", ""]])
    assert metric.segment_scores(stats).tolist() == [0.0, 0.0, 0.0]
    assert stats[0].tolist()[:2] == [0, 2]


def test_repeated_words_minimise_chunks():
    aligner = Aligner([("exact", exact_matcher)])
    matches = aligner.align("the cat the dog".split(), "the dog the cat".split())
    assert len(matches) == 4
    # ref "the dog" <- hyp positions 2,3 and ref "the cat" <- hyp 0,1: two chunks, not four.
    assert [(m.start, m.hyp_start) for m in matches] == [(0, 2), (1, 3), (2, 0), (3, 1)]
    assert count_chunks(matches) == 2


def test_ties_keep_the_first_candidate():
    aligner = Aligner([("exact", exact_matcher)])
    # Two equally good single matches for "a": the leftmost hypothesis word is kept.
    assert [(m.start, m.hyp_start) for m in aligner.align("a x a".split(), ["a"])] == [(0, 0)]


def test_integer_coverage_lets_chunks_reject_a_one_word_stem_match():
    # Meteor 1.5 adds alignment weight 0.5 to an *integer* coverage, so a one-word stem match adds
    # nothing: when it is not fixed in advance (here two reference words compete for "running") and
    # taking it opens a new chunk, skipping it wins. The Meteor 1.5 jar gives the same alignments
    # (-m "exact stem" -ssOut: 3 matches / 2 chunks, then 4 matches / 1 chunk).
    aligner = Aligner([("exact", exact_matcher), ("stem", stem_matcher(make_stemmer("en")))])
    matches = aligner.align("a running c d".split(), "a c d runs runs".split())
    assert [(m.module, m.start, m.hyp_start) for m in matches] == [(0, 0, 0), (0, 1, 2), (0, 2, 3)]
    assert count_chunks(matches) == 2
    matches = aligner.align("a c d running".split(), "a c d runs runs".split())
    assert [(m.module, m.start, m.hyp_start) for m in matches] == [(0, 0, 0), (0, 1, 1), (0, 2, 2), (1, 3, 3)]
    assert count_chunks(matches) == 1


def test_phrase_paraphrase_match():
    table = ParaphraseTable([("kick the bucket", "die")])
    aligner = Aligner([("exact", exact_matcher), ("paraphrase", paraphrase_matcher(table))])
    matches = aligner.align("he will die".split(), "he will kick the bucket".split())
    assert [(m.module, m.start, m.length, m.hyp_start, m.hyp_length) for m in matches] == [
        (0, 0, 1, 0, 1), (0, 1, 1, 1, 1), (1, 2, 3, 2, 1)]
    assert count_chunks(matches) == 1


def test_statistics_layout_and_function_words(resources):
    metric = meteor(resources)
    stats = metric.stats(["the cat sat"], [["the cat is here"]])
    named = dict(zip(metric.stat_names, stats[0].tolist(), strict=True))
    assert named == {"hyp_len": 3, "ref_len": 4, "hyp_func": 1, "ref_func": 2, "hyp_content_ex": 1, "hyp_func_ex": 1,
                     "ref_content_ex": 1, "ref_func_ex": 1, "chunks": 1, "hyp_matches": 2, "ref_matches": 2}


def test_rescoring_cached_statistics_equals_scoring_from_scratch(resources):
    hyps = ["the cat sat on the mat", "a dog is here", "mat the on sat cat the", "nothing matches"]
    refs = ["the cat sat on a mat", "the dog is there", "the cat sat on the mat", "at all"]
    base = meteor(resources, preset="penalty")
    stats = base.stats(hyps, [refs])
    for alpha, gamma, delta in ((0.1, 0.3, 0.5), (0.87, 0.32, 0.9), (1.0, 1.0, 0.25)):
        fresh = meteor(resources, preset="penalty", alpha=alpha, gamma=gamma, delta=delta)
        expected = fresh.segment_scores(fresh.stats(hyps, [refs]))
        np.testing.assert_array_equal(base.rescore(stats, alpha=alpha, gamma=gamma, delta=delta), expected)
    # A whole alpha x gamma grid in one vectorised call.
    alphas = np.linspace(0, 1, 21)[:, None, None]
    gammas = np.linspace(0, 1, 21)[None, :, None]
    grid = base.rescore(stats, alpha=alphas, gamma=gammas)
    assert grid.shape == (21, 21, 4)
    one = meteor(resources, preset="penalty", alpha=0.35, gamma=0.6)
    np.testing.assert_allclose(grid[7, 12], one.segment_scores(one.stats(hyps, [refs])), rtol=0, atol=1e-15)


def test_corpus_score_sums_statistics_and_drops_chunks_of_full_matches(resources):
    metric = meteor(resources, preset="rank")
    stats = metric.stats(["the cat sat", "b a"], [["the cat sat", "a b"]])
    total = scoring.aggregate(stats, 1)
    assert total[-3] == stats[1, -3]  # the identical first segment adds no chunk
    expected = scoring.scores(total[None, :], 1, alpha=metric.alpha, beta=metric.beta, gamma=metric.gamma,
                              delta=metric.delta, weights=metric.weights)[0]
    assert metric.corpus_score(stats) == expected


def test_best_of_several_references(resources):
    metric = meteor(resources)
    stats = metric.stats(["a b c"], [["x y z"], ["a b c"]])
    assert metric.segment_scores(stats)[0] == 1.0


def test_signature_records_every_setting(resources):
    metric = meteor(resources, preset="rank", modules=None)
    assert metric.signature().startswith(
        "meteor|lang:en|preset:rank|mods:ex+st+sy+pa|w:1_0.6_0.8_0.6|a:0.85|b:0.2|g:0.6|d:0.75|fullmatch:meteor15|beam:40"
    )
    assert "syn:wordnet-3.0" in metric.signature() and "para:meteor15-en" in metric.signature()
    assert metrics.required_sources("meteor", "en") == ["function_words_en", "wordnet", "meteor_paraphrase_en"]
    # Meteor 1.5 reads the English function-word list whatever -l says; function_words=lang uses the
    # language's own list.
    assert metrics.required_sources("meteor", "cs") == ["function_words_en", "thesaurus_cs"]
    assert metrics.required_sources("meteor", "cs", function_words="lang") == ["function_words_cs", "thesaurus_cs"]
    assert metrics.required_sources("meteor", "cs", function_words="none") == ["thesaurus_cs"]
    # A thesaurus read whole as a paraphrase table comes from its cached arrays; a filtered one (a
    # subset) or a cased one is built in memory.
    assert metrics.required_files("meteor", "cs") == ["resources/thesaurus_cs/paraphrase-arrays"]
    assert metrics.required_files("meteor", "cs", paraphrase_filter="one-word") == []
    assert metrics.required_files("meteor", "cs", lowercase=False) == []
    assert "|fw:en(meteor15)|" in metric.signature()


def test_weighted_corpus_score_equals_repeating_segments(resources):
    metric = meteor(resources, preset="rank")
    stats = metric.stats(["the cat sat", "b a", "a b c"], [["the cat sat", "a b", "a c b"]])
    weights = np.array([3, 1, 2])
    assert metric.corpus_score_weighted(stats, weights) == metric.corpus_score(np.repeat(stats, weights, axis=0))


@pytest.mark.parametrize("beam", [0, -3, 2.5, True, "40"])
def test_beam_must_be_a_positive_whole_number(resources, beam):
    # Checked twice: by the declared parameter (through the registry) and by the class itself.
    with pytest.raises(ConfigError, match=r"meteor: parameter beam=\S+ (is out of range; expected >= 1|has the "
                                          r"wrong type; expected beam: int \(default 40, >= 1 and <= 1,000\))"):
        meteor(resources, beam=beam)


def test_english_function_words_on_another_language_are_said(resources, caplog):
    """The jar's choice (English function words for every language) is kept by default, and said."""
    german = metrics.get("meteor", lang="de", tokenize="none", resources=str(resources), modules=["exact"])
    with caplog.at_level("WARNING", logger="mtmeta.metrics.meteor"):
        german.stats(["der Hund"], [["der Hund bellt"]])
    assert "target language de: English function words, as the Meteor 1.5 jar uses" in caplog.text
    assert "function_words=lang" in caplog.text and "fw:en(meteor15)" in german.signature()
    caplog.clear()
    with caplog.at_level("WARNING", logger="mtmeta.metrics.meteor"):
        meteor(resources).stats(["the cat"], [["the cat sat"]])
    assert caplog.text == ""  # English: the list is the target's own
