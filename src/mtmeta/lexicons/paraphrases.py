"""Paraphrase tables: Meteor's format, METEOR's table filtered to a test set's references
(:class:`ParaphraseTable`), and paraphrase resources as (phrase, paraphrase, part of speech)
entries for targeted paraphrasing:

- ``mythes``: a MyThes thesaurus (headword / synonym pairs of each sense line, phrases included;
  the sense line's part of speech applies to both);
- ``wordnet``: English WordNet 3.0 (every pair of lemmas sharing a synset, with the synset's part of
  speech; multi-word lemmas become phrases);
- ``meteor``: a table in Meteor's format (probability, phrase, paraphrase), no parts of speech.

:func:`entries` applies seed 002's reductions (one-word / same POS / different or same lemma).
"""

from __future__ import annotations

import gzip
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from mtmeta.errors import ConfigError, InputError
from mtmeta.lexicons.mythes import MyThes
from mtmeta.lexicons.wordnet import wordnet_entries

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


KINDS = ("mythes", "wordnet", "meteor")


def raw_entries(kind: str, path: str | Path) -> Iterable[tuple[str, str, str | None]]:
    """(phrase, paraphrase, part of speech or None) entries of a resource, unreduced."""
    if kind == "mythes":
        return MyThes(path).pairs()
    if kind == "wordnet":
        return wordnet_entries(path)
    if kind == "meteor":
        return read_meteor_paraphrases(path)
    raise ConfigError(f"unknown paraphrase resource kind {kind!r}; known: {', '.join(KINDS)}")


def entries(kind: str, path: str | Path, filter_kind: str | None = None,
            lemma: Callable[[str], str] | None = None,
            raw: Iterable[tuple[str, str, str | None]] | None = None) -> Iterator[tuple[str, str]]:
    """(phrase, paraphrase) pairs of a resource, reduced by ``filter_kind`` if given. ``raw``: the
    resource's :func:`raw_entries` already read (a list, to reduce it several ways from one parse)."""
    return filter_paraphrases(raw_entries(kind, path) if raw is None else raw, filter_kind, lemma)
