"""Rule paper_mqm: the MQM tables and figures (mtmeta.paper.mqm): mt-metrics-eval's protocols on every
MQM set and the ranked figure with significance clusters, what human translations do, where metrics go
blind (error categories), and both eras side by side."""

import pandas as pd

from mtmeta.io import read_json, read_tsv, read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.paper import mqm
from mtmeta.paper.mqm_figures import categories_figure, human_translations_figure, ranking_figure


def ranking_panels(protocols: pd.DataFrame, clusters: pd.DataFrame, global_accuracy: pd.DataFrame) -> list[dict]:
    panels = []
    if len(global_accuracy):
        panels.append({"title": "global pairwise accuracy, all MQM sets", "xlabel": "pairwise accuracy",
                       "table": global_accuracy[["metric", "value", "rank"]]})
    pearson = protocols[(protocols["level"] == "system") & (protocols["statistic"] == "pearson")
                        & (protocols["aggregation"] == "corpus") & (protocols["human_translations"] == "excluded")]
    ranked = clusters[(clusters["level"] == "system") & (clusters["statistic"] == "pearson")]
    for (dataset, lp), group in ranked.groupby(["dataset", "lp"], sort=False):
        if dataset not in set(protocols["dataset"]):
            continue
        intervals = pearson[(pearson["dataset"] == dataset) & (pearson["lp"] == lp)
                            & (pearson["human_score"] == group["human_score"].iloc[0])]
        rows = group.merge(intervals[["metric", "low", "high"]], on="metric", how="left")
        panels.append({"title": f"{dataset} {lp}: system-level Pearson with {group['human_score'].iloc[0]}",
                       "xlabel": "Pearson (MT systems)", "table": rows[["metric", "value", "rank", "low", "high"]]})
    return panels


def main(snakemake):
    configure(snakemake.log[0])
    inputs, out = snakemake.input, snakemake.output
    summaries = {(s["dataset"], s["lp"]): s for s in map(read_json, inputs.summaries)}
    protocols = read_tsv(inputs.protocols)
    protocols = protocols[[(d, lp) in summaries for d, lp in zip(protocols["dataset"], protocols["lp"], strict=True)]]
    clusters, global_accuracy = read_tsv(inputs.clusters), read_tsv(inputs.global_accuracy)
    ceilings = read_tsvs(inputs.ceilings) if inputs.ceilings else None
    table = mqm.protocols_table(protocols, clusters, summaries, ceilings)
    write_tsv(table, out.protocols)
    write_text(out.protocols_md, mqm.protocols_markdown(table, global_accuracy))
    ranking_figure(ranking_panels(protocols, clusters, global_accuracy), [out.ranking_png, out.ranking_pdf])
    translations = mqm.human_translations_table(protocols, summaries)
    write_tsv(translations, out.translations)
    write_text(out.translations_md, mqm.write_markdown_table(
        translations, "What human translations do: system-level Pearson and pairwise accuracy of each metric "
        "without and with the human translations (scored as systems)"))
    human_translations_figure(translations, [out.translations_png, out.translations_pdf])
    if inputs.categories:
        categories = mqm.categories_table(read_tsv(inputs.categories), read_tsvs_with_pairs(inputs.counts))
        write_tsv(categories, out.categories)
        write_text(out.categories_md, mqm.categories_markdown(categories))
        categories_figure(categories, [out.categories_png, out.categories_pdf])
    eras = mqm.eras_table(read_tsv(inputs.system_level), read_tsvs(inputs.ranks), {d for d, _ in summaries})
    write_tsv(eras, out.eras)
    write_text(out.eras_md, mqm.eras_markdown(eras))


def read_tsvs_with_pairs(paths) -> pd.DataFrame:
    """The error counts of each pair (results/datasets/<dataset>/<lp>/mqm_error_counts.tsv), with the pair."""
    frames = []
    for path in paths:
        dataset, lp = str(path).split("/")[-3:-1]
        frames.append(read_tsv(path).assign(dataset=dataset, lp=lp))
    return pd.concat(frames, ignore_index=True)


main(snakemake)  # noqa: F821
