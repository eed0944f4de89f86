"""Rule table_seed000: BLEU against the embedding-softened variants on every dataset, and the
word2vec models behind them."""

import json
from pathlib import Path

import pandas as pd

from mtmeta.io import markdown_table
from mtmeta.logsetup import configure
from mtmeta.paper.figures import seed000_figure
from mtmeta.paper.softbleu import seed000_table


def main(snakemake):
    configure(snakemake.log[0])
    williams = pd.concat([pd.read_csv(p, sep="\t") for p in snakemake.input.williams], ignore_index=True)
    table = seed000_table(pd.read_csv(snakemake.input.system_level, sep="\t"),
                          pd.read_csv(snakemake.input.segment_level, sep="\t"), williams, snakemake.params.metrics,
                          snakemake.params.tau_variant)
    table.to_csv(snakemake.output.tsv, sep="\t", index=False, float_format="%.17g")
    wide = table.pivot_table(index=["dataset", "lp"], columns="metric", values="pearson", sort=False)
    tau = table.pivot_table(index=["dataset", "lp"], columns="metric", values="tau", sort=False)
    accuracy = table[table["dataset"] == "evaluator"].pivot_table(index=["dataset", "lp"], columns="metric",
                                                                  values="three_way_accuracy", sort=False)
    with open(snakemake.output.markdown, "w") as handle:
        handle.write("**Seed 000: system-level Pearson with > others, BLEU and its embedding-softened variants** "
                     "(Williams test against BLEU in results/paper/seed000.tsv)\n\n")
        handle.write(markdown_table(wide.reset_index()) + "\n\n")
        handle.write("**Segment-level Kendall tau (each year's WMT variant)**\n\n")
        handle.write(markdown_table(tau.reset_index()) + "\n\n")
        if not accuracy.empty:
            handle.write("**Three-way pairwise accuracy, evaluator set (first 10,000 tuples)**\n\n")
            handle.write(markdown_table(accuracy.reset_index()) + "\n\n")
        handle.write("Signatures:\n\n" + "".join(f"- `{s}`\n" for s in dict.fromkeys(table["signature"].dropna())))
    models = []
    for path in snakemake.input.embeddings:
        info = json.loads(Path(path).read_text())
        neighbours = pd.read_csv(Path(path).with_name("neighbours.tsv"), sep="\t")
        near = "; ".join(f"{probe}: " + ", ".join(f"{w} {c:.2f}" for w, c in
                                                  list(zip(g["neighbour"], g["cosine"], strict=True))[:5])
                         for probe, g in neighbours.groupby("probe", sort=False))
        models.append({"model": info["model"], "lang": info["lang"], "vocabulary": info["vocabulary"],
                       "training tokens": info.get("corpus_tokens"),
                       "sha256": info["sha256"][:12], "nearest neighbours": near})
    with open(snakemake.output.embeddings, "w") as handle:
        handle.write("**word2vec models of seed 000's metrics**\n\n" + markdown_table(pd.DataFrame(models)))
    seed000_figure(table, [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
