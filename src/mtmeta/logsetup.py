"""One logging set-up for the CLI (stderr) and workflow scripts (their rule's log file)."""

from __future__ import annotations

import atexit
import logging
import re
import resource
import sys
import time
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# The last line of a job's log: the job's CPU time, whole (read by benchmarks/study_timing.py, whose
# per-rule table would otherwise rely on Snakemake's benchmark samples, taken every 30 s).
PROCESS_TIME = re.compile(r"process time: ([0-9.]+) CPU s")
_process_time_log: list[Path] = []  # the log file of this process's job, once configured


def configure(log_path: str | Path | None = None, level: int = logging.INFO) -> None:
    """Send log records (and uncaught exceptions) to ``log_path`` and stderr. With a ``log_path`` (a
    workflow job), the process's CPU time is appended to it when the process exits
    (:func:`process_time_line`)."""
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, mode="w", encoding="utf-8"))
        if not _process_time_log:
            atexit.register(_append_process_time)
        # absolute now: the line is written at exit, when the process may be in another directory
        _process_time_log[:] = [Path(log_path).resolve()]
    logging.basicConfig(level=level, format=FORMAT, datefmt="%H:%M:%S", handlers=handlers, force=True)

    def log_uncaught(kind, value, traceback):
        logging.getLogger("mtmeta").error("%s: %s", kind.__name__, value, exc_info=(kind, value, traceback))

    sys.excepthook = log_uncaught


def process_cpu_seconds() -> float:
    """User and system CPU seconds of this process, from its start (the interpreter and its imports
    included), and of the child processes it has waited for (a scoring job's worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def process_time_line(cpu_seconds: float) -> str:
    """The log line that records a job's CPU time (:data:`PROCESS_TIME` reads it back)."""
    return (f"{time.strftime('%H:%M:%S')} INFO mtmeta.logsetup: process time: {cpu_seconds:.2f} CPU s (this job's "
            "process from its start, and the child processes it waited for)\n")


def _append_process_time() -> None:
    # Written directly, after the job's own records: logging may already be reconfigured or shut down.
    try:
        with open(_process_time_log[0], "a", encoding="utf-8") as handle:
            handle.write(process_time_line(process_cpu_seconds()))
    except OSError:  # the log's directory is gone (a test's temporary directory): nothing to record
        pass
