"""Rule plot_system_scatter: metric vs human system score, one panel per dataset x lp."""

from mtmeta.io import read_json, read_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.system_level import primary_human_score, system_level_correlations
from mtmeta.metrics.spec import MetricSpec
from mtmeta.paper.figures import system_scatter


def main(snakemake):
    configure(snakemake.log[0])
    human_score = snakemake.params.human_score
    spec = MetricSpec.of(snakemake.params.metric)
    panels = []
    for systems_path, human_path, summary_path in zip(snakemake.input.systems, snakemake.input.human_scores,
                                                      snakemake.input.summaries, strict=True):
        human, systems, summary = read_tsv(human_path), read_tsv(systems_path), read_json(summary_path)
        # A pair without judgments (official scores only) is plotted against its official score.
        x = primary_human_score(human, human_score)
        # The r of rule evaluate_metric's system-level table: its routine on the same three files.
        correlations = system_level_correlations(summary, human, systems, spec.id, spec.higher_is_better)
        official = summary.get("official_scores", {}).get("name")
        panels.append(
            {
                "title": f"{summary['dataset']} {summary['lp']}",
                "table": systems.merge(human, on="system").dropna(subset=[x]),
                "pearson": correlations.set_index("human_score").loc[x, "pearson"],
                "human_score": x,
                **({"human_label": f"human: official ({official})"} if x == "official" else {}),
            }
        )
    system_scatter(panels, spec.id, human_score, [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
