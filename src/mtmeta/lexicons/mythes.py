"""MyThes thesauri (LibreOffice's format): synonyms for languages other than English."""

from __future__ import annotations

import codecs
import re
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from mtmeta.data.textio import decode_text, read_bytes, split_lines
from mtmeta.errors import InputError

_ANNOTATION = re.compile(r"\([^)]*\)")


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
