"""Conventions of the files the study reads and writes, in one place.

- Tables: tab-separated, no index, floats with 17 significant digits (every double reads back as
  the same double, so a rerun writes the same bytes and nothing is rounded between steps).
- Names are strings: a system or metric called ``NA``, ``nan``, ``null`` or ``None`` reads back as
  that name, never as a missing value (only an empty cell is missing).
- JSON summaries: UTF-8.
- Markdown: GitHub-flavoured tables; p-values below 0.001 keep three significant digits.
- Every output is written atomically (:func:`atomic_path`): a full disk or a killed job leaves the
  previous file, or none, never half a file. The temporary file is made in a fresh directory of a
  random name (``mkdir`` fails rather than reuse anything there), so nothing already in place is
  ever opened for writing.
- Under an output directory the caller names (``root``: e.g. ``export-scores --out``, a downloaded
  mt-metrics-eval release), a symbolic link is refused, never written through
  (:func:`refuse_links`): a link to a file, or a linked directory on the way to it.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from mtmeta.errors import OutputError

if TYPE_CHECKING:
    import pandas as pd  # imported where a table is read: `mtmeta score` writes its cache without it

FLOAT_FORMAT = "%.17g"
# Columns of the study's tables that hold names (systems, metric ids): read as strings, always.
NAME_COLUMNS = ("system", "sys_a", "sys_b", "metric", "metric_1", "metric_2")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _output_error(exc: OSError, staging: Path, path: Path, directory: bool = False) -> OSError | OutputError:
    """An OSError met while writing ``path`` through ``staging``, as an OutputError naming the file the
    caller meant (``path``, or the file under it); an error about another file (an input the block
    read) is returned as it is."""
    if exc.filename is None or Path(exc.filename) == path:
        return OutputError(path, _reason(exc))
    try:
        inside = Path(exc.filename).relative_to(staging)
    except ValueError:
        return exc  # not the output
    named = path if str(inside) == "." or (not directory and inside == Path(path.name)) else path / inside
    return OutputError(named, _reason(exc))


def _fresh_directory(path: Path, suffix: str) -> Path:
    """A new, empty, hidden directory beside ``path`` (mode as the umask allows, as ``mkdir`` makes)."""
    while True:
        candidate = path.parent / f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}{suffix}"
        try:
            candidate.mkdir()
            return candidate
        except FileExistsError:
            continue


def refuse_links(path, root) -> None:
    """An :class:`OutputError` if ``path`` (under the output directory ``root``), or any directory
    between ``root`` and it, is a symbolic link: writing there would change the file the link points
    to, wherever that is. ``root`` itself may be a link (the user named it)."""
    path, root = Path(path), Path(root)
    try:
        relative = path.relative_to(root)
    except ValueError:
        raise ValueError(f"{path} is not under the output directory {root}") from None
    current = root
    for part in relative.parts:
        current = current / part
        if current.is_symlink():
            try:
                target = os.readlink(current)
            except OSError:
                target = "?"
            raise OutputError(current, f"it is a symbolic link (to {target}), and mtmeta never writes through a "
                                       f"link under the output directory {root}",
                              expected="a regular file or directory there, or none (remove the link)")


@contextmanager
def atomic_path(path, *, root=None) -> Iterator[Path]:
    """Where to write ``path`` so that it appears whole or not at all.

    The block writes to a file of the same name in a fresh hidden directory beside ``path`` (same
    file system, so the final rename is atomic; same name, so format inference from the suffix and
    gzip's header see what they would see for ``path``). When the block ends without error the file
    is renamed over ``path``; on any error the directory is removed and ``path`` keeps what it had.
    A failure to write (no space, no permission ...) is an :class:`OutputError` naming ``path``.

    ``root``: the output directory ``path`` is under; a link at ``path`` or on the way to it from
    ``root`` is then refused (:func:`refuse_links`). Without it, a link at ``path`` itself is
    followed (a file the user named, e.g. ``-o`` of the CLI).
    """
    path = Path(path)
    if root is not None:
        refuse_links(path, root)
    elif path.is_symlink():
        path = path.resolve()  # write where the link points, as opening it for writing would
    if path.exists() and not path.is_file():
        raise OutputError(path, "it exists and is not a regular file (a directory, device or pipe)")
    try:
        staging = _fresh_directory(path, ".partial")
    except OSError as exc:
        raise OutputError(path, _reason(exc)) from None
    try:
        yield staging / path.name
        os.replace(staging / path.name, path)
    except OSError as exc:
        raise _output_error(exc, staging, path) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def check_replaceable_directory(path) -> None:
    """An :class:`OutputError` if ``path`` is the current directory or one above it (``.``, ``..``,
    an absolute path to either): :func:`atomic_directory` replaces its directory as a whole."""
    path = Path(path)
    try:
        inside = path.name in ("", ".", "..") or Path.cwd().resolve().is_relative_to(path.resolve())
    except OSError:  # no current directory any more: nothing to protect there
        inside = path.name in ("", ".", "..")
    if inside:
        raise OutputError(path, "it is the current directory or one above it, which would be replaced as a whole",
                          expected="a directory of its own for the output (e.g. a new one below this)")


@contextmanager
def atomic_directory(path) -> Iterator[Path]:
    """A directory to fill that replaces ``path`` (a directory, or nothing) only when the block ends
    without error; the previous directory and everything in it is then removed. On an error the
    new directory is removed and ``path`` is left as it was. The current directory (``.``) or one
    above it cannot be replaced so: refused before anything is written."""
    path = Path(path)
    check_replaceable_directory(path)
    if path.exists() and not path.is_dir():
        raise OutputError(path, "it exists and is not a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = _fresh_directory(path, ".partial")
    except OSError as exc:
        raise OutputError(path, _reason(exc)) from None
    old = None
    try:
        yield staging
        if path.exists():
            old = _fresh_directory(path, ".old")
            os.replace(path, old / path.name)
        os.replace(staging, path)
    except OSError as exc:
        if old is not None and (old / path.name).exists() and not path.exists():
            os.replace(old / path.name, path)  # put the previous result back
        raise _output_error(exc, staging, path, directory=True) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def write_tsv(table: pd.DataFrame, path, **options) -> None:
    """A result table in the study's format (``options`` go to ``DataFrame.to_csv``, e.g. compression)."""
    with atomic_path(path) as part:
        table.to_csv(part, sep="\t", index=False, float_format=FLOAT_FORMAT, **options)


def write_csv(table: pd.DataFrame, path, **options) -> None:
    """A table written by ``DataFrame.to_csv`` with the caller's options only (for tables that keep
    their own format, e.g. the ledger's 6 digits), atomically."""
    with atomic_path(path) as part:
        table.to_csv(part, **options)


def write_parquet(table: pd.DataFrame, path, **options) -> None:
    """A table as parquet without the index (``options`` go to ``DataFrame.to_parquet``), atomically."""
    with atomic_path(path) as part:
        table.to_parquet(part, index=False, **options)


def read_tsv(path, **options) -> pd.DataFrame:
    """A table the study wrote. Names (:data:`NAME_COLUMNS`) are strings whatever they spell, and
    only an empty cell is a missing value: pandas' default list ("NA", "nan", "null", "None", "N/A"
    ...) would turn a system of that name into NaN."""
    dtype = {column: str for column in NAME_COLUMNS}  # as pandas infers text columns, but never a number
    if isinstance(options.get("dtype"), dict):
        dtype.update(options.pop("dtype"))
    elif "dtype" in options:
        dtype = options.pop("dtype")
    options = {"keep_default_na": False, "na_values": [""], **options}
    import pandas as pd

    return pd.read_csv(path, sep="\t", dtype=dtype, **options)


def read_tsvs(paths) -> pd.DataFrame:
    """Several tables with the same columns, one after the other."""
    import pandas as pd

    return pd.concat([read_tsv(path) for path in paths], ignore_index=True)


def sha256_file(path) -> str:
    """The sha256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_json(path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_text(path, text: str, *, root=None) -> None:
    """``text`` as UTF-8, atomically; ``root`` as :func:`atomic_path` takes it (links under it refused)."""
    with atomic_path(path, root=root) as part, open(part, "w", encoding="utf-8") as handle:
        handle.write(text)


def write_bytes(path, data: bytes) -> None:
    with atomic_path(path) as part:
        part.write_bytes(data)


def write_titled_table(table: pd.DataFrame, tsv, markdown, title: str, columns: list[str] | None = None) -> None:
    """The table as TSV, and as Markdown under a bold title."""
    write_tsv(table, tsv)
    write_text(markdown, f"**{title}**\n\n" + markdown_table(table, columns))


def _format_cell(value) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "n/a"
        return f"{value:.3g}" if abs(value) < 0.001 and value != 0 else f"{value:.3f}"
    return str(value).replace("|", "\\|")


def markdown_table(table: pd.DataFrame, columns: list[str] | None = None) -> str:
    """A GitHub-flavoured Markdown rendering; p-values below 0.001 keep three significant digits."""
    columns = columns or [c for c in table.columns if c not in ("description", "metric_signature")]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for _, row in table[columns].iterrows():
        lines.append("| " + " | ".join(_format_cell(row[c]) for c in columns) + " |")
    return "\n".join(lines) + "\n"
