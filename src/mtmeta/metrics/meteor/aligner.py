"""Meteor 1.5's alignment: candidate matches from every module, then a beam search.

The procedure follows Meteor 1.5 (``edu.cmu.meteor.aligner.Aligner``) step by step:

1. Every module proposes candidate matches, in module order; each candidate links a span of the
   hypothesis to a span of the reference (single words, or phrases for paraphrases). Exact:
   identical words. Stem: equal stems, different words. Synonym: a shared synset, different
   words. Paraphrase: table entries looked up from reference spans, then from hypothesis spans.
   If the two sentences are identical, only the first module runs.
2. A reference position with exactly one candidate whose words no other candidate touches is
   fixed in advance.
3. A beam search (40 paths by default) walks the reference left to right; at each position a
   path takes one of the free candidates starting there, or skips the position. Paths are ranked
   by coverage, then fewer chunks, then smaller summed distance |ref start - hyp start|.

Two details of the shipped Meteor 1.5 are kept because they change results:

- Coverage uses the *alignment* weights (exact 1.0, every other module 0.5; not the scoring
  weights), accumulated in integers: a candidate adds floor(w * hyp span) + floor(w * ref span).
  A one-word stem, synonym or paraphrase match therefore adds no coverage, and competes through
  chunks and distance only.
- When a path branches on a candidate, that candidate's distance is added to the *parent* path
  (which continues as the "skip" path), not to the new path.

The result is the per-module content/function match counts of both sides, the chunk count and
the matched word totals: Meteor's sufficient statistics.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from mtmeta.lexicons.paraphrases import ParaphraseTable

ALIGNMENT_WEIGHTS = {"exact": 1.0}  # every other module: 0.5
DEFAULT_BEAM = 40


@dataclass(frozen=True, slots=True)
class Match:
    module: int  # position in the module list
    start: int  # reference span
    length: int
    hyp_start: int  # hypothesis span
    hyp_length: int


Matcher = Callable[[Sequence[str], Sequence[str], int], Iterable[Match]]


def _equal_keys(hyp: Sequence[str], ref: Sequence[str], module: int, key: Callable) -> Iterable[Match]:
    """One-word matches of words whose keys are equal, in reference then hypothesis order."""
    positions: dict = defaultdict(list)
    for i, word in enumerate(hyp):
        positions[key(word)].append(i)
    for j, word in enumerate(ref):
        for i in positions.get(key(word), ()):
            yield Match(module, j, 1, i, 1)


def exact_matcher(hyp: Sequence[str], ref: Sequence[str], module: int) -> Iterable[Match]:
    return _equal_keys(hyp, ref, module, str)


def java_hash(word: str) -> int:
    """Java's ``String.hashCode`` (over UTF-16 code units, as a signed 32-bit int)."""
    units = word.encode("utf-16-be")
    value = 0
    for k in range(0, len(units), 2):
        value = (31 * value + int.from_bytes(units[k : k + 2], "big")) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def java_hash_exact_matcher(hyp: Sequence[str], ref: Sequence[str], module: int) -> Iterable[Match]:
    """Exact matches as the Meteor 1.5 jar finds them: words with equal Java hashes."""
    return _equal_keys(hyp, ref, module, java_hash)


def stem_matcher(stem: Callable[[str], str]) -> Matcher:
    def match(hyp: Sequence[str], ref: Sequence[str], module: int) -> Iterable[Match]:
        positions: dict[str, list[int]] = defaultdict(list)
        for i, word in enumerate(hyp):
            positions[stem(word)].append(i)
        for j, word in enumerate(ref):
            for i in positions.get(stem(word), ()):
                if hyp[i] != word:
                    yield Match(module, j, 1, i, 1)

    return match


def synonym_matcher(synsets: Callable[[str], frozenset]) -> Matcher:
    def match(hyp: Sequence[str], ref: Sequence[str], module: int) -> Iterable[Match]:
        members: dict[object, set[int]] = defaultdict(set)
        for i, word in enumerate(hyp):
            for synset in synsets(word):
                members[synset].add(i)
        for j, word in enumerate(ref):
            found = set().union(*(members.get(s, ()) for s in synsets(word)))
            for i in sorted(found):
                if hyp[i] != word:
                    yield Match(module, j, 1, i, 1)

    return match


def _occurrences(words: Sequence[str], phrase: str, first: dict[str, list[int]]) -> Iterable[tuple[int, int]]:
    """(position, length) of each occurrence of a space-joined phrase."""
    head, space, _ = phrase.partition(" ")
    starts = first.get(head)
    if not starts:
        return ()
    if not space:  # one word: every position of it
        return [(k, 1) for k in starts]
    parts = phrase.split(" ")
    n = len(parts)
    return [(k, n) for k in starts if list(words[k : k + n]) == parts]


def _entries_at(words: Sequence[str], start: int, table: ParaphraseTable):
    """(length, paraphrases) of the table's phrases starting at ``words[start]``, shortest first."""
    found = []
    gram = words[start]
    for length in range(1, min(table.max_length, len(words) - start) + 1):
        if length > 1:
            gram = gram + " " + words[start + length - 1]
        paraphrases = table.get(gram)
        if paraphrases:
            found.append((length, paraphrases))
        if gram not in table.prefixes:  # no longer phrase starts with these words
            break
    return found


def paraphrase_matcher(table: ParaphraseTable) -> Matcher:
    """Candidates of Meteor 1.5's paraphrase module, in its order: entries looked up from the
    reference (their paraphrases found in the hypothesis), then from the hypothesis (found in the
    reference). The reference's own lookups and word positions are computed once per reference,
    and a lookup stops growing a phrase as soon as no table phrase starts with it."""
    starts = table.first_words
    cache: dict[tuple, tuple] = {}

    def prepare(ref: Sequence[str]) -> tuple:
        key = tuple(ref)
        found = cache.get(key)
        if found is None:
            # The reference's entries, indexed by the first word of each paraphrase: a hypothesis
            # only needs those whose first word it contains (then sorted back into Meteor's order).
            by_head: dict[str, list[tuple]] = defaultdict(list)
            order = 0
            for j in range(len(ref)):
                if ref[j] in starts:
                    for length, paraphrases in _entries_at(ref, j, table):
                        for paraphrase in paraphrases:
                            by_head[paraphrase.partition(" ")[0]].append((order, j, length, paraphrase))
                            order += 1
            first: dict[str, list[int]] = defaultdict(list)
            for j, word in enumerate(ref):
                first[word].append(j)
            found = cache[key] = (by_head, first, {})
        return found

    def match(hyp: Sequence[str], ref: Sequence[str], module: int) -> Iterable[Match]:
        if not table.max_length:
            return
        by_head, ref_first, where = prepare(ref)
        hyp_first: dict[str, list[int]] = defaultdict(list)
        for i, word in enumerate(hyp):
            hyp_first[word].append(i)
        # Entries looked up from the reference, their paraphrases found in the hypothesis ...
        forward = [entry for word in hyp_first for entry in by_head.get(word, ())]
        forward.sort()
        for _, j, length, paraphrase in forward:
            for i, n in _occurrences(hyp, paraphrase, hyp_first):
                yield Match(module, j, length, i, n)
        # ... then from the hypothesis, found in the reference (the order of Meteor 1.5's two passes).
        for i in range(len(hyp)):
            if hyp[i] not in starts:
                continue
            for length, paraphrases in _entries_at(hyp, i, table):
                for paraphrase in paraphrases:
                    places = where.get(paraphrase)
                    if places is None:
                        places = where[paraphrase] = _occurrences(ref, paraphrase, ref_first)
                    for j, n in places:
                        yield Match(module, j, n, i, length)

    return match


# A search path is a list, so that branching is a C-level copy and ranking a C-level key:
# [-coverage, chunks, distance, next reference position, end of last match in the hypothesis
#  (-1: no open chunk), used hypothesis words (bit mask), used reference words (bit mask), chain]
_RANK = itemgetter(0, 1, 2)


def _span_mask(start: int, length: int) -> int:
    return ((1 << length) - 1) << start


class Aligner:
    """Align tokenised sentences with a list of (module name, matcher) in priority order."""

    def __init__(self, modules: Sequence[tuple[str, Matcher]], beam: int = DEFAULT_BEAM):
        self.names = [name for name, _ in modules]
        self.matchers = [matcher for _, matcher in modules]
        self.weights = [ALIGNMENT_WEIGHTS.get(name, 0.5) for name in self.names]
        self.beam = beam

    def _option(self, match: Match) -> tuple:
        """A candidate with everything the search needs precomputed."""
        weight = self.weights[match.module]
        gain = int(match.hyp_length * weight) + int(match.length * weight)  # Meteor's integer coverage
        return (gain, _span_mask(match.hyp_start, match.hyp_length), _span_mask(match.start, match.length),
                abs(match.start - match.hyp_start), match.hyp_start, match.start + match.length,
                match.hyp_start + match.hyp_length, match)

    def align(self, hyp: Sequence[str], ref: Sequence[str]) -> list[Match]:
        """The matches of the best alignment, in reference order."""
        n = len(ref)
        matchers = self.matchers[:1] if list(hyp) == list(ref) else self.matchers
        candidates: list[list[Match]] = [[] for _ in range(n)]
        hyp_cover = [0] * len(hyp)
        ref_cover = [0] * n
        for module, matcher in enumerate(matchers):
            for match in matcher(hyp, ref, module):
                candidates[match.start].append(match)
                for k in range(match.hyp_start, match.hyp_start + match.hyp_length):
                    hyp_cover[k] += 1
                for k in range(match.start, match.start + match.length):
                    ref_cover[k] += 1

        fixed: dict[int, tuple] = {}
        hyp_used = ref_used = 0
        open_choices = False
        for j, options in enumerate(candidates):
            if len(options) == 1:
                match = options[0]
                if all(ref_cover[k] == 1 for k in range(match.start, match.start + match.length)) and all(
                    hyp_cover[k] == 1 for k in range(match.hyp_start, match.hyp_start + match.hyp_length)
                ):
                    fixed[j] = self._option(match)
                    hyp_used |= fixed[j][1]
                    ref_used |= fixed[j][2]
                    continue
            open_choices = open_choices or bool(options)
        if not open_choices:  # nothing to search: the fixed matches are the alignment
            return [fixed[j][-1] for j in sorted(fixed)]

        best = self._search([[self._option(m) for m in options] for options in candidates], fixed, hyp_used,
                            ref_used, n)
        chosen = []
        chain = best[7]
        while chain is not None:
            chosen.append(chain[0])
            chain = chain[1]
        chosen.reverse()
        return chosen

    def _search(self, candidates, fixed, hyp_used, ref_used, n) -> list:
        beam = self.beam
        next_paths = [[0, 0, 0, 0, -1, hyp_used, ref_used, None]]
        for current in range(n):
            paths = sorted(next_paths, key=_RANK)  # stable, as Java's Collections.sort
            next_paths = []
            append = next_paths.append
            bit = 1 << current
            options = candidates[current]
            for path in paths[:beam]:
                if path[6] & bit:
                    if current < path[3]:
                        append(path)  # inside a match taken earlier
                    elif path[3] in fixed:
                        gain, _, _, distance, hyp_start, ref_end, hyp_end, match = fixed[path[3]]
                        path[0] -= gain
                        if path[4] != -1 and hyp_start != path[4]:
                            path[1] += 1
                        path[2] += distance
                        path[3], path[4], path[7] = ref_end, hyp_end, (match, path[7])
                        append(path)
                    continue
                for gain, hyp_mask, ref_mask, distance, hyp_start, ref_end, hyp_end, match in options:
                    if path[5] & hyp_mask or path[6] & ref_mask:
                        continue
                    branch = path[:]
                    branch[0] -= gain
                    branch[5] |= hyp_mask
                    branch[6] |= ref_mask
                    if branch[4] != -1 and hyp_start != branch[4]:
                        branch[1] += 1
                    branch[3], branch[4], branch[7] = ref_end, hyp_end, (match, branch[7])
                    path[2] += distance  # Meteor 1.5 charges the candidate's distance to the parent
                    append(branch)
                if path[4] != -1:  # skipping this position closes the open chunk
                    path[1] += 1
                    path[4] = -1
                path[3] += 1
                append(path)
            if not next_paths:
                next_paths.append(paths[0])
        finished = sorted(next_paths, key=_RANK)[:beam]
        for path in finished:  # close the last chunk
            if path[4] != -1:
                path[1] += 1
        return sorted(finished, key=_RANK)[0]


def count_chunks(matches: Sequence[Match]) -> int:
    """Chunks of an alignment given in reference order: runs contiguous in both sentences."""
    chunks = 0
    last_end = -1
    last_ref_end = None
    for match in matches:
        contiguous = last_end != -1 and match.hyp_start == last_end and match.start == last_ref_end
        if not contiguous:
            chunks += 1
        last_end = match.hyp_start + match.hyp_length
        last_ref_end = match.start + match.length
    return chunks
