"""Shared fixtures: the repository root and the local data mirror (tests needing it are skipped without it)."""

from __future__ import annotations

import os
from pathlib import Path

from mtmeta.reproducibility import blas_settings

# The jobs' BLAS settings in the test processes too, before NumPy loads anywhere, so that a value a
# test recomputes equals the study's job's to the last bit.
os.environ.update(blas_settings())

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("MTMETA_DATA_MIRROR") or (REPO / ".." / "shared" / "data")).resolve()


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


def _install_meteor_jar(resources: Path) -> Path:
    """pycocoevalcap's Meteor 1.5 jar (requirements.lock) made source ``meteor_jar`` of ``resources``,
    as the workflow's fetch and extract would leave it; the jar's path."""
    import hashlib
    import importlib.util
    import json

    package = Path(list(importlib.util.find_spec("pycocoevalcap").submodule_search_locations)[0])
    jar = package / "meteor" / "meteor-1.5.jar"
    folder = resources / "meteor_jar"
    (folder / "extracted").mkdir(parents=True)
    (folder / "extracted" / jar.name).write_bytes(jar.read_bytes())
    manifest = {"archive": True, "member": jar.name, "file": jar.name,
                "sha256": hashlib.sha256(jar.read_bytes()).hexdigest()}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return jar


@pytest.fixture(scope="session")
def finished_study():
    """finished_study(relative) -> results/<relative> of this checkout's study. Where that output is
    missing the test is skipped (`make test` in a fresh clone, or CI's tests, which run beside its
    study), unless MTMETA_REQUIRE_STUDY is set, as `make check-results` sets it after the study:
    then it is a failure, never a skip."""

    def output(relative: str) -> Path:
        path = REPO / "results" / relative
        if not path.exists():
            message = f"no finished study's {path.relative_to(REPO)} (make study)"
            if os.environ.get("MTMETA_REQUIRE_STUDY"):
                pytest.fail(message + "; make check-results needs it")
            pytest.skip(message)
        return path

    return output


@pytest.fixture(scope="session")
def install_meteor_jar():
    """install_meteor_jar(resources) -> the jar's path, installed there as source meteor_jar."""
    return _install_meteor_jar


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not (MIRROR / "SHA256SUMS").is_file():
        pytest.skip(f"local data mirror not found at {MIRROR} (set MTMETA_DATA_MIRROR to run real-data tests)")
    return MIRROR


@pytest.fixture(scope="session")
def fetch_sources(tmp_path_factory, mirror):
    """fetch_sources(label, names) -> a resources directory holding those sources, fetched from the
    mirror (sha256-verified) and extracted as the workflow does."""
    from mtmeta.app.config import load_config
    from mtmeta.data.archive import safe_extract
    from mtmeta.data.fetch import fetch, plan_fetch

    config = load_config()

    def fetched(label: str, names: list[str]) -> Path:
        resources = tmp_path_factory.mktemp(label) / "resources"
        for name in names:
            manifest = fetch(plan_fetch(name, config["sources"][name], mirror), resources / name)
            if manifest["archive"]:
                safe_extract(resources / name / manifest["file"], resources / name / "extracted",
                             manifest["extract_prefix"])
        return resources

    return fetched
