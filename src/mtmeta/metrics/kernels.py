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

Where sacrebleu's Python is slow (TER), the plain equivalent is the kernel's own code run by Python
(:func:`plain`): a kernel module that decorates its functions with this module's :func:`njit` can be
loaded a second time without numba, its arrays then Python lists.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import types
from contextlib import contextmanager

_PLAIN = [False]
_LOADING_PLAIN = [False]  # True while plain() runs a kernel module's source
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


def njit(**options):
    """numba's ``njit(**options)`` decorator, or no decorator while :func:`plain` loads the module."""
    if _LOADING_PLAIN[0]:
        return lambda function: function
    from numba import njit as numba_njit

    return numba_njit(**options)


class _ListArrays:
    """The part of numpy a plain kernel calls: its allocations, as Python lists (which Python indexes
    several times faster than arrays); dtypes are only names here."""

    int8, int32, int64 = "int8", "int32", "int64"

    @staticmethod
    def empty(size: int, dtype: str = "int64") -> list:
        return [0] * size

    zeros = empty


@functools.cache
def plain(name: str) -> types.ModuleType:
    """Kernel module ``name`` run by Python, without numba: its source executed again into a module of
    its own, with :func:`njit` adding no decorator and ``np`` the allocations of :class:`_ListArrays`.
    The kernel must call numpy only for those (a test runs each plain kernel against its compiled one),
    read and write rows at offsets, not through slices (a list's slice is a copy), and take lists."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"no kernel module {name!r}")
    module = types.ModuleType(f"{name}.plain")
    module.__file__ = spec.origin
    with open(spec.origin, encoding="utf-8") as source:
        code = compile(source.read(), spec.origin, "exec")
    previous, _LOADING_PLAIN[0] = _LOADING_PLAIN[0], True
    try:
        exec(code, module.__dict__)  # noqa: S102 - the package's own kernel source, run as Python
    finally:
        _LOADING_PLAIN[0] = previous
    module.np = _ListArrays
    return module
