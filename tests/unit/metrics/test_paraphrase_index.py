"""METEOR's paraphrase table as integer arrays: the same entries as ParaphraseTable, saved and loaded
unchanged, and the compiled matcher's candidates equal to the readable matcher's."""

import gzip
import random

import numpy as np
import pytest

from mtmeta.lexicons.paraphrases import ParaphraseTable, read_meteor_paraphrases
from mtmeta.metrics.meteor import indexes
from mtmeta.metrics.meteor.aligner import paraphrase_matcher
from mtmeta.metrics.meteor.phrases import ARRAYS, PhraseArrays


def spans(matches):
    return [(m.start, m.length, m.hyp_start, m.hyp_length) for m in matches]


def test_index_round_trip_keeps_the_table_entries(tmp_path):
    table = tmp_path / "paraphrase-xx.gz"
    entries = [("a  b", "c"), ("c", "d e"), ("x", "y"), ("a b", "q"), ("q", "a"), ("D E", "f"), ("z", "z"), ("x", "y")]
    with gzip.open(table, "wt", encoding="utf-8") as handle:
        for phrase, paraphrase in entries:
            handle.write(f"0.5\n{phrase}\n{paraphrase}\n")
    path = indexes.build_once(tmp_path / indexes.PARAPHRASE_INDEX, lambda out: indexes.build_paraphrase_index(
        ((a, b) for a, b, _ in read_meteor_paraphrases(table)), out))
    loaded = PhraseArrays.load(path)
    slow = ParaphraseTable((a, b) for a, b, _ in read_meteor_paraphrases(table))
    # Normalised (lower case, single spaces), the self-pair dropped, the repeated entry kept.
    assert list(loaded.entries()) == [(k, v) for k, values in slow.table.items() for v in values] == [
        ("a b", "c"), ("a b", "q"), ("c", "d e"), ("x", "y"), ("x", "y"), ("q", "a"), ("d e", "f")]
    assert loaded.max_length == slow.max_length == 2
    assert {loaded.words[w] for w in np.flatnonzero(loaded.is_first)} == slow.first_words
    built = PhraseArrays.from_entries((a, b) for a, b, _ in read_meteor_paraphrases(table))
    for name in ARRAYS:
        np.testing.assert_array_equal(getattr(loaded, name), getattr(built, name))
    assert spans(loaded.matcher()(["q", "d", "e"], ["a", "b", "f"], 1)) == spans(
        paraphrase_matcher(slow)(["q", "d", "e"], ["a", "b", "f"], 1)) == [(0, 2, 0, 1), (0, 1, 0, 1), (2, 1, 1, 2)]


def test_index_of_another_format_is_refused(tmp_path):
    PhraseArrays.from_entries([("a", "b")]).save(tmp_path / "index")
    (tmp_path / "index" / "meta.json").write_text('{"format": 0}')
    with pytest.raises(ValueError, match="format 0"):
        PhraseArrays.load(tmp_path / "index")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_compiled_matcher_gives_the_readable_matchers_candidates(seed):
    """Random tables over a small vocabulary (phrases of 1-3 words, repeats, shared prefixes) and
    random sentences with words the table lacks: the same candidates in the same order."""
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(10)]

    def phrase():
        return " ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 3)))

    entries = [(phrase(), phrase()) for _ in range(250)]
    readable = paraphrase_matcher(ParaphraseTable(entries))
    compiled = PhraseArrays.from_entries(entries).matcher()
    found = 0
    for _ in range(300):
        hyp = [rng.choice([*vocabulary, "oov"]) for _ in range(rng.randint(0, 12))]
        ref = [rng.choice([*vocabulary, "unk"]) for _ in range(rng.randint(0, 12))]
        expected = spans(readable(hyp, ref, 3))
        assert spans(compiled(hyp, ref, 3)) == expected
        found += len(expected)
    assert found > 3000  # phrases of every length matched, in both directions


def test_empty_table_has_no_candidates():
    arrays = PhraseArrays.from_entries([("a", "a"), ("", "b")])
    assert arrays.max_length == 0 and arrays.matcher()(["a", "b"], ["b", "a"], 1) == []
