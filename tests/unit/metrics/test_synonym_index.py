"""METEOR's WordNet synonym index: ``SynonymIndex.synsets`` (looked up by ending) equals the union of
``morphy``'s forms (NLTK's procedure, written out) over the four parts of speech, on a small index in
the real format with NLTK's detachment rules and on one with unusual rules; the real WordNet is
checked in tests/realdata/test_wordnet_index.py."""

import gzip
import json
import random

import pytest

from mtmeta.metrics.meteor import indexes

NLTK_RULES = {"n": [["s", ""], ["ses", "s"], ["ves", "f"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"],
                    ["men", "man"], ["ies", "y"]],
              "v": [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"],
                    ["ing", ""]],
              "a": [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]], "r": []}
# Rules NLTK does not have, for the general code: an ending replaced by itself, an empty ending, a
# replacement longer than its ending and sharing all its letters.
ODD_RULES = {"n": [["s", "s"], ["", "x"], ["es", "esy"], ["s", ""]], "v": [["ing", "ings"], ["ies", "y"]],
             "a": [["er", "e"]], "r": [["ly", ""]]}
LEMMAS = ["dog", "do", "doe", "box", "boxe", "fly", "church", "woman", "wolf", "wolve", "run", "runn", "rune", "good",
          "happy", "happ", "big", "bigg", "quick", "bus", "buss", "x", "", "s", "ax", "axe", "ox", "man", "be", "go",
          "hop", "hope", "ies", "y", "1", "10", "well", "die", "dy", "lying"]
EXCEPTIONS = {"n": {"oxen": ["ox"], "axes": ["ax", "axis"], "men": ["man"], "mice": ["mouse"]},
              "v": {"went": ["go"], "was": ["be"], "lay": ["lie"], "axes": ["axe"], "dying": ["die"],
                    "better": ["well"]},
              "a": {"better": ["good", "well"], "best": ["good"], "bigger": ["big"]}, "r": {"better": ["well"]}}
SUFFIXES = ["", "s", "es", "ies", "ses", "xes", "zes", "ches", "shes", "ves", "men", "ed", "d", "ing", "er", "est", "y",
            "e", "x", "ly", "ings", "esy"]


def write_index(path, rules, lemmas=None):
    rng = random.Random(0)
    if lemmas is None:  # one to four parts of speech, one to three synsets each
        lemmas = {lemma: {pos: sorted(rng.sample(range(10**8), rng.randint(1, 3))) for pos in
                          rng.sample(indexes.WORDNET_POS, rng.randint(1, 4))} for lemma in LEMMAS}
    index = {"format": "mtmeta WordNet synonym index 1", "exceptions": EXCEPTIONS, "substitutions": rules,
             "lemmas": lemmas}
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(index, handle)
    return indexes.SynonymIndex(path)


def by_morphy(index, word):
    word = word.lower()
    return frozenset(code * indexes.OFFSET_SPAN + offset for code, pos in enumerate(indexes.WORDNET_POS)
                     for form in index.morphy(word, pos) for offset in index._lemmas[form][pos])


def words():
    stems = [*LEMMAS, *(lemma[:-1] for lemma in LEMMAS if lemma), *(form for by_form in EXCEPTIONS.values()
                                                                       for form in by_form)]
    out = [stem + suffix for stem in stems for suffix in SUFFIXES]
    return out + [word.upper() for word in out[::3]] + ["Dogs", "WENT", "AXES"]


@pytest.mark.parametrize("rules", [NLTK_RULES, ODD_RULES], ids=["nltk", "odd"])
def test_synsets_equal_the_union_of_morphys_forms(tmp_path, rules):
    index = write_index(tmp_path / indexes.SYNONYM_INDEX, rules)
    checked = words()
    assert len(checked) > 2000
    different = [word for word in checked if index.synsets(word) != by_morphy(index, word)]
    assert different == []
    found = sum(bool(index.synsets(word)) for word in checked)
    assert found > 0.1 * len(checked)
    if rules is NLTK_RULES:  # (under ODD_RULES every word has the form "x": its empty ending gives "" + "x")
        assert found < 0.9 * len(checked)


def test_synsets_of_known_forms(tmp_path):
    lemmas = {"dog": {"n": [1], "v": [2]}, "box": {"n": [3], "v": [4]}, "boxe": {"n": [5]}, "church": {"n": [6]},
              "ax": {"n": [7]}, "axis": {"n": [8]}, "axe": {"n": [9], "v": [10]}, "good": {"a": [11]},
              "well": {"a": [12], "r": [13], "v": [14]}, "better": {"n": [15]}}
    index = write_index(tmp_path / indexes.SYNONYM_INDEX, NLTK_RULES, lemmas)
    v, a, r = (code * indexes.OFFSET_SPAN for code in (1, 2, 3))
    assert index.synsets("Dogs") == {1, v + 2}
    assert index.synsets("boxes") == {5, 3, v + 4}  # n: s -> boxe, xes -> box; v: es -> box (boxe is no verb)
    assert index.synsets("churches") == {6}
    # an exception list replaces the rules of its part of speech only: axes is n: ax, axis (not axe by
    # the rule s -> ""), and v: axe
    assert index.synsets("axes") == {7, 8, v + 10}
    assert index.synsets("better") == {15, a + 11, a + 12, r + 13, v + 14}
    assert index.synsets("xyzzy") == frozenset() and index.synsets("") == frozenset()
    assert all(type(index.synsets(word)) is frozenset for word in ["dog", "dogs", "axes", "xyzzy"])
