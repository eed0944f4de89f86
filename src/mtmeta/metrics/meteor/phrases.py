"""A paraphrase table as integer arrays: what the compiled paraphrase matcher reads.

Words and phrases get ids; each phrase with paraphrases (a *key*) lists its paraphrases in table
order; keys and their proper prefixes are found by a 64-bit hash of their word ids in
open-addressing slot tables (see :mod:`mtmeta.metrics.meteor.paraphrase_kernel`). The same entries
as :class:`mtmeta.lexicons.paraphrases.ParaphraseTable` (normalised to single spaces; empty sides
and a phrase paired with itself dropped; repeated entries kept), so both matchers give the same
candidates. Meteor's English table (5.3 million entries) and each MyThes thesaurus read whole as a
paraphrase table are built once into a folder of ``.npy`` files (rule ``index_paraphrase_table``);
other tables (a filtered thesaurus, a table given by path) are built in memory when needed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mtmeta.lexicons.paraphrases import MAX_PHRASE

FORMAT = 1  # of the saved folder; a change of layout or hash changes it
ARRAYS = ("phrase_ptr", "phrase_words", "key_phrase", "key_ptr", "key_paraphrases", "key_hash", "key_slots",
          "prefix_hashes", "prefix_slots", "is_first")


def _slot_table(hashes: np.ndarray) -> np.ndarray:
    from mtmeta.metrics.meteor.paraphrase_kernel import fill_slots

    size = 1
    while size < 2 * len(hashes):
        size *= 2
    return fill_slots(hashes, size)


@dataclass
class PhraseArrays:
    words: list[str]
    phrase_ptr: np.ndarray  # phrase p's word ids: phrase_words[phrase_ptr[p]:phrase_ptr[p + 1]]
    phrase_words: np.ndarray
    key_phrase: np.ndarray  # key k is phrase key_phrase[k] ...
    key_ptr: np.ndarray  # ... with paraphrases key_paraphrases[key_ptr[k]:key_ptr[k + 1]] (phrase ids)
    key_paraphrases: np.ndarray
    key_hash: np.ndarray  # uint64: the hash of key k's words (paraphrase_kernel.hash_step)
    key_slots: np.ndarray
    prefix_hashes: np.ndarray  # the same hash of every proper prefix of a key (distinct)
    prefix_slots: np.ndarray
    is_first: np.ndarray  # whether a word begins a key
    max_length: int  # words of the longest key (at most MAX_PHRASE)

    def __post_init__(self):
        self.word_id = {word: i for i, word in enumerate(self.words)}

    # -- building --------------------------------------------------------------------------------------
    @classmethod
    def from_entries(cls, entries: Iterable[tuple[str, str]]) -> PhraseArrays:
        """The table of (phrase, paraphrase) entries, in their order.

        Ids in order of first sight: a phrase's when an entry first names it (its phrase, then its
        paraphrase), a word's when a new phrase first holds it, a key's when a phrase first has a
        paraphrase; each key's paraphrases in entry order. (Numbered by factorising the entries at
        once, which gives the ids that interning them one by one gives.)
        """
        import pandas as pd

        sides: list[str] = []  # phrase, paraphrase, phrase, paraphrase, ... of the entries kept
        for phrase, paraphrase in entries:
            phrase, paraphrase = " ".join(phrase.split()), " ".join(paraphrase.split())
            if phrase and paraphrase and phrase != paraphrase:
                sides += (phrase, paraphrase)
        codes, phrases = pd.factorize(np.array(sides, dtype=object), sort=False)
        codes = codes.astype(np.int64)
        split = [phrase.split(" ") for phrase in phrases]
        word_codes, words = pd.factorize(np.array([w for ws in split for w in ws], dtype=object), sort=False)
        phrase_ptr = np.zeros(len(phrases) + 1, dtype=np.int64)
        phrase_ptr[1:] = np.cumsum([len(ws) for ws in split])
        key_codes, key_phrase = pd.factorize(codes[0::2], sort=False)
        order = np.argsort(key_codes, kind="stable")
        key_ptr = np.zeros(len(key_phrase) + 1, dtype=np.int64)
        key_ptr[1:] = np.cumsum(np.bincount(key_codes, minlength=len(key_phrase)))
        return cls.from_arrays([str(w) for w in words], phrase_ptr, word_codes.astype(np.int64),
                               np.asarray(key_phrase, dtype=np.int64), key_ptr, codes[1::2][order])

    @classmethod
    def from_arrays(cls, words, phrase_ptr, phrase_words, key_phrase, key_ptr, key_paraphrases) -> PhraseArrays:
        """Hashes and slot tables for the given phrases and keys."""
        starts = phrase_ptr[key_phrase]
        lengths = phrase_ptr[key_phrase + 1] - starts
        longest = int(lengths.max()) if len(lengths) else 0
        hashes = np.zeros(len(key_phrase), dtype=np.uint64)
        prefixes = []
        from mtmeta.metrics.meteor.paraphrase_kernel import MULTIPLIER

        for position in range(longest):  # the kernel's hash_step, for all keys at once (uint64 wraps)
            going = np.flatnonzero(lengths > position)
            hashes[going] = hashes[going] * MULTIPLIER + (phrase_words[starts[going] + position] + 1).astype(np.uint64)
            prefixes.append(hashes[np.flatnonzero(lengths > position + 1)])
        key_hash = hashes
        if len(np.unique(key_hash)) != len(key_hash):  # unlikely (< 1e-6 for Meteor's English table)
            raise ValueError("two paraphrase-table phrases share a 64-bit hash: change paraphrase_kernel.MULTIPLIER")
        prefix_hashes = np.unique(np.concatenate([np.zeros(0, dtype=np.uint64), *prefixes]))
        is_first = np.zeros(len(words), dtype=np.bool_)
        is_first[phrase_words[starts]] = True
        return cls(list(words), phrase_ptr, phrase_words, key_phrase, key_ptr, key_paraphrases, key_hash,
                   _slot_table(key_hash), prefix_hashes, _slot_table(prefix_hashes), is_first,
                   min(longest, MAX_PHRASE))

    def save(self, out: str | Path) -> None:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        for name in ARRAYS:
            np.save(out / f"{name}.npy", getattr(self, name))
        (out / "words.txt").write_text("\n".join(self.words), encoding="utf-8")
        meta = {"format": FORMAT, "max_length": self.max_length, "words": len(self.words),
                "phrases": len(self.phrase_ptr) - 1, "keys": len(self.key_phrase), "entries": len(self.key_paraphrases)}
        (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> PhraseArrays:
        path = Path(path)
        meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: paraphrase arrays of format {meta.get('format')}, this version reads {FORMAT}")
        words = (path / "words.txt").read_text(encoding="utf-8").split("\n") if meta["words"] else []
        arrays = {name: np.load(path / f"{name}.npy") for name in ARRAYS}
        return cls(words=words, max_length=int(meta["max_length"]), **arrays)

    # -- reading -----------------------------------------------------------------------------------------
    def phrase(self, p: int) -> str:
        return " ".join(self.words[w] for w in self.phrase_words[self.phrase_ptr[p] : self.phrase_ptr[p + 1]])

    def entries(self) -> Iterator[tuple[str, str]]:
        """(phrase, paraphrase) entries, key by key (each key's in table order)."""
        for k, p in enumerate(self.key_phrase.tolist()):
            phrase = self.phrase(p)
            for q in self.key_paraphrases[self.key_ptr[k] : self.key_ptr[k + 1]].tolist():
                yield phrase, self.phrase(q)

    def ids(self, words: Iterable[str]) -> np.ndarray:
        """Table word ids (-1: not in the table)."""
        get = self.word_id.get
        return np.fromiter((get(w, -1) for w in words), dtype=np.int64)

    def reference_entries(self, ref_ids, ref_off) -> tuple[np.ndarray, np.ndarray]:
        """The entries looked up from each of many references given as table word ids with offsets
        (see :func:`mtmeta.metrics.meteor.paraphrase_kernel.corpus_entries`), for :meth:`candidates`."""
        from mtmeta.metrics.meteor.paraphrase_kernel import corpus_entries

        return corpus_entries(ref_ids, ref_off, self.max_length, self.is_first, self.phrase_ptr, self.phrase_words,
                              self.key_phrase, self.key_hash, self.key_slots, self.key_ptr, self.key_paraphrases,
                              self.prefix_hashes, self.prefix_slots)

    def candidates(self, hyp_ids, hyp_off, ref_ids, ref_off, skip, entries=None) -> tuple[np.ndarray, np.ndarray]:
        """Candidates (ref start, ref length, hyp start, hyp length) of many pairs given as table word
        ids with offsets; those of pair k are rows ``off[k]:off[k + 1]`` (none where ``skip[k]``).
        ``entries``: :meth:`reference_entries` of these references, when already known (every system of a test
        set has the same references)."""
        from mtmeta.metrics.meteor.paraphrase_kernel import corpus_candidates

        found, found_off = self.reference_entries(ref_ids, ref_off) if entries is None else entries
        return corpus_candidates(hyp_ids, hyp_off, ref_ids, ref_off, np.asarray(skip, dtype=np.bool_), found,
                                 found_off, self.max_length, self.is_first, self.phrase_ptr, self.phrase_words,
                                 self.key_phrase, self.key_hash, self.key_slots, self.key_ptr, self.key_paraphrases,
                                 self.prefix_hashes, self.prefix_slots)

    def matcher(self) -> Callable:
        """A matcher for :class:`mtmeta.metrics.meteor.aligner.Aligner`: one pair at a time."""
        from mtmeta.metrics.meteor.aligner import Match

        def match(hyp: Sequence[str], ref: Sequence[str], module: int):
            rows, _ = self.candidates(self.ids(hyp), np.array([0, len(hyp)]), self.ids(ref), np.array([0, len(ref)]),
                                      [False])
            return [Match(module, *row) for row in rows.tolist()]

        return match
