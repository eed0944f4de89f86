"""Obtain a declared source from the local mirror or from its upstream URL, and verify it.

A source is declared in config with its real upstream URL and, optionally, the path of the
same input inside a local mirror directory (files there may be repacked, so each origin has
its own checksum, format and member). :func:`plan_fetch` decides which origin to use;
:func:`fetch` copies or downloads, verifies sha256 where config gives one, and writes a
``manifest.json`` recording exactly what was obtained. Downstream steps read the manifest,
never guess.

A source may also be a set of files of a repository at one commit (its catalogue entry has
``files``: relative path -> sha256): upstream, each file is the repository's raw base URL at that
commit plus its path; in the mirror, the repository's folder plus the same path. The files are
byte-for-byte copies, so one sha256 per file serves both origins. They are fetched into
``resources/<source>/files/<path>`` (all verified before the folder is put in place).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import posixpath
import shutil
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from mtmeta.data.archive import is_archive
from mtmeta.errors import ConfigError, FetchError, OutputError

# sha256_file is the foundation's (mtmeta.io); the metrics and embeddings modules import it from here,
# and keeping their imports keeps their code, the scoring rules' inputs, unchanged.
from mtmeta.io import sha256_file, write_text  # noqa: F401

log = logging.getLogger(__name__)

MIRROR_ENV = "MTMETA_DATA_MIRROR"
MANIFEST = "manifest.json"
CHUNK = 1 << 20
FILES = "files"  # the folder under resources/<source>/ holding a repository-files source's copies


@dataclass(frozen=True)
class FetchPlan:
    source: str
    origin: str  # "mirror" or "upstream"
    location: str  # mirror file path or URL
    filename: str
    upstream_url: str
    sha256: str | None = None
    format: str | None = None
    member: str | None = None
    extract_prefix: str | None = None
    extract_members: tuple[str, ...] | None = None
    files: tuple[tuple[str, str], ...] | None = None  # (relative path, sha256) of a repository-files source

    @property
    def archive(self) -> bool:
        return is_archive(self.filename)


def resolve_mirror(setting: str | None, search_roots: list[Path] | None = None) -> Path | None:
    """Turn the ``data_mirror`` setting into a directory, or ``None`` for upstream downloads.

    ``auto`` (the default) uses ``$MTMETA_DATA_MIRROR`` if set, otherwise the first existing
    ``../shared/data`` next to one of ``search_roots``, otherwise no mirror. ``none`` always
    downloads. Any other value is a directory that must exist.
    """
    setting = (setting or "auto").strip()
    if setting == "auto":
        env = os.environ.get(MIRROR_ENV, "").strip()
        if env:
            return _existing_mirror(env, f"environment variable {MIRROR_ENV}")
        for root in search_roots or [Path.cwd()]:
            candidate = (Path(root) / ".." / "shared" / "data").resolve()
            if candidate.is_dir():
                return candidate
        return None
    if setting.lower() == "none":
        return None
    return _existing_mirror(setting, "config key data_mirror")


def _existing_mirror(path: str, origin: str) -> Path:
    mirror = Path(path).expanduser().resolve()
    if not mirror.is_dir():
        raise FetchError(
            f"data mirror {mirror} (from {origin}) does not exist or is not a directory. "
            f"Point it at a copy of the study's inputs, or set data_mirror: none (and unset {MIRROR_ENV}) "
            "to download every source from its upstream URL."
        )
    return mirror


def plan_fetch(source_id: str, spec: dict, mirror: Path | None) -> FetchPlan:
    """Choose the mirror copy when a mirror is configured, else the upstream URL."""
    if "files" in spec:
        return _plan_files(source_id, spec, mirror)
    upstream = spec["upstream"]
    url = upstream["url"]
    mirror_spec = spec.get("mirror")
    if mirror is not None and mirror_spec:
        path = mirror / mirror_spec["path"]
        return FetchPlan(
            source=source_id,
            origin="mirror",
            location=str(path),
            filename=Path(mirror_spec["path"]).name,
            sha256=mirror_spec.get("sha256"),
            format=mirror_spec.get("format", upstream.get("format")),
            member=mirror_spec.get("member", upstream.get("member")),
            upstream_url=url,
            extract_prefix=spec.get("extract_prefix"),
            extract_members=tuple(spec["extract_members"]) if spec.get("extract_members") else None,
        )
    filename = upstream.get("filename") or url.rstrip("/").rsplit("/", 1)[-1]
    return FetchPlan(
        source=source_id,
        origin="upstream",
        location=url,
        filename=filename,
        sha256=upstream.get("sha256"),
        format=upstream.get("format"),
        member=upstream.get("member"),
        upstream_url=url,
        extract_prefix=spec.get("extract_prefix"),
        extract_members=tuple(spec["extract_members"]) if spec.get("extract_members") else None,
    )


def checksum_key(plan: FetchPlan) -> str:
    """The catalogue key that holds the sha256 of a plan's origin."""
    return f"sources.{plan.source}.{plan.origin}.sha256"


def missing_checksums(sources: dict, mirror: Path | None, used=None) -> list[str]:
    """The catalogue keys of the sha256 values missing for fetching the sources ``used`` (default:
    all) from the origin each would come from (the mirror's copy if there is a mirror and the source
    has one, else upstream). fetch refuses such a source; a config check can name them all first."""
    names = sources if used is None else [name for name in sources if name in set(used)]
    plans = (plan_fetch(name, sources[name], mirror) for name in names)
    return [checksum_key(plan) for plan in plans if not plan.sha256]


def _copy_with_hash(src, dst, total: int | None, label: str) -> tuple[str, int]:
    """Copy the stream ``src`` to ``dst``; its sha256 and size. A failure to write ``dst`` (a full
    disk, no permission) is an OutputError naming it: no retry or network advice can help there."""
    digest = hashlib.sha256()
    done = 0
    next_report = 0.25
    try:
        out = open(dst, "wb")
    except OSError as exc:
        raise OutputError(dst, exc.strerror or str(exc)) from None
    try:
        while True:
            chunk = src.read(CHUNK)  # a read error (the network) propagates as it is, for a retry
            if not chunk:
                break
            try:
                out.write(chunk)
            except OSError as exc:
                raise OutputError(dst, exc.strerror or str(exc)) from None
            digest.update(chunk)
            done += len(chunk)
            # Progress only for files big enough to take a while to copy or download.
            if total and total > 5_000_000 and done / total >= next_report:
                log.info("%s: %3.0f%% of %.1f MB", label, 100 * done / total, total / 1e6)
                next_report += 0.25
    finally:
        try:
            out.close()
        except OSError as exc:  # the last buffered block meets the full disk
            raise OutputError(dst, exc.strerror or str(exc)) from None
    return digest.hexdigest(), done


def _download(plan: FetchPlan, part: Path, retries: int, timeout: float) -> tuple[str, int]:
    last_error: Exception | None = None
    for attempt in range(1, retries + 1):
        try:
            request = urllib.request.Request(plan.location, headers={"User-Agent": "mtmeta/0.1"})
            with urllib.request.urlopen(request, timeout=timeout) as response:
                total = int(response.headers.get("Content-Length") or 0) or None
                return _copy_with_hash(response, part, total, f"{plan.source} <- {plan.location}")
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
            last_error = exc
            log.warning("%s: download attempt %d/%d failed: %s", plan.source, attempt, retries, exc)
            if attempt < retries:
                time.sleep(min(2**attempt, 10))
    raise FetchError(
        f"source {plan.source!r}: download from {plan.location} failed after {retries} attempts "
        f"({type(last_error).__name__}: {last_error}). Check the network, or place the file in a local "
        f"mirror directory and set data_mirror (or ${MIRROR_ENV}) to it."
    )


def fetch(plan: FetchPlan, dest_dir: str | Path, *, retries: int = 3, timeout: float = 60.0) -> dict:
    """Copy or download ``plan`` into ``dest_dir``, verify its sha256, and write its manifest.

    Every source needs a sha256 for the origin it comes from: without one the file is obtained (so
    that the message can give its sha256 to check and pin), then refused. Nothing is left behind on
    a failure: the download goes to ``<file>.part``, which is removed on every error. A source of
    repository files verifies each file's own sha256 (``_fetch_files``)."""
    if plan.files is not None:
        return _fetch_files(plan, Path(dest_dir), retries, timeout)
    dest_dir = Path(dest_dir)
    dest_dir.mkdir(parents=True, exist_ok=True)
    target = dest_dir / plan.filename
    part = target.with_name(target.name + ".part")
    try:
        actual, size = _obtain(plan, part, retries, timeout)
        if size == 0:
            raise FetchError(f"source {plan.source!r}: {plan.location} is empty; expected a non-empty file.")
        if not plan.sha256:
            raise FetchError(
                f"source {plan.source!r}: no sha256 for its {plan.origin} origin ({checksum_key(plan)} in the data "
                f"catalogue, config/sources.yaml), so {plan.location} cannot be verified and is not used. It has "
                f"sha256 {actual} ({size:,} bytes): if you trust this copy, add that value under that key.")
        if actual != plan.sha256.lower():
            raise FetchError(
                f"source {plan.source!r}: checksum mismatch for {plan.location}: expected sha256 {plan.sha256}, "
                f"got {actual}. The file is corrupt or a different version; fetch it again, or, if the new "
                "version is intended, update its sha256 in the data catalogue (config/sources.yaml)."
            )
        os.replace(part, target)
    except BaseException:
        part.unlink(missing_ok=True)
        raise

    manifest = {
        **{k: v for k, v in asdict(plan).items() if k != "sha256"},
        "file": plan.filename,
        "bytes": size,
        "sha256": actual,
        "expected_sha256": plan.sha256,
        "verified": True,
        "archive": plan.archive,
    }
    write_text(dest_dir / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def _obtain(plan: FetchPlan, part: Path, retries: int, timeout: float) -> tuple[str, int]:
    """Copy the mirror's file or download the URL into ``part``; its sha256 and size."""
    if plan.origin != "mirror":
        log.info("%s: downloading %s", plan.source, plan.location)
        return _download(plan, part, retries, timeout)
    src = Path(plan.location)
    if not src.is_file():
        raise FetchError(
            f"source {plan.source!r}: mirror file {src} is missing{' (a directory is there)' if src.is_dir() else ''}. "
            f"Restore it in the mirror, or set data_mirror: none to download it from {plan.upstream_url}."
        )
    log.info("%s: copying from mirror %s", plan.source, src)
    try:
        with open(src, "rb") as handle:
            return _copy_with_hash(handle, part, src.stat().st_size, f"{plan.source} <- {src}")
    except OSError as exc:
        raise FetchError(f"source {plan.source!r}: cannot read mirror file {src} ({exc.strerror or exc})") from None


def read_manifest(path: str | Path) -> dict:
    path = Path(path)
    if path.is_dir():
        path = path / MANIFEST
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise FetchError(f"{path}: no fetch manifest; run the download_source rule for this source first") from None


def _plan_files(source_id: str, spec: dict, mirror: Path | None) -> FetchPlan:
    """The plan of a repository-files source: the mirror's folder, else the raw base URL at the commit."""
    where = f"sources.{source_id}"
    for key in ("extract_prefix", "extract_members"):
        if key in spec:
            raise ConfigError(f"{where}.{key}: a source with files is not an archive; remove {key}")
    for origin in ("upstream", "mirror"):
        for key in ("sha256", "member", "filename"):
            if key in spec.get(origin, {}):
                raise ConfigError(f"{where}.{origin}.{key}: a source with files gives one sha256 per file under "
                                  f"{where}.files (the same for both origins); remove {key}")
    files = _checked_files(where, spec["files"])
    url = spec["upstream"]["url"]
    if not url.endswith("/"):
        raise ConfigError(f"{where}.upstream.url: {url!r} must end with '/': it is the repository's raw base URL "
                          "at the commit, and each file's path is appended to it")
    mirror_spec = spec.get("mirror")
    use_mirror = mirror is not None and mirror_spec
    return FetchPlan(
        source=source_id,
        origin="mirror" if use_mirror else "upstream",
        location=str(mirror / mirror_spec["path"]) if use_mirror else url,
        filename=FILES,
        upstream_url=url,
        sha256=files_digest(files),
        format=(mirror_spec if use_mirror else spec["upstream"]).get("format"),
        files=files,
    )


def _checked_files(where: str, files) -> tuple[tuple[str, str], ...]:
    """``files`` (relative path -> sha256) as sorted pairs; a path that leaves the folder or a malformed
    sha256 is a configuration error."""
    if not isinstance(files, dict) or not files:
        raise ConfigError(f"{where}.files: expected a non-empty mapping of relative path -> sha256")
    checked = []
    for path, digest in files.items():
        normalised = posixpath.normpath(str(path))
        if (not isinstance(path, str) or path != normalised or path.startswith("/") or normalised == "."
                or normalised.split("/")[0] == ".." or "\\" in path):
            raise ConfigError(f"{where}.files: {path!r} is not a plain relative path inside the repository "
                              "(no leading '/', no '.' or '..' components, '/' as separator)")
        if not (isinstance(digest, str) and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest.lower())):
            raise ConfigError(f"{where}.files.{path}: {digest!r} is not a sha256 (64 hexadecimal digits)")
        checked.append((path, digest.lower()))
    return tuple(sorted(checked))


def files_digest(files: tuple[tuple[str, str], ...]) -> str:
    """One sha256 for a set of files: that of their ``sha256sum``-style listing (``<sha256>  <path>``
    lines, sorted by path)."""
    listing = "".join(f"{digest}  {path}\n" for path, digest in sorted(files))
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def _fetch_files(plan: FetchPlan, dest_dir: Path, retries: int, timeout: float) -> dict:
    """Copy or download every file of a repository-files source into ``dest_dir/files/``, verify each
    sha256, then put the folder in place and write the manifest. A failure leaves no partial folder."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    target = dest_dir / plan.filename
    staging = dest_dir / (plan.filename + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    total = 0
    try:
        for path, expected in plan.files:
            out = staging / path
            out.parent.mkdir(parents=True, exist_ok=True)
            if plan.origin == "mirror":
                location = str(Path(plan.location) / path)
                if not Path(location).is_file():
                    raise FetchError(
                        f"source {plan.source!r}: mirror file {location} is missing. Restore it in the mirror, or set "
                        f"data_mirror: none to download it from {plan.upstream_url}{path}."
                    )
                with open(location, "rb") as handle:
                    actual, size = _copy_with_hash(handle, out, Path(location).stat().st_size,
                                                   f"{plan.source} <- {location}")
            else:
                location = plan.location + urllib.parse.quote(path)
                actual, size = _download(replace(plan, location=location), out, retries, timeout)
            if actual != expected:
                raise FetchError(
                    f"source {plan.source!r}: checksum mismatch for {location}: expected sha256 {expected}, got "
                    f"{actual}. The file is corrupt or a different version; fetch it again, or, if the new version "
                    f"is intended, update its sha256 under sources.{plan.source}.files in the data catalogue "
                    "(config/sources.yaml)."
                )
            total += size
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(target, ignore_errors=True)
    os.replace(staging, target)
    log.info("%s: %d files (%d bytes) verified from %s", plan.source, len(plan.files), total, plan.location)
    digest = files_digest(plan.files)
    if plan.sha256 and plan.sha256 != digest:  # a plan edited by hand: the listing is what was verified
        raise FetchError(f"source {plan.source!r}: the plan's sha256 {plan.sha256} is not that of its file list "
                         f"({digest}); plan it again from the data catalogue")
    manifest = {
        **{k: v for k, v in asdict(plan).items() if k not in ("sha256", "files")},
        "file": plan.filename,
        "files": dict(plan.files),
        "bytes": total,
        "sha256": digest,
        "expected_sha256": digest,
        "verified": True,
        "archive": False,
    }
    write_text(dest_dir / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest
