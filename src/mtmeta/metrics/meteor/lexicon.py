"""Lexical resources of METEOR's matching modules: function words, stemmers, synonyms, paraphrases.

- Function words: Meteor 1.5's lists (``<language>.words``), one word per line.
- Stem: NLTK's Snowball stemmers (the algorithms Meteor 1.5 bundles); for Czech, which has no
  Snowball stemmer, simplemma lemmas. Porter (NLTK's METEOR) is available as ``stemmer=porter``.
- Synonym: English WordNet 3.0 through NLTK (a word's synsets, including those of its base
  forms, as Meteor's synonym module uses them); for other languages a MyThes thesaurus, where
  each sense line (headword plus its synonyms) plays the part of a synset.
- Paraphrase: a table in Meteor's format (gzip, three lines per entry: probability, phrase,
  paraphrase) or a MyThes thesaurus read as one (headword -> each synonym, phrases allowed).
"""

from __future__ import annotations

import codecs
import gzip
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

from mtmeta.data.textio import decode_text, read_bytes, read_lines, split_lines
from mtmeta.errors import ConfigError, InputError

LANGUAGE_NAMES = {"en": "english", "cs": "czech", "de": "german", "es": "spanish", "fr": "french", "ru": "russian"}
SNOWBALL = {"en": "english", "de": "german", "es": "spanish", "fr": "french", "ru": "russian"}
_ANNOTATION = re.compile(r"\([^)]*\)")
_WORDNET_POS = ("n", "v", "a", "r")  # nltk's POS_LIST: the parts of speech synsets() looks up
_OFFSET_SPAN = 10**9  # WordNet data-file offsets are below this


def read_function_words(path: str | Path) -> frozenset[str]:
    return frozenset(line.strip().lower() for line in read_lines(path) if line.strip())


def make_stemmer(lang: str, kind: str = "snowball") -> Callable[[str], str]:
    """A cached word -> stem function: Snowball (or Porter), or simplemma lemmas for Czech."""
    if kind == "porter":
        from nltk.stem.porter import PorterStemmer

        stem = PorterStemmer().stem
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
            self._reader = WordNetCorpusReader(location, None)
        self.synsets = lru_cache(maxsize=None)(self._synsets)

    def _synsets(self, word: str) -> frozenset[int]:
        word = word.lower()
        reader, index = self._reader, self._reader._lemma_pos_offset_map
        return frozenset(code * _OFFSET_SPAN + offset for code, pos in enumerate(_WORDNET_POS)
                         for form in reader._morphy(word, pos) for offset in index[form].get(pos, ()))


def _clean_entry(text: str, lowercase: bool) -> str:
    text = " ".join(_ANNOTATION.sub(" ", text).split())
    return text.lower() if lowercase else text


class MyThes:
    """A MyThes thesaurus: ``headword|N`` then N lines ``(pos)|syn|syn...``.

    Parenthesised annotations such as ``(generic term)`` are removed from entries.
    """

    def __init__(self, path: str | Path, lowercase: bool = True):
        self.path = Path(path)
        lines = self._read(self.path)
        self.senses: list[tuple[str, str, list[str]]] = []  # (headword, part of speech, synonyms)
        number = 1
        while number < len(lines):
            header = lines[number]
            head, bar, count = header.rpartition("|")
            # An empty headword occurs (German: the first entry); its sense lines are still synsets.
            if not bar or not count.strip().isdigit():
                raise InputError(self.path, f"entry header {header!r}", line=number + 1, expected="headword|count")
            headword = _clean_entry(head, lowercase)
            for offset in range(1, int(count) + 1):
                if number + offset >= len(lines):
                    raise InputError(self.path, "file ends inside an entry", line=number + offset,
                                     expected=f"{count} sense lines after {header!r}")
                pos, *synonyms = lines[number + offset].split("|")
                cleaned = [s for s in (_clean_entry(x, lowercase) for x in synonyms) if s]
                if cleaned:
                    pos = pos.strip("() ").strip()
                    self.senses.append((headword, "" if pos == "-" else pos, cleaned))
            number += int(count) + 1
        members: dict[str, set[int]] = defaultdict(set)
        for sense_id, (headword, _, synonyms) in enumerate(self.senses):
            for word in (headword, *synonyms):
                if word and " " not in word:
                    members[word].add(sense_id)
        self._members = {word: frozenset(ids) for word, ids in members.items()}

    @staticmethod
    def _read(path: Path) -> list[str]:
        """Lines in the encoding that line 1 declares (MyThes: UTF-8, ISO8859-1 for Spanish ...)."""
        raw = read_bytes(path)
        declared = raw.split(b"\n", 1)[0].removeprefix(b"\xef\xbb\xbf").decode("ascii", "replace").strip()
        try:
            codecs.lookup(declared)
        except LookupError:
            raise InputError(path, f"unknown encoding {declared!r}", line=1,
                             expected="an encoding name on the first line, e.g. UTF-8 or ISO8859-1") from None
        lines = split_lines(decode_text(raw, path, declared))
        if len(lines) < 2:
            raise InputError(path, "no entries", expected="an encoding line then entries")
        return lines

    def synsets(self, word: str) -> frozenset[int]:
        """Sense lines a single word belongs to (as headword or synonym)."""
        return self._members.get(word, frozenset())

    def pairs(self) -> Iterable[tuple[str, str, str]]:
        """(headword, synonym, part of speech) triples, phrases included: the thesaurus read as a
        paraphrase table (both words of a pair share their sense line's part of speech)."""
        for headword, pos, synonyms in self.senses:
            for synonym in synonyms:
                if headword and synonym != headword:
                    yield headword, synonym, pos


MAX_PHRASE = 10  # longest phrase looked up; Meteor's English table has at most 7 words


def reference_phrases(references: Iterable[list[str]], max_length: int = MAX_PHRASE) -> set[str]:
    """Every n-gram (n <= max_length) of the references, as space-joined strings."""
    phrases = set()
    for words in references:
        for i in range(len(words)):
            for n in range(1, min(max_length, len(words) - i) + 1):
                phrases.add(" ".join(words[i : i + n]))
    return phrases


class ParaphraseTable:
    """Phrase -> paraphrases (space-joined strings), in table order.

    With ``keep`` (the reference n-grams of a test set) only entries with a side occurring in some
    reference are kept: a paraphrase match always has one side in the reference, so no other entry
    can ever match against those references, whatever the hypothesis.
    """

    def __init__(self, entries: Iterable[tuple[str, str]], keep: set[str] | None = None, normalised: bool = False):
        """``normalised``: the entries are already single-spaced and all touch ``keep`` (a cached index's)."""
        table: dict[str, list[str]] = defaultdict(list)
        for phrase, paraphrase in entries:
            if not normalised:
                phrase, paraphrase = " ".join(phrase.split()), " ".join(paraphrase.split())
                if keep is not None and phrase not in keep and paraphrase not in keep:
                    continue
            if not phrase or not paraphrase or phrase == paraphrase:
                continue
            table[phrase].append(paraphrase)
        self.table = dict(table)
        longest = max((phrase.count(" ") + 1 for phrase in self.table), default=0)
        self.max_length = min(longest, MAX_PHRASE)
        self.first_words = {phrase.split(" ", 1)[0] for phrase in self.table}
        # Every proper word prefix of a phrase: a lookup can stop growing a phrase outside these.
        self.prefixes = {phrase.rsplit(" ", k)[0] for phrase in self.table for k in range(1, phrase.count(" ") + 1)}

    def __len__(self) -> int:
        return sum(len(v) for v in self.table.values())

    def get(self, phrase: str) -> list[str]:
        return self.table.get(phrase, [])


PARAPHRASE_FILTERS = ("one-word", "same-pos", "diff-lemma", "same-lemma")


def filter_paraphrases(entries: Iterable[tuple[str, str, str | None]], kind: str | None,
                       lemma: Callable[[str], str] | None = None) -> Iterable[tuple[str, str]]:
    """Seed 002's reductions of a paraphrase table (its table of Meteor paraphrase settings).

    ``one-word``: single words on both sides; ``same-pos``: one-word pairs of the same, known part of
    speech; ``diff-lemma`` / ``same-lemma``: same-pos pairs whose lemmas differ / agree. Entries are
    (phrase, paraphrase, part of speech or None).
    """
    if kind is not None and kind not in PARAPHRASE_FILTERS:
        raise ConfigError(f"unknown paraphrase filter {kind!r}; known: {', '.join(PARAPHRASE_FILTERS)}")
    for phrase, paraphrase, pos in entries:
        if kind is None:
            yield phrase, paraphrase
            continue
        if " " in phrase.strip() or " " in paraphrase.strip():
            continue
        if kind != "one-word":
            if pos is None:
                raise ConfigError(f"paraphrase filter {kind!r} needs parts of speech, which this table lacks")
            if not pos:
                continue
            if kind != "same-pos":
                same = lemma(phrase) == lemma(paraphrase)
                if same != (kind == "same-lemma"):
                    continue
        yield phrase, paraphrase


def read_meteor_paraphrases(path: str | Path, lowercase: bool = True) -> Iterable[tuple[str, str, None]]:
    """Entries of a Meteor paraphrase table (gzip or plain; probability, phrase, paraphrase)."""
    path = Path(path)
    with open(path, "rb") as probe:
        opener = gzip.open if probe.read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        number = 0
        while True:
            probability = handle.readline()
            if not probability:
                return
            phrase, paraphrase = handle.readline(), handle.readline()
            number += 3
            if not paraphrase:
                raise InputError(path, "file ends inside an entry", line=number,
                                 expected="three lines per entry: probability, phrase, paraphrase")
            try:
                float(probability)
            except ValueError:
                raise InputError(path, f"{probability.strip()!r} is not a probability", line=number - 2,
                                 expected="a number on the first line of each entry") from None
            phrase, paraphrase = phrase.strip(), paraphrase.strip()
            if lowercase:
                phrase, paraphrase = phrase.lower(), paraphrase.lower()
            yield phrase, paraphrase, None
