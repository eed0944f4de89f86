"""The compiled METEOR aligner (``meteor.kernel``, ``meteor.paraphrase_kernel``) against the readable
Python aligner, on random sentences that exercise every module, narrow and wide beams, long segments
(bit sets past 64 words, work arrays grown between pairs) and both ways of ranking search paths."""

import numpy as np
import pytest

from mtmeta import metrics
from mtmeta.metrics.meteor import kernel
from mtmeta.metrics.meteor.aligner import exact_matcher, stem_matcher, synonym_matcher

WORDS = ["the", "a", "of", "cat", "cats", "dog", "dogs", "house", "home", "run", "runs", "running", "big", "large",
         "small", "little", "kick", "bucket", "die", "red"]
SYNSETS = {"house": {1, 2}, "home": {2}, "big": {3, 7}, "large": {3}, "small": {4}, "little": {4, 5}, "cat": {6},
           "dogs": {6}, "die": {8}, "run": {9}, "red": {7}}
TABLE = [("kick the bucket", "die"), ("die", "kick the bucket"), ("big", "large"), ("the cat", "a cat"),
         ("large house", "big home"), ("run", "running"), ("little", "small"), ("the", "a"), ("of the", "of")]


@pytest.fixture
def resources(tmp_path, english_function_words):
    """A resources folder with an English function-word list, and a paraphrase table in Meteor's format."""
    english_function_words(["the", "a", "of"])
    (tmp_path / "table.txt").write_text("".join(f"0.5\n{a}\n{b}\n" for a, b in TABLE))
    return tmp_path


def meteor(resources, modules, backend, beam=40):
    """METEOR with a made-up stemmer and synonym dictionary in place of the real resources."""
    metric = metrics.get("meteor", lang="en", tokenize="none", resources=str(resources / "resources"),
                         modules=modules, weights=[1.0] * len(modules), paraphrase=str(resources / "table.txt"),
                         backend=backend, beam=beam)
    stem = lambda word: word[:-1] if word.endswith("s") else word[:3]  # noqa: E731
    synsets = lambda word: frozenset(SYNSETS.get(word, ()))  # noqa: E731
    metric._static = {"exact": exact_matcher, "stem": stem_matcher(stem), "synonym": synonym_matcher(synsets)}
    metric._stem, metric._synsets, metric._function_words = stem, synsets, frozenset({"the", "a", "of"})
    return metric


def sentences(seed: int, n: int, longest: int, vocabulary: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS[:vocabulary], size=rng.integers(0, longest + 1))) for _ in range(n)]


@pytest.mark.parametrize("modules", [["exact"], ["exact", "stem", "synonym", "paraphrase"], ["exact", "paraphrase"],
                                     ["synonym", "exact"]])
@pytest.mark.parametrize("beam", [1, 3, 40])
def test_compiled_statistics_equal_the_python_aligners(resources, modules, beam):
    references = sentences(1, 120, 30, 20)
    compiled, python = meteor(resources, modules, "compiled", beam), meteor(resources, modules, "python", beam)
    for seed in (2, 3):  # two systems of one test set: the second reuses the references' paraphrase entries
        hypotheses = sentences(seed, 120, 30, 20)
        hypotheses[:3] = references[:3]  # identical sentences: the first module only
        np.testing.assert_array_equal(compiled.stats(hypotheses, [references]),
                                      python.stats(hypotheses, [references]))


def test_long_segments_and_both_path_rankings(resources, monkeypatch):
    """Segments past 64 words, with many candidates per position (grown work arrays), give the Python
    aligner's statistics, and ranking paths as one packed integer or field by field agrees."""
    calls = []
    original = kernel.corpus_stats

    def both_rankings(*args):
        packed, fields = original(*args), original(*args, 0)
        np.testing.assert_array_equal(packed, fields)
        calls.append(len(packed))
        return packed

    monkeypatch.setattr(kernel, "corpus_stats", both_rankings)
    modules = ["exact", "stem", "synonym", "paraphrase"]
    references = sentences(4, 4, 140, 6) + sentences(5, 20, 12, 20)
    hypotheses = sentences(6, 4, 140, 6) + sentences(7, 20, 12, 20)
    compiled = meteor(resources, modules, "compiled").stats(hypotheses, [references])
    assert calls and compiled[:4, 0].max() > 64
    np.testing.assert_array_equal(compiled, meteor(resources, modules, "python").stats(hypotheses, [references]))


def interned(entries):
    """PhraseArrays' ids, written the slow way: phrases, words and keys numbered as first seen."""
    words, phrases, flat, ptr, keys = {}, {}, [], [0], {}

    def intern(text):
        if text not in phrases:
            phrases[text] = len(phrases)
            flat.extend(words.setdefault(w, len(words)) for w in text.split(" "))
            ptr.append(len(flat))
        return phrases[text]

    for phrase, paraphrase in entries:
        phrase, paraphrase = " ".join(phrase.split()), " ".join(paraphrase.split())
        if phrase and paraphrase and phrase != paraphrase:
            keys.setdefault(intern(phrase), []).append(intern(paraphrase))
    lists = list(keys.values())
    return list(words), ptr, flat, list(keys), [len(ps) for ps in lists], [p for ps in lists for p in ps]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_phrase_arrays_number_entries_as_interning_them_one_by_one(seed):
    from mtmeta.metrics.meteor.phrases import PhraseArrays

    rng = np.random.default_rng(seed)
    pieces = ["a", "b", "c", "kick the", "the bucket", " a  b ", "\tc", "", "die"]
    entries = [(str(rng.choice(pieces)) + " " + str(rng.choice(pieces)), str(rng.choice(pieces)))
               for _ in range(300)]
    table = PhraseArrays.from_entries(entries)
    words, ptr, flat, key_phrase, counts, paraphrases = interned(entries)
    assert table.words == words
    assert table.phrase_ptr.tolist() == ptr and table.phrase_words.tolist() == flat
    assert table.key_phrase.tolist() == key_phrase and table.key_paraphrases.tolist() == paraphrases
    assert np.diff(table.key_ptr).tolist() == counts
    assert PhraseArrays.from_entries([]).key_phrase.tolist() == []


def test_numbering_numbers_keys_by_first_lookup():
    from mtmeta.metrics.ngrams import Numbering

    numbers = Numbering()
    assert list(map(numbers.__getitem__, ["b", "a", "b", "c", "a"])) == [0, 1, 0, 2, 1]
    assert numbers["d"] == 3 and dict(numbers) == {"b": 0, "a": 1, "c": 2, "d": 3}
    from_one = Numbering(start=1)  # as WordIds numbers words
    assert list(map(from_one.__getitem__, ["x", "y", "x"])) == [1, 2, 1]
