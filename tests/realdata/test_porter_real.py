"""The fast Porter stemmer (mtmeta.lexicons.porter) gives NLTK's PorterStemmer().stem on every word of
WMT13's into-English test sets (hypotheses, references and sources; split on spaces and 13a-tokenised,
as is and lower-cased) and on every WordNet lemma name."""

import pytest
from nltk.stem.porter import PorterStemmer

from mtmeta.app.config import load_config
from mtmeta.data.corpus import Layout, load_segments
from mtmeta.data.tokenize import tokenizer
from mtmeta.lexicons.porter import stem
from mtmeta.lexicons.wordnet import WordNetSynsets

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def vocabulary(fetch_sources):
    config = load_config()
    resources = fetch_sources("porter-wmt13", ["wmt13_data"])
    layout = Layout.from_config(config["datasets"]["wmt13"]["layout"])
    words, lines = set(), set()
    for lp in config["datasets"]["wmt13"]["language_pairs"]:
        segments = load_segments(resources / "wmt13_data" / "extracted", layout, lp)
        lines.update(segments["hypothesis"], segments["reference"], segments["source"])
    tokenise = tokenizer("13a", True)
    for line in lines:
        words.update(line.split())
        words.update(tokenise(line))
    return sorted(words | {word.lower() for word in words})


def test_same_stems_as_nltk_on_wmt13(vocabulary):
    assert len(vocabulary) > 100_000
    nltk_stem = PorterStemmer().stem
    assert [word for word in vocabulary if stem(word) != nltk_stem(word)] == []


def test_same_stems_as_nltk_on_wordnet_lemmas(fetch_sources):
    reader = WordNetSynsets(fetch_sources("porter-wordnet", ["wordnet"]) / "wordnet" / "extracted").reader
    lemmas = sorted(reader._lemma_pos_offset_map)
    assert len(lemmas) > 140_000
    nltk_stem = PorterStemmer().stem
    assert [word for word in lemmas if stem(word) != nltk_stem(word)] == []
