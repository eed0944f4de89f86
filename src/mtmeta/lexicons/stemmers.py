"""Stemmers of METEOR's stem module: NLTK's Snowball (or Porter), simplemma lemmas for Czech.

Porter is :func:`mtmeta.lexicons.porter.stem`: NLTK's ``PorterStemmer().stem`` rewritten for speed
(the same stem for every string; tests/unit/lexicons/test_porter.py compares them)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from mtmeta.errors import ConfigError

LANGUAGE_NAMES = {"en": "english", "cs": "czech", "de": "german", "es": "spanish", "fr": "french", "ru": "russian"}
SNOWBALL = {"en": "english", "de": "german", "es": "spanish", "fr": "french", "ru": "russian"}


def make_stemmer(lang: str, kind: str = "snowball") -> Callable[[str], str]:
    """A cached word -> stem function: Snowball (or Porter), or simplemma lemmas for Czech."""
    if kind == "porter":
        from mtmeta.lexicons.porter import stem
    elif kind == "lemma" or (kind == "snowball" and lang == "cs"):
        import simplemma

        def stem(word: str) -> str:
            return simplemma.lemmatize(word, lang=lang)
    elif kind == "snowball":
        if lang not in SNOWBALL:
            raise ConfigError(f"no Snowball stemmer for language {lang!r}; languages: {', '.join(SNOWBALL)} "
                              "(and cs through simplemma lemmas)")
        from nltk.stem.snowball import SnowballStemmer

        stem = SnowballStemmer(SNOWBALL[lang]).stem
    else:
        raise ConfigError(f"unknown stemmer {kind!r}; use snowball, porter or lemma")
    return lru_cache(maxsize=None)(stem)
