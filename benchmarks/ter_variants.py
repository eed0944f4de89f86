"""TER as sacrebleu computes it and as the WMT metrics tasks ran it (tercom 0.7.25 with -N), per system of
the WMT12 test sets, and what separates them: sacrebleu's `normalized=True` (-N's rules), tercom's
tokenizer on top (ASCII-only whitespace, `<skipped>` deleted), and HTML entities decoded in the output.

    .venv/bin/python benchmarks/ter_variants.py [--results results] [--dataset wmt12]
        [--out benchmarks/results/ter_variants.md]

Reads the study's prepared segments (results/datasets/<dataset>/<lp>/segments.parquet); a measurement,
not part of the study. Scores are corpus TER x 100 (lower is better).
"""

from __future__ import annotations

import argparse
import html
import re
from pathlib import Path

import pandas as pd

from mtmeta import metrics

VARIANTS = {  # column -> TER parameters
    "ter": {},
    "sacrebleu -N": {"normalized": True},
    "ter-wmt": {"normalized": True, "tokenizer": "tercom"},
}
UNICODE_SPACE = re.compile(r"[^\S \t\n\x0b\f\r]")  # whitespace to str.split, not to Java's \s
ENTITY = re.compile(r"&#?\w+;")


def system_rows(segments: pd.DataFrame, dataset: str, lp: str) -> list[dict]:
    scorers = {name: metrics.get("ter", **params) for name, params in VARIANTS.items()}
    rows = []
    for system, part in segments.groupby("system", sort=True):
        hyps, refs = part["hypothesis"].tolist(), [part["reference"].tolist()]
        row = {"dataset": dataset, "lp": lp, "system": system, "segments": len(hyps),
               "reference_unicode_space": sum(bool(UNICODE_SPACE.search(r)) for r in refs[0]),
               "output_unicode_space": sum(bool(UNICODE_SPACE.search(h)) for h in hyps),
               "output_entities": sum(len(ENTITY.findall(h)) for h in hyps)}
        for name, scorer in scorers.items():
            row[name] = scorer.corpus_score(scorer.stats(hyps, refs))
        wmt = scorers["ter-wmt"]
        row["ter-wmt, entities decoded"] = wmt.corpus_score(wmt.stats([html.unescape(h) for h in hyps], refs))
        rows.append(row)
    return rows


def report(table: pd.DataFrame, dataset: str) -> str:
    table = table.assign(norm_change=table["sacrebleu -N"] - table["ter"],
                         tercom_change=table["ter-wmt"] - table["sacrebleu -N"],
                         entity_change=table["ter-wmt, entities decoded"] - table["ter-wmt"])
    lines = [
        f"# TER variants on {dataset}: sacrebleu's default, -N, and tercom 0.7.25's tokenizer", "",
        "Written by `benchmarks/ter_variants.py` from the study's prepared segments. Corpus TER x 100, "
        "lower is better. `sacrebleu -N` is sacrebleu's `normalized=True`; `ter-wmt` adds tercom's own "
        "tokenizer rules (tokens split at ASCII whitespace only; `<skipped>` deleted), as the study's "
        "`ter-wmt` does; the last column decodes HTML entities in the system output first "
        "(-N itself decodes only `&quot;`, `&amp;`, `&lt;`, `&gt;`). Changes are in TER points.", "",
        "| lp | systems | reference segments with non-ASCII whitespace | -N: change (min, max) "
        "| tercom rules: largest change "
        "| systems with entities in the output | decoding entities: largest change |",
        "|---|---:|---:|---|---:|---:|---:|",
    ]
    def largest(part: pd.DataFrame, column: str) -> float:
        return part[column].iloc[part[column].abs().argmax()]

    for lp, part in table.groupby("lp", sort=False):
        lines.append(f"| {lp} | {len(part)} | {part['reference_unicode_space'].iloc[0]} | "
                     f"{part['norm_change'].min():+.2f}, {part['norm_change'].max():+.2f} | "
                     f"{largest(part, 'tercom_change'):+.4f} | {(part['output_entities'] > 0).sum()} | "
                     f"{largest(part, 'entity_change'):+.2f} |")
    lines += ["", "| lp | system | output segments with non-ASCII whitespace | output entities | ter | sacrebleu -N "
              "| ter-wmt | ter-wmt, entities decoded |",
              "|---|---|---:|---:|---:|---:|---:|---:|"]
    for row in table.to_dict("records"):
        scores = " | ".join(f"{row[name]:.4f}" for name in [*VARIANTS, "ter-wmt, entities decoded"])
        lines.append(f"| {row['lp']} | {row['system']} | {row['output_unicode_space']} | {row['output_entities']} "
                     f"| {scores} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", default="results")
    parser.add_argument("--dataset", default="wmt12")
    parser.add_argument("--out", default="benchmarks/results/ter_variants.md")
    args = parser.parse_args()
    root = Path(args.results) / "datasets" / args.dataset
    paths = sorted(root.glob("*/segments.parquet"))
    if not paths:
        raise SystemExit(f"no prepared segments under {root}: run the study's prepare step first")
    rows = []
    for path in paths:
        lp = path.parent.name
        rows += system_rows(pd.read_parquet(path, columns=["system", "hypothesis", "reference"]), args.dataset, lp)
        print(f"{args.dataset} {lp}: {sum(r['lp'] == lp for r in rows)} systems", flush=True)
    Path(args.out).write_text(report(pd.DataFrame(rows), args.dataset))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
