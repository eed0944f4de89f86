"""The tiny synthetic study (synthetic_study.py), run once per test process (each pytest-xdist worker
that needs it): test_workflow_e2e.py checks its numbers and its Snakemake report in a browser, in one
file so that one worker runs it (`make test` hands out whole files); and tools/report_browser.py for
the report's browser tests (test_workflow_e2e.py, test_report.py)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

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


@pytest.fixture(scope="session")
def browser_check(repo):
    """tools/report_browser.py, when Chromium and ChromeDriver are installed."""
    spec = importlib.util.spec_from_file_location("report_browser", repo / "tools" / "report_browser.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("report_browser", module)  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    if not module.browser_available():
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is not installed in CI: .ci/run installs it (tools/test_report.py --install-only)")
        pytest.skip("Debian's chromium and chromium-driver are not installed: `make test-report` (as root) installs "
                    "them")
    return module
