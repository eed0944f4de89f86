"""NIST's per-segment statistics for a whole corpus, compiled with numba.

The same numbers as :meth:`mtmeta.metrics.nist.NIST.stats`'s loop (tests compare both): for each
order n, each distinct hypothesis n-gram, in order of first occurrence, adds its information weight
times its count clipped at its largest count in any one reference, if some reference has it.
Texts are word ids (``values[offsets[t]:offsets[t + 1]]``); ``info[offsets[t] + i, n - 1]`` is the
information weight of the reference n-gram starting at word i of text t.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mtmeta.metrics.ngram_kernel import same_ngram as _same


@njit(cache=True)
def corpus_stats(values, offsets, info, hyp_text, ref_ptr, ref_texts, order: int):
    """``(hyp_ngrams, matched_info)`` per segment and order; segment k's references are texts
    ``ref_texts[ref_ptr[k]:ref_ptr[k + 1]]``."""
    n_seg = len(hyp_text)
    counts = np.zeros((n_seg, order))
    gains = np.zeros((n_seg, order))
    for k in range(n_seg):
        h0 = offsets[hyp_text[k]]
        length = offsets[hyp_text[k] + 1] - h0
        for n in range(1, order + 1):
            m = length - n + 1
            if m <= 0:
                continue
            counts[k, n - 1] = m
            total = 0.0
            for i in range(m):
                first = True  # only the first occurrence of a gram counts it
                for x in range(i):
                    if _same(values, h0 + x, h0 + i, n):
                        first = False
                        break
                if not first:
                    continue
                c = 0
                for x in range(i, m):
                    if _same(values, h0 + x, h0 + i, n):
                        c += 1
                best = 0
                weight = 0.0
                for r in range(ref_ptr[k], ref_ptr[k + 1]):
                    r0 = offsets[ref_texts[r]]
                    in_ref = 0
                    for y in range(offsets[ref_texts[r] + 1] - r0 - n + 1):
                        if _same(values, r0 + y, h0 + i, n):
                            if in_ref == 0 and best == 0:
                                weight = info[r0 + y, n - 1]
                            in_ref += 1
                    if in_ref > best:
                        best = in_ref
                if best > 0:
                    total += weight * min(c, best)
            gains[k, n - 1] = total
    return counts, gains
