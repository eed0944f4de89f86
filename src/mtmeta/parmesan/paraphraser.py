"""Targeted paraphrasing of references (seed 002, "Parmesan"): new references closer in wording to
each hypothesis, scored afterwards with unchanged metrics.

For one (hypothesis, reference) pair, with lemma sets W_L (hypothesis) and R_L (reference):

- **One-word candidates** are the pairs (r, w) with r in R_L - W_L and w in W_L - R_L that the
  paraphrase lexicon lists; **multi-word candidates** pair a reference word sequence with a
  hypothesis word sequence (up to 7 words each, not both single words) that the lexicon lists,
  where the reference sequence does not occur in the hypothesis nor the hypothesis sequence in the
  reference (the same set differences, for sequences).
- **Selection** ``greedy`` takes every candidate; ``alignment`` keeps only one-word pairs linked by
  a word alignment of reference and hypothesis, and phrase pairs consistent with it (Och's
  criterion: some link inside, none leaving the pair on either side).
- **Orders**: ``one-word-only`` walks the reference from left to right and replaces a word whose
  lemma has a candidate by the hypothesis word form carrying the paraphrase lemma;
  ``one-word-first`` then applies phrase pairs, longest reference sequence first, never touching
  a changed word; ``multi-word-first`` applies phrase pairs first, then single words on what is
  left unchanged.
- Choices the seed leaves open, made here and documented: a word with several paraphrases takes
  the first in the lexicon's order; each hypothesis word serves as a replacement at most once.

Everything here is pure: lemmatiser, lexicon and alignment links are passed in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

from mtmeta.errors import ConfigError

ORDERS = ("one-word-only", "one-word-first", "multi-word-first")
SELECTIONS = ("greedy", "alignment")
MAX_PHRASE = 7  # the longest paraphrases of the seed's tables


@dataclass
class Lexicon:
    """Paraphrase pairs over lemmas: single words, and sequences where one side has several words."""

    words: dict[str, tuple[str, ...]]
    phrases: dict[tuple[str, ...], frozenset[tuple[str, ...]]]
    max_phrase: int = MAX_PHRASE
    n_entries: int = 0

    @classmethod
    def build(cls, entries: Iterable[tuple[str, str]], lemma: Callable[[str], str],
              max_phrase: int = MAX_PHRASE) -> Lexicon:
        """From (phrase, paraphrase) pairs of word forms or lemmas; both directions are added
        (synonymy is symmetric), each side lemmatised word by word."""
        words: dict[str, list[str]] = defaultdict(list)
        phrases: dict[tuple[str, ...], set[tuple[str, ...]]] = defaultdict(set)
        n = 0
        sequences: dict[str, tuple[str, ...]] = {}  # a text's lemmas (a thesaurus's headword recurs in every pair)
        for phrase, paraphrase in entries:
            a = sequences.get(phrase)
            if a is None:
                a = sequences[phrase] = tuple(lemma(w) for w in phrase.split())
            b = sequences.get(paraphrase)
            if b is None:
                b = sequences[paraphrase] = tuple(lemma(w) for w in paraphrase.split())
            if not a or not b or a == b or len(a) > max_phrase or len(b) > max_phrase:
                continue
            n += 1
            if len(a) == 1 and len(b) == 1:
                for x, y in ((a[0], b[0]), (b[0], a[0])):
                    if y not in words[x]:
                        words[x].append(y)
            else:
                phrases[a].add(b)
                phrases[b].add(a)
        return cls({k: tuple(v) for k, v in words.items()}, {k: frozenset(v) for k, v in phrases.items()},
                   max_phrase, n)

    def keep_pairs(self, allowed: set[tuple[str, str]]) -> Lexicon:
        """The one-word part restricted to ``allowed`` lemma pairs (either direction); phrases dropped."""
        words = {}
        for x, ys in self.words.items():
            kept = tuple(y for y in ys if (x, y) in allowed or (y, x) in allowed)
            if kept:
                words[x] = kept
        return Lexicon(words, {}, self.max_phrase, len(allowed))

    @cached_property
    def word_ranks(self) -> dict[str, dict[str, int]]:
        """Each one-word lemma's paraphrases with their position in the lexicon's order."""
        return {x: {y: k for k, y in enumerate(ys)} for x, ys in self.words.items()}

    def word_pairs(self) -> list[tuple[str, str]]:
        """Every one-word pair once (unordered), in the lexicon's order."""
        seen, pairs = set(), []
        for x, ys in self.words.items():
            for y in ys:
                key = (x, y) if x <= y else (y, x)
                if key not in seen:
                    seen.add(key)
                    pairs.append(key)
        return pairs


@dataclass
class Substitution:
    kind: str  # "word" or "phrase"
    ref_span: tuple[int, int]
    hyp_span: tuple[int, int]
    before: str
    after: str


@dataclass
class Paraphrased:
    tokens: list[str]
    substitutions: list[Substitution] = field(default_factory=list)

    @property
    def words(self) -> int:
        return sum(1 for s in self.substitutions if s.kind == "word")

    @property
    def phrases(self) -> int:
        return sum(1 for s in self.substitutions if s.kind == "phrase")


def _consistent(ref_span: tuple[int, int], hyp_span: tuple[int, int], links: set[tuple[int, int]]) -> bool:
    """Och's phrase-extraction criterion for a (reference span, hypothesis span) pair."""
    (r0, r1), (h0, h1) = ref_span, hyp_span
    inside = False
    for i, j in links:
        in_ref, in_hyp = r0 <= i < r1, h0 <= j < h1
        if in_ref != in_hyp:
            return False
        inside |= in_ref
    return inside


class Paraphraser:
    """Paraphrase references towards hypotheses with one lexicon, selection and order."""

    def __init__(self, lexicon: Lexicon, lemma: Callable[[str], str], order: str = "one-word-only"):
        if order not in ORDERS:
            raise ConfigError(f"unknown substitution order {order!r}; known: {', '.join(ORDERS)}")
        self.lexicon, self.lemma, self.order = lexicon, lemma, order
        self._entries: dict[tuple[str, ...], list[tuple]] = {}  # per reference: _reference_entries

    def __call__(self, reference: list[str], hypothesis: list[str],
                 links: set[tuple[int, int]] | None = None) -> Paraphrased:
        """``links``: word alignment (reference index, hypothesis index); None for greedy selection."""
        ref_lemmas = [self.lemma(w) for w in reference]
        hyp_lemmas = [self.lemma(w) for w in hypothesis]
        return self.walk(reference, hypothesis, ref_lemmas, hyp_lemmas, links)

    def walk(self, reference: list[str], hypothesis: list[str], ref_lemmas: list[str], hyp_lemmas: list[str],
             links: set[tuple[int, int]] | None = None, word_slots: list | None = None,
             phrases: list | None = None) -> Paraphrased:
        """:meth:`__call__` with the lemmas given, and optionally the lexicon's candidates of the pair
        (:meth:`word_slots`, :meth:`phrase_candidates`), which do not depend on order and selection."""
        state = _State(reference, hypothesis, ref_lemmas, hyp_lemmas, links)
        for step in {"one-word-only": ("words",), "one-word-first": ("words", "phrases"),
                     "multi-word-first": ("phrases", "words")}[self.order]:
            if step == "words":
                self._words(state, word_slots)
            else:
                self._phrases(state, phrases)
        return Paraphrased(state.output(), state.substitutions)

    def word_slots(self, ref_lemmas: list[str], hyp_lemmas: list[str]) -> list[tuple[int, tuple[list[int], ...]]]:
        """(reference position, hypothesis positions of each paraphrase the hypothesis offers, in
        lexicon order) of each reference word not in the hypothesis with such paraphrases: the
        hypothesis's lemmas that the reference lacks, ranked by the reference lemma's lexicon order
        (the ranks of one lemma's paraphrases are distinct)."""
        ref_set, hyp_set = set(ref_lemmas), set(hyp_lemmas)
        positions: dict[str, list[int]] = defaultdict(list)
        for j, lemma in enumerate(hyp_lemmas):
            positions[lemma].append(j)
        offers = [w for w in positions if w not in ref_set]
        if not offers:
            return []
        ranks = self.lexicon.word_ranks
        slots = []
        for i, r in enumerate(ref_lemmas):
            if r in hyp_set:
                continue
            rank = ranks.get(r)
            if not rank:
                continue
            found = [(k, w) for w in offers if (k := rank.get(w)) is not None]
            if found:
                if len(found) > 1:
                    found.sort()
                slots.append((i, tuple(positions[w] for _, w in found)))
        return slots

    def _words(self, s: _State, slots: list | None = None) -> None:
        """Each reference word not in the hypothesis takes the first of its paraphrases, in lexicon
        order, that the hypothesis has (and the reference has not) at a free (and linked) position.

        The search runs over the hypothesis's lemmas with their lexicon rank (:meth:`word_slots`),
        which finds the same word as walking the lexicon's list and is much faster for words with
        many paraphrases."""
        if slots is None:
            slots = self.word_slots(s.ref_lemmas, s.hyp_lemmas)
        changed, used, links = s.changed, s.used, s.links
        for i, candidates in slots:
            if changed[i]:
                continue
            choice = None
            for js in candidates:
                for j in js:
                    if j not in used and (links is None or (i, j) in links):
                        choice = j
                        break
                if choice is not None:
                    break
            if choice is not None:
                s.replace((i, i + 1), (choice, choice + 1), "word")

    def _phrases(self, s: _State, candidates: list | None = None) -> None:
        if not self.lexicon.phrases:
            return
        if candidates is None:
            candidates = self.phrase_candidates(s.ref_lemmas, s.hyp_lemmas)
        for a, b, i, j in candidates:
            if any(s.changed[i : i + a]) or any(k in s.used for k in range(j, j + b)):
                continue
            if s.links is not None and not _consistent((i, i + a), (j, j + b), s.links):
                continue
            s.replace((i, i + a), (j, j + b), "phrase")

    def phrase_candidates(self, ref_lemmas: list[str], hyp_lemmas: list[str]) -> list[tuple[int, int, int, int]]:
        """(reference length, hypothesis length, reference start, hypothesis start) of each phrase
        substitution the lexicon offers: a reference lemma sequence with paraphrases that the
        hypothesis lacks, and each of those paraphrases that the reference lacks, at each place the
        hypothesis has it. Longest reference sequence first; then longer hypothesis sequence, then leftmost."""
        entries = self._reference_entries(tuple(ref_lemmas))
        if not entries:
            return []
        starts: dict[str, list[int]] = defaultdict(list)
        for j, lemma in enumerate(hyp_lemmas):
            starts[lemma].append(j)

        def places(seq: tuple[str, ...]) -> list[int]:
            return [j for j in starts.get(seq[0], ()) if tuple(hyp_lemmas[j : j + len(seq)]) == seq]

        candidates = []
        for a, i, ref_seq, targets in entries:
            if places(ref_seq):
                continue
            for hyp_seq in targets:
                candidates += [(a, len(hyp_seq), i, j) for j in places(hyp_seq)]
        return sorted(candidates, key=lambda c: (-c[0], -c[1], c[2], c[3]))

    def _reference_entries(self, ref: tuple[str, ...]) -> list[tuple]:
        """(length, start, sequence, paraphrases absent from the reference) of every reference lemma
        sequence the lexicon has (kept per reference: every system shares it)."""
        found = self._entries.get(ref)
        if found is None:
            longest = self.lexicon.max_phrase
            present = {ref[k : k + n] for n in range(1, longest + 1) for k in range(len(ref) - n + 1)}
            found = []
            for a in range(1, longest + 1):
                for i in range(len(ref) - a + 1):
                    targets = self.lexicon.phrases.get(ref[i : i + a])
                    if targets:
                        kept = [t for t in targets if t not in present]
                        if kept:
                            found.append((a, i, ref[i : i + a], kept))
            self._entries[ref] = found
        return found


class _State:
    def __init__(self, reference, hypothesis, ref_lemmas, hyp_lemmas, links):
        self.reference, self.hypothesis = reference, hypothesis
        self.ref_lemmas, self.hyp_lemmas = ref_lemmas, hyp_lemmas
        self.links = links
        self.slots: list[list[str]] = [[w] for w in reference]
        self.changed = [False] * len(reference)
        self.used: set[int] = set()
        self.substitutions: list[Substitution] = []

    def replace(self, ref_span, hyp_span, kind):
        (i0, i1), (j0, j1) = ref_span, hyp_span
        before = " ".join(self.reference[i0:i1])
        after = self.hypothesis[j0:j1]
        self.slots[i0] = list(after)
        for i in range(i0 + 1, i1):
            self.slots[i] = []
        for i in range(i0, i1):
            self.changed[i] = True
        self.used.update(range(j0, j1))
        self.substitutions.append(Substitution(kind, ref_span, hyp_span, before, " ".join(after)))

    def output(self) -> list[str]:
        return [w for slot in self.slots for w in slot]


class SegmentTexts:
    """A segment table's texts tokenised and lemmatised once (each distinct text once) for every
    setting that paraphrases it, and each lexicon's candidates per row, found once per lexicon
    (:meth:`Paraphraser.word_slots`, :meth:`Paraphraser.phrase_candidates`: they depend on the
    lexicon and the lemmas only, not on order and selection). Tokens and lemmas are only read."""

    def __init__(self, segments, tokenize: Callable[[str], list[str]], lemma: Callable[[str], str]):
        self.lemma = lemma
        self.systems = segments["system"].tolist()
        self.seg_ids = [int(seg_id) for seg_id in segments["seg_id"].tolist()]
        texts: dict[str, tuple[list[str], list[str], str]] = {}

        def of(text: str) -> tuple[list[str], list[str], str]:
            found = texts.get(text)
            if found is None:
                tokens = tokenize(text)
                found = texts[text] = (tokens, [lemma(w) for w in tokens], " ".join(tokens))
            return found

        # (reference tokens, lemmas, joined), (hypothesis tokens, lemmas, joined) per row
        self.rows = [(of(ref), of(hyp)) for hyp, ref in zip(segments["hypothesis"].tolist(),
                                                              segments["reference"].tolist(), strict=True)]
        self._candidates: dict[int, list] = {}  # id(lexicon) -> [lexicon, word slots, phrase candidates]

    def candidates(self, paraphraser: Paraphraser, phrases: bool) -> tuple[list, list | None]:
        """(word slots, phrase candidates or None if not ``phrases``) of each row with the paraphraser's lexicon."""
        if paraphraser.lemma is not self.lemma:
            raise ValueError("the paraphraser lemmatises with another function than these texts' lemmas")
        lexicon = paraphraser.lexicon
        entry = self._candidates.get(id(lexicon))
        if entry is None:  # an equal lexicon (two filters can keep the same pairs) has the same candidates
            entry = next((known for known in self._candidates.values() if known[0] == lexicon), None)
            # The lexicon kept in the entry: its id stays unique.
            entry = self._candidates[id(lexicon)] = entry or [lexicon, None, None]
        if entry[1] is None:
            entry[1] = [paraphraser.word_slots(ref[1], hyp[1]) for ref, hyp in self.rows]
        if phrases and entry[2] is None:
            entry[2] = ([paraphraser.phrase_candidates(ref[1], hyp[1]) for ref, hyp in self.rows]
                        if lexicon.phrases else [[] for _ in self.rows])
        return entry[1], entry[2] if phrases else None


def paraphrase_segments(segments, paraphraser: Paraphraser, tokenize: Callable[[str], list[str]],
                        links: dict | None = None, texts: SegmentTexts | None = None):
    """New references for every system x segment of a prepared segment table.

    ``tokenize`` splits hypothesis and reference (the new reference is the tokens joined by
    spaces); ``links`` maps (system, seg_id) to alignment links for the alignment selection;
    ``texts``: the table's :class:`SegmentTexts` when several settings share them (made here if None).
    Returns the segment table with the new ``reference`` (the old one in ``original_reference``)
    and per-row counts ``words_replaced`` / ``phrases_replaced``, and one row per substitution.
    """
    import pandas as pd

    if texts is None:
        texts = SegmentTexts(segments, tokenize, paraphraser.lemma)
    elif len(texts.rows) != len(segments):
        raise ValueError(f"the shared texts have {len(texts.rows)} rows, the segment table {len(segments)}")
    word_slots, phrase_candidates = texts.candidates(paraphraser, paraphraser.order != "one-word-only")
    new_refs, words, phrases, subs = [], [], [], []
    for row, (system, seg_id, (ref, hyp)) in enumerate(zip(texts.systems, texts.seg_ids, texts.rows, strict=True)):
        pair_links = None
        if links is not None:
            key = (system, seg_id)
            if key not in links:
                raise ValueError(f"no word alignment for system {system!r}, segment {seg_id}")
            pair_links = links[key]
        slots = word_slots[row]
        candidates = phrase_candidates[row] if phrase_candidates is not None else None
        if not slots and not candidates:  # nothing to substitute: the reference as it is
            new_refs.append(ref[2])
            words.append(0)
            phrases.append(0)
            continue
        result = paraphraser.walk(ref[0], hyp[0], ref[1], hyp[1], pair_links, slots, candidates)
        new_refs.append(" ".join(result.tokens))
        words.append(result.words)
        phrases.append(result.phrases)
        for sub in result.substitutions:
            subs.append({"system": system, "seg_id": seg_id, "kind": sub.kind, "before": sub.before,
                         "after": sub.after, "reference": ref[2], "new_reference": new_refs[-1],
                         "hypothesis": hyp[2]})
    table = segments.copy()
    table["original_reference"] = table["reference"]
    table["reference"] = new_refs
    table["words_replaced"] = words
    table["phrases_replaced"] = phrases
    columns = ["system", "seg_id", "kind", "before", "after", "reference", "new_reference", "hypothesis"]
    return table, pd.DataFrame(subs, columns=columns)
