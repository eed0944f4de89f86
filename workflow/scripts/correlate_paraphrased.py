"""Rule correlate_paraphrased: Pearson with the human "> others" score for every metric with the
original and with each setting's references, and Meng's test against the original references."""

import json
from pathlib import Path

import pandas as pd

from mtmeta.logsetup import configure
from mtmeta.metaeval.significance import correlation_rows


def main(snakemake):
    configure(snakemake.log[0])
    human = pd.read_csv(snakemake.input.human_scores, sep="\t")
    dataset = json.loads(Path(snakemake.input.summary).read_text())
    summaries = {}
    for path in snakemake.input.summaries:
        info = json.loads(Path(path).read_text())
        summaries[info["setting"]] = info
    original = {Path(p).name.removesuffix(".sys.tsv"): pd.read_csv(p, sep="\t") for p in snakemake.input.original}
    paraphrased = {}
    for (setting, metric), path in zip(snakemake.params.runs, snakemake.input.paraphrased, strict=True):
        paraphrased.setdefault(metric, {})[setting] = pd.read_csv(path, sep="\t")
    frames = []
    for metric, by_setting in paraphrased.items():
        scores = {"original": original[metric], **by_setting}
        rows = correlation_rows(human, scores, baseline="original")
        rows.insert(0, "metric", metric)
        frames.append(rows)
    table = pd.concat(frames, ignore_index=True).rename(columns={"variant": "references"})
    for key in ("order", "selection", "filter", "words_per_sentence", "phrases_per_sentence"):
        table[key] = [summaries.get(r, {}).get(key) for r in table["references"]]
    table.insert(0, "lp", dataset["lp"])
    table.insert(0, "dataset", dataset["dataset"])
    table.to_csv(snakemake.output.table, sep="\t", index=False, float_format="%.17g")


main(snakemake)  # noqa: F821
