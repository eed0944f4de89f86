"""`make test-report`: the study's Snakemake report, rendered in a real headless Chromium and checked.

Installs Debian's `chromium`, `chromium-driver` and `fonts-dejavu-core` when they are missing (apt-get,
as root; tools/debian_packages.py, as the SLURM test installs its packages), runs the tiny synthetic
study of tests/workflow/synthetic_study.py (the one test_workflow_e2e.py checks) in a temporary
directory, or takes a finished study with ``--study DIR``, and runs `snakemake --report report.html`
there. It fails when

- `snakemake --report` prints a docutils message (a caption that does not render cleanly), or fails;
- the report, opened in Chromium once its scripts ran (tools/report_browser.py), shows a docutils
  message on its landing page or in a caption, has a result it cannot show (a download link only),
  a table that renders empty, an empty page, or a figure shrunk below its natural width;
- for the synthetic study: a table without rows other than those it is known to have
  (synthetic_study.REPORT_EMPTY_TABLES), or another number of results or categories.

It writes report.html, the DOM after the scripts ran (report.dom.html) and screenshots of the landing
page, a table, the overview figure, a Markdown table and a caption to ``--out`` (default: a new
temporary directory, kept), and prints PASS or FAIL with the time each step took.
Exit status 0 on PASS, 1 on FAIL, 2 when Chromium is missing and cannot be installed.

    python tools/test_report.py [--study DIR] [--out DIR] [--install-only]     (`make test-report`)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO / "tests" / "workflow"))

import debian_packages  # noqa: E402  (tools/ and tests/workflow/, put on the path above)
import report_browser  # noqa: E402
from synthetic_study import (  # noqa: E402
    REPORT_EMPTY_TABLES,
    REPORT_RESULTS,
    snakemake_command,
    snakemake_env,
    write_mirror,
    write_workdir,
)

# Screenshots: what a reader opens first. Keys are the report's result paths (its pages).
SCREENSHOTS = {
    "landing": "1-landing.png",
    "results/report/paper/overview.tsv.html": "2-table-overview-tsv.png",
    "results/report/paper/overview.png.html": "3-figure-overview.png",
    "results/report/correlations/system_level.md.html": "4-markdown-system-level.png",
    "info:results/report/paper/ledger.md.html": "5-caption-ledger.png",
}


def log(message: str) -> None:
    print(f"test-report: {message}", flush=True)


def build_report(study: Path, report: Path, env: dict[str, str] | None = None) -> list[str]:
    """The report's pages, then `snakemake --report` on a finished study; the docutils messages it printed
    (both must succeed). `make study` does not make the pages; `make report` does, as here."""
    pages = subprocess.run(snakemake_command(REPO, study, "report_pages"), capture_output=True, text=True, env=env)
    if pages.returncode != 0:
        raise RuntimeError(f"snakemake report_pages failed (exit {pages.returncode}):\n"
                           f"{(pages.stdout + pages.stderr)[-3000:]}")
    result = subprocess.run(snakemake_command(REPO, study, "--report", str(report)), capture_output=True,
                            text=True, env=env)
    output = result.stdout + result.stderr
    (report.parent / "report.log").write_text(output)
    if result.returncode != 0 or not report.is_file():
        raise RuntimeError(f"snakemake --report failed (exit {result.returncode}):\n{output[-3000:]}")
    return report_browser.docutils_messages(output)


def run_synthetic_study(root: Path) -> Path:
    workdir = write_workdir(root / "work", write_mirror(root / "mirror"))
    result = subprocess.run(snakemake_command(REPO, workdir, "all", "report_pages"), capture_output=True, text=True,
                            env=snakemake_env(root))
    if result.returncode != 0:
        raise RuntimeError(f"the synthetic study failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return workdir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--study", type=Path, help="a finished study directory (default: the tiny synthetic study)")
    parser.add_argument("--out", type=Path, help="where report.html and the screenshots go (default: a new "
                                                 "temporary directory)")
    parser.add_argument("--install-only", action="store_true", help="install Chromium if missing, then stop")
    args = parser.parse_args(argv)
    start = time.monotonic()
    times: dict[str, float] = {}
    try:
        installed = debian_packages.install(report_browser.PACKAGES)
    except debian_packages.PackageError as error:
        print(f"test-report: {error}", file=sys.stderr)
        return 2
    times["packages"] = time.monotonic() - start
    log(f"{installed} ({times['packages']:.0f} s)")
    if args.install_only:
        return 0

    out = (args.out or Path(tempfile.mkdtemp(prefix="mtmeta-report."))).resolve()
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="mtmeta-report-study."))
    problems: list[str] = []
    try:
        step = time.monotonic()
        if args.study:
            study, expect_empty = args.study.resolve(), None
        else:
            log("running the tiny synthetic study")
            study, expect_empty = run_synthetic_study(scratch), set(REPORT_EMPTY_TABLES)
            times["study"] = time.monotonic() - step
            log(f"study done ({times['study']:.0f} s)")
        step = time.monotonic()
        env = snakemake_env(scratch) if not args.study else None
        messages = build_report(study, out / "report.html", env)
        problems += [f"snakemake --report: {line}" for line in messages]
        times["report"] = time.monotonic() - step
        log(f"{out / 'report.html'} ({(out / 'report.html').stat().st_size / 1e6:.1f} MB, {times['report']:.0f} s)")
        step = time.monotonic()
        seen = report_browser.check_report(out / "report.html", out, SCREENSHOTS, expect_empty)
        times["browser"] = time.monotonic() - step
        problems += seen.problems
        if not args.study and len(seen.results) != REPORT_RESULTS:
            problems.append(f"{len(seen.results)} results in the report, expected {REPORT_RESULTS}")
        log(f"{len(seen.results)} results opened in Chromium ({times['browser']:.0f} s); tables without rows, "
            f"said in words: {', '.join(seen.empty) or 'none'}")
        for path in seen.screenshots:
            log(f"screenshot {path}")
    except (RuntimeError, report_browser.BrowserError) as error:
        problems.append(str(error))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for problem in problems:
        log(f"problem: {problem}")
    timing = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in times.items())
    verdict = "PASS" if not problems else f"FAIL ({len(problems)} problems)"
    print(f"\ntest-report: {verdict}; output in {out}")
    print(f"test-report: {time.monotonic() - start:.0f} s in all ({timing})", flush=True)
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
