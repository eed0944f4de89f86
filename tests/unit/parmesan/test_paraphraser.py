"""Targeted paraphrasing (seed 002) on hand-checked examples, including the seed's own figures."""

import pytest

from mtmeta.errors import ConfigError
from mtmeta.parmesan.paraphraser import Lexicon, Paraphraser

# A tiny lemmatiser for the examples: forms -> lemmas, anything else is its own lemma.
LEMMAS = {"klasické": "klasický", "klasická": "klasický", "zkoušejí": "zkoušet", "testují": "testovat",
          "platbu": "platba", "mobilem": "mobil", "mobilního": "mobilní", "telefonu": "telefon", "banky": "banka"}


def lemma(word):
    return LEMMAS.get(word.lower(), word.lower())


def run(reference, hypothesis, entries, order="one-word-only", links=None):
    paraphraser = Paraphraser(Lexicon.build(entries, lemma), lemma, order)
    return paraphraser(reference.split(), hypothesis.split(), links)


def test_the_seeds_one_word_example():
    # Seed 002's figure: hypothesis "Samotné místo je klasické.", reference "Už poloha je klasická."
    result = run("Už poloha je klasická .", "Samotné místo je klasické .", [("poloha", "místo")])
    assert " ".join(result.tokens) == "Už místo je klasická ."  # the form comes from the hypothesis
    assert (result.words, result.phrases) == (1, 0)
    assert result.substitutions[0].before == "poloha" and result.substitutions[0].after == "místo"


def test_candidates_respect_the_set_differences():
    # "je" is in both sentences: never replaced; "místo" already in the reference: never a replacement.
    result = run("místo je poloha", "místo je bod", [("je", "bod"), ("poloha", "místo")])
    assert result.tokens == ["místo", "je", "poloha"]
    assert result.words == 0


def test_a_hypothesis_word_replaces_at_most_once():
    result = run("poloha a lokalita", "místo", [("poloha", "místo"), ("lokalita", "místo")])
    assert result.tokens == ["místo", "a", "lokalita"]


def test_first_paraphrase_in_lexicon_order_wins():
    result = run("poloha", "bod místo", [("poloha", "místo"), ("poloha", "bod")])
    assert result.tokens == ["místo"]


BANKS_REF = "Banky testují placení mobilem"
BANKS_HYP = "Banky zkoušejí platbu pomocí mobilního telefonu"
BANKS_LEXICON = [("testovat", "zkoušet"), ("placení", "platba"), ("placení mobil", "platba pomocí mobilní telefon")]


@pytest.mark.parametrize("order, expected, counts", [
    ("one-word-only", "Banky zkoušejí platbu mobilem", (2, 0)),
    # The phrase pair overlaps the changed "placení": it is not applied.
    ("one-word-first", "Banky zkoušejí platbu mobilem", (2, 0)),
    # The phrase pair goes first, then the remaining single word.
    ("multi-word-first", "Banky zkoušejí platbu pomocí mobilního telefonu", (1, 1)),
])
def test_substitution_orders(order, expected, counts):
    result = run(BANKS_REF, BANKS_HYP, BANKS_LEXICON, order)
    assert " ".join(result.tokens) == expected
    assert (result.words, result.phrases) == counts


def test_one_word_first_applies_phrases_to_unchanged_words():
    lexicon = [("testovat", "zkoušet"), ("mobil", "pomocí mobilní telefon")]
    result = run(BANKS_REF, BANKS_HYP, lexicon, "one-word-first")
    assert " ".join(result.tokens) == "Banky zkoušejí placení pomocí mobilního telefonu"
    assert [s.kind for s in result.substitutions] == ["word", "phrase"]


def test_alignment_restricts_words_and_phrases():
    # Links: Banky-Banky (0,0), testují-zkoušejí (1,1), mobilem-pomocí/telefonu (3,3), (3,5).
    links = {(0, 0), (1, 1), (3, 3), (3, 5)}
    lexicon = [("testovat", "zkoušet"), ("placení", "platba"), ("mobil", "pomocí mobilní telefon")]
    result = run(BANKS_REF, BANKS_HYP, lexicon, "one-word-first", links)
    # placení is not linked to platbu; the phrase pair (3) - (3..5) is consistent with the links.
    assert " ".join(result.tokens) == "Banky zkoušejí placení pomocí mobilního telefonu"
    inconsistent = links | {(2, 4)}  # placení linked into the hypothesis phrase: the pair leaks
    result = run(BANKS_REF, BANKS_HYP, lexicon, "one-word-first", inconsistent)
    assert result.phrases == 0


def test_lexicon_is_symmetric_and_lemmatised():
    lexicon = Lexicon.build([("Klasické", "tradiční"), ("a b", "c")], lemma)
    assert lexicon.words == {"klasický": ("tradiční",), "tradiční": ("klasický",)}
    assert lexicon.phrases == {("a", "b"): frozenset({("c",)}), ("c",): frozenset({("a", "b")})}
    assert lexicon.word_pairs() == [("klasický", "tradiční")]
    assert lexicon.keep_pairs({("tradiční", "klasický")}).words == lexicon.words
    assert lexicon.keep_pairs(set()).words == {}


def test_unknown_order_is_an_error():
    with pytest.raises(ConfigError, match="order"):
        Paraphraser(Lexicon.build([], lemma), lemma, "random-first")


def test_ppmi_cosine_by_hand():
    import numpy as np

    from mtmeta.parmesan.distributional import ppmi_cosine

    sentences = [["a", "x", "b"], ["c", "x", "d"], ["a", "y", "b"]]
    # Window 1, every word a context. Co-occurrence counts: x with a, b, c, d once each; y with a, b;
    # a with x, y; b with x, y; c with x; d with x: 12 in all, marginals x 4, y 2, a 2, b 2, c 1, d 1.
    # PPMI(x, .) = (a: ln 1.5, b: ln 1.5, c: ln 3, d: ln 3); PPMI(y, .) = (a: ln 3, b: ln 3).
    cos = ppmi_cosine(sentences, [("x", "y"), ("x", "x"), ("x", "zzz")], window=1)
    l15, l3 = np.log(1.5), np.log(3)
    assert cos[0] == pytest.approx(l15 / np.sqrt(l15**2 + l3**2))
    assert cos[1] == pytest.approx(1.0) and cos[2] == 0.0
    # A word that shares no positive context with x.
    assert ppmi_cosine(sentences + [["e", "z", "f"]], [("x", "z")], window=1)[0] == 0.0


def phrase_candidates_by_definition(lexicon, ref, hyp):
    """The phrase step's candidates as the seed describes them, by full n-gram indexes of both sides:
    a reference sequence with paraphrases that the hypothesis lacks, and each paraphrase that the
    reference lacks at each hypothesis position where it occurs; longest first, then leftmost."""
    def index(lemmas):
        found = {}
        for n in range(1, lexicon.max_phrase + 1):
            for i in range(len(lemmas) - n + 1):
                found.setdefault(tuple(lemmas[i : i + n]), []).append(i)
        return found

    hyp_index, ref_index = index(hyp), index(ref)
    out = []
    for a in range(1, lexicon.max_phrase + 1):
        for i in range(len(ref) - a + 1):
            targets = lexicon.phrases.get(tuple(ref[i : i + a]))
            if targets and tuple(ref[i : i + a]) not in hyp_index:
                out += [(a, len(t), i, j) for t in targets if t not in ref_index for j in hyp_index.get(t, ())]
    return sorted(out, key=lambda c: (-c[0], -c[1], c[2], c[3]))


@pytest.mark.parametrize("seed", [1, 2])
def test_phrase_step_candidates_equal_the_definition_on_random_text(seed):
    import random

    rng = random.Random(seed)
    vocabulary = "a b c d e f g h".split()

    def words(low, high):
        return " ".join(rng.choice(vocabulary) for _ in range(rng.randint(low, high)))

    lexicon = Lexicon.build([(words(1, 3), words(2, 3)) for _ in range(60)], str.lower)
    paraphraser = Paraphraser(lexicon, str.lower, "multi-word-first")
    found = 0
    for _ in range(300):
        ref, hyp = words(0, 14).split(), words(0, 14).split()
        expected = phrase_candidates_by_definition(lexicon, ref, hyp)
        assert paraphraser.phrase_candidates(ref, hyp) == expected
        found += len(expected)
    assert found > 150
