"""Errors that tell the user which file, which line, what was expected and what to do."""

from __future__ import annotations

from pathlib import Path


class MtmetaError(Exception):
    """Base class: every error mtmeta raises on bad input or a failed step."""


# The most of a problem or expectation an InputError shows: what it echoes of a file (a header, a
# field) can be as long as the file's longest line.
MAX_SHOWN = 2000


def shorten(text: str, limit: int = MAX_SHOWN) -> str:
    """``text``, or its start and end with how much was left out between them if it is longer than
    ``limit`` characters."""
    if len(text) <= limit:
        return text
    head, tail = limit * 3 // 4, limit // 4
    return f"{text[:head]} ... [{len(text) - head - tail:,} characters left out] ... {text[-tail:]}"


class InputError(MtmetaError):
    """Malformed input data, located as precisely as we can.

    The message reads ``<path>:<line>: <problem>; expected <expected>``, so that editors
    and terminals can jump to the spot. A problem or expectation longer than :data:`MAX_SHOWN`
    characters (a 512 KB header echoed back) is shortened in the middle.
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
        message = f"{where}: {shorten(problem)}"
        if expected:
            message += f"; expected {shorten(expected)}"
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

    def __init__(self, path: str | Path, reason: str, *, expected: str = "a writable location with free space"):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: cannot write: {reason}; expected {expected}")
