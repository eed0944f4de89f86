"""`mtmeta score` beside sacrebleu's command line: start-up and a real test set, timed in one run.

    .venv/bin/python benchmarks/cli_start.py                      # 5 runs each, writes benchmarks/results/cli_start.md
    .venv/bin/python benchmarks/cli_start.py --runs 9 --note "machine shared with a study run"

Each case runs both tools as a new user would, one process per run: ``--help``, ``score --help``,
sacrebleu's README example (3 lines, BLEU), and WMT14 German-English newstest2014 (3,003 segments,
online-B against the reference, read from the data mirror's ``wmt14/wmt14-data.tar.gz`` into a
temporary directory) for BLEU, chrF and TER. The runs alternate between the tools and the cases (run
1 of every case and tool, then run 2 ...), so that other work on the machine falls on both alike;
one untimed run of each command comes first (a fresh checkout compiles its numba kernels into its
cache then, and both tools' modules are compiled to bytecode, kept in a temporary
``PYTHONPYCACHEPREFIX`` as an installation keeps them after its first run, also where the session
sets ``PYTHONDONTWRITEBYTECODE``; mtmeta keeps the ids it read from ``config/config.yaml`` in a
temporary ``XDG_CACHE_HOME``, as after its first run). Per case and tool: the minimum, median and
maximum wall time, the median CPU time, the peak resident memory of the process (``wait4``'s
``ru_maxrss``, the largest over the runs), and mtmeta's ratios to sacrebleu (median wall time, peak
memory). The targets: mtmeta starts within 0.5 s (the three first cases' median), takes no longer
than sacrebleu on the test set (median ratio <= 1) and needs at most twice its memory. The page also
records the machine, its load average before and after, and whether both tools printed the same
score. mtmeta runs from this checkout (``python -m mtmeta`` with ``src`` first on the path);
sacrebleu is the ``sacrebleu`` beside the Python that runs this script.

The result file is generated: do not edit it by hand, run the script again.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "results" / "cli_start.md"
START_LIMIT = 0.5  # seconds
MEMORY_RATIO = 2.0

README_HYP = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
README_REF = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
WMT14 = {"ref.en": "wmt14-data/txt/references/newstest2014-deen-ref.en",
         "onlineB.en": "wmt14-data/txt/system-outputs/newstest2014/de-en/newstest2014.onlineB.0.de-en"}


@dataclass
class Case:
    name: str
    mtmeta: list[str]  # arguments after `mtmeta`
    sacrebleu: list[str]  # arguments after `sacrebleu`
    start: bool  # a start-up case (target: within START_LIMIT); else a throughput case (target: ratios)
    compare: bool = False  # both print sacrebleu's JSON: their scores must agree


def cases(folder: Path) -> list[Case]:
    small = ["ref3.txt", "-i", "hyp3.txt"]
    full = ["ref.en", "-i", "onlineB.en"]
    return [
        Case("--help", ["--help"], ["--help"], start=True),
        Case("score --help", ["score", "--help"], ["--help"], start=True),
        Case("3 lines, BLEU (README example)", ["score", *small], small, start=True, compare=True),
        *(Case(f"3,003 segments, {label}", ["score", *full, "-m", metric], [*full, "-m", metric], start=False,
               compare=True) for label, metric in (("BLEU", "bleu"), ("chrF", "chrf"), ("TER", "ter"))),
    ]


def prepare(folder: Path, mirror: Path) -> None:
    (folder / "hyp3.txt").write_text("\n".join(README_HYP) + "\n", encoding="utf-8")
    (folder / "ref3.txt").write_text("\n".join(README_REF) + "\n", encoding="utf-8")
    archive_path = mirror / "wmt14" / "wmt14-data.tar.gz"
    if not archive_path.is_file():
        raise SystemExit(f"{archive_path} not found: give the data mirror with --mirror DIR")
    with tarfile.open(archive_path) as archive:
        for name, member in WMT14.items():
            (folder / name).write_bytes(archive.extractfile(member).read())
    lines = {name: len((folder / name).read_text(encoding="utf-8").splitlines()) for name in WMT14}
    if set(lines.values()) != {3003}:
        raise SystemExit(f"expected 3,003 lines in each WMT14 file, found {lines}")


def run_measured(argv: list[str], cwd: Path, env: dict) -> tuple[float, float, int, str]:
    """(wall seconds, CPU seconds, peak RSS in KiB, standard output) of one process: the child is
    reaped with os.wait4, which gives its own resource usage."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Read both pipes to their ends, then reap the child ourselves to get its resource usage.
    out = process.stdout.read()
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stdout.close()
    process.stderr.close()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}): {err.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, out.decode(errors="replace")


def score_of(output: str) -> float | None:
    try:
        return float(json.loads(output)["score"])
    except (ValueError, KeyError, TypeError):
        return None


def machine() -> list[str]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        total = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
        memory = f", {int(total.split()[1]) / 2**20:.1f} GiB memory"
    except (OSError, StopIteration):
        pass
    return [f"{model}, {os.cpu_count()} cores{memory}", f"{platform.system()} {platform.release()}, Python "
            f"{platform.python_version()}"]


def commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO,
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + (" with uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per case and tool (default 5)")
    parser.add_argument("--mirror", type=Path, default=Path(os.environ.get("MTMETA_DATA_MIRROR", REPO.parent / "shared"
                                                                           / "data")))
    parser.add_argument("--sacrebleu", type=Path, default=Path(sys.executable).parent / "sacrebleu")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--note", default="", help="what else ran on the machine (printed on the page)")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])}
    env.pop("SACREBLEU_FORMAT", None)
    tools = {"mtmeta": [sys.executable, "-m", "mtmeta"], "sacrebleu": [str(args.sacrebleu)]}
    version = subprocess.run([*tools["sacrebleu"], "--version"], capture_output=True, text=True).stdout.strip()
    load_before = os.getloadavg()
    started = datetime.datetime.now(datetime.UTC)
    bytecode = "written" if "PYTHONDONTWRITEBYTECODE" not in os.environ else "lifted"
    with tempfile.TemporaryDirectory(prefix="cli_start_") as tmp:
        folder = Path(tmp)
        prepare(folder, args.mirror)
        # Compiled bytecode as an installation has it after its first run, for both tools alike: kept in the
        # temporary directory (written by the untimed runs), even where the session forbids writing it.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        env["XDG_CACHE_HOME"] = str(folder / "cache")  # mtmeta's kept config ids, as after its first run
        todo = cases(folder)
        argv = {(case.name, tool): [*tools[tool], *(case.mtmeta if tool == "mtmeta" else case.sacrebleu)]
                for case in todo for tool in tools}
        for key, command in argv.items():  # untimed: caches, the first import of each package
            run_measured(command, folder, env)
            print(f"warm: {key[0]} {key[1]}", file=sys.stderr)
        walls = {key: [] for key in argv}
        cpus = {key: [] for key in argv}
        peaks = {key: 0 for key in argv}
        outputs = {}
        for run in range(args.runs):
            for key, command in argv.items():
                wall, cpu, peak, out = run_measured(command, folder, env)
                walls[key].append(wall)
                cpus[key].append(cpu)
                peaks[key] = max(peaks[key], peak)
                outputs[key] = out
            print(f"run {run + 1} of {args.runs} done", file=sys.stderr)
    load_after = os.getloadavg()
    lines = [
        "# `mtmeta score` beside sacrebleu: start-up and a 3,003-segment test set",
        "",
        "Generated by `benchmarks/cli_start.py` (do not edit; run it again). Both tools ran in the same session, "
        f"alternating, {args.runs} timed runs per case and tool after one untimed run; the ratios are mtmeta's "
        "over sacrebleu's in this run, which is what the targets compare.",
        "",
        f"- date: {started:%Y-%m-%d %H:%M} UTC",
        *(f"- {label}: {line}" for label, line in zip(("machine", "system"), machine(), strict=True)),
        f"- load average (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in load_before)} before, "
        f"{' '.join(f'{x:.2f}' for x in load_after)} after"
        + (f" on {os.cpu_count()} cores: the machine was busy with other work, which slows both tools"
           if max(load_before[0], load_after[0]) > 0.5 * (os.cpu_count() or 1) else ""),
        *([f"- note: {args.note}"] if args.note else []),
        f"- mtmeta: this checkout at {commit()} (`python -m mtmeta`); sacrebleu: {version} ({args.sacrebleu})",
        "- test set: WMT14 newstest2014 German-English, online-B against the reference, 3,003 segments; the "
        "3 lines are sacrebleu's README example",
        "- bytecode: both tools' modules compiled once by the untimed runs into a temporary cache "
        "(`PYTHONPYCACHEPREFIX`), as an installation has them after its first run"
        + ("; the session's `PYTHONDONTWRITEBYTECODE` was lifted for that" if bytecode == "lifted" else ""),
        "- config ids: mtmeta's ids of `config/config.yaml` kept by its untimed runs in a temporary "
        "`XDG_CACHE_HOME`, as after its first run (a first run parses the YAML file)",
        "",
        "| case | tool | min s | median s | max s | CPU s (median) | peak RSS MiB | wall ratio (median) | "
        "memory ratio | target | same score |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for case in todo:
        m, s = (case.name, "mtmeta"), (case.name, "sacrebleu")
        wall_ratio = statistics.median(walls[m]) / statistics.median(walls[s])
        memory_ratio = peaks[m] / peaks[s]
        if case.start:
            met = statistics.median(walls[m]) <= START_LIMIT
            target = f"start <= {START_LIMIT} s: {'met' if met else 'not met'}"
        else:
            met = wall_ratio <= 1 and memory_ratio <= MEMORY_RATIO
            target = (f"time <= sacrebleu's: {'met' if wall_ratio <= 1 else 'not met'}; memory <= "
                      f"{MEMORY_RATIO:g}x: {'met' if memory_ratio <= MEMORY_RATIO else 'not met'}")
        same = ""
        if case.compare:
            scores = score_of(outputs[m]), score_of(outputs[s])
            same = "yes" if None not in scores and scores[0] == scores[1] else f"no ({scores[0]} vs {scores[1]})"
        for key, tool in ((m, "mtmeta"), (s, "sacrebleu")):
            times = walls[key]
            first = tool == "mtmeta"
            ratios = [f"{wall_ratio:.2f}", f"{memory_ratio:.2f}", target, same] if first else ["", "", "", ""]
            cells = [case.name if first else "", tool, *(f"{value:.3f}" for value in (
                min(times), statistics.median(times), max(times), statistics.median(cpus[key]))),
                f"{peaks[key] / 1024:.1f}", *ratios]
            lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Wall time is the process's, from start to exit, as a user waits for it; CPU time is its user and "
              "system time (less sensitive than wall time to other work on the machine); peak RSS is the largest "
              "resident memory of one run (`wait4`), the largest over the runs."]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
