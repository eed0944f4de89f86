"""Rule plot_system_scatter: metric vs human system score, one panel per dataset x lp."""

from mtmeta.io import read_json, read_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.system_level import primary_human_score
from mtmeta.paper.figures import system_scatter


def main(snakemake):
    configure(snakemake.log[0])
    human_score = snakemake.params.human_score
    # The metric's own correlations (its piece of the study-wide table), by pair and human score.
    correlations = read_tsv(snakemake.input.correlations).set_index(["dataset", "lp", "human_score"])
    panels = []
    for systems, human_path, summary_path in zip(snakemake.input.systems, snakemake.input.human_scores,
                                                 snakemake.input.summaries, strict=True):
        human = read_tsv(human_path)
        table = read_tsv(systems).merge(human, on="system")
        summary = read_json(summary_path)
        # A pair without judgments (official scores only) is plotted against its official score.
        x = primary_human_score(human, human_score)
        correlation = correlations.loc[(summary["dataset"], summary["lp"], x)]
        official = summary.get("official_scores", {}).get("name")
        panels.append(
            {
                "title": f"{summary['dataset']} {summary['lp']}",
                "table": table.dropna(subset=[x]),
                "pearson": correlation["pearson"],
                "human_score": x,
                **({"human_label": f"human: official ({official})"} if x == "official" else {}),
            }
        )
    system_scatter(panels, snakemake.wildcards.metric, human_score, [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
