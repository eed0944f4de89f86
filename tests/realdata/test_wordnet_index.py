"""METEOR's cached WordNet index gives the synsets of real words as NLTK's WordNet reader finds them."""

import pytest

from mtmeta.lexicons.wordnet import WordNetSynsets
from mtmeta.metrics.meteor import indexes

pytestmark = pytest.mark.realdata


def test_synonym_index_equals_nltk_wordnet(fetch_sources, tmp_path):
    resources = fetch_sources("wordnet-index", ["wordnet"])
    source = resources / "wordnet" / "extracted"
    path = indexes.build_once(tmp_path / indexes.SYNONYM_INDEX, lambda out: indexes.build_synonym_index(source, out))
    index, nltk_reader = indexes.SynonymIndex(path), WordNetSynsets(source)
    words = ["dogs", "went", "better", "Geese", "running", "mice", "happier", "was", "does", "threatening", "ran",
             "axes", "xyzzy", "", "New", "churches", "fly", "flies", "best", "leaves", "saw"]
    words += [lemma for lemma in list(nltk_reader.reader._lemma_pos_offset_map)[::97]]
    for word in words:
        assert index.synsets(word) == nltk_reader.synsets(word), word
    assert len(index.synsets("dogs")) > 5 and index.synsets("xyzzy") == frozenset()
    # Deterministic bytes: a second build has the same sha256 (it goes into the signature).
    again = indexes.build_once(tmp_path / "again.json.gz", lambda out: indexes.build_synonym_index(source, out))
    assert indexes.sha256_file(again) == index.sha256
