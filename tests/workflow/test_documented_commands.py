"""Every shell command in the README's and the docs' ```bash blocks runs.

- `make TARGET`: `make -n TARGET` (what it would run) succeeds.
- `snakemake ...`: the same command as a dry run (`-n`) succeeds: the targets, rules and config
  overrides it names exist (the mirror placeholder `/path/to/mirror` becomes the test mirror).
- `mtmeta ...`: run for real in a scratch directory holding the example files the docs use
  (hyp.txt, ref.txt, ...), after `mtmeta fetch` and `mtmeta prepare` have run there as documented.
  A command reading a finished study's outputs (results/scores/..., the study's every metric for
  `evaluate`) is checked instead by parsing its arguments and by a dry run that shows Snakemake
  can build every results/ path it names.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mtmeta.app.cli import build_parser

pytestmark = pytest.mark.workflow
REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), REPO / "config" / "README.md"]
BLOCK = re.compile(r"```(?:bash|sh|shell)\n(.*?)```", re.S)
# Commands that read a finished study's outputs besides files the documented commands write.
NEEDS_STUDY = ("correlate", "evaluate")


def documented_commands() -> list[tuple[str, list[str], dict]]:
    """(where, argv, environment assignments) of every command line of every bash block."""
    found = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for block in BLOCK.finditer(text):
            first_line = text[: block.start(1)].count("\n") + 1
            for offset, line in enumerate(block.group(1).splitlines()):
                words = shlex.split(line, comments=True)
                if not words:
                    continue
                env = {}
                while "=" in words[0] and not words[0].startswith(("-", ".")):
                    key, value = words.pop(0).split("=", 1)
                    env[key] = value
                found.append((f"{path.relative_to(REPO)}:{first_line + offset}", words, env))
    return found


COMMANDS = documented_commands()


def of(program: str):
    return [pytest.param(argv, env, id=where) for where, argv, env in COMMANDS if Path(argv[0]).name == program]


def test_every_documented_command_is_checked():
    programs = {Path(argv[0]).name for _, argv, _ in COMMANDS}
    assert programs <= {"make", "snakemake", "mtmeta"}, programs
    assert len(of("snakemake")) >= 5 and len(of("mtmeta")) >= 10 and len(of("make")) >= 2


def run(argv, cwd, env=None, stdin=None):
    return subprocess.run(argv, cwd=cwd, env={**os.environ, **(env or {})}, stdin=stdin, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize(("argv", "env"), of("make"))
def test_make_commands(argv, env):
    result = run(["make", "-n", *argv[1:]], REPO, env)
    assert result.returncode == 0, result.stderr


def test_make_passes_config_to_every_snakemake_of_a_study():
    """`make study/report/study-timing CONFIG=FILE` run Snakemake on FILE, so a short study gets its own
    report; without CONFIG, Snakemake reads config/config.yaml (no --configfile)."""
    for target, runs in (("study", 1), ("report", 2), ("study-timing", 1)):
        lines = [line for line in run(["make", "-n", target, "CONFIG=config/examples/one-pair.yaml"], REPO).stdout
                 .splitlines() if "snakemake" in line and "--cores" in line or "--report" in line]
        assert len(lines) == runs and all(line.endswith("--configfile config/examples/one-pair.yaml")
                                          for line in lines), (target, lines)
        assert "--configfile" not in run(["make", "-n", target], REPO).stdout


def with_mirror(words: list[str], mirror: Path) -> list[str]:
    return [word.replace("/path/to/mirror", str(mirror)) for word in words]


@pytest.mark.parametrize(("argv", "env"), of("snakemake"))
def test_snakemake_commands_dry_run(argv, env, mirror):
    result = run([sys.executable, "-m", "snakemake", *with_mirror(argv[1:], mirror), "-n", "--quiet", "rules"], REPO,
                 {key: value.replace("/path/to/mirror", str(mirror)) for key, value in env.items()})
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, mirror):
    """A scratch directory with the docs' example files: two-line hypotheses and references, and a
    user's score files."""
    root = tmp_path_factory.mktemp("documented")
    refs = ["Der Hund biss den Mann .", "Es war nicht überraschend ."]
    for name, lines in {"ref.txt": refs, "hyp.txt": ["Der Hund biss einen Mann .", "Es war nicht erstaunlich ."],
                        "base.txt": refs[::-1], "sys2.txt": refs, "sys3.txt": ["Hund Mann .", "Es war ."]}.items():
        (root / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "mine.seg.tsv").write_text("dataset\tlp\tsystem\tseg_id\tscore\n")
    (root / "mine.sys.tsv").write_text("dataset\tlp\tsystem\tscore\n")
    shutil.copytree(REPO / "config", root / "config")  # the config files the docs check (config/examples/...)
    return root


def mtmeta_commands():
    """The documented mtmeta commands in an order that runs: fetch before prepare before the
    commands reading prepared data."""
    order = {"fetch": 0, "prepare": 1}
    return sorted(of("mtmeta"), key=lambda p: order.get(p.values[0][1], 2))


@pytest.mark.parametrize(("argv", "env"), mtmeta_commands())
def test_mtmeta_commands(argv, env, workdir):
    words, redirect = argv[1:], None
    if "<" in words:  # shlex keeps the shell's redirection as a word
        at = words.index("<")
        words, redirect = words[:at] + words[at + 2:], words[at + 1]
    build_parser().parse_args(words)  # the options exist and take these values
    if words[0] in NEEDS_STUDY:
        outputs = [w for w in words if w.startswith("results/")]
        if outputs:
            result = run([sys.executable, "-m", "snakemake", *outputs, "-n", "--quiet", "rules"], REPO)
            assert result.returncode == 0, result.stderr[-3000:]
        return
    stdin = open(workdir / redirect, "rb") if redirect else None  # noqa: SIM115 (closed below)
    try:
        result = run([sys.executable, "-m", "mtmeta", *words], workdir, env, stdin)
    finally:
        if stdin:
            stdin.close()
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() or words[0] in ("fetch", "prepare")
