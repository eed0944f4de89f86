"""Paraphrase resources as (phrase, paraphrase, part of speech) entries, for targeted paraphrasing.

- ``mythes``: a MyThes thesaurus (headword / synonym pairs of each sense line, phrases included;
  the sense line's part of speech applies to both);
- ``wordnet``: English WordNet 3.0 (every pair of lemmas sharing a synset, with the synset's part of
  speech; multi-word lemmas become phrases);
- ``meteor``: a table in Meteor's format (probability, phrase, paraphrase), no parts of speech.

:func:`entries` applies seed 002's reductions (one-word / same POS / different or same lemma).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from mtmeta.errors import ConfigError
from mtmeta.metrics.meteor.lexicon import MyThes, filter_paraphrases, read_meteor_paraphrases

KINDS = ("mythes", "wordnet", "meteor")


def wordnet_entries(nltk_data: str | Path) -> Iterator[tuple[str, str, str]]:
    """Pairs of distinct lemmas of every WordNet synset, in WordNet's order."""
    from mtmeta.metrics.meteor.lexicon import WordNetSynsets

    reader = WordNetSynsets(nltk_data)._reader
    for synset in reader.all_synsets():
        names = list(dict.fromkeys(name.replace("_", " ").lower() for name in synset.lemma_names()))
        for a in names:
            for b in names:
                if a != b:
                    yield a, b, synset.pos()


def entries(kind: str, path: str | Path, filter_kind: str | None = None,
            lemma: Callable[[str], str] | None = None) -> Iterator[tuple[str, str]]:
    """(phrase, paraphrase) pairs of a resource, reduced by ``filter_kind`` if given."""
    if kind == "mythes":
        raw = MyThes(path).pairs()
    elif kind == "wordnet":
        raw = wordnet_entries(path)
    elif kind == "meteor":
        raw = read_meteor_paraphrases(path)
    else:
        raise ConfigError(f"unknown paraphrase resource kind {kind!r}; known: {', '.join(KINDS)}")
    return filter_paraphrases(raw, filter_kind, lemma)
