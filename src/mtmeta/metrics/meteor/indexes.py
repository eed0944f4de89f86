"""Indexes of METEOR's two large lexical resources, built once per study and cached beside them.

- **WordNet synonyms** (``synonym-index.json.gz`` in the ``wordnet`` source's folder): every lemma's
  synsets per part of speech (as part of speech and data-file offset), WordNet's morphological
  exception lists and NLTK's detachment rules. Looking a word up applies NLTK's ``morphy`` and gives
  exactly the synsets of ``wordnet.synsets(word)``, in a fraction of the time NLTK's reader takes to
  load (a test checks both on a large vocabulary). The file is deterministic; its sha256 goes into
  METEOR's signature.
- **Paraphrase tables** (folder ``paraphrase-arrays`` beside the table): Meteor's, and each MyThes
  thesaurus that METEOR reads as one, their entries normalised as METEOR reads them (lower-cased,
  single spaces), as the integer arrays of :class:`mtmeta.metrics.meteor.phrases.PhraseArrays` with
  hash slot tables, so that a job loads them in a fraction of a second instead of parsing all 5.3
  million entries of Meteor's English table or a whole thesaurus (and no entry needs selecting per
  test set: the compiled matcher looks phrases up directly).

Both are built under a file lock into a temporary file renamed into place, so concurrent jobs build
an index once and never read a half-written one. The workflow builds them in their own rules.
"""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
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


_POS_BASE = {pos: code * OFFSET_SPAN for code, pos in enumerate(WORDNET_POS)}  # pos -> the ids' pos part
# pos -> offset -> id, or None for nouns, whose ids are their offsets (base 0): no new int per offset.
_TO_ID = {pos: (base.__add__ if base else None) for pos, base in _POS_BASE.items()}
_NO_SYNSETS: frozenset[int] = frozenset()


def _endings(substitutions: dict[str, list[tuple[str, str]]]) -> dict[str, tuple]:
    """The detachment rules that apply to a word, by its longest ending that ends some rule's ending:
    {ending: ((letters removed, letters added, ((pos, its offset -> id function), ...)), ...)}.

    Every ending of a rule's ending is a key (and ""), so a word's longest such ending is found by
    looking up its last 1, 2, ... letters until one is missing (at most 5 lookups; one for most words).
    A rule applies to the word iff its ending ends that key. A letter that a rule's ending and its
    replacement begin with is kept rather than removed and added again (es -> e is s -> "", ches -> ch
    is es -> ""), so rules that give the same form look alike and that form is looked up once.
    """
    rules = []
    for pos in WORDNET_POS:
        for old, new in substitutions[pos]:
            kept = 0  # at most all but one letter of the ending: word[:-0] would be empty
            while kept < min(len(old) - 1, len(new)) and old[kept] == new[kept]:
                kept += 1
            rules.append((old, pos, len(old) - kept, new[kept:]))
    keys = {""} | {old[-size:] for old, *_ in rules for size in range(1, len(old) + 1)}
    table = {}
    for key in keys:
        forms: dict[tuple[int, str], list] = {}
        for old, pos, cut, new in rules:
            if key.endswith(old):
                poses = forms.setdefault((cut, new), [])
                if (pos, _TO_ID[pos]) not in poses:
                    poses.append((pos, _TO_ID[pos]))
        table[key] = tuple((cut, new, tuple(poses)) for (cut, new), poses in forms.items())
    return table


class SynonymIndex:
    """``synsets(word)``: the synset ids of a word, as ``wordnet.synsets(word)`` finds them.

    ``synsets`` gives the synsets of the forms :meth:`morphy` finds in every part of speech, without
    calling it (about 3x faster). As a set, that is the word's own synsets (it is a candidate under
    every part of speech WordNet lists it in) together with those of each exception base form or each
    detached form under its part of speech. Which detachment rules a word takes depends only on its
    last few letters, so they are looked up by those letters (:func:`_endings`, built at load in well
    under a millisecond) instead of testing all 21 endings of the four parts of speech; most words end
    in none, and their synsets are their own. Tests compare it with :meth:`morphy`'s union
    (tests/unit/metrics/test_synonym_index.py) and with NLTK's reader on real WordNet.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.sha256 = sha256_file(self.path)
        with gzip.open(self.path, "rt", encoding="utf-8") as handle:
            index = json.load(handle)
        self._lemmas = index["lemmas"]
        self._exceptions = index["exceptions"]
        self._substitutions = {pos: [tuple(pair) for pair in pairs] for pos, pairs in index["substitutions"].items()}
        # For synsets(): a form's exception base forms in every part of speech that lists it (about
        # 6,000 forms), and the detachment rules by ending (_endings, below).
        exception_bases: dict[str, list] = {}
        for pos in WORDNET_POS:
            for form, bases in self._exceptions[pos].items():
                exception_bases.setdefault(form, []).append((pos, bases))
        self._exception_bases = exception_bases
        self._endings = _endings(self._substitutions)

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
        """The union over n, v, a, r of the synsets of ``morphy(word.lower(), pos)``'s forms."""
        word = word.lower()
        endings = self._endings
        rules = endings.get(word[-1:])
        if rules is None:  # most words: no rule's ending ends in their last letter
            rules = endings[""]
        else:  # the word's longest ending that is an ending of a rule's ending
            size, longest = 2, len(word)
            while size <= longest:
                longer = endings.get(word[-size:])
                if longer is None:
                    break
                rules = longer
                size += 1
        lemmas = self._lemmas
        own = lemmas.get(word)
        excepted = self._exception_bases.get(word)
        if excepted is None and not rules:  # most words: the form itself is the only candidate
            if own is None:
                return _NO_SYNSETS
            if len(own) == 1:
                for pos, offsets in own.items():
                    to_id = _TO_ID[pos]
                    return frozenset(offsets if to_id is None else map(to_id, offsets))
        found: list[int] = []
        if own is not None:
            for pos, offsets in own.items():
                to_id = _TO_ID[pos]
                found.extend(offsets if to_id is None else map(to_id, offsets))
        if excepted is not None:  # these parts of speech take the exception's base forms and no rule
            for pos, bases in excepted:
                for base in bases:
                    entry = lemmas.get(base)
                    if entry is not None and pos in entry:
                        to_id = _TO_ID[pos]
                        found.extend(entry[pos] if to_id is None else map(to_id, entry[pos]))
            if rules:
                skipped = {pos for pos, _ in excepted}
                rules = [(cut, new, [(pos, to_id) for pos, to_id in poses if pos not in skipped])
                         for cut, new, poses in rules]
        for cut, new, poses in rules:
            entry = lemmas.get(word[:-cut] + new)
            if entry is not None:
                for pos, to_id in poses:
                    if pos in entry:
                        found.extend(entry[pos] if to_id is None else map(to_id, entry[pos]))
        return frozenset(found)


# -- Meteor paraphrase tables ----------------------------------------------------------------------------


def paraphrase_index_entries(source: str, path: str | Path) -> Iterator[tuple[str, str]]:
    """The (phrase, paraphrase) entries of source ``source``'s table at ``path``, lowercased, in the order
    METEOR reads them: a MyThes thesaurus (sources ``thesaurus_<lang>``) read as a paraphrase table,
    or a table in Meteor's format."""
    if source.startswith("thesaurus_"):
        from mtmeta.lexicons.mythes import MyThes

        return ((a, b) for a, b, _ in MyThes(path, lowercase=True).pairs())
    from mtmeta.lexicons.paraphrases import read_meteor_paraphrases

    return ((a, b) for a, b, _ in read_meteor_paraphrases(path))


def build_paraphrase_index(entries: Iterable[tuple[str, str]], out: str | Path) -> None:
    """Write a table's (phrase, paraphrase) entries as the integer arrays of the compiled matcher."""
    from mtmeta.metrics.meteor.phrases import PhraseArrays

    PhraseArrays.from_entries(entries).save(out)
