"""TER as sacrebleu defines it (Tercom defaults: case-insensitive, punctuation kept, no normalisation).

``tokenizer="tercom"`` reads text as tercom 0.7.25 (the Java tool the WMT metrics tasks ran) does
where sacrebleu's port differs, two rules stated from tercom's ``TERcalc.tokenize``: tokens are
separated by ASCII whitespace only (Java's ``\\s``; sacrebleu's ``str.split`` also breaks at U+00A0,
U+2009, U+001F and the other Unicode spaces, which WMT12's plain text holds), and
``normalized`` first deletes ``<skipped>`` tags. Everything else (lowercasing, the -N rules) is the
same in both. tercom without -N would keep an empty first token for a line that starts with
whitespace; here, as in sacrebleu, leading and trailing whitespace is dropped.

Statistics per segment are ``[edits, average reference length]``; corpus TER is the sum of
edits over the sum of average reference lengths, as in ``sacrebleu.corpus_ter``. Lower is better.

Text goes through sacrebleu's own Tercom tokeniser; the edit counting (shift search and beam edit
distance, the costly part) runs in :mod:`mtmeta.metrics.ter_kernel`, a compiled port of sacrebleu's
algorithm that gives the same edit count on every segment (checked on real data); below
:data:`PLAIN_SEGMENTS` segments in ``mtmeta score``, the same code runs as Python, without numba.
``backend="sacrebleu"`` counts with sacrebleu itself.

Long segments: the compiled counting keeps only the beam's band of each row of the edit-distance
matrices, so its memory is linear in a segment's length (a 1 MB line: about 150 MB, in seconds);
it refuses a side of more than :data:`COMPILED_MAX_WORDS` words (its cells are 32-bit). sacrebleu's
own counting (``backend="sacrebleu"``) keeps whole rows, memory quadratic in the length, and is
refused past :data:`SACREBLEU_MAX_WORDS` words (docs/metrics.md, 'Long segments').
"""

from __future__ import annotations

import re
from typing import ClassVar

import numpy as np
import sacrebleu

# tercom's punctuation rule as sacrebleu copied it (the same regular expression as TERcalc.tokenize);
# a private name of the pinned sacrebleu, so a test checks it on tercom's cases. Its -N rules are
# western_normalize below, checked against sacrebleu's _normalize_general_and_western.
from sacrebleu.tokenizers.tokenizer_ter import _remove_punct

from mtmeta.data.tokenize import context_rules, spaced, unescape_entities
from mtmeta.errors import ConfigError
from mtmeta.metrics import kernels, ngrams
from mtmeta.metrics.base import Memo, check_references
from mtmeta.metrics.limits import check_lengths
from mtmeta.metrics.params import Rule, check_rules
from mtmeta.metrics.sacrebleu_adapter import SacrebleuMetric

BACKENDS = ("compiled", "sacrebleu")
TOKENIZERS = ("sacrebleu", "tercom")
_ASCII_SPACE = re.compile(r"[ \t\n\x0b\f\r]+")  # Java's \s
_POSSESSIVE_AT_END = re.compile(r"'s$")
# Longest hypothesis or reference (words after tokenisation) that each backend counts. sacrebleu's
# BeamEditDistance keeps a whole matrix row per hypothesis word (and caches 10,000 rows): memory
# quadratic in the length, and its pure-Python shift search takes minutes at 1,000 words of
# repetitive text. The compiled kernel's distances are 32-bit (ter_kernel.INF = 2**30): sides of at
# most 2**29 - 1 words keep a pair within ter_kernel.MAX_WORDS, every distance below INF.
SACREBLEU_MAX_WORDS = 1000
# Segments from which a process that prefers the plain path (mtmeta.metrics.kernels; `mtmeta score`)
# counts with the compiled kernel. Below, it runs the kernel's code in Python (kernels.plain): about
# 1.9 ms a segment of news text against sacrebleu's 3.4 ms (WMT14 de-en), without numba's 130 MB of
# memory; the compiled kernel takes about a tenth of that after a second's load, which matters from
# minutes on.
PLAIN_SEGMENTS = 10_000
# A side longer than this goes to the compiled kernel whatever the number of segments: a long line's
# shift search takes many rounds over its whole length, minutes in Python at 100,000 words.
PLAIN_MAX_WORDS = 1000
COMPILED_MAX_WORDS = 2**29 - 1


def western_normalize(text: str) -> str:
    """sacrebleu's ``_normalize_general_and_western`` (tercom's -N): the same text, its literal rules as
    ``str.replace``, its punctuation rule (the character class of sacrebleu's 13a spacing rule) and its
    period, comma and dash rules as 13a's accelerated ones (:func:`mtmeta.data.tokenize.spaced`,
    :func:`~mtmeta.data.tokenize.context_rules`). ``tests/unit/metrics/test_ter.py`` compares the two
    on random and hand-made text; they also gave the same text on all 1,631,923 distinct lines of the
    study's test sets, as is and lowercased (27 s against sacrebleu's 79-89 s)."""
    text = unescape_entities(text.replace("\n-", "").replace("\n", " "))
    text = spaced(f" {text} ")
    return context_rules(_POSSESSIVE_AT_END.sub(" 's", text.replace("'s ", " 's ")))


def tercom_preprocess(text: str, normalized: bool, no_punct: bool, case_sensitive: bool) -> str:
    """Text as tercom 0.7.25's ``TER(String, String)`` and ``tokenize`` read it, tokens joined by single
    spaces (a token may hold U+00A0): lowercase, then under -N delete ``<skipped>`` and apply the -N
    rules (sacrebleu's copies of them), then remove punctuation, then split at ASCII whitespace."""
    if not case_sensitive:
        text = text.lower()
    if normalized:
        text = western_normalize(text.replace("<skipped>", ""))
    if no_punct:
        text = _remove_punct(text)
    return " ".join(token for token in _ASCII_SPACE.split(text) if token)


def _tercom_tokens(preprocessed: str) -> list[str]:
    return preprocessed.split(" ") if preprocessed else []


class TER(SacrebleuMetric):
    name = "ter"
    label = "TER"
    higher_is_better = False
    stat_dtype = np.float64
    PARAM_RULES: ClassVar[tuple] = (
        Rule(("tokenizer", "asian_support"), lambda tokenizer, asian: not (tokenizer == "tercom" and asian),
             "asian_support false with tokenizer 'tercom' (tercom 0.7.25 has no Asian support; use tokenizer "
             "'sacrebleu' for asian_support)"),)

    def __init__(
        self,
        lang: str | None = None,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        tokenizer: str = "sacrebleu",
        backend: str = "compiled",
    ):
        if backend not in BACKENDS:
            raise ConfigError(f"ter: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        if tokenizer not in TOKENIZERS:
            raise ConfigError(f"ter: unknown tokenizer {tokenizer!r}; known: {', '.join(TOKENIZERS)}")
        check_rules(type(self), {"tokenizer": tokenizer, "asian_support": asian_support}, self.name)
        self.lang = lang
        self.backend = backend
        self.tokenizer = tokenizer
        super().__init__(
            sacrebleu.TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                          case_sensitive=case_sensitive)
        )
        self._word_ids = ngrams.WordIds()
        if tokenizer == "tercom":
            self.preprocess = Memo(lambda text: tercom_preprocess(text, normalized, no_punct, case_sensitive))
        self._split = _tercom_tokens if tokenizer == "tercom" else str.split  # sacrebleu's split
        self._words = Memo()  # per preprocessed text: its word ids

    @property
    def stat_names(self) -> list[str]:
        return ["edits", "ref_len"]

    def _signature_of(self, metric) -> str:
        own = super()._signature_of(metric)
        return own.replace("|tok:tercom|", "|tok:tercom-0.7.25|") if self.tokenizer == "tercom" else own

    def corpus_details(self, stats: np.ndarray) -> dict:
        return self.segment_details(np.asarray(stats).sum(axis=0))

    def segment_details(self, row: np.ndarray) -> dict:
        """sacrebleu's TERScore: the edits (as an integer, as sacrebleu keeps them) and the reference
        length (the average over references, summed over segments)."""
        edits, ref_length = (float(value) for value in row)
        return {"num_edits": int(edits), "ref_length": ref_length}

    def _check_lengths(self, hypotheses, references, limit: int, limit_text: str, why: str, remedy: str) -> None:
        """Stop, naming the segment, at a hypothesis or reference of more than ``limit`` tokens."""
        check_references(hypotheses, references)

        def length(text: str | None) -> int | None:
            return None if text is None else len(self._split(self.preprocess(text)))

        check_lengths(self.name, [length(hyp) for hyp in hypotheses],
                      [[length(ref) for ref in stream] for stream in references], limit, limit_text, why, remedy)

    def stats(self, hypotheses, references) -> np.ndarray:
        if self.backend == "sacrebleu":
            self._check_lengths(hypotheses, references, SACREBLEU_MAX_WORDS,
                                f"{SACREBLEU_MAX_WORDS:,}, the limit of backend=sacrebleu",
                                "sacrebleu's TER keeps a whole row of the edit-distance matrix per hypothesis word, "
                                "so its memory grows with the square of the length",
                                "Use backend=compiled (the default: the same statistics, memory linear in the length)")
            return self._sacrebleu_stats(hypotheses, references)
        texts, hyp_text, ref_text, owner = self._text_pairs(hypotheses, references)
        words = self._words.many(texts, lambda new: self._word_ids.many([self._split(text) for text in new]))
        lengths = np.array([len(w) for w in words], dtype=np.int64)
        if lengths.max(initial=0) > COMPILED_MAX_WORDS:
            self._check_lengths(hypotheses, references, COMPILED_MAX_WORDS,
                                f"{COMPILED_MAX_WORDS:,}, the limit of the compiled edit counting",
                                "Its edit distances are 32-bit numbers", "Split the line into sentences")

        def flat(numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            offsets = np.zeros(len(numbers) + 1, dtype=np.int64)
            np.cumsum(lengths[numbers], out=offsets[1:])
            values = np.concatenate([words[t] for t in numbers.tolist()]) if len(numbers) else offsets[:0]
            return values.astype(np.int64), offsets

        out = np.zeros((len(hypotheses), 2), dtype=self.stat_dtype)
        # sacrebleu's average reference length (sum of integers over their number: the same float)
        out[:, 1] = np.bincount(owner, weights=lengths[ref_text], minlength=len(hypotheses)) / np.bincount(
            owner, minlength=len(hypotheses))
        if kernels.compiled(len(hypotheses), PLAIN_SEGMENTS) or lengths.max(initial=0) > PLAIN_MAX_WORDS:
            from mtmeta.metrics.ter_kernel import corpus_edits

            edits = corpus_edits(*flat(hyp_text), *flat(ref_text))
        else:  # the kernel's code run by Python, on lists: the same edits, without loading numba
            corpus_edits = kernels.plain("mtmeta.metrics.ter_kernel").corpus_edits
            edits = np.array(corpus_edits(*(part.tolist() for part in (*flat(hyp_text), *flat(ref_text)))))
        best = np.full(len(hypotheses), np.inf)
        np.minimum.at(best, owner, edits)  # several references: the fewest edits
        out[:, 0] = best
        return out

    def _sacrebleu_stats(self, hypotheses, references) -> np.ndarray:
        if self.tokenizer == "tercom":
            return self._sacrebleu_counts_tercom_tokens(hypotheses, references)
        return super().stats(hypotheses, references)

    def _sacrebleu_counts_tercom_tokens(self, hypotheses, references) -> np.ndarray:
        """sacrebleu's edit counting (``translation_edit_rate``, as its TER calls it per reference) on
        tercom's tokens, which sacrebleu's own preprocessing cannot produce: the compiled path's reference."""
        from sacrebleu.metrics.lib_ter import translation_edit_rate

        check_references(hypotheses, references)
        self._reference_segments(references)  # sets num_refs, for the signature
        out = np.zeros((len(hypotheses), 2), dtype=self.stat_dtype)
        for k, (hyp, refs) in enumerate(zip(hypotheses, zip(*references, strict=True), strict=True)):
            hyp_words = _tercom_tokens(self.preprocess(hyp))
            counts = [translation_edit_rate(hyp_words, _tercom_tokens(self.preprocess(ref)))
                      for ref in refs if ref is not None]
            if not counts:
                raise ValueError(f"{self.name}: segment {k + 1} has no reference")
            out[k] = min(edits for edits, _ in counts), sum(length for _, length in counts) / len(counts)
        return out
