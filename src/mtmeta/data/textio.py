"""Strict text reading: UTF-8 only, lines split on newline only, errors located by line.

Everything mtmeta reads from a corpus goes through :func:`read_lines`, so a stray byte
is reported as ``file:line`` instead of surfacing later as a mysterious score. A NUL byte is an
error too (file, line, column): no text the study reads holds one, and a binary or UTF-16 file
would otherwise decode into nonsense without complaint. A missing file, a directory, a dangling
symbolic link or an unreadable file is an error naming the path.

A carriage return that does not end a line (a lone ``\\r``) is an error naming the file, line and
column: readers disagree on it (sacrebleu keeps it inside the line of a file but breaks the line
there on standard input; mt-metrics-eval, reading in Python's universal-newline mode, breaks it),
so the number of segments would depend on the reader.

Reading is bounded: a file (a gzip file once decompressed, which is streamed) larger than
:data:`MAX_TEXT_BYTES` is refused before it is held in memory, naming the file and the cap.
"""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterator
from pathlib import Path

from mtmeta.errors import InputError

GZIP_MAGIC = b"\x1f\x8b"
# The largest text file (decompressed) any reader holds in memory: 1 GiB. The study's largest is 29 MB
# (a gzipped thesaurus); a few MB of gzip that inflate past it are a compression bomb, refused.
MAX_TEXT_BYTES = 2**30
# pandas' ``compression=`` for gzip output without the write time in its header: same table, same bytes.
GZIP_WITHOUT_TIMESTAMP = {"method": "gzip", "mtime": 0}


def check_input_file(path: str | Path, what: str = "a file") -> Path:
    """``path`` if it names a readable file; else an InputError saying what it is instead (missing, a
    directory ...) and what was expected (``what``)."""
    path = Path(path)
    if not path.exists():
        if path.is_symlink():
            raise InputError(path, f"dangling symbolic link (to {_link_target(path)}, which does not exist)",
                             expected=what)
        raise InputError(path, "file not found", expected=what)
    if path.is_dir():
        raise InputError(path, "is a directory", expected=what)
    if not path.is_file() and not path.is_fifo() and not path.is_char_device():  # a pipe, e.g. <(...), is text too
        raise InputError(path, "is not a regular file", expected=what)
    if not os.access(path, os.R_OK):
        raise InputError(path, "is not readable (permission denied)", expected=what)
    return path


def _link_target(path: Path) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"


def _too_large(path, found: str, limit: int) -> InputError:
    return InputError(path, f"too large: {found}",
                      expected=f"at most {limit:,} bytes of text, the most mtmeta reads into memory (split the file, "
                               "or check that it is the right one)")


def read_bytes(path: str | Path, what: str = "an existing file", *, limit: int | None = None) -> bytes:
    """Read a file, transparently decompressing gzip (detected by its magic bytes), at most ``limit``
    bytes (default :data:`MAX_TEXT_BYTES`) once decompressed: gzip is streamed, and refused as soon as
    it inflates past the cap."""
    path = check_input_file(path, what)
    limit = MAX_TEXT_BYTES if limit is None else limit
    try:
        with open(path, "rb") as handle:
            if handle.peek(2)[:2] == GZIP_MAGIC:  # peek: a pipe cannot seek back
                return _gunzip(handle, path, limit)
            size = os.fstat(handle.fileno()).st_size
            if path.is_file() and size > limit:
                raise _too_large(path, f"{size:,} bytes", limit)
            raw = handle.read(limit + 1)
            if len(raw) > limit:  # a pipe, whose size is not known before
                raise _too_large(path, f"more than {limit:,} bytes", limit)
            return raw
    except OSError as exc:
        raise InputError(path, f"cannot be read ({exc.strerror or exc})", expected=what) from None


def _gunzip(handle, path: Path, limit: int) -> bytes:
    chunks, total = [], 0
    try:
        with gzip.GzipFile(fileobj=handle, mode="rb") as stream:
            while chunk := stream.read(1 << 20):
                total += len(chunk)
                if total > limit:
                    raise _too_large(path, f"gzip data that decompresses to more than {limit:,} bytes (a compression "
                                           "bomb?)", limit)
                chunks.append(chunk)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(
            path, f"corrupt gzip data ({exc})", expected="a complete gzip file",
            hint="Delete it and fetch it again",
        ) from exc
    return b"".join(chunks)


def decode_text(raw: bytes, path: str | Path, encoding: str = "utf-8") -> str:
    """Decode strictly; on failure name the line, column and offending byte(s)."""
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = raw[exc.start : exc.end].hex(" ")
        label = "UTF-8" if encoding.lower().replace("-", "") == "utf8" else encoding
        raise InputError(
            path,
            f"invalid {label} byte(s) {bad} at column {column}",
            line=line,
            expected=f"{label} text",
        ) from exc
    nul = text.find("\0")
    if nul >= 0:
        # No segment, name or number holds a NUL: it means a binary file, or UTF-16 text (whose ASCII
        # characters decode as valid UTF-8 with a NUL beside each), and would be scored as a character.
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        raise InputError(path, f"NUL byte at column {column}", line=line,
                         expected="text without NUL bytes (is it a binary file, or UTF-16? convert it to UTF-8)")
    # A byte-order mark is an encoding artefact, not part of the first segment.
    return text[1:] if text.startswith("\ufeff") else text


def decode_utf8(raw: bytes, path: str | Path) -> str:
    return decode_text(raw, path, "utf-8")


def split_lines(text: str, path: str | Path | None = None) -> list[str]:
    """Split on ``\\n`` only (not on U+0085, U+2028 ... as ``str.splitlines`` would).

    A final newline does not start an extra empty line; a trailing ``\\r`` is removed. With ``path``
    (where the text came from), a carriage return elsewhere in a line is an error naming the line.
    """
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" not in text:  # the usual case: no line to look at again
        return lines
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if path is not None:
        check_no_lone_cr(lines, path)
    return lines


def check_no_lone_cr(lines: list[str], path: str | Path) -> None:
    """An error at the first line (its line ending already removed) that holds a carriage return."""
    for number, line in enumerate(lines, start=1):
        column = line.find("\r")
        if column >= 0:
            raise InputError(path, f"carriage return (\\r) inside the line at column {column + 1}", line=number,
                             expected="lines ending in \\n or \\r\\n, without a \\r elsewhere (sacrebleu keeps "
                                      "it in the line when reading a file but breaks the line there on standard "
                                      "input, as mt-metrics-eval does: the segment count would depend on the reader; "
                                      "remove it, e.g. tr -d '\\r')")


def read_lines(path: str | Path) -> list[str]:
    """All lines of a (possibly gzipped) UTF-8 text file, newline characters removed; a lone carriage
    return is an error (:func:`check_no_lone_cr`)."""
    return split_lines(decode_utf8(read_bytes(path), path), path)


def iter_tsv(path: str | Path, expected_header: list[str]) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, fields)`` for a TSV file whose header must match exactly."""
    lines = read_lines(path)
    if not lines:
        raise InputError(path, "file is empty", line=1, expected="a header line " + "\\t".join(expected_header))
    header = lines[0].split("\t")
    if header != expected_header:
        raise InputError(
            path, f"unexpected header {header!r}", line=1, expected="columns " + ", ".join(expected_header)
        )
    width = len(expected_header)
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != width:
            raise InputError(
                path, f"found {len(fields)} tab-separated fields", line=number, expected=f"{width} fields"
            )
        yield number, fields


def parse_int(value: str, path: str | Path, line: int, column: str) -> int:
    """An integer field (:func:`mtmeta.data.numbers.parse_integer`: ASCII digits, 64-bit range)."""
    from mtmeta.data.numbers import parse_integer

    return parse_integer(value, path, line, f"column {column}:")
