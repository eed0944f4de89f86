"""METEOR's cached WordNet index gives the synsets of real words as NLTK's WordNet reader finds them."""

import pytest

from mtmeta.lexicons.wordnet import WordNetSynsets
from mtmeta.metrics.meteor import indexes

pytestmark = pytest.mark.realdata
SUFFIXES = ["s", "es", "ies", "ed", "d", "ing", "er", "est", "men", "ches", "ves"]


@pytest.fixture(scope="module")
def wordnet(fetch_sources, tmp_path_factory):
    """(the extracted NLTK WordNet, the index built from it, the index's path, NLTK's reader)."""
    source = fetch_sources("wordnet-index", ["wordnet"]) / "wordnet" / "extracted"
    path = tmp_path_factory.mktemp("wordnet-index") / indexes.SYNONYM_INDEX
    indexes.build_once(path, lambda out: indexes.build_synonym_index(source, out))
    return source, indexes.SynonymIndex(path), path, WordNetSynsets(source)


def test_synonym_index_equals_nltk_wordnet(wordnet, tmp_path):
    source, index, _, nltk_reader = wordnet
    words = ["dogs", "went", "better", "Geese", "running", "mice", "happier", "was", "does", "threatening", "ran",
             "axes", "xyzzy", "", "New", "churches", "fly", "flies", "best", "leaves", "saw"]
    words += [lemma for lemma in list(nltk_reader.reader._lemma_pos_offset_map)[::97]]
    for word in words:
        assert index.synsets(word) == nltk_reader.synsets(word), word
    assert len(index.synsets("dogs")) > 5 and index.synsets("xyzzy") == frozenset()
    # Deterministic bytes: a second build has the same sha256 (it goes into the signature).
    again = indexes.build_once(tmp_path / "again.json.gz", lambda out: indexes.build_synonym_index(source, out))
    assert indexes.sha256_file(again) == index.sha256


def test_synonym_index_equals_nltk_on_inflected_lemmas_and_exception_forms(wordnet):
    """Every fifth lemma with inflectional endings added (and with its last letter replaced by them),
    and every form of WordNet's exception lists and its base forms, some capitalised."""
    _, index, _, nltk_reader = wordnet
    lemmas = sorted(nltk_reader.reader._lemma_pos_offset_map)[::5]
    words = {word for lemma in lemmas for suffix in SUFFIXES for word in (lemma + suffix, lemma[:-1] + suffix)}
    for pos in indexes.WORDNET_POS:
        for form, bases in nltk_reader.reader._exception_map[pos].items():
            words.update([form, form.title(), *bases])
    words = sorted(words)
    assert len(words) > 300_000
    assert [word for word in words if index.synsets(word) != nltk_reader._synsets(word)] == []
    assert sum(bool(index.synsets(word)) for word in words) > 30_000
