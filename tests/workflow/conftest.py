"""The tiny synthetic study (synthetic_study.py), run once per test process (each pytest-xdist worker
that needs it): test_workflow_e2e.py checks its numbers, test_report.py its Snakemake report in a browser."""

from __future__ import annotations

import subprocess

import pytest
from synthetic_study import snakemake_command, snakemake_env, write_mirror, write_workdir


@pytest.fixture(scope="session")
def study(tmp_path_factory, repo):
    """The study directory, after a successful run of the whole workflow on it."""
    root = tmp_path_factory.mktemp("study")
    workdir = write_workdir(root / "work", write_mirror(root / "mirror"))
    # The checkout under test's package, not whichever one the environment has installed.
    result = subprocess.run(snakemake_command(repo, workdir, "all", "report_pages"), capture_output=True, text=True,
                            env=snakemake_env(root, PYTHONPATH=str(repo / "src")))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return workdir
