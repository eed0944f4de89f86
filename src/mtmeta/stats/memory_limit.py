"""The memory a statistic may allocate at once, checked before the allocation.

Tests over pairs of systems materialise (draws x pairs) arrays: with 10,000 systems a pair table of a
thousand bootstrap draws holds 5e10 cells. :func:`check_allocation` estimates the bytes from the
array's cells and refuses with :class:`ResourceLimitError`, stating the estimate and the limit, before
numpy tries (and the machine swaps or the kernel kills the job). The limit is half the machine's
physical memory (:data:`MEMORY_LIMIT`). stats imports nothing else of mtmeta, so the error is a
ValueError (which the command line reports as a user error, exit 2), not an ``MtmetaError``.
"""

from __future__ import annotations

import os


class ResourceLimitError(ValueError):
    """A computation would need more memory than mtmeta allows itself; refused before allocating."""

    def __init__(self, what: str, needed: int, limit: int, hint: str = ""):
        self.needed, self.limit = needed, limit
        super().__init__(f"{what} would need {needed / 2**30:.1f} GiB of memory; the limit is {limit / 2**30:.1f} GiB"
                         + (f"; {hint}" if hint else ""))


def _physical_memory() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):  # not a POSIX system: assume 8 GiB
        return 8 * 2**30


MEMORY_LIMIT = _physical_memory() // 2


def check_allocation(what: str, cells: int, bytes_per_cell: int, hint: str = "", limit: int | None = None) -> None:
    """Refuse ``what`` (e.g. "Kendall's tau over 1000 draws x 49995000 system pairs") if its arrays,
    ``cells`` values of ``bytes_per_cell`` bytes in all, would exceed ``limit`` (:data:`MEMORY_LIMIT`)."""
    limit = MEMORY_LIMIT if limit is None else limit
    needed = int(cells) * int(bytes_per_cell)
    if needed > limit:
        raise ResourceLimitError(what, needed, limit, hint or "expected fewer systems or fewer draws")


def pairs_of(n: int) -> int:
    """The number of unordered pairs of ``n`` items."""
    return n * (n - 1) // 2
