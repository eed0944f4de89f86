"""Rule paper_mqm: the MQM tables and figures (mtmeta.paper.mqm_tables): mt-metrics-eval's protocols on every
MQM set and the ranked figure with significance clusters, what human translations do, where metrics go
blind (error categories), and both eras side by side."""

import logging

import pandas as pd

from mtmeta.io import read_json, read_tsv, read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.paper import mqm_tables
from mtmeta.paper.mqm_figures import categories_figure, human_translations_figure, ranking_figure


def main(snakemake):
    configure(snakemake.log[0])
    inputs, out = snakemake.input, snakemake.output
    summaries = {(s["dataset"], s["lp"]): s for s in map(read_json, inputs.summaries)}
    protocols = read_tsv(inputs.protocols)
    protocols = protocols[[(d, lp) in summaries for d, lp in zip(protocols["dataset"], protocols["lp"], strict=True)]]
    clusters, global_accuracy = read_tsv(inputs.clusters), read_tsv(inputs.global_accuracy)
    ceilings = read_tsvs(inputs.ceilings) if inputs.ceilings else None
    crowds = read_tsvs(inputs.crowds) if inputs.crowds else None
    table = mqm_tables.protocols_table(protocols, clusters, summaries, ceilings, crowds)
    write_tsv(table, out.protocols)
    write_text(out.protocols_md, mqm_tables.protocols_markdown(table, global_accuracy))
    ranking_figure(mqm_tables.ranking_panels(protocols, clusters, global_accuracy), [out.ranking_png, out.ranking_pdf])
    translations = mqm_tables.human_translations_table(protocols, summaries)
    write_tsv(translations, out.translations)
    write_text(out.translations_md, mqm_tables.write_markdown_table(
        translations, "What human translations do: system-level Pearson and pairwise accuracy of each metric "
        "without and with the human translations (scored as systems)"))
    human_translations_figure(translations, [out.translations_png, out.translations_pdf])
    if inputs.categories:
        categories = mqm_tables.categories_table(read_tsv(inputs.categories), read_tsvs_with_pairs(inputs.counts))
        write_tsv(categories, out.categories)
        write_text(out.categories_md, mqm_tables.categories_markdown(categories))
        categories_figure(categories, [out.categories_png, out.categories_pdf])
    else:
        write_tsv(mqm_tables.no_categories_table(), out.categories)
        write_text(out.categories_md, mqm_tables.no_categories_markdown(sorted(summaries)))
        logging.getLogger("mtmeta").info("no error-category analysis: no pair has an MQM error annotation; "
                                         "%s says so", out.categories_md)
    eras = mqm_tables.eras_table(read_tsv(inputs.system_level), read_tsvs(inputs.ranks), {d for d, _ in summaries})
    write_tsv(eras, out.eras)
    write_text(out.eras_md, mqm_tables.eras_markdown(eras))


def read_tsvs_with_pairs(paths) -> pd.DataFrame:
    """The error counts of each pair (results/datasets/<dataset>/<lp>/mqm_error_counts.tsv), with the pair."""
    frames = []
    for path in paths:
        dataset, lp = str(path).split("/")[-3:-1]
        frames.append(read_tsv(path).assign(dataset=dataset, lp=lp))
    return pd.concat(frames, ignore_index=True)


main(snakemake)  # noqa: F821
