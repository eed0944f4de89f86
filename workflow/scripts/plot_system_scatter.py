"""Rule plot_system_scatter: metric vs human system score, one panel per dataset x lp."""

import pandas as pd

from mtmeta.logsetup import configure
from mtmeta.paper.figures import system_scatter


def main(snakemake):
    configure(snakemake.log[0])
    human_score = snakemake.params.human_score
    panels = []
    for systems, human, corr in zip(
        snakemake.input.systems, snakemake.input.human_scores, snakemake.input.correlations, strict=True
    ):
        table = pd.read_csv(systems, sep="\t").merge(pd.read_csv(human, sep="\t"), on="system")
        correlations = pd.read_csv(corr, sep="\t")
        correlation = correlations[correlations["metric"] == snakemake.wildcards.metric].set_index(
            "human_score").loc[human_score]
        panels.append(
            {
                "title": f"{correlation['dataset']} {correlation['lp']}",
                "table": table.dropna(subset=[human_score]),
                "pearson": correlation["pearson"],
            }
        )
    system_scatter(panels, snakemake.wildcards.metric, human_score, [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
