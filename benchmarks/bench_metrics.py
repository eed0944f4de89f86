"""Speed and memory of mtmeta's metrics beside the tools a researcher would otherwise call.

Usage (after `make study` has prepared the datasets, or any run of prepare_dataset for them):

    .venv/bin/python benchmarks/bench_metrics.py [--out benchmarks/results.md] [--nltk-segments 2000]

Every measurement runs in a fresh subprocess (so its peak resident memory is its own) on one
core, in one run, and the script prints a Markdown table with wall times and ratios:

- every mtmeta metric on WMT12 English->Czech (13 systems x 3003 segments) and WMT13 Czech->English
  (12 x 3000): statistics, segment scores and corpus scores of every system;
- BLEU, chrF and TER beside sacrebleu called directly, corpus scores (``corpus_score`` per system)
  and corpus plus sentence scores (``sentence_score`` per segment added);
- METEOR beside NLTK's ``meteor_score`` at NLTK's settings (alpha 0.9, beta 3, gamma 0.5; exact,
  Porter stem, WordNet synonyms), on the first ``--nltk-segments`` segments of one system;
- a 21 x 21 alpha x gamma METEOR sweep re-scored from cached statistics over every WMT13
  into-English segment (taken from results/scores/wmt13/*/meteor.seg.parquet when present).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATASETS = {"WMT12 en-cs": "results/datasets/wmt12/en-cs/segments.parquet",
            "WMT13 cs-en": "results/datasets/wmt13/cs-en/segments.parquet"}
METRICS = ["bleu", "chrf", "chrf++", "ter", "nist", "wer", "per", "meteor", "hlepor", "lepor", "wordmatch"]

PRELUDE = """
import json, resource, sys, time
import pandas as pd
def finish(seconds, **extra):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak, **extra}))
def systems(path):
    seg = pd.read_parquet(path)
    out = []
    for name, rows in seg.sort_values(["system", "seg_id"]).groupby("system"):
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
corpus_metric = {{"bleu": sacrebleu.BLEU(), "chrf": sacrebleu.CHRF(), "ter": sacrebleu.TER()}}[{name!r}]
sentence_metric = {{"bleu": sacrebleu.BLEU(effective_order=True), "chrf": sacrebleu.CHRF(),
                    "ter": sacrebleu.TER()}}[{name!r}]
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
start = time.perf_counter()
for _, hyps, refs in data:
    metric.corpus_score(metric.stats(hyps, [refs]))
finish(time.perf_counter() - start)
"""

NLTK_METEOR = """
import nltk
from nltk.translate.meteor_score import meteor_score
nltk.data.path.insert(0, "resources/wordnet/extracted")
from nltk.corpus import wordnet
wordnet.ensure_loaded()
name, hyps, refs = systems({path!r})[0]
hyps, refs = hyps[:{n}], refs[:{n}]
from mtmeta.metrics.tokenize import tokenizer
tok = tokenizer("13a", True)
pairs = [(tok(h), tok(r)) for h, r in zip(hyps, refs)]
meteor_score([["warm", "up"]], ["warm", "up"])
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


def run(code: str) -> dict:
    program = PRELUDE + textwrap.dedent(code)
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=REPO,
                            env={"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin",
                                 "PYTHONHASHSEED": "0"})
    if result.returncode != 0:
        return {"error": result.stderr.strip().splitlines()[-1]}
    return json.loads(result.stdout.strip().splitlines()[-1])


def fmt(x: dict, key: str = "seconds") -> str:
    return f"{x[key]:.2f}" if key in x else x.get("error", "n/a")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="benchmarks/results.md", help="Markdown file for the tables")
    parser.add_argument("--nltk-segments", type=int, default=2000)
    args = parser.parse_args()
    lines = ["# mtmeta benchmarks", "", "One core each, fresh process per row; seconds of wall time.", ""]

    lines += ["## Every metric (statistics, segment and corpus scores of every system)", "",
              "| metric | " + " | ".join(f"{d} s | {d} peak MB" for d in DATASETS) + " |",
              "|---|" + "---:|---:|" * len(DATASETS)]
    for name in METRICS:
        cells = []
        for label, path in DATASETS.items():
            lang = label.split("-")[-1]
            result = run(OURS.format(path=path, name=name, lang=lang))
            cells += [fmt(result), f"{result.get('peak_mb', 0):.0f}"]
            print(name, label, result, file=sys.stderr)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    lines += ["", "## Beside sacrebleu (WMT12 en-cs, 13 x 3003 segments)", "",
              "Ratio: mtmeta's time over sacrebleu's (below 1: mtmeta is faster). mtmeta computes segment "
              "scores from the statistics it already has; sacrebleu re-tokenises for every sentence_score call.", "",
              "| metric | mtmeta corpus only | sacrebleu corpus_score | ratio | mtmeta corpus + segments | "
              "sacrebleu corpus + sentence_score | ratio |", "|---|---:|---:|---:|---:|---:|---:|"]
    path = DATASETS["WMT12 en-cs"]
    for name in ("bleu", "chrf", "ter"):
        corpus_only = run(OURS_CORPUS_ONLY.format(path=path, name=name, lang="cs"))
        ours = run(OURS.format(path=path, name=name, lang="cs"))
        theirs = run(SACREBLEU.format(path=path, name=name))
        print(name, corpus_only, ours, theirs, file=sys.stderr)
        lines.append(
            f"| {name} | {fmt(corpus_only)} | {fmt(theirs, 'corpus_seconds')} | "
            f"{corpus_only['seconds'] / theirs['corpus_seconds']:.2f} | {fmt(ours)} | {fmt(theirs)} | "
            f"{ours['seconds'] / theirs['seconds']:.2f} |"
        )

    n = args.nltk_segments
    path = DATASETS["WMT13 cs-en"]
    nltk_result = run(NLTK_METEOR.format(path=path, n=n))
    ours_result = run(OURS_NLTK_SETTINGS.format(path=path, n=n))
    print("nltk", nltk_result, ours_result, file=sys.stderr)
    lines += ["", f"## METEOR beside NLTK's meteor_score (WMT13 cs-en, first {n} segments of one system)", "",
              "NLTK settings on both sides: alpha 0.9, beta 3, gamma 0.5; exact, Porter stem, WordNet synonyms.", "",
              "| tool | seconds | ms per segment | peak MB |", "|---|---:|---:|---:|"]
    for label, result in (("NLTK meteor_score", nltk_result), ("mtmeta meteor (preset textbook, porter)", ours_result)):
        per = 1000 * result["seconds"] / result["segments"] if "seconds" in result else float("nan")
        lines.append(f"| {label} | {fmt(result)} | {per:.2f} | {result.get('peak_mb', 0):.0f} |")
    if "seconds" in nltk_result and "seconds" in ours_result:
        ratio = ours_result["seconds"] / nltk_result["seconds"]
        lines.append(f"\nTime ratio mtmeta / NLTK: {ratio:.2f} (below 1: mtmeta is faster). NLTK aligns greedily "
                     "per module; mtmeta runs Meteor 1.5's beam search over alignments.")

    sweep = run(SWEEP)
    print("sweep", sweep, file=sys.stderr)
    lines += ["", "## 21 x 21 alpha x gamma METEOR sweep from cached statistics", "",
              "| segments (WMT13 into English) | settings | seconds | peak MB |", "|---:|---:|---:|---:|",
              f"| {sweep.get('segments', 'n/a')} | {sweep.get('settings', 441)} | {fmt(sweep)} | "
              f"{sweep.get('peak_mb', 0):.0f} |"]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
