"""mtmeta.lexicons.porter.stem gives NLTK's PorterStemmer().stem on every string: generated words dense in
Porter's suffixes (chains of them, y's anywhere, mixed case, non-ASCII letters, very short words), and,
in tests/realdata/test_porter_real.py, every word of WMT13's into-English test sets and of WordNet."""

import random

import pytest
from nltk.stem.porter import PorterStemmer

from mtmeta.lexicons.porter import stem
from mtmeta.lexicons.stemmers import make_stemmer

SUFFIXES = ["ational", "tional", "enci", "anci", "izer", "bli", "abli", "alli", "entli", "eli", "ousli", "ization",
            "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "fulli", "logi",
            "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able",
            "ible", "ant", "ement", "ment", "ent", "ion", "sion", "tion", "ou", "ism", "ate", "iti", "ous", "ive",
            "ize", "e", "ll", "l", "s", "ss", "sses", "ies", "ied", "ed", "eed", "ing", "y", "ly", "at", "bl", "iz",
            "*d", "*", "d", "yy", "ey", "ay", "i", "li", "ogi", "lli", "ying", "yed"]
LETTERS = "abcdefghijklmnopqrstuvwxyz" + "aeiouy" * 3 + "lstnrm" * 2  # vowels and common consonants weighted up
CONSONANTS = "bcdfghjklmnpqrstvwxyz"
OTHER = "éüßİÀÖΣçñøЖяﬁ’'-0123456789*KYIE"  # İ and ﬁ lengthen when lower-cased; Σ's lower case depends on context
# NLTK's own examples and its special cases (irregular forms, four-letter ies/ied, alli, logi, the literal *d).
KNOWN = {"caresses": "caress", "ponies": "poni", "ties": "tie", "cats": "cat", "feed": "feed", "agreed": "agre",
         "plastered": "plaster", "motoring": "motor", "hopping": "hop", "falling": "fall", "filing": "file",
         "happy": "happi", "enjoy": "enjoy", "relational": "relat", "sensationalli": "sensat", "geology": "geolog",
         "skies": "sky", "dying": "die", "Innings": "inning", "died": "die", "spied": "spi", "controll": "control",
         "generalizations": "gener", "ax*ded": "axd", "İİ": "i̇i̇", "İs": "i̇s", "": "", "Y": "y", "yyyy": "yyyi",
         "fizzed": "fizz", "baying": "bay", "boxing": "box", "news": "news"}


def generated(count: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    words = []
    while len(words) < count:
        size = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 8])
        alphabet = LETTERS + OTHER if rng.random() < 0.15 else LETTERS
        word = "".join(rng.choice(alphabet) for _ in range(size))
        if rng.random() < 0.2:  # a short consonant-vowel-consonant stem (step 1b's *o, step 5a)
            word = "".join(rng.choice(letters) for letters in (["", *CONSONANTS], CONSONANTS, "aeiouy", CONSONANTS))
        if word and rng.random() < 0.2:  # a double letter (step 1b's *d, step 5b's ll)
            word += word[-1]
        word += "".join(rng.choice(SUFFIXES) for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 3])))
        if rng.random() < 0.2:
            at = rng.randrange(len(word) + 1)
            word = word[:at] + "y" * rng.choice([1, 1, 2, 3]) + word[at:]
        if rng.random() < 0.2:
            word = "".join(c.upper() if rng.random() < 0.3 else c for c in word)
        words.append(word)
    return words


def test_known_stems_and_irregular_forms():
    nltk = PorterStemmer()
    for word, expected in KNOWN.items():
        assert nltk.stem(word) == expected, word  # the examples themselves are NLTK's stems
        assert stem(word) == expected, word
    for word in [*nltk.pool, *(word.title() for word in nltk.pool), *(word + "s" for word in nltk.pool)]:
        assert stem(word) == nltk.stem(word), word


@pytest.mark.parametrize("seed", [0, 1])
def test_same_stems_as_nltk_on_generated_words(seed):
    nltk_stem = PorterStemmer().stem
    words = generated(25_000, seed)
    different = [(word, stem(word), nltk_stem(word)) for word in words if stem(word) != nltk_stem(word)]
    assert different == []
    # the words reach the rules: about half are stemmed, a quarter lose more than two letters
    assert sum(stem(word) != word.lower() for word in words) > 0.45 * len(words)
    assert sum(len(stem(word)) < len(word) - 2 for word in words) > 0.2 * len(words)


def test_make_stemmer_porter_is_this_stemmer():
    porter = make_stemmer("en", "porter")
    assert [porter(word) for word in ["Relational", "skies", "controll"]] == ["relat", "sky", "control"]
    assert porter.__wrapped__ is stem and porter.cache_info().currsize == 3
