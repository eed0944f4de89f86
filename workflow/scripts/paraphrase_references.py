"""Rule paraphrase_references: new references for every system output of one target, with each
Parmesan setting."""

import pandas as pd

from mtmeta.data.corpus import target_language
from mtmeta.data.prepare import source_file
from mtmeta.logsetup import configure
from mtmeta.metrics.score_tables import preload_tokens
from mtmeta.parmesan import study


def main(snakemake):
    configure(snakemake.log[0])
    preload_tokens(snakemake.input.tokens)
    spec, out, params, (dataset, lp) = snakemake.params.lexicon, snakemake.output, snakemake.params, (
        snakemake.wildcards.dataset, snakemake.wildcards.lp)
    path, manifest = source_file("resources", spec["source"])
    aligned = snakemake.input.get("alignment")
    links = study.links_of(pd.read_parquet(aligned)) if aligned else None
    runs = study.paraphrase_settings(pd.read_parquet(snakemake.input.segments), params.settings, spec, path,
                                     manifest["sha256"], target_language(lp), params.tokenize, links, dataset, lp)
    for number, (_, table, substitutions, summary) in enumerate(runs):
        files = {key: out[key][number] for key in ("segments", "references", "substitutions", "samples", "summary")}
        study.write_setting(table, substitutions, summary, files, params.samples, params.sample_seed)


main(snakemake)  # noqa: F821
