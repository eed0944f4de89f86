"""One name policy for every reader: what a system, reference, domain, document or score name may be.

The rules are those of mt-metrics-eval's writer, so that whatever mtmeta reads it can also write
back in that layout (``export-scores``) and read again as the same name:

- not empty, and no whitespace of any kind: its score files are split on whitespace (Python's
  ``str.split``, which also splits on U+0085, U+2028, U+001C..U+001F ...), so ``my sys`` would be
  read back as two fields;
- no control character (a NUL, an escape ...): such a name cannot be shown or written safely;
- where the name becomes a file name (a system's ``<system>.txt``, a reference's
  ``<lp>.<ref>.txt``): no ``/`` and no leading ``.``;
- a human score's name becomes a column of mtmeta's tables beside ``system``, ``seg_id`` ...: it may
  not be one of :data:`RESERVED_COLUMNS`.

A name that breaks a rule is refused where it is read, naming the file and line; the writer applies
the same rules (:func:`name_problem`) to what it is handed.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from mtmeta.errors import InputError

# Columns of the tables a human score's name sits beside (segments, human scores, summaries).
RESERVED_COLUMNS = frozenset({"system", "seg_id", "score", "line", "name", "item", "doc", "domain", "dataset", "lp",
                              "hypothesis", "reference", "source", "metric", "level"})
RULES = "non-empty, without whitespace or control characters"


def _shown(name: str, limit: int = 60) -> str:
    return repr(name) if len(name) <= limit else repr(name[:limit]) + f"... ({len(name):,} characters)"


def _char(c: str) -> str:
    return f"{c!r}, U+{ord(c):04X}"


def name_problem(name, *, file_name: bool = False, column: bool = False) -> str | None:
    """Why ``name`` cannot be a name (None if it can): ``file_name`` if it also names a file, ``column``
    if it becomes a table column."""
    if not isinstance(name, str) or not name:
        return "is empty"
    space = next((c for c in name if c.isspace()), None)
    if space is not None:
        return f"contains whitespace ({_char(space)} at position {name.index(space) + 1})"
    control = next((c for c in name if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        return f"contains a control character ({_char(control)} at position {name.index(control) + 1})"
    if file_name and ("/" in name or name.startswith(".")):
        return "cannot be a file name ('/' in it, or a leading '.')"
    if column and name in RESERVED_COLUMNS:
        return f"is the name of a column of mtmeta's tables (reserved: {', '.join(sorted(RESERVED_COLUMNS))})"
    return None


def expected(what: str, *, file_name: bool = False, column: bool = False) -> str:
    extra = (", no '/' or leading '.'" if file_name else "") + (", not a reserved column name" if column else "")
    return f"a {what} {RULES}{extra} (mt-metrics-eval's score files split on whitespace)"


def check_name_at(name: str, path: str | Path, what: str, *, line: int | None = None, file_name: bool = False,
                  column: bool = False) -> str:
    """``name`` if it can be one; else an :class:`InputError` naming ``path`` (and ``line``)."""
    problem = name_problem(name, file_name=file_name, column=column)
    if problem:
        shown = _shown(name) if isinstance(name, str) else repr(name)
        raise InputError(path, f"{what} {shown} {problem}", line=line,
                         expected=expected(what, file_name=file_name, column=column))
    return name
