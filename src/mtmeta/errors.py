"""Errors that tell the user which file, which line, what was expected and what to do."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path


class MtmetaError(Exception):
    """Base class: every error mtmeta raises on bad input or a failed step."""


class InputError(MtmetaError):
    """Malformed input data, located as precisely as we can.

    The message reads ``<path>:<line>: <problem>; expected <expected>``, so that editors
    and terminals can jump to the spot.
    """

    def __init__(
        self,
        path: str | Path,
        problem: str,
        *,
        line: int | None = None,
        expected: str | None = None,
        hint: str | None = None,
    ):
        self.path = str(path)
        self.line = line
        self.problem = problem
        self.expected = expected
        self.hint = hint
        where = self.path if line is None else f"{self.path}:{line}"
        message = f"{where}: {problem}"
        if expected:
            message += f"; expected {expected}"
        if hint:
            message += f". {hint}"
        super().__init__(message)


class ConfigError(MtmetaError):
    """The configuration is invalid or inconsistent."""


class FetchError(MtmetaError):
    """A source could not be obtained (missing mirror file, failed download, bad checksum)."""


class ArchiveError(MtmetaError):
    """An archive is corrupt or unsafe to extract."""


class OutputError(MtmetaError):
    """An output could not be written (a full disk, a read-only directory, a closed stream ...).

    The message names the file the caller meant to write (not a temporary one) and the system's
    reason; whatever was there before is left as it was (mtmeta.io writes atomically).
    """

    def __init__(self, path: str | Path, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: cannot write: {reason}; expected a writable location with free space")


@contextmanager
def stage(what: str, path: str | Path | None = None):
    """Name what is being done, and the file it is done to, for an error nobody expected: an
    exception that leaves this block (and has no stage yet: the innermost one wins) carries
    ``mtmeta_stage = (what, path)``, which the command line's internal-error boundary prints."""
    try:
        yield
    except Exception as exc:
        if getattr(exc, "mtmeta_stage", None) is None:
            try:
                exc.mtmeta_stage = (what, None if path is None else str(path))
            except AttributeError:  # an exception type without a __dict__
                pass
        raise


def stage_of(exc: BaseException) -> tuple[str, str | None] | None:
    """The (what, file) an exception was raised in (:func:`stage`), or None."""
    return getattr(exc, "mtmeta_stage", None)
