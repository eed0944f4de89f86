"""Compiled kernels or their plain equivalents: which one a call runs.

The compiled kernels (numba, ``*_kernel.py``, each cached on disk with ``cache=True``) count n-gram
matches, TER edits and score rows many times faster than Python; their plain equivalents are numpy
(:func:`mtmeta.metrics.ngrams.matches`' sorting) and sacrebleu's own Python (its ``compute_bleu``,
``_compute_f_score`` and TER). Both give the same numbers: counts are integers, and the compiled
scores follow sacrebleu's arithmetic to the last bit (``tests/unit/metrics/test_kernels.py`` compares
them). What differs is the cost: the first compiled kernel a process calls costs it about a second
and 60-130 MB, numba's import and its compiler's context, even when every kernel is cached.

The workflow's jobs score many systems and resamplings per process, so compiled kernels are the
default. A process that scores a file or two and exits (``mtmeta score``) runs in :func:`preferring_plain`:
its calls then run the plain equivalents, unless a call is large enough to repay the kernels' load
(``work`` at least the limit its caller gives) or numba is already loaded (the cost is paid).
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

_PLAIN = [False]
# Rows from which a compiled score repays its load in a process that prefers the plain path:
# sacrebleu's Python scores about 70,000 rows a second.
PLAIN_ROWS = 100_000


@contextmanager
def preferring_plain():
    """Within the block, small calls run without the compiled kernels (``mtmeta score`` does)."""
    previous, _PLAIN[0] = _PLAIN[0], True
    try:
        yield
    finally:
        _PLAIN[0] = previous


def compiled(work: int, limit: int) -> bool:
    """Whether a call of ``work`` units (segments, rows) runs the compiled kernel; ``limit`` is the work
    from which the kernel repays its load in a process that prefers the plain path."""
    return not _PLAIN[0] or work >= limit or "numba" in sys.modules
