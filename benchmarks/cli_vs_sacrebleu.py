"""sacrebleu 2.6.0's command line beside `mtmeta score`'s, on the same files: writes
benchmarks/results/cli-vs-sacrebleu.md (every command, both outputs, and whether they agree).

    .venv/bin/python benchmarks/cli_vs_sacrebleu.py            # README example and WMT12 en-cs (mirror)
    .venv/bin/python benchmarks/cli_vs_sacrebleu.py --check    # compare only; exit 1 on a mismatch

Each case says what it expects: the same text; the same text once mtmeta's signatures are written
as sacrebleu writes its own (the one documented difference: ``order``, ``beta``, ``sacrebleu:`` and
``mtmeta:`` versions, bootstrap fields last); that and sacrebleu's explanatory note under a paired
test (mtmeta prints its own); or the same numbers (mtmeta's own output form). A case that does not
meet its expectation is reported and fails the run. The README example is sacrebleu's (reference
facts 2.1); the real file is WMT12 English-Czech from the local data mirror (read, never copied into
the repository).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "benchmarks" / "results" / "cli-vs-sacrebleu.md"

README_FILES = {
    "hyp.txt": ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."],
    "ref1.txt": ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    "ref2.txt": ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
    "sys2.txt": ["The dog bit a man.", "It was surprising.", "The man bit him."],
}
IDENTICAL, SIGNATURES, NOTE, FLOAT32, NUMBERS, FAILS = "identical", "signatures", "note", "float32", "numbers", "fails"
OUTCOME = {IDENTICAL: "same text", SIGNATURES: "same text but the signatures",
           NOTE: "same table; signatures; own note under the test",
           FLOAT32: "same text but the bootstrap's float32 digits", NUMBERS: "same numbers (mtmeta's form)",
           FAILS: "sacrebleu fails; mtmeta prints the scores"}


@dataclass
class Case:
    sacrebleu: str  # arguments after `sacrebleu`
    mtmeta: str  # arguments after `mtmeta score`
    expect: str
    stdin: str | None = None  # a file of the work directory given on standard input (both tools)
    shown_lines: int | None = None  # the doc shows this many lines of long outputs


def same(arguments: str, expect: str, **options) -> Case:
    """A case whose mtmeta command takes sacrebleu's arguments unchanged (most of them)."""
    return Case(arguments, arguments, expect, **options)


R = "ref1.txt ref2.txt"
README_CASES = [
    same(f"{R} -i hyp.txt", SIGNATURES),
    same(f"{R} -i hyp.txt -m bleu chrf ter", SIGNATURES),
    same(f"{R} -i hyp.txt -m bleu chrf ter -f text", SIGNATURES),
    same(f"{R} -i hyp.txt -f text --short", SIGNATURES),
    same(f"{R} -f text", SIGNATURES, stdin="hyp.txt"),
    same(f"{R} -i hyp.txt -b", IDENTICAL),
    same(f"{R} -i hyp.txt -m bleu chrf ter -b -w 4", IDENTICAL),
    same(f"{R} -i hyp.txt -tok intl -lc -f text", SIGNATURES),
    same(f"{R} -i hyp.txt -tok none -s floor -sv 0.2 -f text", SIGNATURES),
    same(f"{R} -i hyp.txt -m chrf -cw 2 --chrf-lowercase -f text", SIGNATURES),
    same(f"{R} -i hyp.txt -m ter --ter-case-sensitive --ter-no-punct -f text", SIGNATURES),
    same(f"{R} -i hyp.txt -sl", SIGNATURES),
    same(f"{R} -i hyp.txt -m chrf -sl -w 3", SIGNATURES),
    same(f"{R} -i hyp.txt -m ter -sl -b", IDENTICAL),
    same(f"{R} -i hyp.txt -m bleu chrf ter -ci -f text", SIGNATURES),
    same(f"{R} -i hyp.txt -ci", SIGNATURES),
    same(f"{R} -i hyp.txt sys2.txt -m bleu chrf ter", IDENTICAL),
    same(f"{R} -i hyp.txt sys2.txt -m bleu chrf ter -f text", SIGNATURES),
    same(f"{R} -i hyp.txt sys2.txt -m bleu chrf -f latex", SIGNATURES),
    same(f"{R} -f text", SIGNATURES, stdin="both.tsv"),
    same(f"{R} -i hyp.txt sys2.txt -m bleu chrf --paired-bs -f text", NOTE),
    same(f"{R} -i hyp.txt sys2.txt -m bleu chrf --paired-ar -f latex", NOTE),
    same(f"{R} -i hyp.txt sys2.txt -m bleu --paired-bs", FLOAT32),
    same(f"{R} -i hyp.txt sys2.txt -m ter --paired-bs", FAILS),
    same("refs.tsv -nr 2 -i hyp.txt -f text", SIGNATURES),
    Case(f"{R} -i hyp.txt -m bleu chrf ter -f text", "bleu chrf ter --ref ref1.txt --ref ref2.txt --hyp hyp.txt",
         NUMBERS),
    Case(f"{R} -i hyp.txt -m chrf -sl -w 6", "chrf --ref ref1.txt --ref ref2.txt --hyp hyp.txt --level segment",
         NUMBERS),
]

WMT_MEMBERS = {"ref.cs": "wmt12-data/plain/references/newstest2012-ref.cs",
               "cu-bojar.cs": "wmt12-data/plain/system-outputs/newstest2012/en-cs/newstest2012.en-cs.cu-bojar_2012",
               "onlineB.cs": "wmt12-data/plain/system-outputs/newstest2012/en-cs/newstest2012.en-cs.onlineB"}
WMT_CASES = [
    same("ref.cs -i cu-bojar.cs", SIGNATURES),
    same("ref.cs -i cu-bojar.cs -m bleu chrf ter -f text -w 4", SIGNATURES),
    same("ref.cs -i cu-bojar.cs -tok intl -lc -f text -w 4", SIGNATURES),
    same("ref.cs -i cu-bojar.cs -m chrf -cw 2 -f text -w 4", SIGNATURES),
    same("ref.cs -i cu-bojar.cs -sl -w 4", SIGNATURES, shown_lines=3),
    same("ref.cs -i cu-bojar.cs onlineB.cs -m bleu chrf --paired-bs -f text", NOTE),
    Case("ref.cs -i cu-bojar.cs -m bleu chrf -f text -w 4",
         "-t wmt12 -l en-cs -i cu-bojar.cs -m bleu chrf -f text -w 4", SIGNATURES),
]


# ------------------------------------------------------------------ running
def run(tool: str, arguments: str, cwd: Path, stdin: str | None) -> tuple[int, str, str]:
    argv = [sys.executable, "-m", "sacrebleu"] if tool == "sacrebleu" else [sys.executable, "-m", "mtmeta", "score"]
    environment = {**os.environ, "NO_COLOR": "1", "PYTHONHASHSEED": "0"}
    environment.pop("SACREBLEU_FORMAT", None)
    handle = open(cwd / stdin, "rb") if stdin else subprocess.DEVNULL  # noqa: SIM115 (closed below)
    try:
        done = subprocess.run([*argv, *arguments.split()], cwd=cwd, stdin=handle, capture_output=True, text=True,
                              env=environment, timeout=1800)
    finally:
        if stdin:
            handle.close()
    return done.returncode, done.stdout.rstrip("\n"), done.stderr


# ------------------------------------------------------------------ the signature mapping
SIGNATURE = re.compile(r"(?:(?<=\|)|(?<=\s)|(?<=\"))((?:nrefs|#):[^\s\"]+)")
TEST_KEYS = ("bs", "ar", "seed", "rs")


def sacrebleu_signature(body: str) -> str:
    """mtmeta's signature body written as sacrebleu writes its own: bootstrap fields after nrefs,
    no order (when 4) or beta (in chrF's name), ``version:`` instead of both tools' versions."""
    fields = [field.partition(":") for field in body.split("|")]
    version = next((value for key, _, value in fields if key == "sacrebleu"), None)
    tests = [f"{key}:{value}" for key, _, value in fields if key in TEST_KEYS]
    kept = [f"{key}:{value}" for key, _, value in fields
            if key not in (*TEST_KEYS, "sacrebleu", "mtmeta", "beta") and not (key == "order" and value == "4")]
    short = kept[0].startswith("#:")
    return "|".join([kept[0], *tests, *kept[1:], f"{'v' if short else 'version'}:{version}"])


def as_sacrebleu(text: str) -> str:
    """An output of mtmeta's sacrebleu form with its signatures mapped (and re-aligned where sacrebleu
    aligns lines on their '=')."""
    stripped = text.strip()
    if stripped.startswith("{") or stripped.startswith("[\n{\n"):
        return _json(stripped)
    mapped = SIGNATURE.sub(lambda match: sacrebleu_signature(match.group(1)), text)
    return _realign(mapped)


def _json(text: str) -> str:
    records = json.loads(text)
    single = isinstance(records, dict)
    records = [records] if single else records
    out = []
    for record in records:
        signature = sacrebleu_signature(record["signature"])
        new = {"name": record["name"], "score": record["score"], "signature": signature}
        new.update({key: record[key] for key in ("confidence_mean", "confidence_var", "confidence", "verbose_score")
                    if key in record})
        for field in signature.split("|"):
            key, _, value = field.partition(":")
            new[key] = value
        out.append(json.dumps(new, indent=1, ensure_ascii=False))
    return out[0] if single else "[\n" + ",\n".join(out) + "\n]"


LINE = re.compile(r"^\s*[^\s|]+\|\S+ = ")


def _realign(text: str) -> str:
    lines = text.split("\n")
    scored = [k for k, line in enumerate(lines) if LINE.match(line)]
    if len(scored) < 2:
        return text
    stripped = {k: lines[k].lstrip() for k in scored}
    column = max(line.index("=") - 1 for line in stripped.values())
    for k, line in stripped.items():
        position = line.index("=") - 1
        lines[k] = f"{line[:position]:>{column}}{line[position:]}"
    return "\n".join(lines)


def without_note(text: str) -> str:
    """The output without the explanatory block under a paired test's table."""
    return re.sub(r"\n-+\nPaired [^\n]*\n-+\n.*?(?=-----------------\nMetric signatures)", "\n", text, flags=re.S)


NUMBER = re.compile(r"-?\d+\.\d+")


def outcome(case: Case, sacrebleu_out: str, mtmeta_out: str) -> bool:
    if case.expect == IDENTICAL:
        return sacrebleu_out == mtmeta_out
    if case.expect == SIGNATURES:
        return sacrebleu_out == as_sacrebleu(mtmeta_out)
    if case.expect == NOTE:
        return without_note(sacrebleu_out) == without_note(as_sacrebleu(mtmeta_out))
    if case.expect == FLOAT32:
        return _same_but_float32(json.loads(sacrebleu_out), json.loads(mtmeta_out))
    return _scores_match(sacrebleu_out, mtmeta_out)


def _same_but_float32(theirs, ours, key: str = "") -> bool:
    """Equal JSON, except that a bootstrap ``mean`` or ``ci`` may differ in the digits sacrebleu's float32
    sums lose (relative 1e-6)."""
    if isinstance(theirs, dict) and isinstance(ours, dict):
        return list(theirs) == list(ours) and all(_same_but_float32(theirs[k], ours[k], k) for k in theirs)
    if isinstance(theirs, list) and isinstance(ours, list):
        return len(theirs) == len(ours) and all(_same_but_float32(a, b) for a, b in zip(theirs, ours, strict=True))
    if key in ("mean", "ci") and isinstance(theirs, float) and isinstance(ours, float):
        return abs(theirs - ours) <= 1e-6 * abs(theirs)
    return theirs == ours


def compare(cases: list[Case], cwd: Path) -> list[dict]:
    results = []
    for case in cases:
        s_code, s_out, s_err = run("sacrebleu", case.sacrebleu, cwd, case.stdin)
        m_code, m_out, m_err = run("mtmeta", case.mtmeta, cwd, case.stdin)
        if case.expect == FAILS:  # sacrebleu's traceback's last line; mtmeta's scores
            ok = s_code != 0 and m_code == 0
            s_out = s_err.strip().splitlines()[-1] if s_err.strip() else s_out
        else:
            ok = s_code == m_code == 0 and outcome(case, s_out, m_out)
        results.append({"case": case, "sacrebleu": s_out or s_err.strip(), "mtmeta": m_out or m_err.strip(),
                        "ok": ok})
    return results


def _scores_match(sacrebleu_out: str, mtmeta_out: str) -> bool:
    """sacrebleu's scores (after each ' = ') equal mtmeta's printed to more decimals, rounded alike."""
    theirs = [match.group(1) for line in sacrebleu_out.splitlines() for match in [re.search(r" = (-?\d+\.\d+)", line)]
              if match]  # the score: the first number after ' = ' (not BLEU's "BP = ...")
    ours = [float(match.group(0)) for line in mtmeta_out.splitlines() for match in [NUMBER.match(line)] if match]
    return len(theirs) == len(ours) and all(
        f"{value:.{len(text.split('.')[1])}f}" == text for text, value in zip(theirs, ours, strict=True))


# ------------------------------------------------------------------ the files
def write_readme_files(folder: Path) -> None:
    for name, lines in README_FILES.items():
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    both = zip(README_FILES["hyp.txt"], README_FILES["sys2.txt"], strict=True)
    (folder / "both.tsv").write_text("".join(f"{a}\t{b}\n" for a, b in both), encoding="utf-8")
    refs = zip(README_FILES["ref1.txt"], README_FILES["ref2.txt"], strict=True)
    (folder / "refs.tsv").write_text("".join(f"{a}\t{b}\n" for a, b in refs), encoding="utf-8")


def write_wmt_files(folder: Path, mirror: Path) -> None:
    with tarfile.open(mirror / "wmt12" / "wmt12-data.tar.gz") as archive:
        for name, member in WMT_MEMBERS.items():
            (folder / name).write_bytes(archive.extractfile(member).read())


# ------------------------------------------------------------------ the page
def page(sections: list[tuple[str, str, list[dict]]]) -> str:
    from sacrebleu import __version__ as sacrebleu_version

    from mtmeta import __version__ as mtmeta_version

    out = ["# `mtmeta score` beside sacrebleu's command line", "",
           f"Written by `benchmarks/cli_vs_sacrebleu.py` (sacrebleu {sacrebleu_version}, mtmeta {mtmeta_version}); "
           "every command below ran, in the directory of its files, and the outcome column is computed, not typed.",
           "", "`mtmeta score` takes sacrebleu's command line when the metrics are named with `-m` or the "
           "references come first ([getting started](../../docs/getting-started.md#the-mtmeta-command)). Outcomes:", "",
           "- **same text**: byte for byte.",
           "- **same text but the signatures**: equal once mtmeta's signatures are written as sacrebleu writes its "
           "own. mtmeta's also name what sacrebleu leaves out of them (`order:4` for BLEU, `beta:2` for chrF, "
           "whose name already says chrF2), both tools' versions (`sacrebleu:2.6.0|mtmeta:0.1.0` for "
           "`version:2.6.0`), and put a resampling's `bs`/`ar`/`seed` last instead of after `nrefs`; the "
           "aligned text lines are padded to the longer signatures.",
           "- **same table; signatures; own note under the test**: as above, and under a paired test's table "
           "mtmeta prints a shorter note of its own in place of sacrebleu's.",
           "- **same text but the bootstrap's float32 digits**: the bootstrap's mean and half-width differ "
           "beyond the 7th significant digit (below).",
           "- **sacrebleu fails; mtmeta prints the scores**: sacrebleu stops with a traceback (its last line "
           "is shown).",
           "- **same numbers (mtmeta's form)**: mtmeta's own form of the command, scores equal at sacrebleu's "
           "decimals.", "",
           "Other differences, not exercised here: mtmeta never colours its output; it reads files as they are "
           "(sacrebleu strips trailing whitespace from every line, which only chrF with `--chrf-whitespace` "
           "would notice); `-t`/`-l` name the study's own test sets (config's datasets, read from the mirror or "
           "the fetched corpus: there is no internet), and `--echo` prints their `src`, `ref` and system "
           "outputs; several systems with `-ci` give a table where sacrebleu refuses; a hypothesis file given "
           "twice is an error (sacrebleu's exception, the baseline repeated in a paired test, is dropped with "
           "a note, as there); two systems with the same score (identical outputs in two files, say) get "
           "p = 1 under `--paired-bs` and `--paired-ar`, where sacrebleu gives 1/(trials + 1), its smallest p, "
           "and marks them as differing. The bootstrap's mean and half-width are computed in double precision from "
           "exact integer sums; sacrebleu sums its resamples in float32, so the two agree to about 1e-7 "
           "(every decimal printed here). `--origlang`, `--subset`, `--list`, `--citation`, `--download`, "
           "`-d`, `-e`, `-j` and `-q` are not offered.", ""]
    for title, intro, results in sections:
        out += [f"## {title}", "", intro, "", "| # | sacrebleu | mtmeta | outcome |", "|---|---|---|---|"]
        for number, result in enumerate(results, 1):
            case = result["case"]
            stdin = f" < {case.stdin}" if case.stdin else ""
            verdict = OUTCOME[case.expect] if result["ok"] else f"**MISMATCH** (expected: {OUTCOME[case.expect]})"
            out.append(f"| {number} | `sacrebleu {case.sacrebleu}{stdin}` | `mtmeta score {case.mtmeta}{stdin}` | "
                       f"{verdict} |")
        out.append("")
        for number, result in enumerate(results, 1):
            case = result["case"]
            out += [f"### {title}, case {number}", ""]
            for tool in ("sacrebleu", "mtmeta"):
                text = result[tool]
                lines = text.split("\n")
                if case.shown_lines and len(lines) > case.shown_lines:
                    text = "\n".join(lines[:case.shown_lines] + [f"... ({len(lines)} lines in all)"])
                command = case.sacrebleu if tool == "sacrebleu" else f"score {case.mtmeta}"
                stdin = f" < {case.stdin}" if case.stdin else ""
                out += [f"`{tool} {command}{stdin}`", "", "```", text, "```", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DOC)
    parser.add_argument("--mirror", type=Path, default=Path(os.environ.get("MTMETA_DATA_MIRROR", REPO.parent /
                                                                          "shared" / "data")))
    parser.add_argument("--check", action="store_true", help="compare only; write nothing")
    args = parser.parse_args(argv)
    sections = []
    with tempfile.TemporaryDirectory() as scratch:
        readme = Path(scratch) / "readme"
        readme.mkdir()
        write_readme_files(readme)
        sections.append(("The sacrebleu README example", "Hypotheses `hyp.txt` and references `ref1.txt`, "
                         "`ref2.txt` of sacrebleu's README (reference facts 2.1); `sys2.txt` is a second system "
                         "(`The dog bit a man.` / `It was surprising.` / `The man bit him.`), `both.tsv` both "
                         "systems tab-separated, `refs.tsv` both references tab-separated.",
                         compare(README_CASES, readme)))
        if (args.mirror / "wmt12" / "wmt12-data.tar.gz").is_file():
            wmt = Path(scratch) / "wmt"
            wmt.mkdir()
            write_wmt_files(wmt, args.mirror)
            (wmt / "resources").mkdir()
            sections.append(("WMT12 English-Czech (3003 segments)", "`ref.cs` is newstest2012's Czech reference, "
                             "`cu-bojar.cs` and `onlineB.cs` two systems' outputs (`cu-bojar_2012`, `onlineB`), "
                             "from the mirror's `wmt12/wmt12-data.tar.gz`. The last case reads the reference "
                             "through `-t wmt12 -l en-cs` (fetched from the mirror into `resources/`).",
                             compare(WMT_CASES, wmt)))
        else:
            print(f"no mirror at {args.mirror}: the WMT12 section is left out", file=sys.stderr)
    failed = [(title, r["case"]) for title, _, results in sections for r in results if not r["ok"]]
    for title, case in failed:
        print(f"MISMATCH in {title}: sacrebleu {case.sacrebleu} / mtmeta score {case.mtmeta}", file=sys.stderr)
    if not args.check:
        args.out.write_text(page(sections), encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
