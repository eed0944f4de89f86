"""Errors that tell the user which file, which line, what was expected and what to do."""

from __future__ import annotations

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

