"""NIST's per-segment statistics for a whole corpus, compiled with numba.

The same numbers as :meth:`mtmeta.metrics.nist.NIST.stats`'s loop (tests compare both): for each
order n, each distinct hypothesis n-gram, in order of first occurrence, adds its information weight
times its count clipped at its largest count in any one reference, if some reference has it.
Texts are word ids (``offsets[t]:offsets[t + 1]`` is text t); ``grams[n - 1, p]`` numbers the n-gram
starting at position p (equal numbers for equal n-grams: :func:`mtmeta.metrics.ngrams.gram_ids`), and
``info[p, n - 1]`` is the information weight of the reference n-gram starting at position p.

Each segment's n-grams are counted in arrays indexed by those numbers (and reset after it), so time
and memory are linear in the texts' length: a 1 MB line is scored in about a second. Comparing every
pair of positions, as an earlier version did, took time quadratic in a segment's length (hours for
a 1 MB line). The sums are taken in the same order, so the floats are the same.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def corpus_stats(grams, offsets, info, hyp_text, ref_ptr, ref_texts, order: int):
    """``(hyp_ngrams, matched_info)`` per segment and order; segment k's references are texts
    ``ref_texts[ref_ptr[k]:ref_ptr[k + 1]]``."""
    n_seg = len(hyp_text)
    counts = np.zeros((n_seg, order))
    gains = np.zeros((n_seg, order))
    size = grams.max() + 1 if grams.size else 1
    in_hyp = np.zeros(size, dtype=np.int64)  # the segment's hypothesis count of each n-gram
    in_ref = np.zeros(size, dtype=np.int64)  # its count in the reference being read
    best = np.zeros(size, dtype=np.int64)  # its largest count in any reference so far
    weight = np.zeros(size)  # its information weight (the same at every reference position)
    for k in range(n_seg):
        h0 = offsets[hyp_text[k]]
        length = offsets[hyp_text[k] + 1] - h0
        for n in range(1, order + 1):
            m = length - n + 1
            if m <= 0:
                continue
            counts[k, n - 1] = m
            ids = grams[n - 1]
            for i in range(m):
                in_hyp[ids[h0 + i]] += 1
            for r in range(ref_ptr[k], ref_ptr[k + 1]):
                r0 = offsets[ref_texts[r]]
                m_ref = offsets[ref_texts[r] + 1] - r0 - n + 1
                for y in range(m_ref):
                    g = ids[r0 + y]
                    if in_hyp[g] > 0:  # only the hypothesis's n-grams matter
                        if in_ref[g] == 0 and best[g] == 0:
                            weight[g] = info[r0 + y, n - 1]
                        in_ref[g] += 1
                for y in range(m_ref):
                    g = ids[r0 + y]
                    if in_ref[g] > best[g]:
                        best[g] = in_ref[g]
                    in_ref[g] = 0
            total = 0.0
            for i in range(m):  # first occurrences in order; clearing the count marks the n-gram done
                g = ids[h0 + i]
                c = in_hyp[g]
                if c == 0:
                    continue
                if best[g] > 0:
                    total += weight[g] * min(c, best[g])
                in_hyp[g] = 0
                best[g] = 0
            gains[k, n - 1] = total
    return counts, gains
