"""Rule plot_system_scatter: metric vs human system score, one panel per dataset x lp."""

from mtmeta.io import read_json, read_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.paper.figures import system_scatter


def main(snakemake):
    configure(snakemake.log[0])
    human_score = snakemake.params.human_score
    panels = []
    for systems, human_path, corr, summary_path in zip(snakemake.input.systems, snakemake.input.human_scores,
                                                       snakemake.input.correlations, snakemake.input.summaries,
                                                       strict=True):
        human = read_tsv(human_path)
        table = read_tsv(systems).merge(human, on="system")
        correlations = read_tsv(corr)
        # A pair without judgments (official scores only) is plotted against its official score.
        x = primary_human_score(human, human_score)
        correlation = correlations[correlations["metric"] == snakemake.wildcards.metric].set_index(
            "human_score").loc[x]
        official = read_json(summary_path).get("official_scores", {}).get("name")
        panels.append(
            {
                "title": f"{correlation['dataset']} {correlation['lp']}",
                "table": table.dropna(subset=[x]),
                "pearson": correlation["pearson"],
                "human_score": x,
                **({"human_label": f"human: official ({official})"} if x == "official" else {}),
            }
        )
    system_scatter(panels, snakemake.wildcards.metric, human_score, [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
