"""Targeted paraphrasing on real WMT12 English->Czech output with the mirror's Czech thesaurus."""

import pytest

from mtmeta import metrics
from mtmeta.app.config import load_config
from mtmeta.data.corpus import Layout, load_segments
from mtmeta.data.prepare import source_file
from mtmeta.data.tokenize import tokenizer
from mtmeta.metrics.score_tables import score_segments
from mtmeta.parmesan import study as ps
from mtmeta.parmesan.alignment import align_segments, parse_links

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def wmt12_en_cs(fetch_sources):
    config = load_config()
    resources = fetch_sources("parmesan", ["wmt12_data", "thesaurus_cs"])
    layout = Layout.from_config(config["datasets"]["wmt12"]["layout"])
    segments = load_segments(resources / "wmt12_data/extracted", layout, "en-cs")
    lexicon = ps.build_lexicon("mythes", source_file(resources, "thesaurus_cs")[0], "cs")
    return segments, lexicon


def test_tokenised_references_score_as_the_originals(wmt12_en_cs):
    """New references are 13a tokens joined by spaces; BLEU (13a) must not see a difference on its own."""
    segments, _ = wmt12_en_cs
    tok = tokenizer("13a")
    joined = segments.assign(reference=[" ".join(tok(r)) for r in segments["reference"]])
    bleu = metrics.get("bleu")
    _, original = score_segments(segments, bleu)
    _, rejoined = score_segments(joined, bleu)
    assert original["score"].tolist() == rejoined["score"].tolist()


def test_one_word_only_replaces_reference_words_by_hypothesis_forms(wmt12_en_cs):
    segments, lexicon = wmt12_en_cs
    sample = segments[segments["seg_id"] <= 100]
    table, subs = ps.paraphrase(sample, lexicon, "cs", "one-word-only", "greedy", tokenizer("13a"))
    assert len(table) == len(sample) == 13 * 100 and table["phrases_replaced"].sum() == 0
    assert 0.5 < table["words_replaced"].mean() < 4  # the study run measures ~2 words per sentence
    lemma = ps.lemmatizer("cs")
    for row in subs.itertuples():
        assert row.after in row.hypothesis.split() and row.before in row.reference.split()
        assert lemma(row.after) in lexicon.words[lemma(row.before)]
        assert row.new_reference.split().count(row.after) >= 1
    # Unchanged sentences keep their tokens exactly.
    untouched = table[(table["words_replaced"] == 0)]
    tok = tokenizer("13a")
    original = sample.set_index(["system", "seg_id"]).loc[list(zip(untouched["system"], untouched["seg_id"],
                                                                    strict=True)), "reference"]
    assert untouched["reference"].tolist() == [" ".join(tok(r)) for r in original]


def test_alignment_is_deterministic_and_restricts_choices(wmt12_en_cs):
    segments, lexicon = wmt12_en_cs
    systems = sorted(segments["system"].unique())[:3]
    sample = segments[(segments["seg_id"] <= 60) & segments["system"].isin(systems)]
    first = align_segments(sample, tokenizer("13a"), seed=7)
    assert first.equals(align_segments(sample, tokenizer("13a"), seed=7))
    links = {(s, int(i)): parse_links(t) for s, i, t in zip(first["system"], first["seg_id"], first["links"],
                                                            strict=True)}
    greedy, _ = ps.paraphrase(sample, lexicon, "cs", "one-word-only", "greedy", tokenizer("13a"))
    aligned, _ = ps.paraphrase(sample, lexicon, "cs", "one-word-only", "alignment", tokenizer("13a"), links)
    # Seed 002 too replaces far fewer words with alignment (0.86 vs 1.59 per sentence on WMT12).
    assert 0 < aligned["words_replaced"].sum() < greedy["words_replaced"].sum()


def test_alignment_samplers_are_a_setting(wmt12_en_cs):
    segments, _ = wmt12_en_cs
    systems = sorted(segments["system"].unique())[:2]
    sample = segments[(segments["seg_id"] <= 30) & segments["system"].isin(systems)]
    three = align_segments(sample, tokenizer("13a"), seed=7, samplers=3)
    assert three.equals(align_segments(sample, tokenizer("13a"), seed=7, samplers=3))
    assert not three.equals(align_segments(sample, tokenizer("13a"), seed=7, samplers=1))
    with pytest.raises(ValueError, match="at least one sampler"):
        align_segments(sample, tokenizer("13a"), samplers=0)
