"""English WordNet 3.0 through NLTK: a word's synsets (METEOR's synonyms) and synonym pairs."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from mtmeta.errors import InputError

_WORDNET_POS = ("n", "v", "a", "r")  # nltk's POS_LIST: the parts of speech synsets() looks up
_OFFSET_SPAN = 10**9  # WordNet data-file offsets are below this


class WordNetSynsets:
    """English WordNet synsets of a word (NLTK applies WordNet's morphology, as Meteor does).

    A synset is identified by its part of speech and its offset in WordNet's data file, read from
    WordNet's index through NLTK's morphology (``_morphy``) and lemma index: the same synsets as
    ``wordnet.synsets(word)``, without parsing each synset's data line (which cost two thirds of
    METEOR's time). Adjective satellites live in the adjective file, so ``a`` covers them.
    """

    def __init__(self, nltk_data: str | Path):
        import nltk
        from nltk.corpus.reader import WordNetCorpusReader

        root = str(Path(nltk_data).resolve())
        if root not in nltk.data.path:
            nltk.data.path.insert(0, root)  # NLTK only reads corpora under its data path
        try:
            location = nltk.data.find("corpora/wordnet", paths=[root])
        except LookupError:
            raise InputError(root, "no corpora/wordnet inside", expected="the extracted NLTK wordnet package") from None
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "multilingual functions are not available": not needed
            self.reader = WordNetCorpusReader(location, None)  # NLTK's reader, for whole-WordNet walks
        self.synsets = lru_cache(maxsize=None)(self._synsets)

    def _synsets(self, word: str) -> frozenset[int]:
        word = word.lower()
        reader, index = self.reader, self.reader._lemma_pos_offset_map
        return frozenset(code * _OFFSET_SPAN + offset for code, pos in enumerate(_WORDNET_POS)
                         for form in reader._morphy(word, pos) for offset in index[form].get(pos, ()))


def wordnet_entries(nltk_data: str | Path) -> Iterator[tuple[str, str, str]]:
    """Pairs of distinct lemmas of every WordNet synset, in WordNet's order."""
    reader = WordNetSynsets(nltk_data).reader
    for synset in reader.all_synsets():
        names = list(dict.fromkeys(name.replace("_", " ").lower() for name in synset.lemma_names()))
        for a in names:
            for b in names:
                if a != b:
                    yield a, b, synset.pos()
