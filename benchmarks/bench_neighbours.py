"""Rule find_neighbours' work (mtmeta.embeddings.vectors.Vectors.prefetch_neighbours: the k nearest
neighbours of every reference word), timed at this checkout and at an earlier revision, on the same
word vectors and words, in one run; and whether the two write the same bytes.

Usage:

    .venv/bin/python benchmarks/bench_neighbours.py --before REV --models DIR [DIR ...] \\
        [--repeat 2] [--out benchmarks/results/neighbours.md]

``--models``: trained models of a study run (results/embeddings/<model>/<lang>/, with vectors.bin and
the neighbours.cache.json.gz rule find_neighbours wrote, whose words and k are looked up again).
``--before``: a git revision whose src/mtmeta/embeddings/vectors.py is loaded beside this checkout's
(git show REV:path). Times are CPU seconds of one process (time.process_time, BLAS on one thread), the
minimum of ``--repeat`` runs; each run starts from vectors without neighbours.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pandas as pd  # noqa: E402

from mtmeta.embeddings import vectors as current  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from revisions import module_at  # noqa: E402


def neighbours_file(module, folder: Path, lookups: dict[int, list[str]], repeat: int) -> tuple[float, bytes]:
    """Minimum CPU seconds of ``repeat`` runs of the lookups, and the bytes the last run saves."""
    best, saved = float("inf"), b""
    for _ in range(repeat):
        vectors = module.Vectors.load(folder / "vectors.bin")
        start = time.process_time()
        for k, words in lookups.items():
            vectors.prefetch_neighbours(words, k)
        best = min(best, time.process_time() - start)
        out = Path(tempfile.mkdtemp()) / "neighbours.json.gz"
        vectors.save_neighbours(out)
        saved = out.read_bytes()
    return best, saved


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--models", nargs="+", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    before = module_at(args.before, "src/mtmeta/embeddings/vectors.py")
    rows = []
    for folder in args.models:
        with gzip.open(folder / "neighbours.cache.json.gz", "rt", encoding="utf-8") as handle:
            entries = json.load(handle)["neighbours"]
        lookups: dict[int, list[str]] = {}
        for word, k, _ in entries:
            lookups.setdefault(k, []).append(word)
        old_s, old = neighbours_file(before, folder, lookups, args.repeat)
        new_s, new = neighbours_file(current, folder, lookups, args.repeat)
        vocabulary = len(current.Vectors.load(folder / "vectors.bin").words)
        rows.append({"model": f"{folder.parent.name}/{folder.name}", "vocabulary": vocabulary,
                     "words looked up": len(entries), f"{args.before} s": old_s, "now s": new_s,
                     "ratio now / before": new_s / old_s, "same bytes": old == new})
    table = pd.DataFrame(rows)
    total_old, total_new = table[f"{args.before} s"].sum(), table["now s"].sum()
    text = (f"# Nearest neighbours (rule find_neighbours): {args.before} against this checkout\n\n"
            f"Written by `benchmarks/bench_neighbours.py` (minimum CPU seconds of {args.repeat} runs, one "
            f"thread, on a {os.cpu_count()}-core host; the models and words are those of a study run, "
            f"the words in one order for both).\n\n"
            + table.to_markdown(index=False, floatfmt=".3f")
            + f"\n\nAll models: {total_old:.1f} s before, {total_new:.1f} s now "
              f"(ratio {total_new / total_old:.2f}).\n")
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
