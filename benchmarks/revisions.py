"""A module of this repository as it was at an earlier git revision, loaded beside the current one, for
the benchmarks that time before and after in one run (bench_human_draws.py, bench_neighbours.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_at(revision: str, path: str):
    """The file ``path`` (relative to the repository) as it was at ``revision`` (git show REV:path),
    loaded as a module of its own, named after the file with ``_before``."""
    text = subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout
    name = f"{Path(path).stem}_before"
    copy = Path(tempfile.mkdtemp()) / f"{name}.py"
    copy.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, copy)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
