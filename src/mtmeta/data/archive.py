"""Safe extraction of tar and zip archives.

Every member is checked before anything is written: absolute paths, ``..`` components,
links pointing outside the target and special files (devices, FIFOs) are refused with an
error naming the archive and the member. Extraction goes to a temporary sibling directory
that is renamed into place only when complete, so an interrupted run never leaves a
half-extracted tree that looks finished.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from mtmeta.errors import ArchiveError

TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
ZIP_SUFFIXES = (".zip", ".whl")  # a wheel is a zip archive


def is_archive(name: str) -> bool:
    name = name.lower()
    return name.endswith(TAR_SUFFIXES) or name.endswith(ZIP_SUFFIXES)


def _unsafe(archive: Path, member: str, reason: str) -> ArchiveError:
    return ArchiveError(
        f"{archive}: refusing to extract member {member!r}: {reason}. "
        "The archive is unsafe or not the expected file; delete it and fetch it again from a trusted source."
    )


def _check_member_name(archive: Path, name: str) -> str:
    """Return the normalised relative path of a member, or raise if it escapes the target."""
    if not name or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise _unsafe(archive, name, "absolute path")
    parts = name.replace("\\", "/").split("/")
    if ".." in parts:
        raise _unsafe(archive, name, "path contains '..'")
    normalised = posixpath.normpath(name.replace("\\", "/"))
    if normalised.startswith("../") or normalised == "..":
        raise _unsafe(archive, name, "path leaves the target directory")
    return normalised


def _check_link_target(archive: Path, name: str, target: str, *, hard: bool) -> None:
    if target.startswith("/") or (len(target) > 1 and target[1] == ":"):
        raise _unsafe(archive, name, f"link to absolute path {target!r}")
    # Symlink targets are relative to the link's directory; hard-link targets to the archive root.
    base = "" if hard else posixpath.dirname(name)
    resolved = posixpath.normpath(posixpath.join(base, target))
    if resolved == ".." or resolved.startswith("../"):
        raise _unsafe(archive, name, f"link target {target!r} points outside the target directory")


def list_safe_members(archive: Path) -> list[str]:
    """Validate every member of ``archive``; return their normalised names (files only)."""
    archive = Path(archive)
    names: list[str] = []
    try:
        if archive.name.lower().endswith(ZIP_SUFFIXES):
            with zipfile.ZipFile(archive) as zf:
                for info in zf.infolist():
                    name = _check_member_name(archive, info.filename)
                    mode = info.external_attr >> 16
                    if stat.S_ISLNK(mode):
                        raise _unsafe(archive, info.filename, "symbolic links are not allowed in zip archives")
                    if not info.is_dir():
                        names.append(name)
        else:
            with tarfile.open(archive) as tf:
                for member in tf:
                    name = _check_member_name(archive, member.name)
                    if member.issym() or member.islnk():
                        _check_link_target(archive, member.name, member.linkname, hard=member.islnk())
                    elif not (member.isfile() or member.isdir()):
                        raise _unsafe(archive, member.name, "special file (device, FIFO or similar)")
                    if not member.isdir():
                        names.append(name)
    except ArchiveError:
        raise
    except (tarfile.TarError, zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        raise ArchiveError(
            f"{archive}: corrupt or unreadable archive ({type(exc).__name__}: {exc}). "
            "Delete it and fetch it again; if it came from the mirror, check the mirror's SHA256SUMS."
        ) from exc
    return names


def safe_extract(
    archive: str | Path, target: str | Path, prefix: str | None = None, members: Sequence[str] | None = None
) -> list[str]:
    """Extract ``archive`` (only ``members`` if given) into ``target`` or ``target/prefix``; return the names."""
    archive, target = Path(archive), Path(target)
    names = list_safe_members(archive)
    if members is not None:
        missing = sorted(set(members) - set(names))
        if missing:
            raise ArchiveError(f"{archive}: members {missing} not found; it is not the expected archive. "
                               "Delete it and fetch it again.")
        names = [name for name in names if name in set(members)]
    staging = target.with_name(target.name + ".partial")
    if staging.exists():
        shutil.rmtree(staging)
    destination = staging / _check_member_name(archive, prefix) if prefix else staging
    destination.mkdir(parents=True)
    try:
        if archive.name.lower().endswith(ZIP_SUFFIXES):
            with zipfile.ZipFile(archive) as zf:
                zf.extractall(destination, members=members)
        else:
            with tarfile.open(archive) as tf:
                selected = [tf.getmember(name) for name in members] if members is not None else None
                # Members were validated above; the "data" filter (Python >= 3.11.4) adds a second guard.
                if hasattr(tarfile, "data_filter"):
                    tf.extractall(destination, members=selected, filter="data")
                else:  # pragma: no cover - very old 3.11 patch releases
                    tf.extractall(destination, members=selected)
    except (tarfile.TarError, zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise ArchiveError(
            f"{archive}: extraction failed ({type(exc).__name__}: {exc}). Delete it and fetch it again."
        ) from exc
    if target.exists():
        shutil.rmtree(target)
    os.replace(staging, target)
    return names
