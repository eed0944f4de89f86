"""Speed and memory of mtmeta's metrics and analysis steps beside the tools a researcher would otherwise call.

Usage (after `make study` has produced results/, or at least prepare_dataset and score_segments for the
inputs below; a section whose inputs are missing is written as "n/a (reason)"):

    .venv/bin/python benchmarks/bench_metrics.py [--out benchmarks/results/metrics.md] [--nltk-segments 2000]
        [--jar-segments 2000] [--draws 1000] [--job-repeats 3] [--max-segments N] [--only SECTION ...]

Every measurement runs in a fresh subprocess (so its peak resident memory is its own) on one
core, in one run, and the script prints a Markdown table with wall times and ratios:

- ``metrics``: every mtmeta metric on WMT12 English->Czech (13 systems x 3003 segments) and WMT13
  Czech->English (12 x 3000): statistics, segment scores and corpus scores of every system;
- ``sacrebleu``: BLEU, chrF, chrF++ and TER beside sacrebleu called directly, corpus scores (``corpus_score`` per
  system) and corpus plus sentence scores (``sentence_score`` per segment added); mtmeta's corpus-only
  time also cold (with the first, tiny call that loads numba's cache of the compiled kernels), and a
  sentence on TER's ratio against the target of at most 0.1x sacrebleu;
- ``jar``: METEOR beside the Meteor 1.5 jar (from the pip package pycocoevalcap; needs ``java``) at the
  jar's full English settings (``-l en -norm``), on the first ``--jar-segments`` segments of one WMT13
  cs-en system, both sides counting resource loading (and the JVM's start), mtmeta also warm;
- ``nltk``: METEOR beside NLTK's ``meteor_score`` at NLTK's settings (alpha 0.9, beta 3, gamma 0.5; exact,
  Porter stem, WordNet synonyms), on the first ``--nltk-segments`` segments of one system, mtmeta on raw text
  (its tokenisation timed) and given the tokens NLTK is given; target: mtmeta at least 10x faster;
- ``sweep``: a 21 x 21 alpha x gamma METEOR sweep re-scored from cached statistics over every WMT13
  into-English segment (taken from results/scores/wmt13/*/meteor.seg.parquet when present);
- ``bootstrap``: ``mtmeta.metaeval.bootstrap.bootstrap_table`` (``--draws`` draws) for WMT12 en-cs over every metric
  with a results/scores/wmt12/en-cs/<metric>.seg.parquet; target: at most 5 s per language pair;
- ``job``: the wall time of a whole Python process (start to exit) that computes one system-level
  correlation (BLEU, WMT12 en-cs) as the workflow's correlate_system_level job does; target: under 1 s.

``--max-segments N`` keeps the first N segments of every system in the data-set sections (for smoke tests);
``--only`` runs some sections; ``--root`` reads results/ and resources/ from another directory than the repository.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOT = REPO  # where results/ and resources/ are read (the working directory of every measurement); --root
DATASETS = {"WMT12 en-cs": "results/datasets/wmt12/en-cs/segments.parquet",
            "WMT13 cs-en": "results/datasets/wmt13/cs-en/segments.parquet"}
METRICS = ["bleu", "chrf", "chrf++", "ter", "nist", "wer", "per", "meteor", "hlepor", "lepor", "wordmatch"]
SECTIONS = ["metrics", "sacrebleu", "jar", "nltk", "sweep", "bootstrap", "job"]
WMT12_EN_CS = "results/datasets/wmt12/en-cs"
WMT12_EN_CS_SCORES = "results/scores/wmt12/en-cs"
ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1", "PATH": "/usr/bin:/bin",
       "PYTHONHASHSEED": "0"}

PRELUDE = """
import gc, json, resource, sys, time
import pandas as pd
LIMIT = {limit}
def finish(seconds, **extra):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({{"seconds": seconds, "peak_mb": peak, **extra}}))
def systems(path):
    seg = pd.read_parquet(path)
    out = []
    for name, rows in seg.sort_values(["system", "seg_id"]).groupby("system"):
        if LIMIT:
            rows = rows.head(LIMIT)
        out.append((name, rows.hypothesis.tolist(), rows.reference.tolist()))
    return out
"""

OURS = """
from mtmeta import metrics
data = systems({path!r})
lang = {lang!r}
metric = metrics.get_for_dataset({name!r}, lang, {{}})
if {name!r} == "meteor":  # load lexical resources outside the timed part, as sacrebleu loads nothing
    metric.stats(data[0][1][:1], [data[0][2][:1]])
    metric._aligner_for([[metric._tokenizer(r)] for r in data[0][2]])  # the paraphrase table, filtered
if {name!r} in ("ter", "chrf", "chrf++", "bleu"):  # the first call loads numba's kernel cache
    metric.stats(["a b"], [["a c"]])
start = time.perf_counter()
for _, hyps, refs in data:
    stats = metric.stats(hyps, [refs])
    metric.segment_scores(stats)
    metric.corpus_score(stats)
finish(time.perf_counter() - start, segments=sum(len(h) for _, h, _ in data))
"""

SACREBLEU = """
import sacrebleu
data = systems({path!r})
corpus_metric = {{"bleu": sacrebleu.BLEU(), "chrf": sacrebleu.CHRF(), "chrf++": sacrebleu.CHRF(word_order=2),
                  "ter": sacrebleu.TER()}}[{name!r}]
sentence_metric = {{"bleu": sacrebleu.BLEU(effective_order=True), "chrf": sacrebleu.CHRF(),
                    "chrf++": sacrebleu.CHRF(word_order=2), "ter": sacrebleu.TER()}}[{name!r}]
start = time.perf_counter()
for _, hyps, refs in data:
    corpus_metric.corpus_score(hyps, [refs])
corpus_seconds = time.perf_counter() - start
for _, hyps, refs in data:
    for h, r in zip(hyps, refs):
        sentence_metric.sentence_score(h, [r])
finish(time.perf_counter() - start, corpus_seconds=corpus_seconds)
"""

OURS_CORPUS_ONLY = """
from mtmeta import metrics
data = systems({path!r})
metric = metrics.get({name!r}, lang={lang!r})
cold = time.perf_counter()
metric.stats(["a b"], [["a c"]])  # warm-up: for TER, chrF and BLEU, numba's cache load of the compiled kernel
start = time.perf_counter()
for _, hyps, refs in data:
    metric.corpus_score(metric.stats(hyps, [refs]))
end = time.perf_counter()
finish(end - start, cold_seconds=end - cold, warmup_seconds=start - cold)
"""

METEOR_JAR = """
import os, subprocess, tempfile
name, hyps, refs = systems({path!r})[0]
hyps, refs = hyps[:{n}], refs[:{n}]
def line(text):  # one segment per line, as the jar reads them
    return text.replace("\\r", " ").replace("\\n", " ") + "\\n"
with tempfile.TemporaryDirectory() as tmp:
    hyp_file, ref_file = os.path.join(tmp, "hyp.txt"), os.path.join(tmp, "ref.txt")
    for file, texts in ((hyp_file, hyps), (ref_file, refs)):
        with open(file, "w", encoding="utf-8") as out:
            out.write("".join(line(t) for t in texts))
    start = time.perf_counter()
    done = subprocess.run([{java!r}, "-Xmx2G", "-jar", "meteor-1.5.jar", hyp_file, ref_file, "-l", "en", "-norm"],
                          cwd={jar_dir!r}, capture_output=True, text=True)
    seconds = time.perf_counter() - start
if done.returncode != 0:
    print(json.dumps({{"error": "java exited with " + str(done.returncode) + ": "
                               + (done.stderr.strip().splitlines() or ["no message"])[-1]}}))
    sys.exit(0)
finals = [row for row in done.stdout.splitlines() if row.startswith("Final score:")]
score = float(finals[-1].split()[-1]) if finals else float("nan")
java_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "peak_mb": java_peak, "segments": len(hyps), "score": score, "system": name}}))
"""

OURS_JAR_SETTINGS = """
import os
from mtmeta import metrics  # imported before the clock starts; everything after it is timed
name, hyps, refs = systems({path!r})[0]
hyps, refs = hyps[:{n}], refs[:{n}]
needed = metrics.metric_class("meteor").required_files("en", resources="resources")
indexes_cached = all(os.path.exists(f) for f in needed)
start = time.perf_counter()
m = metrics.get_for_dataset("meteor", "en", {{}}, resources="resources")
score = m.corpus_score(m.stats(hyps, [refs]))
cold = time.perf_counter() - start
start = time.perf_counter()
m.corpus_score(m.stats(hyps, [refs]))
warm = time.perf_counter() - start
finish(cold, warm_seconds=warm, segments=len(hyps), score=score, system=name, indexes_cached=indexes_cached)
"""

NLTK_METEOR = """
import nltk
from nltk.translate.meteor_score import meteor_score
nltk.data.path.insert(0, "resources/wordnet/extracted")
from nltk.corpus import wordnet
wordnet.ensure_loaded()
name, hyps, refs = systems({path!r})[0]
hyps, refs = hyps[:{n}], refs[:{n}]
from mtmeta.data.tokenize import tokenizer
tok = tokenizer("13a", True)
pairs = [(tok(h), tok(r)) for h, r in zip(hyps, refs)]
meteor_score([["warm", "up"]], ["warm", "up"])
gc.collect()  # the garbage of reading every system is collected before the clock starts, on both sides
start = time.perf_counter()
for h, r in pairs:
    meteor_score([r], h)
finish(time.perf_counter() - start, segments=len(pairs))
"""

OURS_NLTK_SETTINGS = """
from mtmeta import metrics
name, hyps, refs = systems({path!r})[0]
hyps, refs = hyps[:{n}], refs[:{n}]
metric = metrics.get("meteor", lang="en", preset="textbook", stemmer="porter", resources="resources")
metric.stats(hyps[:1], [refs[:1]])  # load WordNet outside the timed part, as NLTK's warm-up call does
gc.collect()
start = time.perf_counter()
metric.segment_scores(metric.stats(hyps, [refs]))
finish(time.perf_counter() - start, segments=len(hyps))
"""

# The same, given the tokens NLTK is given (13a, lowercased, tokenised outside the timed part), as the
# study's scoring jobs are (they read the tokenisations of rule tokenize_segments).
OURS_NLTK_TOKENS = """
from mtmeta import metrics
from mtmeta.data.tokenize import tokenizer
name, hyps, refs = systems({path!r})[0]
tok = tokenizer("13a", True)
hyps, refs = [" ".join(tok(h)) for h in hyps[:{n}]], [" ".join(tok(r)) for r in refs[:{n}]]
metric = metrics.get("meteor", lang="en", preset="textbook", stemmer="porter", tokenize="none", resources="resources")
metric.stats(hyps[:1], [refs[:1]])  # load WordNet outside the timed part, as NLTK's warm-up call does
gc.collect()
start = time.perf_counter()
metric.segment_scores(metric.stats(hyps, [refs]))
finish(time.perf_counter() - start, segments=len(hyps))
"""

SWEEP = """
import glob
import numpy as np
from mtmeta.metrics.meteor import scoring
frames = [pd.read_parquet(p) for p in sorted(glob.glob("results/scores/wmt13/*/meteor.seg.parquet"))]
if not frames:
    print(json.dumps({{"error": "no results/scores/wmt13/*/meteor.seg.parquet; run the study first"}}))
    sys.exit(0)
columns = [c for c in frames[0].columns if c not in ("system", "seg_id", "score", "signature")]
stats = np.vstack([f[columns].to_numpy() for f in frames])
preset = scoring.preset("rank", "en")
alphas, gammas = np.linspace(0, 1, 21), np.linspace(0, 1, 21)[:, None]
start = time.perf_counter()
best = -1.0
for alpha in alphas:  # gamma and segments vectorised; one alpha at a time keeps memory small
    grid = scoring.scores(stats, len(preset.modules), alpha=alpha, beta=preset.beta, gamma=gammas,
                          delta=preset.delta, weights=list(preset.weights))
    best = max(best, float(grid.mean(axis=1).max()))
finish(time.perf_counter() - start, segments=len(stats), settings=441)
"""

BOOTSTRAP = """
import glob, os
from mtmeta import metrics
from mtmeta.metaeval.bootstrap import bootstrap_table
from mtmeta.app.config import load_config, metric_spec
root, scores = {root!r}, {scores!r}
paths = sorted(glob.glob(scores + "/*.seg.parquet"))
if not paths:
    print(json.dumps({{"error": "no " + scores + "/*.seg.parquet; run the study first"}}))
    sys.exit(0)
config = load_config()
begin = time.perf_counter()
summary = json.loads(open(root + "/summary.json").read())
comparisons = pd.read_parquet(root + "/comparisons.parquet")
human = pd.read_csv(root + "/human_scores.tsv", sep="\\t")
tables = {{os.path.basename(p)[: -len(".seg.parquet")]: pd.read_parquet(p) for p in paths}}
objects = {{}}
for metric_id in tables:
    name, params = metric_spec(config, metric_id)
    objects[metric_id] = metrics.get_for_dataset(name, "cs", params, resources="resources")
start = time.perf_counter()
table = bootstrap_table(summary, comparisons, human, tables, objects, draws={draws}, seed=config["bootstrap"]["seed"])
end = time.perf_counter()
finish(end - start, total_seconds=end - begin, metrics=len(tables), rows=len(table), draws={draws})
"""

# Run as a whole process and timed from outside (python's start to its exit); argv[1]: the output TSV.
JOB_MINIMAL = """
import json, sys
import pandas as pd
import mtmeta.metaeval.system_level
root = {root!r}
summary = json.loads(open(root + "/summary.json").read())
human = pd.read_csv(root + "/human_scores.tsv", sep="\\t")
systems = pd.read_csv({systems!r}, sep="\\t")
table = mtmeta.metaeval.system_level.system_level_correlations(summary, human, systems, "bleu")
table.to_csv(sys.argv[1], sep="\\t", index=False, float_format="%.17g")
"""

JOB_AS_SCRIPT = """
import json, sys
import pandas as pd
from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.metaeval.system_level import system_level_correlations
configure(sys.argv[1] + ".log")
root = {root!r}
summary = json.loads(open(root + "/summary.json").read())
table = system_level_correlations(summary, pd.read_csv(root + "/human_scores.tsv", sep="\\t"),
                                  pd.read_csv({systems!r}, sep="\\t"), "bleu",
                                  higher_is_better=metrics.metric_class("bleu").higher_is_better)
table.to_csv(sys.argv[1], sep="\\t", index=False, float_format="%.17g")
"""


def run(code: str, limit: int = 0) -> dict:
    program = PRELUDE.format(limit=limit) + textwrap.dedent(code)
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, env=ENV)
    if result.returncode != 0:
        return {"error": (result.stderr.strip().splitlines() or [f"exit code {result.returncode}"])[-1]}
    try:
        return json.loads(result.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"error": "no JSON result on stdout"}


def time_process(code: str, repeats: int) -> dict:
    """Wall seconds of whole `python -c code out.tsv` processes, timed by this (parent) process."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(repeats):
            command = [sys.executable, "-c", textwrap.dedent(code), str(Path(tmp) / f"out{k}.tsv")]
            start = time.perf_counter()
            result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=ENV)
            seconds = time.perf_counter() - start
            if result.returncode != 0:
                return {"error": (result.stderr.strip().splitlines() or [f"exit code {result.returncode}"])[-1]}
            times.append(seconds)
    return {"seconds": statistics.median(times), "first_seconds": times[0], "min_seconds": min(times),
            "runs": len(times)}


def na(x: dict) -> str:
    """'n/a (reason)', safe inside a Markdown table cell."""
    return f"n/a ({x.get('error', 'no result')})".replace("|", "/").replace("\n", " ")


def fmt(x: dict, key: str = "seconds") -> str:
    return f"{x[key]:.2f}" if key in x else na(x)


def ratio(a: dict, a_key: str, b: dict, b_key: str) -> float | None:
    return a[a_key] / b[b_key] if a_key in a and b.get(b_key) else None


def show(value: float | None, suffix: str = "") -> str:
    return "n/a" if value is None else f"{value:.2f}{suffix}"


def per_segment(x: dict, key: str = "seconds") -> str:
    return f"{1000 * x[key] / x['segments']:.2f}" if key in x and x.get("segments") else "n/a"


def missing(*paths: str) -> dict | None:
    """An error result naming the inputs that do not exist (relative to ROOT), or None."""
    absent = [p for p in paths if not (ROOT / p).exists()]
    return {"error": f"{', '.join(absent)} missing; run the study first"} if absent else None


def verdict(met: bool | None) -> str:
    return "n/a" if met is None else ("met" if met else "not met")


def section_metrics(args) -> list[str]:
    lines = ["## Every metric (statistics, segment and corpus scores of every system)", "",
             "METEOR's lexical resources and TER's compiled kernel (numba's cache) load before the clock starts.", "",
             "| metric | " + " | ".join(f"{d} s | {d} peak MB" for d in DATASETS) + " |",
             "|---|" + "---:|---:|" * len(DATASETS)]
    absent = {label: missing(path) for label, path in DATASETS.items()}
    for name in METRICS:
        cells = []
        for label, path in DATASETS.items():
            if absent[label]:
                cells += ["n/a", "n/a"]
                continue
            lang = label.split("-")[-1]
            result = run(OURS.format(path=path, name=name, lang=lang), args.max_segments)
            cells += [fmt(result), f"{result['peak_mb']:.0f}" if "peak_mb" in result else "n/a"]
            print(name, label, result, file=sys.stderr)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines + [f"\n{label}: {na(skip)}" for label, skip in absent.items() if skip]


def section_sacrebleu(args) -> list[str]:
    path = DATASETS["WMT12 en-cs"]
    size = f"first {args.max_segments} segments of every system" if args.max_segments else "13 x 3003 segments"
    lines = [f"## Beside sacrebleu (WMT12 en-cs, {size})", "",
             "Ratio: mtmeta's time over sacrebleu's (below 1: mtmeta is faster). mtmeta computes segment "
             "scores from the statistics it already has; sacrebleu re-tokenises for every sentence_score call. "
             "mtmeta's corpus-only time excludes one tiny warm-up call (`metric.stats([\"a b\"], [[\"a c\"]])`, "
             "in which TER, chrF and BLEU load numba's cache of their kernels); the cold column includes it.", ""]
    skip = missing(path)
    if skip:
        return lines + [na(skip)]
    lines += ["| metric | mtmeta corpus only | mtmeta corpus only, cold | sacrebleu corpus_score | ratio | "
              "mtmeta corpus + segments | sacrebleu corpus + sentence_score | ratio |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    ter = None
    for name in ("bleu", "chrf", "chrf++", "ter"):
        corpus_only = run(OURS_CORPUS_ONLY.format(path=path, name=name, lang="cs"), args.max_segments)
        ours = run(OURS.format(path=path, name=name, lang="cs"), args.max_segments)
        theirs = run(SACREBLEU.format(path=path, name=name), args.max_segments)
        print(name, corpus_only, ours, theirs, file=sys.stderr)
        lines.append(
            f"| {name} | {fmt(corpus_only)} | {fmt(corpus_only, 'cold_seconds')} | {fmt(theirs, 'corpus_seconds')} | "
            f"{show(ratio(corpus_only, 'seconds', theirs, 'corpus_seconds'))} | {fmt(ours)} | {fmt(theirs)} | "
            f"{show(ratio(ours, 'seconds', theirs, 'seconds'))} |"
        )
        if name == "ter":
            ter = (corpus_only, theirs)
    corpus_only, theirs = ter
    warm = ratio(corpus_only, "seconds", theirs, "corpus_seconds")
    cold = ratio(corpus_only, "cold_seconds", theirs, "corpus_seconds")
    lines += ["", f"TER: mtmeta corpus-only time / sacrebleu corpus_score time = {show(warm, 'x')} "
                  f"(cold, with numba's cache load: {show(cold, 'x')}); target <= 0.1x sacrebleu: "
                  f"{verdict(None if warm is None else warm <= 0.1)} "
                  f"(cold: {verdict(None if cold is None else cold <= 0.1)})."]
    return lines


def jar_folder() -> tuple[Path | None, str | None]:
    """The folder of the Meteor 1.5 jar in pycocoevalcap, or None and the reason."""
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        return None, "pip package pycocoevalcap not installed"
    folder = Path(list(spec.submodule_search_locations)[0]) / "meteor"  # a namespace package: no origin
    for needed in (folder / "meteor-1.5.jar", folder / "data" / "paraphrase-en.gz"):
        if not needed.exists():
            return None, f"{needed} missing"
    return folder, None


def section_jar(args) -> list[str]:
    n, path = args.jar_segments, DATASETS["WMT13 cs-en"]
    if args.max_segments:
        n = min(n, args.max_segments)
    lines = [f"## METEOR beside the Meteor 1.5 jar (WMT13 cs-en, first {n} segments of one system)", "",
             "The jar (pycocoevalcap's `meteor-1.5.jar`, `java -Xmx2G -jar meteor-1.5.jar hyp.txt ref.txt -l en "
             "-norm`: exact, stem, synonym, paraphrase) is timed from the JVM's start to its exit, resource "
             "loading included. mtmeta (`metrics.get_for_dataset(\"meteor\", \"en\", {}, resources=\"resources\")` "
             "then `corpus_score(stats(hyps, [refs]))`, in a fresh process) is timed cold from building the metric, "
             "resource loading included (the import of `mtmeta.metrics` excluded), and warm as a second call on "
             "the same data. Ratio: mtmeta / jar (below 1: mtmeta is faster). Target: mtmeta faster per segment "
             "than the jar counting resource loading (the cold row).", ""]
    java = shutil.which("java")
    folder, reason = jar_folder()
    skip = missing(path) or ({"error": "java not on PATH"} if java is None else None) or (
        {"error": reason} if reason else None)
    if skip:
        return lines + [na(skip)]
    jar = run(METEOR_JAR.format(path=path, n=n, java=java, jar_dir=str(folder)), args.max_segments)
    ours = run(OURS_JAR_SETTINGS.format(path=path, n=n), args.max_segments)
    print("jar", jar, ours, file=sys.stderr)
    score = "{:.4f}".format
    jar_label = "Meteor 1.5 jar (JVM start + resources + scoring; peak: the JVM)"
    lines += ["| tool | seconds | ms per segment | ratio mtmeta / jar | peak MB | corpus score |",
              "|---|---:|---:|---:|---:|---:|",
              f"| {jar_label} | {fmt(jar)} | {per_segment(jar)} | | {jar['peak_mb']:.0f} | {score(jar['score'])} |"
              if "seconds" in jar else f"| {jar_label} | {na(jar)} | n/a | | n/a | n/a |"]
    cached = ours.get("indexes_cached")
    cold_label = "mtmeta meteor, cold (with loading" + ("" if cached in (True, None) else
                                                       "; resource indexes built in this run") + ")"
    for label, key in ((cold_label, "seconds"), ("mtmeta meteor, warm (second call, same data)", "warm_seconds")):
        peak = f"{ours['peak_mb']:.0f}" if "peak_mb" in ours else "n/a"
        lines.append(f"| {label} | {fmt(ours, key)} | {per_segment(ours, key)} | "
                     f"{show(ratio(ours, key, jar, 'seconds'))} | {peak} | "
                     f"{score(ours['score']) if 'score' in ours else 'n/a'} |")
    cold = ratio(ours, "seconds", jar, "seconds")
    lines.append(f"\nTarget (mtmeta faster per segment than the jar, counting resource loading): "
                 f"{verdict(None if cold is None else cold < 1)}. Synonyms differ (NLTK's WordNet here, the jar's "
                 "own WordNet export) and so does tokenisation (13a here, the jar's `-norm`), hence slightly "
                 "different scores.")
    return lines


def section_nltk(args) -> list[str]:
    n, path = args.nltk_segments, DATASETS["WMT13 cs-en"]
    if args.max_segments:
        n = min(n, args.max_segments)
    lines = [f"## METEOR beside NLTK's meteor_score (WMT13 cs-en, first {n} segments of one system)", "",
             "NLTK settings on both sides: alpha 0.9, beta 3, gamma 0.5; exact, Porter stem, WordNet synonyms. "
             "Target: mtmeta >= 10x faster than NLTK.", ""]
    skip = missing(path)
    if skip:
        return lines + [na(skip)]
    nltk_result = run(NLTK_METEOR.format(path=path, n=n), args.max_segments)
    ours_result = run(OURS_NLTK_SETTINGS.format(path=path, n=n), args.max_segments)
    tokens_result = run(OURS_NLTK_TOKENS.format(path=path, n=n), args.max_segments)
    print("nltk", nltk_result, ours_result, tokens_result, file=sys.stderr)
    lines += ["| tool | seconds | ms per segment | speed-up NLTK / mtmeta | peak MB |", "|---|---:|---:|---:|---:|"]
    rows = (("NLTK meteor_score (given tokens)", nltk_result),
            ("mtmeta meteor (preset textbook, porter; raw text, its 13a tokenisation timed)", ours_result),
            ("mtmeta meteor (same, given NLTK's tokens: `tokenize=none`)", tokens_result))
    for label, result in rows:
        peak = f"{result['peak_mb']:.0f}" if "peak_mb" in result else "n/a"
        up = "" if result is nltk_result else show(ratio(nltk_result, "seconds", result, "seconds"), "x")
        lines.append(f"| {label} | {fmt(result)} | {per_segment(result)} | {up} | {peak} |")
    speed_up = ratio(nltk_result, "seconds", ours_result, "seconds")
    given = ratio(nltk_result, "seconds", tokens_result, "seconds")
    lines.append(f"\nSpeed-up NLTK / mtmeta: {show(speed_up, 'x')} on raw text, {show(given, 'x')} given the same "
                 f"tokens; target >= 10x faster than NLTK: {verdict(None if speed_up is None else speed_up >= 10)} "
                 f"(given the same tokens: {verdict(None if given is None else given >= 10)}). Both sides stem and "
                 "look up WordNet: NLTK for every word of every segment, mtmeta once per distinct word (NLTK's "
                 "Porter algorithm, rewritten with the same stems, and WordNet's morphology through the synonym "
                 "index, then the compiled alignment). NLTK aligns greedily per module; mtmeta runs Meteor 1.5's "
                 "beam search over alignments.")
    return lines


def section_sweep(args) -> list[str]:
    sweep = run(SWEEP.format(), args.max_segments)
    print("sweep", sweep, file=sys.stderr)
    peak = f"{sweep['peak_mb']:.0f}" if "peak_mb" in sweep else "n/a"
    return ["## 21 x 21 alpha x gamma METEOR sweep from cached statistics", "",
            "| segments (WMT13 into English) | settings | seconds | peak MB |", "|---:|---:|---:|---:|",
            f"| {sweep.get('segments', 'n/a')} | {sweep.get('settings', 441)} | {fmt(sweep)} | {peak} |"]


def section_bootstrap(args) -> list[str]:
    lines = [f"## Bootstrap of system-level correlations (WMT12 en-cs, {args.draws} draws)", "",
             "`mtmeta.metaeval.bootstrap.bootstrap_table` over every metric with a "
             f"`{WMT12_EN_CS_SCORES}/<metric>.seg.parquet` (metric objects from the config's specs, target "
             "language cs); seconds of the call, and of the whole step with reading the inputs and building the "
             "metric objects. Target: <= 5 s per language pair.", ""]
    skip = missing(f"{WMT12_EN_CS}/summary.json", f"{WMT12_EN_CS}/comparisons.parquet",
                   f"{WMT12_EN_CS}/human_scores.tsv", WMT12_EN_CS_SCORES)
    result = skip or run(BOOTSTRAP.format(root=WMT12_EN_CS, scores=WMT12_EN_CS_SCORES, draws=args.draws))
    print("bootstrap", result, file=sys.stderr)
    if "seconds" not in result:
        return lines + [na(result)]
    return lines + ["| metrics | draws | bootstrap_table s | with inputs and metric objects s | peak MB | target |",
                    "|---:|---:|---:|---:|---:|---|",
                    f"| {result['metrics']} | {result['draws']} | {fmt(result)} | {fmt(result, 'total_seconds')} | "
                    f"{result['peak_mb']:.0f} | {verdict(result['seconds'] <= 5)} (<= 5 s) |"]


def section_job(args) -> list[str]:
    systems = f"{WMT12_EN_CS_SCORES}/bleu.sys.tsv"
    lines = ["## A trivial job: one system-level correlation (BLEU, WMT12 en-cs)", "",
             "Wall time of a whole Python process, from its start to its exit, timed by the benchmark around "
             f"`subprocess.run` ({args.job_repeats} runs: median, first and fastest). It reads `bleu.sys.tsv`, "
             "`human_scores.tsv` and `summary.json`, calls "
             "`mtmeta.metaeval.system_level.system_level_correlations` and writes the TSV to a temporary file. "
             "Minimal: imports pandas and mtmeta.metaeval.system_level only; as the script: also "
             "`mtmeta.metrics` (for the metric's direction) and the log set-up, as "
             "workflow/scripts/correlate_system_level.py does (Snakemake's own start-up is not counted). "
             "Target: < 1 s.", ""]
    skip = missing(f"{WMT12_EN_CS}/summary.json", f"{WMT12_EN_CS}/human_scores.tsv", systems)
    if skip:
        return lines + [na(skip)]
    lines += ["| job | median s | first s | fastest s | target |", "|---|---:|---:|---:|---|"]
    for label, code in (("minimal (pandas + mtmeta.metaeval.system_level)", JOB_MINIMAL),
                        ("as the script", JOB_AS_SCRIPT)):
        result = time_process(code.format(root=WMT12_EN_CS, systems=systems), args.job_repeats)
        print("job", label, result, file=sys.stderr)
        target = verdict(result["seconds"] < 1) + " (< 1 s)" if "seconds" in result else "n/a"
        lines.append(f"| {label} | {fmt(result)} | {fmt(result, 'first_seconds')} | {fmt(result, 'min_seconds')} | "
                     f"{target} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="benchmarks/results/metrics.md", help="Markdown file for the tables")
    parser.add_argument("--nltk-segments", type=int, default=2000, help="segments for METEOR beside NLTK")
    parser.add_argument("--jar-segments", type=int, default=2000, help="segments for METEOR beside the Meteor jar")
    parser.add_argument("--draws", type=int, default=1000, help="bootstrap draws")
    parser.add_argument("--job-repeats", type=int, default=3, help="runs of the trivial job")
    parser.add_argument("--max-segments", type=int, default=0,
                        help="keep the first N segments of every system (0: all); for smoke tests")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=SECTIONS, help="sections to run")
    parser.add_argument("--merge", action="store_true",
                        help="replace only the sections run in an existing --out file, keeping the others")
    parser.add_argument("--root", type=Path, default=REPO,
                        help="directory holding results/ and resources/ (default: the repository)")
    args = parser.parse_args()
    global ROOT
    ROOT = args.root.resolve()
    sections = {"metrics": section_metrics, "sacrebleu": section_sacrebleu, "jar": section_jar,
                "nltk": section_nltk, "sweep": section_sweep, "bootstrap": section_bootstrap, "job": section_job}
    lines = ["# mtmeta benchmarks", "", "One core each, fresh process per row; seconds of wall time."]
    if args.max_segments:
        lines.append(f"Smoke test: only the first {args.max_segments} segments of every system.")
    new = {name: sections[name](args) for name in SECTIONS if name in args.only}
    out = Path(args.out)
    if args.merge and out.is_file():
        lines = merge_sections(out.read_text().splitlines(), list(new.values()))
    else:
        for section in new.values():
            lines += [""] + section
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(line for section in new.values() for line in section))


def merge_sections(old: list[str], sections: list[list[str]]) -> list[str]:
    """``old`` (a results file) with each section whose ``## `` heading matches one of ``sections``
    replaced by it; new sections are appended."""
    starts = [i for i, line in enumerate(old) if line.startswith("## ")] + [len(old)]
    out, replaced = old[: starts[0]], set()
    by_heading = {section[0]: section for section in sections}
    for begin, end in zip(starts, starts[1:], strict=False):
        heading = old[begin]
        if heading in by_heading:
            out += by_heading[heading] + [""]
            replaced.add(heading)
        else:
            out += old[begin:end]
    for section in sections:
        if section[0] not in replaced:
            out += [""] + section
    while out and not out[-1]:
        out.pop()
    return out


if __name__ == "__main__":
    main()
