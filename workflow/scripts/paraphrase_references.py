"""Rule paraphrase_references: new references for every system output of one target, with each
Parmesan setting."""

import json

import pandas as pd

from mtmeta.data.prepare import source_file
from mtmeta.data.textio import GZIP_WITHOUT_TIMESTAMP
from mtmeta.logsetup import configure
from mtmeta.metrics.scoring import preload_tokens
from mtmeta.parmesan import study


def main(snakemake):
    configure(snakemake.log[0])
    preload_tokens(snakemake.input.tokens)
    spec, out, params = snakemake.params.lexicon, snakemake.output, snakemake.params
    dataset, lp = snakemake.wildcards.dataset, snakemake.wildcards.lp
    path, manifest = source_file("resources", spec["source"])
    aligned = snakemake.input.get("alignment")
    links = study.links_of(pd.read_parquet(aligned)) if aligned else None
    runs = study.paraphrase_settings(pd.read_parquet(snakemake.input.segments), params.settings, spec, path,
                                     manifest["sha256"], lp.split("-")[1], params.tokenize, links, dataset, lp)
    for number, (_, table, substitutions, summary) in enumerate(runs):
        table.drop(columns=["original_reference"]).to_parquet(out.segments[number], index=False)
        study.write_references(table, out.references[number])
        substitutions.to_csv(out.substitutions[number], sep="\t", index=False, compression=GZIP_WITHOUT_TIMESTAMP)
        study.sample(substitutions, params.samples, params.sample_seed).to_csv(
            out.samples[number], sep="\t", index=False)
        with open(out.summary[number], "w") as handle:
            json.dump(summary, handle, indent=1)


main(snakemake)  # noqa: F821
