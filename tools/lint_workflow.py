"""`make lint`'s Snakemake half: run `snakemake --lint` and fail on every lint but one.

The one lint let through is "Specify a conda environment or container for each rule.": the project
installs one pinned virtualenv from requirements.lock for every rule (docs/workflow.md), so a conda
environment or container per rule does not apply. `snakemake --lint` has no option to ignore a
lint, hence this filter. Every other lint, and any Snakemake error (non-zero exit without a lint),
fails.

Snakemake is asked for JSON (`--lint json`); Snakemake 9.27's command line ignores that argument
(cli.py calls `lint()` without `json=`) and prints the plain-text report on stderr, so both
formats are read.

    python tools/lint_workflow.py [--snakemake PATH] [-- extra snakemake arguments]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

# Exact lint titles that do not apply to this project, with the reason.
IGNORED = {
    "Specify a conda environment or container for each rule.":
        "one pinned virtualenv (requirements.lock) serves every rule",
}

HEADER = re.compile(r"^Lints for (?P<item>.+):$")
TITLE = re.compile(r"^    \* (?P<title>.+):$")


def parse_json(text: str) -> list[tuple[str, str]] | None:
    """(item, title) of every lint in `snakemake --lint json` output; None if `text` is not that JSON."""
    try:
        report = json.loads(text)
    except ValueError:
        return None
    if not isinstance(report, dict) or not {"snakefiles", "rules"} <= report.keys():
        return None
    lints = []
    for kind in ("snakefiles", "rules"):
        for entry in report[kind]:
            item = " ".join(f"{key} {value}" for key, value in entry["for"].items())
            lints += [(item, lint["title"]) for lint in entry["lints"]]
    return lints


def parse_text(text: str) -> list[tuple[str, str]]:
    """(item, title) of every lint in the plain-text report: a `Lints for <item>:` line, then one
    `    * <title>:` line per lint, each followed by its indented body."""
    lints, item = [], None
    for line in text.splitlines():
        if header := HEADER.match(line):
            item = header["item"]
        elif line.startswith("    * "):
            title = TITLE.match(line)
            if title is None or item is None:
                raise ValueError(f"cannot read this lint line: {line!r}")
            lints.append((item, title["title"]))
        elif not line.startswith("      "):  # not a lint's body: a blank line or other output ends the block
            item = None
    return lints


def judge(returncode: int, stdout: str, stderr: str) -> tuple[int, str]:
    """The filter's exit code and report, from Snakemake's exit code and output."""
    lints = parse_json(stdout)
    if lints is None:
        try:
            lints = parse_text(stderr + "\n" + stdout)
        except ValueError as error:
            return 1, f"{error}; Snakemake's output:\n{stderr}{stdout}"
    if returncode != 0 and not lints:
        return 1, f"snakemake --lint failed (exit code {returncode}) without a lint:\n{stderr}{stdout}"
    kept = [(item, title) for item, title in lints if title not in IGNORED]
    ignored = len(lints) - len(kept)
    notes = [f"({ignored} lint(s) ignored as not applying: " + "; ".join(
        f"{title!r}: {why}" for title, why in IGNORED.items()) + ")"] if ignored else []
    if kept:
        lines = [f"  {item}: {title}" for item, title in kept]
        return 1, "\n".join([f"snakemake --lint: {len(kept)} lint(s) to fix:", *lines, *notes,
                             "(`snakemake --lint` explains each)"])
    return 0, "\n".join(["snakemake --lint: passed", *notes])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snakemake", default=str(Path(sys.executable).parent / "snakemake"),
                        help="the snakemake executable (default: the one beside this Python)")
    parser.add_argument("extra", nargs="*", help="further snakemake arguments (after --)")
    args = parser.parse_args(argv)
    result = subprocess.run([args.snakemake, "--lint", "json", *args.extra], capture_output=True, text=True)
    code, report = judge(result.returncode, result.stdout, result.stderr)
    print(report, file=sys.stderr if code else sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main())
