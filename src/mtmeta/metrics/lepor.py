"""LEPOR and hLEPOR (Han et al., COLING 2012; MT Summit 2013), from re-scorable statistics.

With c hypothesis words, r reference words and ``aligned`` one-to-one aligned words:

- LP = exp(1 - max(c, r) / min(c, r)) (1 when c = r, 0 when either is empty);
- NPD = (1/c) * sum over aligned hypothesis words i of |i/c - j(i)/r| (1-based positions);
  NPosPenal = exp(-NPD);
- HPR = (alpha + beta) / (alpha / R + beta / P), P = aligned/c, R = aligned/r; alpha = 9 weighs
  recall, beta = 1 precision (0 when nothing is aligned);
- LEPOR = LP * NPosPenal * HPR;
- hLEPOR = (w_lp + w_npp + w_hpr) / (w_lp/LP + w_npp/NPosPenal + w_hpr/HPR), default weights
  LP:NPosPenal:HPR = 2:1:7 (the MT Summit 2013 Perl and PyPI hlepor); 0 if any factor is 0.

Alignment (the n-gram context-window method): hypothesis words are taken left to right; a word
with one unused exact match in the reference takes it; with several, candidates whose context is
confirmed (some word within ``window`` positions on either side matches at the same offset) are
preferred, and among those the one nearest in relative position |i/c - j/r| (the leftmost on
ties). The author's Perl has quirks this does not copy (a prefix test on used positions, a
context check that always confirms middle words, and negative indices wrapping around).

Statistics per segment: ``[c, r, aligned, npd]``, so weights, alpha and beta re-score without
re-aligning. System level: ``system="mean-segments"`` (LEPOR-A, default) is the mean of segment
scores; ``"mean-factors"`` (LEPOR-B) applies the formula to the mean LP, NPosPenal and HPR.
One reference per segment, as the definition has.

Long segments: the compiled backend (the default) aligns a pair in near-linear time (a 1 MB line in
about a second; see ``lepor_kernel``); a pair whose alignment index would pass
``lepor_kernel.INDEX_MAX_ENTRIES`` (a 3.3-million-word reference at window 2, or a wide window on a
long line) is an error naming the segment. The Python backend, :func:`align` as written, is quadratic and
refuses a hypothesis or reference longer than :data:`PYTHON_MAX_WORDS` words with an error naming
the segment (it is the readable reference the compiled statistics are tested against).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from mtmeta import __version__
from mtmeta.data.tokenize import tokenizer
from mtmeta.errors import ConfigError, MtmetaError
from mtmeta.metrics import ngrams
from mtmeta.metrics.base import Metric, check_references
from mtmeta.metrics.limits import check_lengths
from mtmeta.metrics.params import Range

BACKENDS = ("compiled", "python")
# Longest hypothesis or reference (words, after tokenisation) the quadratic Python backend aligns
# (about a second at this length for any text); six times the longest WMT12-14 segment (171 tokens).
PYTHON_MAX_WORDS = 1000


def align(hyp: list[str], ref: list[str], window: int = 2) -> list[tuple[int, int]]:
    """One-to-one exact alignment (0-based hypothesis, reference positions), context-preferring."""
    positions: dict[str, list[int]] = defaultdict(list)
    for j, word in enumerate(ref):
        positions[word].append(j)
    c, r = len(hyp), len(ref)
    used: set[int] = set()
    links = []
    for i, word in enumerate(hyp):
        candidates = [j for j in positions.get(word, ()) if j not in used]
        if not candidates:
            continue
        if len(candidates) > 1:
            confirmed = [
                j for j in candidates
                if any(0 <= i + k < c and 0 <= j + k < r and hyp[i + k] == ref[j + k]
                       for k in range(-window, window + 1) if k)
            ]
            candidates = confirmed or candidates
        j = min(candidates, key=lambda j: (abs((i + 1) / c - (j + 1) / r), j))
        used.add(j)
        links.append((i, j))
    return links


def factors(stats: np.ndarray, alpha: float, beta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LP, NPosPenal and HPR of each row ``[c, r, aligned, npd]``."""
    c, r, aligned, npd = (np.asarray(stats[:, k], dtype=float) for k in range(4))
    with np.errstate(divide="ignore", invalid="ignore"):
        lp = np.where((c > 0) & (r > 0), np.exp(1 - np.maximum(c, r) / np.minimum(c, r)), 0.0)
        precision = aligned / np.where(c > 0, c, 1)
        recall = aligned / np.where(r > 0, r, 1)
        hpr = np.where(aligned > 0, (alpha + beta) / (alpha / recall + beta / precision), 0.0)
    return lp, np.exp(-npd), hpr


def harmonic(values: list[np.ndarray], weights: list[float]) -> np.ndarray:
    values = [np.asarray(v, dtype=float) for v in values]
    with np.errstate(divide="ignore"):
        denominator = sum(w / v for w, v in zip(weights, values, strict=True))
    positive = np.logical_and.reduce([v > 0 for v in values])
    return np.where(positive, sum(weights) / np.where(positive, denominator, 1.0), 0.0)


class HLEPOR(Metric):
    name = "hlepor"
    score_scale = 1
    PARAM_RANGES: ClassVar[dict] = {"alpha": Range(0, 1000, low_open=True), "beta": Range(0, 1000, low_open=True),
                                    "weight_lp": Range(0, 1000), "weight_npp": Range(0, 1000),
                                    "weight_hpr": Range(0, 1000), "window": Range(0, 5000)}
    label = "hLEPOR"

    def __init__(self, lang: str | None = None, alpha: float = 9.0, beta: float = 1.0, weight_lp: float = 2.0,
                 weight_npp: float = 1.0, weight_hpr: float = 7.0, window: int = 2, system: str = "mean-segments",
                 tokenize: str = "13a", lowercase: bool = True, backend: str = "compiled"):
        if backend not in BACKENDS:
            raise ConfigError(f"{self.name}: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        self.backend = backend  # python: align() segment by segment, the reference; the same statistics
        if system not in ("mean-segments", "mean-factors"):
            raise ConfigError(f"{self.name}: system must be mean-segments or mean-factors, not {system!r}")
        self.lang = lang
        self.alpha, self.beta = alpha, beta
        self.weights = [weight_lp, weight_npp, weight_hpr]
        self.window = window
        self.system = system
        self.tokenize, self.lowercase = tokenize, lowercase
        self._tokenizer = tokenizer(tokenize, lowercase)

    @property
    def stat_names(self) -> list[str]:
        return ["hyp_len", "ref_len", "aligned", "npd"]

    def stats(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        check_references(hypotheses, references)
        if len(references) != 1:
            raise ValueError(f"{self.name} is defined for one reference per segment, got {len(references)} streams")
        if self.backend == "compiled":
            return self._compiled_stats(hypotheses, references[0])
        hyps = [self._tokenizer(hyp) for hyp in hypotheses]
        refs = [self._tokenizer(ref or "") for ref in references[0]]
        check_lengths(self.name, [len(h) for h in hyps], [[len(r) for r in refs]], PYTHON_MAX_WORDS,
                      f"{PYTHON_MAX_WORDS:,}, the limit of backend=python",
                      "Its alignment compares every hypothesis word with every reference word, so its time grows "
                      "with the square of the length",
                      "Use backend=compiled (the default: near-linear, the same statistics)")
        out = np.zeros((len(hypotheses), 4))
        for row, (h, r) in enumerate(zip(hyps, refs, strict=True)):
            links = align(h, r, self.window)
            npd = sum(abs((i + 1) / len(h) - (j + 1) / len(r)) for i, j in links) / len(h) if links else 0.0
            out[row] = (len(h), len(r), len(links), npd)
        return out

    def _compiled_stats(self, hypotheses: Sequence[str], references: Sequence[str | None]) -> np.ndarray:
        from mtmeta.metrics.lepor_kernel import corpus_alignment

        texts: dict[str, int] = {}  # each distinct text once (the systems share their references)
        hyp_text = [texts.setdefault(hyp, len(texts)) for hyp in hypotheses]
        ref_text = [texts.setdefault(ref or "", len(texts)) for ref in references]
        values, offsets, _ = ngrams.packed_words([self._tokenizer(text) for text in texts])
        hyp_text, ref_text = np.asarray(hyp_text, dtype=np.int64), np.asarray(ref_text, dtype=np.int64)
        lengths = np.diff(offsets)
        self._check_index_size(lengths[hyp_text], lengths[ref_text])
        aligned, npd = corpus_alignment(values, offsets, hyp_text, ref_text, self.window)
        return np.column_stack([lengths[hyp_text], lengths[ref_text], aligned, npd]).astype(float)

    def _check_index_size(self, hyp_lengths: np.ndarray, ref_lengths: np.ndarray) -> None:
        """Stop, naming the segment, where a long pair's alignment index would pass INDEX_MAX_ENTRIES
        (only with very long references or wide windows: 3.3 million words at the default window)."""
        from mtmeta.metrics.lepor_kernel import INDEX_MAX_ENTRIES, SCAN_LIMIT, index_entries

        for row in np.flatnonzero(hyp_lengths * ref_lengths > SCAN_LIMIT):
            c, r = int(hyp_lengths[row]), int(ref_lengths[row])
            entries = index_entries(c, r, self.window)
            if entries > INDEX_MAX_ENTRIES:
                raise MtmetaError(
                    f"{self.name}: segment {row + 1}: aligning its hypothesis of {c:,} words with its reference of "
                    f"{r:,} words at window={self.window} needs an index of {entries:,} entries, more than the "
                    f"limit of {INDEX_MAX_ENTRIES:,} (about 0.7 GB); use a smaller window or split the line "
                    f"(docs/metrics.md, 'Long segments')")

    def combine(self, lp: np.ndarray, npp: np.ndarray, hpr: np.ndarray) -> np.ndarray:
        return harmonic([lp, npp, hpr], self.weights)

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        return self.combine(*factors(stats, self.alpha, self.beta))

    def corpus_score(self, stats: np.ndarray) -> float:
        return self.corpus_score_weighted(stats, np.ones(len(stats)))

    def corpus_score_weighted(self, stats: np.ndarray, weights: np.ndarray) -> float:
        if self.system == "mean-segments":
            return float(np.average(self.segment_scores(stats), weights=weights))
        lp, npp, hpr = (np.average(f, weights=weights, keepdims=True) for f in factors(stats, self.alpha, self.beta))
        return float(self.combine(lp, npp, hpr)[0])

    def corpus_scores_weighted(self, stats: np.ndarray, weights: np.ndarray) -> np.ndarray:
        weights = np.asarray(weights)
        count = weights.sum(axis=1)

        def average(values):  # np.average of each row of weights, the same arithmetic
            return (weights * values).sum(axis=1) / count

        if self.system == "mean-segments":
            return average(self.segment_scores(stats))
        return self.combine(*(average(f) for f in factors(stats, self.alpha, self.beta)))

    def signature(self) -> str:
        case = "lc" if self.lowercase else "mixed"
        w = ":".join(f"{x:g}" for x in self.weights)
        return (f"{self.label}|nrefs:1|case:{case}|tok:{self.tokenize}|a:{self.alpha:g}|b:{self.beta:g}"
                f"|w_lp:npp:hpr:{w}|window:{self.window}|sys:{self.system}|mtmeta:{__version__}")

    def segment_signature(self) -> str:
        return self.signature().replace(f"|sys:{self.system}", "")


class LEPOR(HLEPOR):
    """The product form LP * NPosPenal * HPR (the weights are not used)."""

    name = "lepor"
    label = "LEPOR"

    def combine(self, lp: np.ndarray, npp: np.ndarray, hpr: np.ndarray) -> np.ndarray:
        return lp * npp * hpr

    def signature(self) -> str:
        case = "lc" if self.lowercase else "mixed"
        return (f"{self.label}|nrefs:1|case:{case}|tok:{self.tokenize}|a:{self.alpha:g}|b:{self.beta:g}"
                f"|window:{self.window}|sys:{self.system}|mtmeta:{__version__}")
