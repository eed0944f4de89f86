"""Debian packages a test tool needs, installed with apt-get when missing (as root).

The project installs what its real-system tests use itself, so that a fresh machine (or CI) needs no
set-up by hand: tools/test_cluster.py installs SLURM and munge, tools/test_report.py Chromium and its
WebDriver. Only the standard library: the tools run it before anything else.
"""

from __future__ import annotations

import os
import subprocess
import time


class PackageError(Exception):
    """The packages could not be installed (not root, or apt-get failed)."""


def missing(packages: list[str]) -> list[str]:
    """Those of ``packages`` that dpkg does not list as installed."""
    absent = []
    for package in packages:
        status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
        if status.returncode != 0 or status.stdout.strip() != "install ok installed":
            absent.append(package)
    return absent


def install(packages: list[str]) -> str:
    """apt-get install whatever of ``packages`` is missing (``--no-install-recommends``); what was done and
    how long it took, for the tool's summary."""
    absent = missing(packages)
    if not absent:
        return f"{' and '.join(packages)} already installed"
    if os.geteuid() != 0:
        raise PackageError(f"{' '.join(absent)} not installed, and installing needs root (apt-get)")
    start = time.monotonic()
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "--no-install-recommends", *absent]):
        result = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise PackageError(f"{' '.join(cmd)} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    still = missing(packages)
    if still:
        raise PackageError(f"still not installed after apt-get: {' '.join(still)}")
    return f"installed {' '.join(absent)} in {time.monotonic() - start:.0f} s"
