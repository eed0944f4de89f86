"""Obtain a declared source from the local mirror or from its upstream URL, and verify it.

A source is declared in config with its real upstream URL and, optionally, the path of the
same input inside a local mirror directory (files there may be repacked, so each origin has
its own checksum, format and member). :func:`plan_fetch` decides which origin to use;
:func:`fetch` copies or downloads, verifies sha256 where config gives one, and writes a
``manifest.json`` recording exactly what was obtained. Downstream steps read the manifest,
never guess.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path

from mtmeta.data.archive import is_archive
from mtmeta.errors import FetchError, OutputError
from mtmeta.io import write_text

log = logging.getLogger(__name__)

MIRROR_ENV = "MTMETA_DATA_MIRROR"
MANIFEST = "manifest.json"
CHUNK = 1 << 20


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


def sha256_file(path: str | Path) -> str:
    """The sha256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
    a failure: the download goes to ``<file>.part``, which is removed on every error."""
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
