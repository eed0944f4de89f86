"""Indexes of METEOR's two large lexical resources, built once per study and cached beside them.

- **WordNet synonyms** (``synonym-index.json.gz`` in the ``wordnet`` source's folder): every lemma's
  synsets per part of speech (as part of speech and data-file offset), WordNet's morphological
  exception lists and NLTK's detachment rules. Looking a word up applies NLTK's ``morphy`` and gives
  exactly the synsets of ``wordnet.synsets(word)``, in a fraction of the time NLTK's reader takes to
  load (a test checks both on a large vocabulary). The file is deterministic; its sha256 goes into
  METEOR's signature.
- **Meteor paraphrase tables** (folder ``paraphrase-arrays`` beside the table): the entries,
  normalised as METEOR reads them (lower-cased, single spaces), as the integer arrays of
  :class:`mtmeta.metrics.meteor.phrases.PhraseArrays` with hash slot tables, so that a job loads
  them in a fraction of a second instead of parsing all 5.3 million entries of Meteor's English
  table (and no entry needs selecting per test set: the compiled matcher looks phrases up directly).

Both are built under a file lock into a temporary file renamed into place, so concurrent jobs build
an index once and never read a half-written one. The workflow builds them in their own rules.
"""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import shutil
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path

from mtmeta.data.fetch import sha256_file

SYNONYM_INDEX = "synonym-index.json.gz"
PARAPHRASE_INDEX = "paraphrase-arrays"
WORDNET_POS = ("n", "v", "a", "r")  # NLTK's POS_LIST: the parts of speech wordnet.synsets() looks up
OFFSET_SPAN = 10**9  # WordNet data-file offsets are below this: pos code * span + offset is a synset id


@contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def build_once(path: str | Path, build: Callable[[Path], None]) -> Path:
    """``path`` (a file or a folder), built by ``build(temporary_path)`` if it does not exist yet
    (once, under a lock)."""
    path = Path(path)
    if path.exists():
        return path
    with _locked(path):
        if not path.exists():
            temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            if temporary.is_dir():
                shutil.rmtree(temporary)
            temporary.unlink(missing_ok=True)
            build(temporary)
            os.replace(temporary, path)
    return path


# -- WordNet ------------------------------------------------------------------------------------------


def build_synonym_index(nltk_data: str | Path, out: str | Path) -> None:
    """Write the synonym index of the NLTK WordNet package under ``nltk_data`` (deterministic bytes)."""
    from mtmeta.lexicons.wordnet import WordNetSynsets

    reader = WordNetSynsets(nltk_data).reader
    lemmas = {}
    for lemma, by_pos in reader._lemma_pos_offset_map.items():
        entry = {pos: list(by_pos[pos]) for pos in WORDNET_POS if by_pos.get(pos)}
        if entry:
            lemmas[lemma] = entry
    index = {
        "format": "mtmeta WordNet synonym index 1",
        "exceptions": {pos: reader._exception_map[pos] for pos in WORDNET_POS},
        "substitutions": {pos: [list(pair) for pair in reader.MORPHOLOGICAL_SUBSTITUTIONS[pos]] for pos in WORDNET_POS},
        "lemmas": lemmas,
    }
    payload = json.dumps(index, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as handle:
        handle.write(payload)


class SynonymIndex:
    """``synsets(word)``: the synset ids of a word, as ``wordnet.synsets(word)`` finds them."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.sha256 = sha256_file(self.path)
        with gzip.open(self.path, "rt", encoding="utf-8") as handle:
            index = json.load(handle)
        self._lemmas = index["lemmas"]
        self._exceptions = index["exceptions"]
        self._substitutions = {pos: [tuple(pair) for pair in pairs] for pos, pairs in index["substitutions"].items()}

    def morphy(self, form: str, pos: str) -> list[str]:
        """NLTK's ``_morphy``: the exception list's base forms, or one round of detachment rules;
        then those (and the form itself) that WordNet lists under ``pos``, in order."""
        exceptions = self._exceptions[pos]
        if form in exceptions:
            forms = exceptions[form]
        else:
            forms = [form[: -len(old)] + new for old, new in self._substitutions[pos] if form.endswith(old)]
        result = []
        for candidate in [form, *forms]:
            if pos in self._lemmas.get(candidate, ()) and candidate not in result:
                result.append(candidate)
        return result

    def synsets(self, word: str) -> frozenset[int]:
        word = word.lower()
        return frozenset(code * OFFSET_SPAN + offset for code, pos in enumerate(WORDNET_POS)
                         for form in self.morphy(word, pos) for offset in self._lemmas[form][pos])


# -- Meteor paraphrase tables ----------------------------------------------------------------------------


def build_paraphrase_index(entries: Iterable[tuple[str, str]], out: str | Path) -> None:
    """Write a table's (phrase, paraphrase) entries as the integer arrays of the compiled matcher."""
    from mtmeta.metrics.meteor.phrases import PhraseArrays

    PhraseArrays.from_entries(entries).save(out)
