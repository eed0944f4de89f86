"""The metric interface: sufficient statistics once, then any score from them.

As in sacrebleu, a metric turns each (hypothesis, references) segment into a fixed-length
row of sufficient statistics. Segment scores, corpus scores, resampling and parameter sweeps
are all computed from those rows, so nothing is re-tokenised or re-aligned twice.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np


def check_references(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    """Require ``references`` as K reference *streams*, each with one string per hypothesis.

    A flat list of strings, or N lists of K strings, would otherwise be silently mis-zipped
    (sacrebleu issue #220 and its many duplicates); here it is an error.
    """
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError("hypotheses must be a sequence of strings, one per segment")
    if isinstance(references, str) or not isinstance(references, Sequence) or not references:
        raise TypeError("references must be a non-empty sequence of reference streams (lists of strings)")
    for k, stream in enumerate(references):
        if isinstance(stream, str) or not isinstance(stream, Sequence):
            raise TypeError(
                f"references[{k}] is a {type(stream).__name__}, not a stream: pass [refs] for a single "
                "reference set, i.e. a list of K lists with one reference per hypothesis"
            )
        if len(stream) != len(hypotheses):
            raise ValueError(
                f"reference stream {k} has {len(stream)} segments but there are {len(hypotheses)} hypotheses"
            )
    for k, stream in enumerate(references):
        for i, ref in enumerate(stream):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(f"references[{k}][{i}] is a {type(ref).__name__}; expected a string or None")
    for i, hyp in enumerate(hypotheses):
        if not isinstance(hyp, str):
            raise TypeError(f"hypotheses[{i}] is a {type(hyp).__name__}; expected a string")


def text_pairs(name: str, hypotheses: Sequence[str], segments: Iterable[Sequence[str | None]],
               prepare: Callable[[str], str] | None = None):
    """For compiled counting: the distinct texts of a call (each through ``prepare``, if given), and per
    hypothesis-reference pair (one per present reference of each segment's tuple, in order) the numbers
    of its two texts and its segment. A segment without any reference is an error.

    Texts are numbered in order of first sight along hypothesis 1, its references, hypothesis 2, ...
    (as ``pandas.factorize`` numbers them), by dictionary lookups that run in C."""
    segments = [tuple(refs) for refs in segments]
    if len(segments) != len(hypotheses):
        raise ValueError(f"{name}: {len(hypotheses)} hypotheses but {len(segments)} reference segments")
    present = [len(refs) - refs.count(None) for refs in segments]
    if 0 in present:
        raise ValueError(f"{name}: segment {present.index(0) + 1} has no reference")
    sequence = [text for hyp, refs in zip(hypotheses, segments, strict=True) for text in (hyp, *refs)
                if text is not None]
    if prepare is not None:
        sequence = prepare.many(sequence) if isinstance(prepare, Memo) else [prepare(text) for text in sequence]
    number = {text: k for k, text in enumerate(dict.fromkeys(sequence))}
    codes = np.fromiter(map(number.__getitem__, sequence), dtype=np.int64, count=len(sequence))
    texts = list(number)
    counts = np.asarray(present, dtype=np.int64)
    is_hyp = np.zeros(len(codes), dtype=bool)
    is_hyp[np.cumsum(counts + 1) - counts - 1] = True  # each segment's group starts with its hypothesis
    codes = codes.astype(np.int64)
    owner = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    return texts, codes[is_hyp][owner], codes[~is_hyp], owner


class Memo:
    """Values of a function of hashable keys (texts, reference tuples), kept per metric object: the
    systems of a test set share their references, sweeps re-score the same outputs. Emptied past
    ``limit`` entries, which bounds the memory of a long-lived object."""

    def __init__(self, compute: Callable | None = None, limit: int = 1_000_000):
        self._compute, self._limit = compute, limit
        self._values: dict = {}

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key) -> bool:
        return key in self._values

    def __call__(self, key):
        value = self._values.get(key)
        if value is None:
            self._make_room(1)
            value = self._values[key] = self._compute(key)
        return value

    def many(self, keys: Sequence, compute_many: Callable[[list], Sequence] | None = None) -> list:
        """The values of ``keys``, those not yet known computed together by ``compute_many`` (by default
        the memo's function, key by key)."""
        distinct = dict.fromkeys(keys)
        new = [key for key in distinct if key not in self._values]
        if new:
            if len(self._values) + len(new) > self._limit:  # emptied: every key of this call is new
                self._values.clear()
                new = list(distinct)
            if compute_many is None:
                compute = self._compute
                values = [compute(key) for key in new]
            else:
                values = compute_many(new)
            self._values.update(zip(new, values, strict=True))
        return [self._values[key] for key in keys]

    def _make_room(self, n: int) -> None:
        if len(self._values) + n > self._limit:
            self._values.clear()


_DRAWS: list = [None, None, 0.0]  # the last read-only weight matrix, its float64 copy, its largest row sum
_BY_SEGMENT: list = [None, None]  # the last read-only float64 weight matrix and its transposed C-order copy


def float_draws(weights: np.ndarray) -> tuple[np.ndarray, float]:
    """``weights`` (segments, or draws x segments) as float64, and its largest absolute row sum. A
    read-only array that owns its data (the bootstrap's draws, shared by every metric and system of a
    language pair) is converted once."""
    if weights is _DRAWS[0]:
        return _DRAWS[1], _DRAWS[2]
    converted = (weights.astype(np.float64), float(np.abs(weights).sum(axis=-1).max(initial=0)))
    if not weights.flags.writeable and weights.base is None:
        converted[0].flags.writeable = False
        _DRAWS[:] = [weights, *converted]
    return converted


def by_segment(float_weights: np.ndarray) -> np.ndarray:
    """The draws x segments ``float_weights`` transposed into C order (segments x draws), for
    :func:`mtmeta.metrics.sums_kernel.weighted_float_sums`; the cached copy of :func:`float_draws`'
    read-only conversion is transposed once."""
    if float_weights is _BY_SEGMENT[0]:
        return _BY_SEGMENT[1]
    transposed = np.ascontiguousarray(float_weights.T)
    if not float_weights.flags.writeable:
        _BY_SEGMENT[:] = [float_weights, transposed]
    return transposed


def weighted_sums(stats: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``(weights[d][:, None] * stats).sum(axis=0)`` for every row d of ``weights``, bit for bit.

    Integer statistics and weights sum exactly in any order: a float64 matrix product (BLAS) when
    every total stays below 2**53, where float64 holds integers exactly, else numpy's integer one.
    Floating-point statistics are accumulated segment by segment (compiled), the order numpy's column
    sum takes, so draws equal single sums.
    """
    stats, weights = np.asarray(stats), np.asarray(weights)
    if np.issubdtype(stats.dtype, np.integer) and np.issubdtype(weights.dtype, np.integer):
        float_weights, most = float_draws(weights)
        if most * float(np.abs(stats).max(initial=0)) < 2.0**53:
            return (float_weights @ stats.astype(np.float64)).astype(np.result_type(weights, stats))
        return weights @ stats
    dtype = np.result_type(weights, stats)
    if dtype == np.float64 and np.isfinite(stats).all() and np.issubdtype(weights.dtype, np.integer):
        from mtmeta.metrics.sums_kernel import weighted_float_sums

        # Columns of whole numbers (lengths, counts) sum exactly in any order, as above; only the
        # others (e.g. soft credits) need the segment-by-segment order.
        whole = (stats == np.round(stats)).all(axis=0)
        float_weights, most = float_draws(weights)
        if most * float(np.abs(stats).max(initial=0)) >= 2.0**53:
            whole[:] = False
        totals = np.empty((len(weights), stats.shape[1]))
        totals[:, whole] = float_weights @ stats[:, whole].astype(np.float64)
        totals[:, ~whole] = weighted_float_sums(np.ascontiguousarray(stats[:, ~whole], dtype=np.float64),
                                                by_segment(float_weights))
        return totals
    totals = np.zeros((len(weights), stats.shape[1]), dtype=dtype)
    for i in range(len(stats)):
        totals += weights[:, i, None] * stats[i]
    return totals


@dataclass(frozen=True)
class Score:
    """A corpus score from texts (sacrebleu's ``corpus_score(hyps, [refs])`` habit): the value, the
    signature of every setting behind it, the segment statistics it came from, and the details
    sacrebleu's score objects carry, readable as attributes as there (``score.bp``, ``score.precisions``;
    :meth:`Metric.corpus_details` lists them per metric)."""

    name: str
    score: float
    signature: str
    statistics: np.ndarray = field(repr=False)
    details: dict = field(default_factory=dict, repr=False)
    label: str = ""  # the score's name as sacrebleu prints it (BLEU, chrF2, TER); else the signature's first field

    def __getattr__(self, key: str):
        details = self.__dict__.get("details") or {}
        if key in details:
            return details[key]
        raise AttributeError(f"{type(self).__name__} of {self.__dict__.get('name')!r} has no {key!r} "
                             f"(details: {', '.join(details) or 'none'})")

    def __float__(self) -> float:
        return self.score

    @property
    def verbose(self) -> str:
        """The text sacrebleu prints after the score (BLEU's precisions, brevity penalty and lengths); may be empty."""
        return self.details.get("verbose", "")

    def format(self, width: int = 4) -> str:
        return f"{self.name} = {self.score:.{width}f}"

    def __str__(self) -> str:
        return f"{self.format()} {self.signature}"


def _is_texts(value) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str) and (len(value) == 0 or isinstance(value[0], str))


def _accepting_texts(corpus_score: Callable) -> Callable:
    """A subclass's ``corpus_score(stats) -> float``, also callable as ``corpus_score(hypotheses,
    references) -> Score``: texts are turned into statistics first."""

    @functools.wraps(corpus_score)
    def wrapped(self, stats_or_hypotheses, references=None):
        if references is None and not _is_texts(stats_or_hypotheses):
            return corpus_score(self, stats_or_hypotheses)
        if references is None:
            raise TypeError(f"{self.name}.corpus_score(hypotheses, references): the references are missing; pass "
                            "[refs] for one reference stream")
        return self.corpus_result(self.stats(stats_or_hypotheses, references))

    wrapped.accepts_texts = True
    return wrapped


class Metric(ABC):
    """Base class. Subclasses set ``name`` and implement the four abstract methods.

    ``corpus_score`` takes statistics (a float), or, as sacrebleu's does, hypotheses and reference
    streams (a :class:`Score` with the value, the signature and the statistics).
    """

    name: ClassVar[str]
    higher_is_better: ClassVar[bool] = True
    # The largest score: 100 for sacrebleu's percentages (BLEU, chrF, TER), 1 for scores on the unit
    # interval (METEOR, LEPOR), whose one decimal in sacrebleu's text form would say nothing.
    score_scale: ClassVar[float] = 100

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("corpus_score")
        if own is not None and not getattr(own, "accepts_texts", False):
            cls.corpus_score = _accepting_texts(own)

    @property
    @abstractmethod
    def stat_names(self) -> list[str]:
        """Names of the sufficient-statistic columns, in order."""

    @abstractmethod
    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        """Sufficient statistics, shape ``(len(hypotheses), len(stat_names))``."""

    def prepare(self, references: Sequence[str | None]) -> None:  # noqa: B027 (an optional hook)
        """A hint before several :meth:`stats` calls whose references are all among ``references``
        (e.g. each system against its own paraphrased references). Metrics whose resources depend
        on the references build them once here; scores never change. The default does nothing."""

    @abstractmethod
    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        """One score per row of ``stats``."""

    @abstractmethod
    def corpus_score(self, stats: np.ndarray) -> float:
        """One score for all rows of ``stats``."""

    def corpus_score_weighted(self, stats: np.ndarray, weights: np.ndarray) -> float:
        """Corpus score with segment ``i`` counted ``weights[i]`` times (bootstrap resampling).

        The default repeats rows; metrics defined by summed statistics override it with a weighted sum.
        """
        return self.corpus_score(np.repeat(stats, np.asarray(weights, dtype=int), axis=0))

    def corpus_scores_weighted(self, stats: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """:meth:`corpus_score_weighted` for each row of ``weights`` (draws x segments) at once.

        Metrics defined by summed statistics set :meth:`score_totals`; their statistics are then summed
        for all draws together, in the order a single weighted sum takes, so every draw's score equals
        :meth:`corpus_score_weighted`'s to the last bit.
        """
        weights = np.asarray(weights)
        if type(self).score_totals is not Metric.score_totals:
            return self.score_totals(weighted_sums(stats, weights))
        return np.array([self.corpus_score_weighted(stats, w) for w in weights], dtype=float)

    def score_totals(self, totals: np.ndarray) -> np.ndarray:
        """Corpus score of each row of summed statistics (for metrics whose corpus score is one)."""
        raise NotImplementedError

    def corpus_result(self, stats: np.ndarray) -> Score:
        """The corpus :class:`Score` of statistics rows: value, signature, statistics and details."""
        stats = np.asarray(stats)
        return Score(self.name, float(self.corpus_score(stats)), self.signature(), stats,
                     self.corpus_details(stats), self.score_label())

    def corpus_details(self, stats: np.ndarray) -> dict:
        """What a corpus score is made of, as sacrebleu's score objects expose it (BLEU: precisions,
        brevity penalty, lengths; chrF: precision and recall per order; TER: edits and reference
        length). Plain Python values; ``verbose`` is the text sacrebleu prints after the score.
        None here; metrics that have such details override it."""
        return {}

    def segment_details(self, row: np.ndarray) -> dict:
        """:meth:`corpus_details` of one segment's statistics, as its segment score reads them."""
        return {}

    def score_label(self) -> str:
        """The score's name as sacrebleu prints it (``BLEU``, ``chrF2``, ``TER``); by default the first
        field of the signature."""
        return self.signature().split("|", 1)[0]

    def signature_abbreviations(self) -> dict[str, str]:
        """Short names of signature keys (sacrebleu's ``--short``); keys not listed keep their name."""
        return dict(SHORT_KEYS)

    @abstractmethod
    def signature(self) -> str:
        """Every setting behind a corpus score, sacrebleu style (``name|key:value|...``)."""

    def segment_signature(self) -> str:
        """Every setting behind a segment score, in the same format as :meth:`signature` (its values
        differ where segment scoring differs, e.g. BLEU's effective order)."""
        return self.signature()


# sacrebleu's short names of the keys every signature may hold (its Signature class), for --short.
SHORT_KEYS = {"version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S", "origlang": "o", "bs": "bs",
              "ar": "ar", "seed": "rs"}


def short_signature(signature: str, abbreviations: dict[str, str]) -> str:
    """``signature`` with its keys abbreviated (``nrefs:1|case:mixed`` -> ``#:1|c:mixed``); the first
    field, the score's name, and keys without an abbreviation are kept."""
    label, *pairs = signature.split("|")
    short = []
    for pair in pairs:
        key, sep, value = pair.partition(":")
        short.append(f"{abbreviations.get(key, key)}{sep}{value}")
    return "|".join([label, *short])
