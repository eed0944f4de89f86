"""Rule paper_levels: between chance and a human, per era (mtmeta.paper.levels): which metrics are
indistinguishable from chance at segment level on which sets, how far the best metric is from a human
level, and one figure per era with the metrics between the two levels."""

import pandas as pd

from mtmeta.io import read_tsv, read_tsvs, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.paper import levels


def main(snakemake):
    configure(snakemake.log[0])
    inputs, out = snakemake.input, snakemake.output
    segment_levels = read_tsv(inputs.segment_levels)
    tables = [read_tsvs(paths) for paths in (inputs.ceilings, inputs.crowds) if paths]
    level_tables = pd.concat(tables, ignore_index=True) if tables else None
    chance = levels.chance_table(segment_levels, read_tsv(inputs.protocols))
    headroom = levels.headroom_table(segment_levels, level_tables)
    write_tsv(chance, out.chance)
    write_tsv(headroom, out.headroom)
    write_text(out.markdown, levels.levels_markdown(chance, headroom))
    levels.levels_figure(levels.era_rows(segment_levels, level_tables, levels.RANKINGS),
                         "2012-14 relative rankings, segment level: each metric between its chance level and a "
                         "second annotator (WMT13's Kendall)", "WMT13's Kendall (human ties left out, metric ties "
                         "dropped)", [out.rankings_png, out.rankings_pdf])
    levels.levels_figure(levels.era_rows(segment_levels, level_tables, levels.MQM),
                         "MQM: each metric between its chance level and a human level (one rater against the "
                         "mean of two; WMT's crowd DA)", "value (pairwise accuracy or tie-calibrated acc_eq)",
                         [out.mqm_png, out.mqm_pdf])


main(snakemake)  # noqa: F821
