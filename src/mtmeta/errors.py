"""Errors that tell the user which file, which line, what was expected and what to do."""

from __future__ import annotations

from contextlib import contextmanager
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
    """The configuration is invalid or inconsistent. The message is clipped to :data:`MAX_MESSAGE`
    characters (a message that quotes a user's value must not grow with it)."""

    def __init__(self, message: str):
        super().__init__(clip(str(message), MAX_MESSAGE))


MAX_MESSAGE = 4000  # characters of a ConfigError's message
MAX_SHOWN = 80  # characters of a value quoted in a message


def clip(text: str, limit: int = MAX_SHOWN) -> str:
    """``text``, or its first ``limit`` characters and how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def shown(value, limit: int = MAX_SHOWN) -> str:
    """A value as an error message quotes it: its ``repr``, at most ``limit`` characters (built
    without the whole ``repr`` of a large value: at most a few items of each list and mapping)."""
    import reprlib

    if isinstance(value, int) and value.bit_length() > 3 * limit:  # repr() refuses over 4,300 digits
        return f"an integer of {int(value.bit_length() * 0.30103) + 1:,} digits"
    short = reprlib.Repr()
    short.maxstring = short.maxother = short.maxlong = limit
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = 6
    short.maxlevel = 3
    text = short.repr(value)
    if isinstance(value, str) and len(value) > limit:
        return f"{text} ({len(value):,} characters)"
    return clip(text, limit)


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


class MissingSystemsError(MtmetaError):
    """A metric's system scores lack systems the pair has (a truncated or stale score table): its
    correlation would be computed over fewer systems than the others', so it is refused."""

    def __init__(self, where: str, metric: str, missing, expected: int):
        self.metric = metric
        self.missing = sorted(missing)
        shown = ", ".join(self.missing[:10]) + (" ..." if len(self.missing) > 10 else "")
        super().__init__(f"{where}: the system scores of {metric} lack {len(self.missing)} of the pair's {expected} "
                         f"judged systems ({shown}); expected a score for every judged system (a truncated or "
                         f"stale {metric}.sys.tsv? delete it and rerun its scoring)")

