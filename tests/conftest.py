"""Shared fixtures: the repository root and the local data mirror (tests needing it are skipped without it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("MTMETA_DATA_MIRROR") or (REPO / ".." / "shared" / "data")).resolve()


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not (MIRROR / "SHA256SUMS").is_file():
        pytest.skip(f"local data mirror not found at {MIRROR} (set MTMETA_DATA_MIRROR to run real-data tests)")
    return MIRROR
