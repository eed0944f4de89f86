"""Long segments: the one form in which a metric refuses a segment longer than its limit.

Most metrics score a segment in time and memory (near-)linear in its length. Where a metric's work
grows with the square of it (METEOR's alignment, softBLEU's similarity matrix, sacrebleu's own TER
behind ``backend=sacrebleu``), it refuses a hypothesis or reference longer than a stated limit, with
an error naming the metric, the segment (1-based line), the side, the length and the limit. Nothing is
truncated. docs/metrics.md ('Long segments') lists every metric's limit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtmeta.errors import MtmetaError


def too_long(metric: str, segment: int, side: str, words: int, limit: str, why: str, remedy: str) -> MtmetaError:
    """The error for one side of one segment (``segment`` 1-based; ``limit`` as the user would set it,
    e.g. ``max_words=1,000``)."""
    return MtmetaError(f"{metric}: segment {segment}: the {side} has {words:,} words (after tokenisation), "
                       f"more than {limit}. {why}; longer segments are refused, not truncated. {remedy} "
                       f"(docs/metrics.md, 'Long segments')")


def check_lengths(metric: str, hyp_lengths: Sequence[int], ref_lengths: Sequence[Sequence[int | None]],
                  limit: int, limit_text: str, why: str, remedy: str) -> None:
    """Raise :func:`too_long` for the first segment, in order, with a side longer than ``limit`` words
    (its hypothesis before its references); ``ref_lengths`` holds one sequence per reference stream,
    None where a segment has no reference in that stream. A reference is "the reference" when there is
    one stream, "reference 2" (its stream) when there are several."""
    hyp = np.asarray(hyp_lengths, dtype=np.int64)
    refs = np.array([[-1 if n is None else n for n in stream] for stream in ref_lengths], dtype=np.int64)
    refs = refs.reshape(len(ref_lengths), len(hyp))
    longest = np.maximum(hyp, refs.max(axis=0, initial=-1))
    over = np.flatnonzero(longest > limit)
    if not len(over):
        return
    k = int(over[0])
    sides = [("hypothesis", int(hyp[k]))] + [
        ("reference" if len(refs) == 1 else f"reference {n + 1}", int(refs[n, k])) for n in range(len(refs))]
    side, words = next((side, words) for side, words in sides if words > limit)
    raise too_long(metric, k + 1, side, words, limit_text, why, remedy)
