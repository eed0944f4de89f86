"""Indexes of METEOR's two large lexical resources, built once per study and cached beside them.

- **WordNet synonyms** (``synonym-index.json.gz`` in the ``wordnet`` source's folder): every lemma's
  synsets per part of speech (as part of speech and data-file offset), WordNet's morphological
  exception lists and NLTK's detachment rules. Looking a word up applies NLTK's ``morphy`` and gives
  exactly the synsets of ``wordnet.synsets(word)``, in a fraction of the time NLTK's reader takes to
  load (a test checks both on a large vocabulary). The file is deterministic; its sha256 goes into
  METEOR's signature.
- **Meteor paraphrase tables** (folder ``paraphrase-index`` beside the table): the entries, normalised
  as METEOR reads them (lower-cased, single spaces), with a 64-bit hash of each side, so that a test
  set selects with one vectorised look-up the entries one of whose sides occurs in its references (the
  only entries that can ever match them; the strings are then checked), instead of parsing all 5.3
  million entries of Meteor's English table every time.

Both are built under a file lock into a temporary file renamed into place, so concurrent jobs build
an index once and never read a half-written one. The workflow builds them in their own rules.
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path

from mtmeta.data.fetch import sha256_file

SYNONYM_INDEX = "synonym-index.json.gz"
PARAPHRASE_INDEX = "paraphrase-index"
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
    from mtmeta.metrics.meteor.lexicon import WordNetSynsets

    reader = WordNetSynsets(nltk_data)._reader
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

_HASH_BYTES = 8


def _phrase_hash(text: str) -> int:
    """A stable 64-bit hash of a phrase (the index keeps the strings too: hashes only pre-select)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=_HASH_BYTES).digest(), "little")


def build_paraphrase_index(entries: Iterable[tuple[str, str]], out: str | Path) -> None:
    """Write (phrase, paraphrase) entries, normalised to single spaces and in table order, to a folder of
    arrays: both sides' hashes, and the strings as one UTF-8 blob with offsets."""
    import numpy as np

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    blob = bytearray()
    offsets = [0]
    phrase_hashes, paraphrase_hashes = [], []
    for phrase, paraphrase in entries:
        phrase, paraphrase = " ".join(phrase.split()), " ".join(paraphrase.split())
        for text, hashes in ((phrase, phrase_hashes), (paraphrase, paraphrase_hashes)):
            data = text.encode("utf-8")
            blob += data
            offsets.append(len(blob))
            hashes.append(int.from_bytes(hashlib.blake2b(data, digest_size=_HASH_BYTES).digest(), "little"))
    np.save(out / "phrase_hash.npy", np.array(phrase_hashes, dtype=np.uint64))
    np.save(out / "paraphrase_hash.npy", np.array(paraphrase_hashes, dtype=np.uint64))
    np.save(out / "offsets.npy", np.array(offsets, dtype=np.int64))
    (out / "strings.bin").write_bytes(bytes(blob))


def paraphrases_touching(index: str | Path, keep: set[str]) -> list[tuple[str, str]]:
    """Entries (in table order) of which one side is in ``keep``."""
    import numpy as np

    index = Path(index)
    wanted = np.sort(np.fromiter((_phrase_hash(p) for p in keep), dtype=np.uint64, count=len(keep)))

    def wanted_at(name: str) -> np.ndarray:  # membership by binary search in the sorted wanted hashes
        hashes = np.load(index / name)
        found = np.searchsorted(wanted, hashes)
        return wanted[np.minimum(found, len(wanted) - 1)] == hashes

    if not len(wanted):
        return []
    selected = np.flatnonzero(wanted_at("phrase_hash.npy") | wanted_at("paraphrase_hash.npy"))
    offsets = np.load(index / "offsets.npy", mmap_mode="r")
    starts = offsets[2 * selected].tolist()
    middles = offsets[2 * selected + 1].tolist()
    ends = offsets[2 * selected + 2].tolist()
    with open(index / "strings.bin", "rb") as handle:
        blob = handle.read()
    out = []
    for start, middle, end in zip(starts, middles, ends, strict=True):
        phrase, paraphrase = blob[start:middle].decode("utf-8"), blob[middle:end].decode("utf-8")
        if phrase in keep or paraphrase in keep:  # drop the rare hash collisions
            out.append((phrase, paraphrase))
    return out
