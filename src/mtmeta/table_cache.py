"""One language pair's piece of a table rule, kept for the rule's next run.

The rules that cover every language pair in one job (``rank_metrics``, ``test_significance``,
``judgment_levels``) run again when any pair's input changes: an ``external_scores`` entry scored
on one pair, one metric rescored. Each pair's piece is computed from that pair's files only, so the
job takes every piece whose inputs are unchanged from its last run and computes the others. A job
too slow to redo when nothing it reads has changed (``official_tasks``: every pair of metrics
tested on every task) keeps its whole output as one piece.

A piece is stored under ``results/cache/<rule>/<key>/`` (``results/cache/<rule>/<job>/<key>/`` for
a rule of several jobs): the bytes the rule wrote for it, a directory output as a tree. Its key is
a SHA-256 digest of everything it is computed from: the name and bytes of each input file (every
file of an input directory), its parameters (as JSON), and the code (every module of the
``mtmeta`` package and the rule's script), so any edit to the code computes every piece again. A
reused piece is therefore the same bytes its computation writes, and every output is the same with
or without the cache. A job keeps the pieces it used and removes the others (one run's worth);
``make clean-results`` removes them with the rest of ``results/``. Nothing is executed from the
cache: files are copied, tables read from parquet.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

import pandas as pd

from mtmeta.io import atomic_directory, sha256_file, write_bytes

PACKAGE = Path(__file__).resolve().parent
ROOT = Path("results") / "cache"
_FRAME = "table.parquet"


@functools.cache
def code_digest(script: str) -> str:
    """SHA-256 of every module of the package (path and bytes) and of the rule's ``script``."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(b"script\0" + Path(script).read_bytes())
    return digest.hexdigest()


def _files_of(path: Path) -> list[Path]:
    """``path``, or every file under the directory ``path`` in sorted order, through symbolic links
    to directories (a study may link an eval set in), each real directory once (no link loops)."""
    if not path.is_dir():
        return [path]
    files, seen = [], set()
    for top, directories, names in os.walk(path, followlinks=True):
        real = os.path.realpath(top)
        if real in seen:
            directories[:] = []
            continue
        seen.add(real)
        directories.sort()
        files += [Path(top) / name for name in names if (Path(top) / name).is_file()]
    return sorted(files)


class TableCache:
    """The pieces of one rule's job (see the module's docstring).

    ``script``: the rule's script (``workflow/scripts/<rule>.py``, the rule's name its stem), part
    of every key. ``root``: where the rules' pieces are kept. ``job``: for a rule of several jobs,
    the one this is (its wildcards), whose pieces are kept apart so that one job's :meth:`prune`
    leaves the others'.
    """

    def __init__(self, script, root=ROOT, job: str | None = None):
        self.directory = Path(root) / Path(script).stem
        if job is not None:
            if not job or "/" in job or job in (".", ".."):
                raise ValueError(f"a job's name must be one path component, got {job!r}")
            self.directory = self.directory / job
        self.code = code_digest(str(script))
        self.used: set[str] = set()
        self.reused = 0
        self.computed = 0

    def key(self, inputs: Iterable, params) -> str:
        """The key of a piece computed from the files ``inputs`` (in this order; a directory stands
        for every file under it, each by its path as the directory is given) and ``params``
        (anything JSON can write; other values by their ``str``)."""
        digest = hashlib.sha256(self.code.encode() + b"\0")
        digest.update(json.dumps(params, sort_keys=True, default=str).encode() + b"\0")
        for path in inputs:
            for file in _files_of(Path(path)):
                digest.update(file.as_posix().encode() + b"\0" + sha256_file(file).encode() + b"\0")
        return digest.hexdigest()

    def files(self, key: str, outputs: list, compute: Callable[[], None], directories: tuple = ()) -> bool:
        """Write the files ``outputs`` and the directory trees ``directories``: copies of the piece
        ``key`` if it is stored, else by ``compute()`` (which writes them), then kept as that piece.
        True if the piece was reused."""
        piece = self._piece(key)
        names = [f"{number}{Path(path).suffix}" for number, path in enumerate(outputs)]
        trees = [f"tree{number}" for number in range(len(directories))]
        if (all((piece / name).is_file() for name in names)
                and all((piece / name).is_dir() for name in trees)):
            for name, path in zip(names, outputs, strict=True):
                write_bytes(path, (piece / name).read_bytes())
            for name, path in zip(trees, directories, strict=True):
                with atomic_directory(path) as staging:
                    shutil.copytree(piece / name, staging, dirs_exist_ok=True, copy_function=shutil.copyfile)
            self.reused += 1
            return True
        compute()
        with atomic_directory(piece) as staging:
            for name, path in zip(names, outputs, strict=True):
                shutil.copyfile(path, staging / name)
            for name, path in zip(trees, directories, strict=True):
                shutil.copytree(path, staging / name, copy_function=shutil.copyfile)
        self.computed += 1
        return False

    def frame(self, key: str, compute: Callable[[], pd.DataFrame]) -> pd.DataFrame:
        """The table of the piece ``key`` if it is stored, else ``compute()``'s, kept as that piece.
        Either way the table is read from the piece's parquet file, so that a reused and a computed
        piece are the same table."""
        piece = self._piece(key)
        if (piece / _FRAME).is_file():
            self.reused += 1
        else:
            table = compute()
            with atomic_directory(piece) as staging:
                table.to_parquet(staging / _FRAME, index=False)
            self.computed += 1
        return pd.read_parquet(piece / _FRAME)

    def prune(self) -> None:
        """Remove the pieces this job did not use (the job's own are its whole run's worth)."""
        if self.directory.is_dir():
            for entry in self.directory.iterdir():
                if entry.name not in self.used:
                    if entry.is_dir() and not entry.is_symlink():
                        shutil.rmtree(entry, ignore_errors=True)
                    else:
                        entry.unlink(missing_ok=True)

    def summary(self) -> str:
        return (f"{self.reused} of {self.reused + self.computed} pieces reused from {self.directory} "
                f"(inputs unchanged), {self.computed} computed")

    def _piece(self, key: str) -> Path:
        self.used.add(key)
        return self.directory / key
