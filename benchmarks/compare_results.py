"""Compare two result trees file by file (logs, benchmarks and the table cache aside), through a map of renamed files.

    .venv/bin/python benchmarks/compare_results.py OLD/results NEW/results [--renames renames.tsv]

``renames.tsv``: ``old<TAB>new`` per line, paths relative to the result trees or plain substrings
of path and text (an id renamed everywhere). A file of OLD is looked up in NEW under its renamed
path; if the bytes differ, the renames are applied to OLD's text too, and a file that then equals
NEW's is reported as differing only by the renames. Prints the counts and every other difference;
exit status 1 if any file differs beyond the renames or is missing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

SKIPPED = ("logs", "benchmarks", "cache")


def read_renames(path: str | None) -> list[tuple[str, str]]:
    if not path:
        return []
    pairs = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip() and not line.startswith("#"):
            old, sep, new = line.partition("\t")
            if not sep:
                sys.exit(f"{path}:{number}: expected old<TAB>new, got {line!r}")
            pairs.append((old, new))
    return pairs


def renamed(text: str, renames: list[tuple[str, str]]) -> str:
    for old, new in renames:
        text = text.replace(old, new)
    return text


def compare(old_root: Path, new_root: Path, renames: list[tuple[str, str]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {"identical": [], "renamed only": [], "different": [], "missing": [], "new": []}
    seen = set()
    for old in sorted(p for p in old_root.rglob("*") if p.is_file()):
        rel = old.relative_to(old_root).as_posix()
        if rel.split("/")[0] in SKIPPED:
            continue
        new_rel = renamed(rel, renames)
        new = new_root / new_rel
        seen.add(new_rel)
        if not new.is_file():
            found["missing"].append(f"{rel} (as {new_rel})")
            continue
        old_bytes, new_bytes = old.read_bytes(), new.read_bytes()
        if old_bytes == new_bytes:
            found["identical" if new_rel == rel else "renamed only"].append(rel)
            continue
        try:
            same_after = renamed(old_bytes.decode("utf-8"), renames) == new_bytes.decode("utf-8")
        except UnicodeDecodeError:
            same_after = False
        found["renamed only" if same_after else "different"].append(rel if new_rel == rel else f"{rel} -> {new_rel}")
    for new in sorted(p for p in new_root.rglob("*") if p.is_file()):
        rel = new.relative_to(new_root).as_posix()
        if rel.split("/")[0] not in SKIPPED and rel not in seen:
            found["new"].append(rel)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--renames", help="old<TAB>new per line")
    args = parser.parse_args(argv)
    found = compare(Path(args.old), Path(args.new), read_renames(args.renames))
    print(", ".join(f"{kind}: {len(files)}" for kind, files in found.items()))
    for kind in ("renamed only", "different", "missing", "new"):
        for rel in found[kind]:
            print(f"{kind}\t{rel}")
    return 1 if found["different"] or found["missing"] else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # piped into head
        sys.stderr.close()
        sys.exit(1)
