"""Embedding-softened BLEU (seed 000): BLEU whose matches earn word2vec similarity for near misses.

Statistics extend sacrebleu's BLEU rows: ``[hyp_len, ref_len, exact_1..N, soft_1..N, total_1..N]``.
``exact_n`` are sacrebleu's clipped n-gram matches (computed by sacrebleu); ``soft_n`` is the
credit earned by the n-grams left unmatched, as below. BLEU is then computed by sacrebleu's own
formula with ``correct_n = exact_n + soft_n``, so with no soft credit the score *is* sacreBLEU's.

Soft credit, after all exact clipped matches (order n = 1, and n > 1 with ``phrase=true``):

- ``method=similarity`` (seed 000's "similarity method", unigrams): each unmatched hypothesis
  unigram adds its largest cosine similarity to a remaining unmatched reference unigram, and that
  reference unigram is removed.
- ``method=generation`` (seed 000's "generation method"): each reference word offers its ``k``
  nearest neighbours in the embedding space, weighted by similarity; an unmatched hypothesis word
  that is one of a remaining reference word's neighbours earns that weight.
- ``phrase=true`` (orders 2..N): an unmatched hypothesis n-gram that differs from a remaining
  reference n-gram in exactly one word earns that word pair's similarity, if the hypothesis word
  is among the reference word's ``k`` nearest neighbours.
- ``assignment=greedy`` takes the hypothesis items in sentence order, each choosing its best
  remaining reference item (ties: the first in reference order), as the seed describes;
  ``assignment=optimal`` maximises the total credit with a one-to-one assignment (Hungarian).
- Similarities at or below ``floor`` (default 0) earn nothing: negative ones never subtract.
  A word outside the embedding vocabulary has similarity 0.

Long segments (``max_words``, default :data:`MAX_WORDS`): the similarity method compares every
unmatched hypothesis word with every unmatched reference word (a matrix of their product; the optimal
assignment takes time cubic in it), and the phrase method every pair of n-grams, so a hypothesis or
reference longer than ``max_words`` words (BLEU's tokens) is an error naming the segment, never
truncated (docs/metrics.md, 'Long segments'). It is not in the signature: it decides whether a score
exists, never its value.

The vectors come from the workflow's ``train_embeddings`` (``results/embeddings/<model>/<lang>/``)
or any word2vec file (``vectors=PATH``); their sha256 enters the signature.

``backend=compiled`` (the default) computes the unmatched n-grams, the assignments and the phrase
credit of all segments at once (:mod:`mtmeta.metrics.soft_kernel`); each segment's cosine matrix is
still its own matrix product, so the statistics are those of ``backend=python``, the per-segment
code below (tests compare both).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import ClassVar

import numpy as np
import sacrebleu

from mtmeta.embeddings.vectors import Vectors, load_vectors
from mtmeta.errors import ConfigError
from mtmeta.metrics import ngrams
from mtmeta.metrics.base import Metric, check_references
from mtmeta.metrics.bleu import BLEU, TOKENIZED_RULE, bleu_rows
from mtmeta.metrics.limits import check_lengths
from mtmeta.metrics.params import MAX_NGRAM_ORDER, MAX_SEGMENT_WORDS, Range, check_rules

METHODS = ("similarity", "generation")
NEIGHBOURS_FILE = "neighbours.cache.json.gz"  # beside the vectors
ASSIGNMENTS = ("greedy", "optimal")
BACKENDS = ("compiled", "python")  # python: the per-segment code below, the reference; the same statistics
# Longest hypothesis or reference (BLEU's tokens) that softBLEU scores: its similarity matrix is
# quadratic in the length (8 MB at 1,000 x 1,000 words), the optimal assignment cubic. Six times the
# longest WMT12-14 segment (171 tokens), as METEOR's limit.
MAX_WORDS = 1000


def _unmatched(hyp: list[tuple], ref: list[tuple]) -> tuple[list[tuple], list[tuple]]:
    """Hypothesis items beyond their clipped count (in order), and the reference items left over."""
    ref_counts = Counter(ref)
    hyp_left = []
    for item in hyp:
        if ref_counts[item] > 0:
            ref_counts[item] -= 1
        else:
            hyp_left.append(item)
    ref_left = []
    for item in ref:  # reference order; which copy of a repeated item remains does not matter
        if ref_counts[item] > 0:
            ref_counts[item] -= 1
            ref_left.append(item)
    return hyp_left, ref_left


def _assign(credit: np.ndarray, assignment: str) -> float:
    """Total credit of a one-to-one matching of rows (hypothesis) to columns (reference).

    Greedy: each row in order takes its largest credit among the columns still free (the first on
    ties), if positive (compiled: :func:`mtmeta.metrics.assign_kernel.greedy_total`)."""
    if not credit.size or not credit.any():
        return 0.0
    if assignment == "optimal":
        # scipy.optimize costs about 0.6 s to import: only the optimal assignment needs it, and every
        # process that reads the metric registry (Snakemake's, a job of another metric) imports this module.
        from scipy.optimize import linear_sum_assignment

        matrix = np.asarray(credit, dtype=float)  # summed in float64, whatever the vectors' precision
        chosen_rows, chosen_cols = linear_sum_assignment(matrix, maximize=True)
        return float(matrix[chosen_rows, chosen_cols].sum())
    from mtmeta.metrics.assign_kernel import greedy_total  # numba: imported when first needed

    return greedy_total(np.ascontiguousarray(credit, dtype=np.float64))


def _assign_sparse(rows: list[dict[int, float]], columns: int, assignment: str) -> float:
    """:func:`_assign` of a matrix given by its positive entries, one {column: credit} per row (all
    rows in order, empty ones included). The greedy walk visits only those entries: the same choices
    (largest credit, the first column on ties) and the same sums as the walk over the full rows."""
    if assignment == "optimal":
        matrix = np.zeros((len(rows), columns))
        for i, row in enumerate(rows):
            for j, value in row.items():
                matrix[i, j] = value
        return _assign(matrix, assignment)
    taken: set[int] = set()
    total = 0.0
    for row in rows:
        best_j, best = -1, 0.0
        for j in sorted(row):
            if row[j] > best and j not in taken:
                best_j, best = j, row[j]
        if best_j >= 0:
            total += best
            taken.add(best_j)
    return total


class SoftBLEU(Metric):
    name = "softbleu"
    PARAM_RANGES: ClassVar[dict] = {"k": Range(1, 100), "floor": Range(0, 1),
                                    "max_ngram_order": Range(1, MAX_NGRAM_ORDER), "smooth_value": Range(0, 100),
                                    "max_words": Range(1, MAX_SEGMENT_WORDS)}
    PARAM_RULES: ClassVar[tuple] = (TOKENIZED_RULE,)  # its BLEU's

    def __init__(self, lang: str | None = None, embeddings: str = "study-w2v", method: str = "similarity",
                 assignment: str = "greedy", floor: float = 0.0, k: int = 3, phrase: bool = False,
                 vectors: str | Vectors | None = None, binary: bool = True,
                 embeddings_root: str = "results/embeddings", tokenize: str | None = None, tokenized: bool = False,
                 lowercase: bool = False, smooth_method: str = "exp", smooth_value: float | None = None,
                 max_ngram_order: int = 4, backend: str = "compiled", max_words: int = MAX_WORDS):
        check_rules(type(self), {"tokenized": tokenized, "tokenize": tokenize}, self.name)
        if method not in METHODS:
            raise ConfigError(f"softbleu: unknown method {method!r}; known: {', '.join(METHODS)}")
        if assignment not in ASSIGNMENTS:
            raise ConfigError(f"softbleu: unknown assignment {assignment!r}; known: {', '.join(ASSIGNMENTS)}")
        if backend not in BACKENDS:
            raise ConfigError(f"softbleu: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        if floor < 0:
            raise ConfigError(f"softbleu: floor must be >= 0 (negative similarities never subtract), got {floor}")
        if (method == "generation" or phrase) and k < 1:
            raise ConfigError(f"softbleu: k must be >= 1 for the generation and phrase methods, got {k}")
        self.lang = lang
        self.embeddings = embeddings
        self.method, self.assignment, self.floor, self.k, self.phrase = method, assignment, float(floor), k, phrase
        self.order = max_ngram_order
        self.smooth_method, self.smooth_value = smooth_method, smooth_value
        self._bleu = BLEU(lang=lang, tokenize=tokenize, tokenized=tokenized, smooth_method=smooth_method,
                          smooth_value=smooth_value, lowercase=lowercase, max_ngram_order=max_ngram_order)
        if vectors is None or isinstance(vectors, (str, Path)):
            self._vectors: Vectors | None = None
            self.vectors_path = Path(vectors) if vectors else self.vectors_file(embeddings_root, embeddings, lang)
        else:  # loaded vectors (anything with similarities / neighbours / digest)
            self._vectors = vectors
            self.vectors_path = None
        self.binary = binary
        self.backend = backend
        if isinstance(max_words, bool) or not isinstance(max_words, int) or max_words < 1:
            raise ConfigError(f"softbleu: max_words must be a whole number >= 1, got {max_words!r}")
        self.max_words = max_words  # not in the signature: it decides whether a score exists, never its value

    @staticmethod
    def vectors_file(root: str, embeddings: str, lang: str | None) -> Path:
        if not lang:
            raise ConfigError("softbleu needs the target language (lang=...) to find its word vectors")
        return Path(root) / embeddings / lang / "vectors.bin"

    @classmethod
    def required_files(cls, lang: str, **params) -> list[str]:
        """Files the workflow must build first: the word vectors of this model and language."""
        if params.get("vectors"):
            return [str(params["vectors"])]
        vectors = cls.vectors_file(params.get("embeddings_root", "results/embeddings"),
                                   params.get("embeddings", "study-w2v"), lang)
        if params.get("method", "similarity") == "generation" or params.get("phrase", False):
            return [str(vectors), str(vectors.with_name(NEIGHBOURS_FILE))]
        return [str(vectors)]

    @property
    def vectors(self) -> Vectors:
        if self._vectors is None:
            self._vectors = load_vectors(str(self.vectors_path), self.binary)
            cache = self.vectors_path.with_name(NEIGHBOURS_FILE)
            # Reference words' neighbours, found once for every job (rule find_neighbours); only the
            # generation and phrase methods use them.
            if (self.method == "generation" or self.phrase) and cache.is_file():
                self._vectors.load_neighbours(cache)
        return self._vectors

    @property
    def stat_names(self) -> list[str]:
        n = range(1, self.order + 1)
        return ["hyp_len", "ref_len", *(f"exact_{i}" for i in n), *(f"soft_{i}" for i in n),
                *(f"total_{i}" for i in n)]

    # -- soft credit ------------------------------------------------------------------------

    def _unigram_credit(self, hyp: list[str], ref: list[str]) -> float:
        hyp_left, ref_left = _unmatched([(w,) for w in hyp], [(w,) for w in ref])
        if not hyp_left or not ref_left:
            return 0.0
        h = [item[0] for item in hyp_left]
        r = [item[0] for item in ref_left]
        vectors = self.vectors
        credit = vectors.similarities(h, r)
        if self.method == "generation":
            offered = [vectors.neighbours(ref_word, self.k) for ref_word in r]
            allowed = np.array([[word in words for words in offered] for word in h])
            credit = np.where(allowed, credit, 0.0)
        return _assign(np.where(credit > self.floor, credit, 0.0), self.assignment)

    def _phrase_credit(self, hyp: list[str], ref: list[str], n: int) -> float:
        hyp_grams = [tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1)]
        ref_grams = [tuple(ref[i : i + n]) for i in range(len(ref) - n + 1)]
        hyp_left, ref_left = _unmatched(hyp_grams, ref_grams)
        if not hyp_left or not ref_left:
            return 0.0
        # Pairs differing in exactly one position p share the other n-1 words: index the reference
        # n-grams by each "all but position p" key instead of comparing every pair.
        others: dict[tuple, list[int]] = {}
        for j, ref_gram in enumerate(ref_left):
            for p in range(n):
                others.setdefault((p, *ref_gram[:p], *ref_gram[p + 1 :]), []).append(j)
        # (No n-gram is left on both sides, so every pair found differs in exactly position p.)
        pairs = [(i, j, p) for i, hyp_gram in enumerate(hyp_left) for p in range(n)
                 for j in others.get((p, *hyp_gram[:p], *hyp_gram[p + 1 :]), ())]
        if not pairs:
            return 0.0
        credit: list[dict[int, float]] = [{} for _ in hyp_left]  # the positive entries of each row
        for i, j, p in pairs:
            similarity = self.vectors.neighbours(ref_left[j][p], self.k).get(hyp_left[i][p], 0.0)
            if similarity > self.floor:
                credit[i][j] = similarity
        return _assign_sparse(credit, len(ref_left), self.assignment)

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        check_references(hypotheses, references)
        if len(references) != 1:
            raise ValueError(f"softbleu is defined for one reference per segment (seed 000), "
                             f"got {len(references)} reference streams")
        compiled = self._compiled_applies()
        # The compiled credit reads the texts BLEU numbered and packed for its counts: packed once.
        pairs = self._bleu._packed_pairs(hypotheses, references) if compiled else None
        if compiled:
            base = self._bleu._packed_stats(hypotheses, references, pairs)
        else:
            base = self._bleu.stats(hypotheses, references)  # sacrebleu's rows: lengths, correct, total
        # BLEU's rows start with the hypothesis and (one) reference length: check them before the credit
        check_lengths(self.name, base[:, 0].astype(np.int64), [base[:, 1].astype(np.int64)], self.max_words,
                      f"max_words={self.max_words:,}",
                      "softBLEU compares every unmatched hypothesis word with every unmatched reference word, so "
                      "its time and memory grow with the square of the length",
                      "Split the line into sentences, or raise max_words")
        n = self.order
        out = np.zeros((len(hypotheses), 2 + 3 * n))
        out[:, :2] = base[:, :2]
        out[:, 2 : 2 + n] = base[:, 2 : 2 + n]
        out[:, 2 + 2 * n :] = base[:, 2 + n :]
        preprocess = self._bleu.preprocess
        prefetch = getattr(self.vectors, "prefetch_neighbours", None)  # any object with neighbours() will do
        if prefetch and (self.method == "generation" or self.phrase):  # every reference word's, in blocks
            # Once per reference set (the systems of a test set share theirs): later calls would find
            # every neighbour list already known.
            key = (self.k, tuple(references[0]))
            if getattr(self, "_prefetched", None) != key:
                prefetch(self.reference_words(references[0]), self.k)
                self._prefetched = key
        if compiled:
            self._compiled_credit(pairs, out)
            return out
        for row, (hyp, ref) in enumerate(zip(hypotheses, references[0], strict=True)):
            hyp_words = preprocess(hyp).split()
            ref_words = preprocess(ref).split() if ref is not None else []
            out[row, 2 + n] = self._unigram_credit(hyp_words, ref_words)
            if self.phrase:
                for order in range(2, n + 1):
                    out[row, 2 + n + order - 1] = self._phrase_credit(hyp_words, ref_words, order)
        return out

    def reference_words(self, references: Iterable[str | None]) -> Iterator[str]:
        """The words of the references as this metric reads them (BLEU's tokenisation and case): those
        whose nearest neighbours the generation and phrase methods look up."""
        preprocess = self._bleu.preprocess
        return (word for ref in references if ref is not None for word in preprocess(ref).split())

    def _compiled_applies(self) -> bool:
        """Whether :meth:`_compiled_credit` computes the soft credit: not for the python backend, vectors
        without a matrix, or the phrase method with the optimal assignment."""
        vectors = self.vectors
        return (self.backend == "compiled" and hasattr(vectors, "unit") and hasattr(vectors, "index")
                and not (self.phrase and self.assignment != "greedy"))

    def _compiled_credit(self, pairs, out: np.ndarray) -> None:
        """Soft credit of every segment into ``out`` through :mod:`mtmeta.metrics.soft_kernel`: the
        same numbers as the per-segment code (each segment's cosine matrix is still one matrix product
        of the same shape, so the floats are the same). ``pairs``: BLEU's ``_packed_pairs`` of the call."""
        from mtmeta.metrics import soft_kernel

        vectors = self.vectors
        n = self.order
        _, hyp_text, ref_text, (values, offsets, _) = pairs
        vocabulary = self._bleu._word_ids.vocabulary  # word -> id 1, 2, ...
        neighbours = self._neighbour_ids(vectors, values, offsets, ref_text)
        grams = ngrams.gram_ids(values, offsets, n if self.phrase else 1)
        hyp_starts, hyp_off, ref_starts, ref_off = soft_kernel.unmatched_ids(*grams[0], offsets, hyp_text, ref_text, 1)
        hyp_words, ref_words = values[hyp_starts], values[ref_starts]
        rows_of = self._embedding_rows(vectors, vocabulary)
        unit = self._padded_unit(vectors)  # a zero row last: the vector of every unknown word
        hyp_rows, ref_rows = rows_of[hyp_words], rows_of[ref_words]
        n_rows, n_cols = np.diff(hyp_off), np.diff(ref_off)
        both = (n_rows > 0) & (n_cols > 0)
        pieces = []
        for p in np.flatnonzero(both).tolist():
            credit = unit[hyp_rows[hyp_off[p] : hyp_off[p + 1]]] @ unit[ref_rows[ref_off[p] : ref_off[p + 1]]].T
            if self.assignment == "optimal":
                if self.method == "generation":
                    allowed = (neighbours[0][ref_words[ref_off[p] : ref_off[p + 1]]][None, :, :]
                               == hyp_words[hyp_off[p] : hyp_off[p + 1]][:, None, None]).any(axis=2)
                    credit = np.where(allowed, credit, 0.0)
                out[p, 2 + n] = _assign(np.where(credit > self.floor, credit, 0.0), "optimal")
            else:
                pieces.append(credit.ravel())
        if self.assignment == "greedy":
            credit_off = np.zeros(len(n_rows) + 1, dtype=np.int64)
            credit_off[1:] = np.cumsum(np.where(both, n_rows * n_cols, 0))
            flat = np.concatenate(pieces) if pieces else np.zeros(0)
            out[:, 2 + n] = soft_kernel.greedy_many(flat, credit_off, np.where(both, n_rows, 0), n_cols, self.floor,
                                                    self.method == "generation", hyp_words, hyp_off, ref_words,
                                                    ref_off, neighbours[0])
        if self.phrase:
            for order in range(2, n + 1):
                starts = soft_kernel.unmatched_ids(*grams[order - 1], offsets, hyp_text, ref_text, order)
                out[:, 2 + n + order - 1] = soft_kernel.phrase_credit(values, *starts, order, self.floor, *neighbours)

    def _embedding_rows(self, vectors, vocabulary: dict[str, int]) -> np.ndarray:
        """Row of each word id's vector in :meth:`_padded_unit` (the zero row for unknown words and id 0)."""
        if getattr(self, "_rows_for", None) is not vectors:
            self._rows_for, self._rows_of = vectors, [len(vectors.unit)]
        rows = self._rows_of
        if len(rows) <= len(vocabulary):
            unknown, index = len(vectors.unit), vectors.index
            rows.extend(index.get(word, unknown) for word in islice(vocabulary, len(rows) - 1, None))
        return np.asarray(rows, dtype=np.int64)

    def _padded_unit(self, vectors) -> np.ndarray:
        if getattr(self, "_unit_for", None) is not vectors:
            self._unit_for = vectors
            self._unit = np.vstack([vectors.unit, np.zeros((1, vectors.unit.shape[1]), dtype=vectors.unit.dtype)])
        return self._unit

    def _neighbour_ids(self, vectors, values, offsets, ref_text):
        """(ids, cosines): row w holds the word ids (-1: none) and cosines of the k nearest neighbours of
        reference word w, for the generation and phrase methods (rows of other words: -1 and 0).

        Kept per metric object and filled for the reference words not seen before (the systems of a
        test set share their references): word ids are stable, and every neighbour word gets one (it
        enters BLEU's vocabulary, which changes no count), so a filled row never goes stale."""
        k = self.k if (self.method == "generation" or self.phrase) else 1
        vocabulary = self._bleu._word_ids.vocabulary
        table = getattr(self, "_neighbour_table", None)
        if table is None or table["vectors"] is not vectors or table["k"] != k:
            table = self._neighbour_table = {"vectors": vectors, "k": k, "ids": np.full((1, k), -1, dtype=np.int64),
                                             "cosines": np.zeros((1, k)), "filled": np.zeros(1, dtype=bool),
                                             "words": []}

        def grow() -> None:  # a row for every word id
            size = len(vocabulary) + 1
            if size > len(table["filled"]):
                for name, fill in (("ids", -1), ("cosines", 0.0), ("filled", False)):
                    old = table[name]
                    table[name] = np.full((size, *old.shape[1:]), fill, dtype=old.dtype)
                    table[name][: len(old)] = old

        grow()
        if self.method == "generation" or self.phrase:
            in_pairs = np.zeros(len(offsets) - 1, dtype=bool)
            in_pairs[ref_text] = True  # the reference texts' words
            in_references = np.unique(values[np.repeat(in_pairs, np.diff(offsets))])
            new = in_references[~table["filled"][in_references]].tolist()
            if new:
                words = table["words"]
                words.extend(islice(vocabulary, len(words), None))  # the word of id w: words[w - 1]
                found = [(w, vectors.neighbours(words[w - 1], self.k)) for w in new]
                for _, neighbours in found:  # an id for every neighbour word (BLEU's vocabulary grows)
                    for neighbour in neighbours:
                        vocabulary.setdefault(neighbour, len(vocabulary) + 1)
                grow()
                ids, cosines = table["ids"], table["cosines"]
                for w, neighbours in found:
                    for x, (neighbour, cosine) in enumerate(neighbours.items()):
                        ids[w, x] = vocabulary[neighbour]
                        cosines[w, x] = cosine
                table["filled"][new] = True
        return table["ids"], table["cosines"]

    # -- scores -------------------------------------------------------------------------------

    def _bleu_of(self, row: np.ndarray, effective_order: bool) -> float:
        n = self.order
        correct = (row[2 : 2 + n] + row[2 + n : 2 + 2 * n]).tolist()
        total = row[2 + 2 * n :].tolist()
        lengths = []
        for value in row[:2]:  # sacrebleu formats lengths as integers; weights must be counts
            if not float(value).is_integer():
                raise ValueError(f"softbleu: lengths must be whole numbers (integer weights), got {value}")
            lengths.append(int(value))
        return sacrebleu.BLEU.compute_bleu(correct, total, *lengths, self.smooth_method, self.smooth_value,
                                           effective_order, n).score

    def _bleu_rows(self, stats: np.ndarray, effective_order: bool) -> np.ndarray:
        """BLEU of each statistics row: sacrebleu's compute_bleu row by row for the python backend (the
        reference), the compiled copy of it (the same bits) otherwise."""
        stats = np.atleast_2d(stats)
        if self.backend == "python":
            return np.array([self._bleu_of(row, effective_order) for row in stats], dtype=float)
        n = self.order
        rows = np.empty((len(stats), 2 + 2 * n))
        rows[:, :2] = stats[:, :2]
        whole = np.isfinite(rows[:, :2]) & (rows[:, :2] == np.floor(rows[:, :2]))
        if not whole.all():
            value = rows[:, :2][~whole][0]
            raise ValueError(f"softbleu: lengths must be whole numbers (integer weights), got {value}")
        rows[:, 2 : 2 + n] = stats[:, 2 : 2 + n] + stats[:, 2 + n : 2 + 2 * n]
        rows[:, 2 + n :] = stats[:, 2 + 2 * n :]
        return bleu_rows(rows, n, self.smooth_method, self.smooth_value, effective_order)

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return self._bleu_rows(stats, True)

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self._bleu_rows(stats.sum(axis=0), False)[0])

    def corpus_score_weighted(self, stats: np.ndarray, weights: np.ndarray) -> float:
        return float(self._bleu_rows((np.asarray(weights)[:, None] * stats).sum(axis=0), False)[0])

    def score_totals(self, totals: np.ndarray) -> np.ndarray:
        return self._bleu_rows(totals, False)

    def signature(self) -> str:
        digest = self.vectors.digest[:12] if self.vectors.digest else "unhashed"
        soft = (f"emb:{self.embeddings}@{digest}|method:{self.method}|assign:{self.assignment}|floor:{self.floor:g}"
                f"|k:{self.k if (self.method == 'generation' or self.phrase) else '-'}"
                f"|phrase:{'yes' if self.phrase else 'no'}")
        bleu = self._bleu.signature().split("|", 1)[1]  # ends with the sacrebleu and mtmeta versions
        return f"softBLEU|{soft}|{bleu}"
