"""METEOR's cached paraphrase index selects exactly the table entries that touch a set of references."""

import gzip

import numpy as np

from mtmeta.metrics.meteor import indexes
from mtmeta.metrics.meteor.lexicon import ParaphraseTable, read_meteor_paraphrases


def test_paraphrase_index_selects_the_entries_touching_the_references(tmp_path):
    table = tmp_path / "paraphrase-xx.gz"
    entries = [("a  b", "c"), ("c", "d e"), ("x", "y"), ("a b", "q"), ("q", "a"), ("D E", "f"), ("z", "z")]
    with gzip.open(table, "wt", encoding="utf-8") as handle:
        for phrase, paraphrase in entries:
            handle.write(f"0.5\n{phrase}\n{paraphrase}\n")
    path = indexes.build_once(tmp_path / indexes.PARAPHRASE_INDEX, lambda out: indexes.build_paraphrase_index(
        ((a, b) for a, b, _ in read_meteor_paraphrases(table)), out))
    keep = {"a b", "d e", "z", "a"}
    found = indexes.paraphrases_touching(path, keep)
    assert found == [("a b", "c"), ("c", "d e"), ("a b", "q"), ("q", "a"), ("d e", "f"), ("z", "z")]
    fast = ParaphraseTable(found, keep, normalised=True)
    slow = ParaphraseTable(((a, b) for a, b, _ in read_meteor_paraphrases(table)), keep)
    assert fast.table == slow.table and fast.max_length == slow.max_length and fast.first_words == slow.first_words
    assert indexes.paraphrases_touching(path, set()) == []
    assert np.load(path / "phrase_hash.npy").dtype == np.uint64
