"""Rule judgment_levels: the WMT12-14 segment-level table between chance and a second annotator
(mtmeta.metaeval.annotators): per pair, the judgments of one comparison by different annotators
scored against each other, each metric's value and chance level (segment_level.tsv) beside them."""

import logging
from pathlib import Path

import pandas as pd

from mtmeta.data.judgments import read_judgments
from mtmeta.data.prepare import source_file
from mtmeta.io import read_tsv, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.annotators import levels_markdown, pair_levels
from mtmeta.metrics.spec import MetricSpec


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("mtmeta")
    segment_level = read_tsv(snakemake.input.segment_level)
    judges_of: dict[str, dict] = {}
    frames = []
    for pair, comparisons in zip(snakemake.params.pairs, snakemake.input.comparisons, strict=True):
        dataset, lp, source = pair["dataset"], pair["lp"], pair["source"]
        judges = None
        if pair["format"] == "wmt_ranking_csv":  # the CSV records each task's annotator
            if source not in judges_of:
                path, _ = source_file(Path("resources"), source)
                judges_of[source] = read_judgments(pair["format"], path, None).judges
            judges = judges_of[source]
        metrics = {}
        for entry, path in zip(pair["metrics"], pair["segments"], strict=True):
            spec = MetricSpec.of(entry)
            metrics[spec.id] = (pd.read_parquet(path, columns=["system", "seg_id", "score"]), spec.higher_is_better)
        rows = segment_level[(segment_level["dataset"] == dataset) & (segment_level["lp"] == lp)]
        table = pair_levels(dataset, lp, pd.read_parquet(comparisons), judges, pair["format"] == "wmt_ranking_csv",
                            metrics, rows, draws=snakemake.params.bootstrap["draws"],
                            seed=snakemake.params.bootstrap["seed"])
        first = table.iloc[0]
        log.info("%s %s: %d pairs of judgments of %d comparisons judged more than once (annotators %s; %d "
                 "same-annotator pairs and %d judgments without an id left out)", dataset, lp,
                 first["judgment_pairs"], first["repeated_comparisons"], first["annotators"],
                 first["same_annotator_pairs"], first["unattributed_judgments"])
        frames.append(table)
    table = pd.concat(frames, ignore_index=True)
    write_tsv(table, snakemake.output.tsv)
    write_text(snakemake.output.markdown, levels_markdown(table))


main(snakemake)  # noqa: F821
