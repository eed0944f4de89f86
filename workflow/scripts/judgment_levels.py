"""Rule judgment_levels: the WMT12-14 segment-level table between chance and a second annotator
(mtmeta.metaeval.annotators): per pair, the judgments of one comparison by different annotators
scored against each other, each metric's value and chance level (segment_level.tsv) beside them. A
pair whose files and rows are unchanged since the last run keeps its piece (mtmeta.table_cache)."""

import logging
from functools import partial
from pathlib import Path

import pandas as pd

from mtmeta.data.judgments import read_judgments
from mtmeta.data.prepare import source_file
from mtmeta.io import FLOAT_FORMAT, read_tsv, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metaeval.annotators import levels_markdown, pair_levels
from mtmeta.metrics.spec import MetricSpec
from mtmeta.table_cache import TableCache


def levels(pair: dict, comparisons: str, judgments: Path | None, rows: pd.DataFrame, bootstrap: dict,
           judges_of: dict[str, dict]) -> pd.DataFrame:
    """One pair's piece: its annotators' agreement, and each metric's value and chance level."""
    judges = None
    if judgments is not None:  # the CSV records each task's annotator (read once per source)
        if pair["source"] not in judges_of:
            judges_of[pair["source"]] = read_judgments(pair["format"], judgments, None).judges
        judges = judges_of[pair["source"]]
    metrics = {}
    for entry, path in zip(pair["metrics"], pair["segments"], strict=True):
        spec = MetricSpec.of(entry)
        metrics[spec.id] = (pd.read_parquet(path, columns=["system", "seg_id", "score"]), spec.higher_is_better)
    return pair_levels(pair["dataset"], pair["lp"], pd.read_parquet(comparisons), judges, judgments is not None,
                       metrics, rows, draws=bootstrap["draws"], seed=bootstrap["seed"])


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("mtmeta")
    segment_level = read_tsv(snakemake.input.segment_level)
    bootstrap = snakemake.params.bootstrap
    cache = TableCache(Path(snakemake.scriptdir) / "judgment_levels.py")
    judges_of: dict[str, dict] = {}
    frames = []
    for pair, comparisons in zip(snakemake.params.pairs, snakemake.input.comparisons, strict=True):
        dataset, lp = pair["dataset"], pair["lp"]
        # the judgments' CSV where it records each task's annotator (its judges are part of the piece)
        recorded = pair["format"] == "wmt_ranking_csv"
        judgments = source_file(Path("resources"), pair["source"])[0] if recorded else None
        rows = segment_level[(segment_level["dataset"] == dataset) & (segment_level["lp"] == lp)]
        files = [comparisons, *([judgments] if judgments is not None else []), *pair["segments"]]
        key = cache.key(files, {"pair": pair, "bootstrap": bootstrap,
                                "rows": rows.to_csv(sep="\t", index=False, float_format=FLOAT_FORMAT)})
        table = cache.frame(key, partial(levels, pair, comparisons, judgments, rows, bootstrap, judges_of))
        first = table.iloc[0]
        log.info("%s %s: %d pairs of judgments of %d comparisons judged more than once (annotators %s; %d "
                 "same-annotator pairs and %d judgments without an id left out)", dataset, lp,
                 first["judgment_pairs"], first["repeated_comparisons"], first["annotators"],
                 first["same_annotator_pairs"], first["unattributed_judgments"])
        frames.append(table)
    cache.prune()
    log.info("%s", cache.summary())
    table = pd.concat(frames, ignore_index=True)
    write_tsv(table, snakemake.output.tsv)
    write_text(snakemake.output.markdown, levels_markdown(table))


main(snakemake)  # noqa: F821
