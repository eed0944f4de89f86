"""Rule table_seed001: seed 001's alpha, gamma and module tables on the evaluator set, and its figure."""

import pandas as pd
import yaml

from mtmeta import metrics
from mtmeta.io import markdown_table
from mtmeta.logsetup import configure
from mtmeta.metaeval.segment_level import pairwise_deltas
from mtmeta.paper.figures import seed001_figure
from mtmeta.paper.meteor_tuning import seed001_tables
from mtmeta.stats.pairwise import three_way_accuracy

SUBSET = "MT-course evaluator set, first 10,000 of 25,568 labelled tuples (a subset)"


def accuracy_at(metric, seg: pd.DataFrame, comparisons: pd.DataFrame, **setting) -> float:
    """Three-way accuracy with the cached statistics re-scored at one setting."""
    columns = [c for c in seg.columns if c not in ("system", "seg_id", "score", "signature")]
    scored = seg.assign(score=metric.rescore(seg[columns].to_numpy(dtype=float), **setting))
    return three_way_accuracy(*pairwise_deltas(comparisons, scored))


def write(frame: pd.DataFrame, tsv: str, markdown: str, title: str) -> None:
    frame.to_csv(tsv, sep="\t", index=False, float_format="%.17g")
    with open(markdown, "w") as handle:
        handle.write(f"**{title}**\n\n" + markdown_table(frame))


def main(snakemake):
    configure(snakemake.log[0])
    reported = yaml.safe_load(open(snakemake.input.reported))
    seg = pd.read_parquet(snakemake.input.segments)
    comparisons = pd.read_parquet(snakemake.input.comparisons)
    segment_level = pd.read_csv(snakemake.input.segment_level, sep="\t").set_index("metric")
    spec = snakemake.params.metric
    metric = metrics.get_for_dataset(spec["name"], "en", spec["params"], tokenized=True)
    seed_alpha = reported["tables"]["alpha"]["best"]["alpha"]
    seed_gamma = reported["tables"]["gamma"]["best"]["gamma"]
    module_bests = {label: pd.read_csv(path, sep="\t").iloc[0]
                    for label, path in zip(("exact+stem", "exact+synonym", "exact+stem+synonym"),
                                           snakemake.input.module_bests, strict=True)}
    alpha, gamma, modules = seed001_tables(
        pd.read_csv(snakemake.input.sweep, sep="\t"),
        module_bests,
        float(segment_level.loc["wordmatch", "three_way_accuracy"]),
        accuracy_at(metric, seg, comparisons, alpha=seed_alpha, gamma=0.0),
        accuracy_at(metric, seg, comparisons, alpha=reported["tables"]["gamma"]["fixed"]["alpha"], beta=3.0,
                    gamma=seed_gamma),
        reported,
        int(segment_level.loc["wordmatch", "n_comparisons"]),
    )
    write(alpha, snakemake.output.alpha, snakemake.output.alpha_md, f"Seed 001, METEOR-basic by alpha; {SUBSET}")
    write(gamma, snakemake.output.gamma, snakemake.output.gamma_md, f"Seed 001, METEOR with penalty by gamma; {SUBSET}")
    write(modules, snakemake.output.modules, snakemake.output.modules_md,
          f"Seed 001, stems and WordNet synonyms (METEOR with penalty); {SUBSET}")
    seed001_figure(alpha, gamma, [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
