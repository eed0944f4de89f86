"""Every metric on one 1 MB line: time and peak memory, beside sacrebleu, jiwer and NLTK (issue 32).

Usage (no study outputs needed; the real-text table reads the data mirror and is "n/a" without it):

    .venv/bin/python benchmarks/long_lines.py [--out benchmarks/results/long_lines.md] [--mirror ../shared/data]
        [--timeout 60] [--cap-gb 4] [--only recipe real ter-short]

Each measurement is a fresh Python process (one core) that reads the line pair from files, builds the
metric and warms it up (imports, numba's cache), then times one call that scores the pair; its peak
resident memory is the process's own (``ru_maxrss`` from ``os.wait4``), also when it fails or is
stopped. "For the line" is that peak minus the peak before the timed call. Processes run under an
address-space cap (``--cap-gb``, so a quadratic tool fails with a MemoryError instead of taking the
machine) and a time limit (``--timeout``).

- ``recipe``: the issue's recipe (``random.seed(2)``, nine words, hypothesis then reference) scaled to
  265,000 words a side (just over 1,000,000 bytes each), and a quarter of that (66,250 words) to show
  how time and memory grow; then the same 1 MB pair through sacrebleu (BLEU, chrF, chrF++, TER), jiwer
  (WER) and NLTK (NIST, METEOR), ratios mtmeta / tool;
- ``real``: a 1 MB line of real text: WMT12 newstest2012 cs-en, system cu-bojar against the English
  reference, lines joined by spaces until the reference passes 1,000,000 bytes; the same tools beside;
- ``ter-short``: TER beside sacrebleu on recipe lines short enough for sacrebleu to finish.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1", "PATH": "/usr/bin:/bin",
       "PYTHONHASHSEED": "0"}
SECTIONS = ["recipe", "real", "ter-short"]
RECIPE_WORDS = ["the", "cat", "dog", "mat", "sat", "on", "a", "barked", "."]
ONE_MB_WORDS = 265_000

# metric label -> (registry name, parameters); each metric's limit as docs/metrics.md states it
METRICS = {
    "bleu": ("bleu", {}), "chrf": ("chrf", {}), "chrf++": ("chrf++", {}), "ter": ("ter", {}),
    "ter-wmt": ("ter", {"normalized": True, "tokenizer": "tercom"}), "nist": ("nist", {}), "wer": ("wer", {}),
    "per": ("per", {}), "meteor": ("meteor", {"modules": ["exact"], "function_words": "none"}),
    "hlepor": ("hlepor", {}), "lepor": ("lepor", {}), "wordmatch": ("wordmatch", {}), "softbleu": ("softbleu", {}),
}
LIMITS = {"meteor": "1,000 words (max_words)", "softbleu": "1,000 words (max_words)",
          "hlepor": "index of 2^24 entries", "lepor": "index of 2^24 entries"}

# label -> (tool, set-up code defining score(hyp, ref) -> a number; tokens as mtmeta's 13a gives them)
SACREBLEU = "import sacrebleu\nm = sacrebleu.{}\nscore = lambda h, r: m.corpus_score([h], [[r]]).score"
TOOLS = {
    "bleu": ("sacrebleu", SACREBLEU.format("BLEU()")),
    "chrf": ("sacrebleu", SACREBLEU.format("CHRF()")),
    "chrf++": ("sacrebleu", SACREBLEU.format("CHRF(word_order=2)")),
    "ter": ("sacrebleu", SACREBLEU.format("TER()")),
    "wer": ("jiwer (13a tokens)", "import jiwer\nfrom mtmeta.data.tokenize import tokenizer\n"
                                  "tok = tokenizer('13a', False)\nscore = lambda h, r: 100 * jiwer.wer(r, h)\n"
                                  "prepare = lambda text: ' '.join(tok(text))"),
    "nist": ("NLTK corpus_nist (13a tokens)",
             "from nltk.translate.nist_score import corpus_nist\nfrom mtmeta.data.tokenize import tokenizer\n"
             "tok = tokenizer('13a', False)\nscore = lambda h, r: corpus_nist([[r]], [h], n=5)\nprepare = tok"),
    "meteor": ("NLTK meteor_score (13a tokens, no synonyms)",
               "from nltk.translate.meteor_score import meteor_score\nfrom mtmeta.data.tokenize import tokenizer\n"
               "class NoSynonyms:\n    def synsets(self, *args, **kwargs):\n        return []\n"
               "tok = tokenizer('13a', True)\nscore = lambda h, r: meteor_score([r], h, wordnet=NoSynonyms())\n"
               "prepare = tok"),
}

CHILD = """
import json, resource, sys, time
def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
hyp = open(sys.argv[1], encoding="utf-8").read()
ref = open(sys.argv[2], encoding="utf-8").read()
prepare = None
{setup}
if prepare is not None:  # the tools' tokens, outside the clock
    hyp, ref = prepare(hyp), prepare(ref)
    score(prepare("the cat sat on the mat and the dog"), prepare("the cat sat on a mat and a dog"))
else:
    score("a b", "a c")  # imports done, numba's cache loaded
before = peak()
start, cpu = time.perf_counter(), time.process_time()
try:
    outcome = {{"score": float(score(hyp, ref))}}
except Exception as exc:
    outcome = {{"error": f"{{type(exc).__name__}}: {{exc}}"}}
print(json.dumps({{"seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu,
                  "before_mb": before, **outcome}}))
"""

OURS = """
from mtmeta import metrics
params = {params!r}
if {name!r} == "softbleu":  # random 50-dimensional vectors for the line's words (a limit is checked first)
    import numpy as np
    from mtmeta.embeddings.vectors import Vectors
    vocabulary = sorted(set(hyp.split()) | set(ref.split()) | {{"a", "b", "c"}})
    params["vectors"] = Vectors(vocabulary, np.random.default_rng(0).normal(size=(len(vocabulary), 50)))
metric = metrics.get({name!r}, lang="en", **params)
def score(h, r):
    return metric.corpus_score(metric.stats([h], [[r]]))
"""


def measure(setup: str, hyp: Path, ref: Path, timeout: float, cap_gb: float) -> dict:
    """Run CHILD with ``setup`` in a fresh process; its result, wall time and peak memory (os.wait4)."""
    cap = int(cap_gb * 2**30)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen([sys.executable, "-c", CHILD.format(setup=setup), str(hyp), str(ref)],
                                 stdout=out, stderr=err, cwd=REPO, env=ENV, preexec_fn=limit)
        started, stopped = time.monotonic(), False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > timeout:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                stopped = True
                break
            time.sleep(0.05)
        child.returncode = status  # reaped here, with its rusage
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(), err.read().decode()
    result = {"peak_mb": usage.ru_maxrss / 1024}
    if stopped:
        return result | {"error": f"stopped after {timeout:g} s"}
    try:
        result |= json.loads(text.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        last = (errors.strip().splitlines() or [f"exit status {status}"])[-1]
        result["error"] = f"no result: {last}"
    if "error" in result and "MemoryError" in result["error"]:
        result["error"] = f"MemoryError at the {cap_gb:g} GB cap"
    return result


def ours(label: str) -> str:
    name, params = METRICS[label]
    return OURS.format(name=name, params=params)


def recipe(words: int) -> tuple[str, str]:
    rng = random.Random(2)
    return tuple(" ".join(rng.choice(RECIPE_WORDS) for _ in range(words)) for _ in range(2))


def real_text(mirror: Path) -> tuple[str, str] | None:
    archive = mirror / "wmt12" / "wmt12-data.tar.gz"
    if not archive.is_file():
        return None
    with tarfile.open(archive) as tar:
        def lines(name: str) -> list[str]:
            return tar.extractfile(f"wmt12-data/plain/{name}").read().decode("utf-8").splitlines()
        hyps = lines("system-outputs/newstest2012/cs-en/newstest2012.cs-en.cu-bojar")
        refs = lines("references/newstest2012-ref.en")
    hyp, ref, k = [], [], 0
    while sum(map(len, ref)) + len(ref) <= 1_000_000:
        hyp.append(hyps[k % len(hyps)])
        ref.append(refs[k % len(refs)])
        k += 1
    return " ".join(hyp), " ".join(ref)


def written(folder: Path, name: str, pair: tuple[str, str]) -> tuple[Path, Path]:
    paths = folder / f"{name}.hyp", folder / f"{name}.ref"
    for path, text in zip(paths, pair, strict=True):
        path.write_text(text, encoding="utf-8")
    return paths


def cell(result: dict, key: str, digits: int = 2) -> str:
    return f"{result[key]:.{digits}f}" if key in result else "—"


def outcome(result: dict) -> str:
    """The score, or the error's first sentence (a refusal: its metric, segment, side, length and limit)."""
    if "error" not in result:
        return f"{result['score']:.4f}"
    text = result["error"].replace("|", "/")
    if text.startswith("MtmetaError: "):
        return "refused: " + text.removeprefix("MtmetaError: ").split(" (docs/")[0].split(". ")[0]
    return text


def for_line(result: dict) -> float | None:
    return result["peak_mb"] - result["before_mb"] if "before_mb" in result else None


def show(value: float | None, digits: int = 0, suffix: str = "") -> str:
    return "—" if value is None else f"{value:.{digits}f}{suffix}"


def ratio(a: float | None, b: float | None) -> str:
    return "—" if a is None or not b else f"{a / b:.3g}"


def section_recipe(args, folder: Path) -> list[str]:
    full = written(folder, "recipe-1mb", recipe(ONE_MB_WORDS))
    quarter = written(folder, "recipe-250kb", recipe(ONE_MB_WORDS // 4))
    sizes = [len(p.read_bytes()) for p in full]
    lines = [
        "## The issue's recipe, scaled to 1 MB",
        "",
        f"Hypothesis and reference of {ONE_MB_WORDS:,} words each ({sizes[0]:,} and {sizes[1]:,} bytes), and a "
        f"quarter of that ({ONE_MB_WORDS // 4:,} words). s: wall seconds of the timed call (statistics and corpus "
        "score of the pair); CPU s: its processor time, which the machine's other load changes less; peak: the "
        "process's peak MB; for the line: peak minus the peak before the call; x: 1 MB over a quarter, of CPU "
        "time and of memory (about 4 where it grows linearly, 16 where it grows with the square). METEOR with "
        "exact matching only (no lexical resources); softBLEU with random vectors.",
        "",
        "| metric | limit | s, 250 KB | s, 1 MB | CPU s, 250 KB | CPU s, 1 MB | x | MB for the line, 250 KB "
        "| MB for the line, 1 MB | x | peak MB, 1 MB | result, 1 MB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    results = {}
    for label in METRICS:
        small = measure(ours(label), *quarter, args.timeout, args.cap_gb)
        big = results[label] = measure(ours(label), *full, args.timeout, args.cap_gb)
        growth_s = ratio(big.get("cpu_seconds"), small.get("cpu_seconds")) if "score" in big else "—"
        small_mb, big_mb = for_line(small), for_line(big)
        growth_mb = ratio(big_mb, small_mb) if "score" in big and small_mb and small_mb > 5 else "—"
        lines.append(f"| {label} | {LIMITS.get(label, 'none: linear')} | {cell(small, 'seconds')} | "
                     f"{cell(big, 'seconds')} | {cell(small, 'cpu_seconds')} | {cell(big, 'cpu_seconds')} | "
                     f"{growth_s} | {show(small_mb)} | {show(big_mb)} | {growth_mb} | {show(big['peak_mb'])} | "
                     f"{outcome(big)} |")
        print(lines[-1], flush=True)
    return lines + [""] + beside_tools(args, full, results)


def beside_tools(args, paths: tuple[Path, Path], results: dict) -> list[str]:
    """The pair through each other tool, beside mtmeta's ``results`` on it."""
    lines = [
        "The same pair beside the tool a researcher would otherwise call (each in its own process, under "
        f"the {args.cap_gb:g} GB address-space cap and a {args.timeout:g} s limit). Ratios: mtmeta / tool (below 1: "
        "mtmeta is faster or smaller).",
        "",
        "| metric | tool | mtmeta s | tool s | time ratio | mtmeta peak MB | tool peak MB | peak ratio | mtmeta "
        "| tool |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for label, (tool, setup) in TOOLS.items():
        theirs = measure(setup, *paths, args.timeout, args.cap_gb)
        mine = results[label]
        both = "score" in mine and "score" in theirs
        lines.append(f"| {label} | {tool} | {cell(mine, 'seconds')} | {cell(theirs, 'seconds')} | "
                     f"{ratio(mine.get('seconds'), theirs.get('seconds')) if both else '—'} | "
                     f"{show(mine['peak_mb'])} | {show(theirs['peak_mb'])} | "
                     f"{ratio(mine['peak_mb'], theirs['peak_mb'])} | {outcome(mine)} | {outcome(theirs)} |")
        print(lines[-1], flush=True)
    return lines


def section_real(args, folder: Path) -> list[str]:
    lines = ["## A 1 MB line of real text", ""]
    pair = real_text(args.mirror)
    if pair is None:
        return lines + [f"n/a (no {args.mirror}/wmt12/wmt12-data.tar.gz)"]
    paths = written(folder, "real-1mb", pair)
    sizes = [len(p.read_bytes()) for p in paths]
    lines += [
        f"WMT12 newstest2012 cs-en: cu-bojar's output against the English reference, lines joined by spaces "
        f"({sizes[0]:,} and {sizes[1]:,} bytes; {len(pair[0].split()):,} and {len(pair[1].split()):,} "
        "whitespace-separated words).",
        "",
        "| metric | limit | s | MB for the line | peak MB | result |",
        "|---|---|---:|---:|---:|---|",
    ]
    results = {}
    for label in METRICS:
        result = results[label] = measure(ours(label), *paths, args.timeout, args.cap_gb)
        lines.append(f"| {label} | {LIMITS.get(label, 'none: linear')} | {cell(result, 'seconds')} | "
                     f"{show(for_line(result))} | {show(result['peak_mb'])} | {outcome(result)} |")
        print(lines[-1], flush=True)
    return lines + [""] + beside_tools(args, paths, results)


def section_ter_short(args, folder: Path) -> list[str]:
    lines = [
        "## TER beside sacrebleu on lines sacrebleu can finish",
        "",
        f"The recipe at a few lengths (limit {args.short_timeout:g} s per process). sacrebleu's shift search "
        "recomputes the edit-distance rows after each candidate's change in Python; both stop after 1,000 "
        "candidates. The edit counts are equal wherever both finish.",
        "",
        "| words a side | mtmeta s | sacrebleu s | time ratio | mtmeta peak MB | sacrebleu peak MB | mtmeta TER "
        "| sacrebleu TER |",
        "|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for words in (250, 500, 1000):
        paths = written(folder, f"short-{words}", recipe(words))
        mine = measure(ours("ter"), *paths, args.short_timeout, args.cap_gb)
        theirs = measure(TOOLS["ter"][1], *paths, args.short_timeout, args.cap_gb)
        both = "score" in mine and "score" in theirs
        lines.append(f"| {words:,} | {cell(mine, 'seconds')} | {cell(theirs, 'seconds')} | "
                     f"{ratio(mine.get('seconds'), theirs.get('seconds')) if both else '—'} | {show(mine['peak_mb'])} "
                     f"| {show(theirs['peak_mb'])} | {outcome(mine)} | {outcome(theirs)} |")
        print(lines[-1], flush=True)
    return lines


def header(args) -> list[str]:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO)
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").is_file() else ""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return ["# Long lines: every metric on a 1 MB line", "",
            f"`.venv/bin/python benchmarks/long_lines.py {' '.join(sys.argv[1:])}`".replace(" `", "`"),
            f"at commit {commit.stdout.strip() or '?'}, {time.strftime('%Y-%m-%d')}, on {cpu or 'an unknown CPU'} "
            f"({os.cpu_count()} cores; load average {load} when the run began). One fresh process per cell, "
            "one core each; times are wall seconds, so a loaded machine makes them longer (the ratios are measured "
            "side by side in the same run)."]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="benchmarks/results/long_lines.md", help="Markdown file for the tables")
    parser.add_argument("--mirror", type=Path, default=REPO.parent / "shared" / "data", help="the data mirror")
    parser.add_argument("--timeout", type=float, default=60, help="seconds before a process is stopped")
    parser.add_argument("--short-timeout", type=float, default=300, help="the same for TER's short lines")
    parser.add_argument("--cap-gb", type=float, default=4, help="address-space cap of every process, GB")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=SECTIONS, help="sections to run")
    args = parser.parse_args()
    sections = {"recipe": section_recipe, "real": section_real, "ter-short": section_ter_short}
    lines = header(args)
    with tempfile.TemporaryDirectory() as folder:
        for name in SECTIONS:
            if name in args.only:
                lines += [""] + sections[name](args, Path(folder))
    Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
