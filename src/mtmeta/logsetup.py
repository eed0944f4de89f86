"""One logging set-up for the CLI (stderr) and workflow scripts (their rule's log file)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure(log_path: str | Path | None = None, level: int = logging.INFO) -> None:
    """Send log records (and uncaught exceptions) to ``log_path`` and stderr."""
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, mode="w", encoding="utf-8"))
    logging.basicConfig(level=level, format=FORMAT, datefmt="%H:%M:%S", handlers=handlers, force=True)

    def log_uncaught(kind, value, traceback):
        logging.getLogger("mtmeta").error("%s: %s", kind.__name__, value, exc_info=(kind, value, traceback))

    sys.excepthook = log_uncaught
