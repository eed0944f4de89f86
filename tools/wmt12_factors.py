"""How far one changed setting moves BLEU's and METEOR's WMT12 system-level correlations with
"> others" (docs/official-record.md): the factors that separate the study's `bleu` and `meteor` from
the metrics the WMT12 metrics task ran, measured on every WMT12 pair of a finished study.

Settings (rows), each scored on every system of every pair and correlated with gt_others:

- ``bleu``: the study's `bleu` (sacreBLEU, 13a, case-sensitive);
- ``bleu-ascii-space``: the same on text whose non-ASCII whitespace (U+00A0, U+2009, U+001F ...; Python's
  ``str.split`` breaks at them, sacreBLEU's 13a therefore too) is glued into the word as U+00B7, so
  words are split at ASCII whitespace only. This is how WMT12's official BLEU read the text: with it
  sacreBLEU gives the official es-en and en-fr BLEU of 25 of 27 systems to the printed four decimals
  (PROMT_DeepHybrid en-fr: 0.2495 -> 0.2378, its 1,708 no-break spaces);
- ``ter-wmt`` (tercom's -N, as the tasks ran TER) and ``ter`` (sacreBLEU's default), negated;
- ``meteor``: the study's `meteor` (Meteor 1.5 task "rank", sacreBLEU's 13a tokens, lowercased);
- ``meteor-norm``: the same parameters on the jar's ``-norm`` input (``tokenize=meteor-norm``);
- ``meteor-wmt12-norm``: preset ``wmt12`` (Meteor 1.3 task "rank", as far as it can be sourced) with
  ``-norm``, the setting closest to WMT12's Meteor; then preset ``wmt12`` with one more change each:
  the jar's other input modes (``-lower``: ``meteor-wmt12-lower``; neither: ``meteor-wmt12-none``), 13a
  tokens with case kept (``meteor-wmt12-13a-cased``), the jar's Java-hash exact matches
  (``meteor-wmt12-norm-javahash``);
- into Czech, German, Spanish and French only (the languages whose Meteor paraphrase table the study
  lacks): ``meteor-wmt12-norm-nopara``, the paraphrase module dropped (what the MyThes stand-in carries),
  and ``meteor-wmt12-norm-fw``, the language's own function-word list instead of the English one
  Meteor 1.5 reads whatever the language.

Leave one system out: for ``bleu``, ``ter-wmt`` and ``meteor-wmt12-norm``, the Spearman of every pair
without each of its systems in turn (``--loo``): do the published cells fit a smaller set of systems?

Reads ``<results>/datasets/wmt12/<lp>/segments.parquet`` and ``human_scores.tsv`` and METEOR's
resources (WordNet and Meteor's English table for English, MyThes thesauri, the jar for ``-norm``,
function-word lists), writes one TSV row per pair x setting (``--out``), every system score
(``--systems``) and the leave-one-out table (``--loo``), and prints the Spearman table in Markdown:

    python tools/wmt12_factors.py --results RESULTS --resources RESOURCES --out factors.tsv \
        --systems system_scores.tsv --loo leave_one_out.tsv
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pandas as pd

from mtmeta import metrics
from mtmeta.metrics.meteor import scoring
from mtmeta.stats.correlation import correlations

PAIRS = ["cs-en", "de-en", "es-en", "fr-en", "en-cs", "en-de", "en-es", "en-fr"]
NORM = {"tokenize": "meteor-norm", "lowercase": True}
# Characters Python's str.split breaks at that are not ASCII whitespace (Perl's and Java's \s).
NON_ASCII_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
GLUE = "\u00b7"  # no tokeniser of the study splits at it


def ascii_space(text: str) -> str:
    return NON_ASCII_SPACE.sub(GLUE, text)


def settings(lang: str) -> dict[str, tuple[str, dict, bool]]:
    """Setting label -> (metric, parameters, whether the text's non-ASCII whitespace is glued)."""
    wmt12 = {"preset": "wmt12", **NORM}
    out = {"bleu": ("bleu", {}, False), "bleu-ascii-space": ("bleu", {}, True),
           "ter-wmt": ("ter", {"normalized": True, "tokenizer": "tercom"}, False), "ter": ("ter", {}, False),
           "meteor": ("meteor", {}, False), "meteor-norm": ("meteor", dict(NORM), False),
           "meteor-wmt12-norm": ("meteor", wmt12, False),
           "meteor-wmt12-lower": ("meteor", {"preset": "wmt12", "tokenize": "whitespace", "lowercase": True}, False),
           "meteor-wmt12-none": ("meteor", {"preset": "wmt12", "tokenize": "whitespace", "lowercase": False}, False),
           "meteor-wmt12-13a-cased": ("meteor", {"preset": "wmt12", "lowercase": False}, False),
           "meteor-wmt12-norm-javahash": ("meteor", {**wmt12, "exact_equality": "java-hash"}, False)}
    if lang != "en":
        base = scoring.preset("wmt12", lang)
        kept = [(m, w) for m, w in zip(base.modules, base.weights, strict=True) if m != "paraphrase"]
        out["meteor-wmt12-norm-nopara"] = ("meteor", {**wmt12, "modules": [m for m, _ in kept],
                                                      "weights": [w for _, w in kept]}, False)
        out["meteor-wmt12-norm-fw"] = ("meteor", {**wmt12, "function_words": "lang"}, False)
    return out


LOO_SETTINGS = ("bleu", "ter-wmt", "meteor-wmt12-norm")
STUDY = ("bleu", "ter-wmt", "ter", "meteor")  # the study's own metric ids among the settings


def baseline(setting: str) -> str:
    """The study metric a setting changes one thing of."""
    return setting if setting in STUDY else setting.split("-")[0]


def system_scores(segments: pd.DataFrame, metric, glue: bool) -> pd.Series:
    """Corpus score of every system of a pair (all systems share the references)."""
    scores = {}
    for system, rows in segments.sort_values(["system", "seg_id"]).groupby("system", sort=True):
        hyps, refs = rows["hypothesis"].tolist(), rows["reference"].tolist()
        if glue:
            hyps, refs = list(map(ascii_space, hyps)), list(map(ascii_space, refs))
        scores[system] = metric.corpus_score(metric.stats(hyps, [refs]))
    return pd.Series(scores, name="score")


def measure(results: Path, resources: Path, pairs: list[str]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(correlations per pair x setting, system scores, leave-one-out Spearman)."""
    rows, scores, loo = [], [], []
    for lp in pairs:
        lang = lp.split("-")[1]
        folder = results / "datasets" / "wmt12" / lp
        segments = pd.read_parquet(folder / "segments.parquet")
        human = pd.read_csv(folder / "human_scores.tsv", sep="\t", dtype={"system": str},
                            keep_default_na=False).set_index("system")["gt_others"]
        for label, (name, params, glue) in settings(lang).items():
            extra = {"resources": str(resources)} if name == "meteor" else {}
            metric = metrics.get(name, lang=lang, **extra, **params)
            sign = -1.0 if name == "ter" else 1.0  # an error rate: higher is worse
            joined = pd.concat([sign * system_scores(segments, metric, glue), human], axis=1, join="inner")
            stats = correlations(joined["score"].to_numpy(), joined["gt_others"].to_numpy())
            signature = metric.signature() + ("|text:ascii-space" if glue else "")
            rows.append({"lp": lp, "setting": label, "metric": name, "n_systems": stats["n"],
                         "spearman": stats["spearman"], "pearson": stats["pearson"], "signature": signature})
            scores += [{"lp": lp, "setting": label, "system": system, "score": sign * value}
                       for system, value in joined["score"].items()]
            if label in LOO_SETTINGS:
                for left_out in joined.index:
                    kept = joined.drop(left_out)
                    loo.append({"lp": lp, "setting": label, "left_out": left_out, "n_systems": len(kept),
                                "spearman": correlations(kept["score"].to_numpy(), kept["gt_others"].to_numpy())[
                                    "spearman"]})
            print(f"{lp} {label}: Spearman {stats['spearman']:.4f}, Pearson {stats['pearson']:.4f}",
                  file=sys.stderr)
    table = pd.DataFrame(rows)
    # Each setting against the study metric it changes one thing of (the study's own rows: 0).
    study = {(row.lp, row.setting): row.spearman for row in table.itertuples() if row.setting in STUDY}
    table["spearman_minus_study"] = [row.spearman - study[(row.lp, baseline(row.setting))]
                                     for row in table.itertuples()]
    return table, pd.DataFrame(scores), pd.DataFrame(loo)


def markdown(table: pd.DataFrame) -> str:
    wide = table.pivot(index="setting", columns="lp", values="spearman")
    wide = wide.reindex(index=list(dict.fromkeys(table["setting"])), columns=list(dict.fromkeys(table["lp"])))
    lines = ["| setting | " + " | ".join(wide.columns) + " |", "|---|" + "---:|" * len(wide.columns)]
    for setting, row in wide.iterrows():
        lines.append(f"| {setting} | " + " | ".join("" if pd.isna(v) else f"{v:.3f}" for v in row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, required=True, help="a finished study's results/ folder")
    parser.add_argument("--resources", type=Path, required=True, help="the metrics' fetched resources")
    parser.add_argument("--pairs", nargs="+", default=PAIRS)
    parser.add_argument("--out", type=Path, required=True, help="correlations, one row per pair x setting")
    parser.add_argument("--systems", type=Path, help="every system score (TER as scored, not negated)")
    parser.add_argument("--loo", type=Path, help="Spearman with each system left out")
    args = parser.parse_args(argv)
    table, scores, loo = measure(args.results, args.resources, args.pairs)
    table.to_csv(args.out, sep="\t", index=False, float_format="%.6f")
    if args.systems:
        scores.to_csv(args.systems, sep="\t", index=False, float_format="%.10g")
    if args.loo:
        loo.to_csv(args.loo, sep="\t", index=False, float_format="%.6f")
    print(markdown(table))


if __name__ == "__main__":
    main()
