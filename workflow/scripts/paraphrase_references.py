"""Rule paraphrase_references: new references for every system output with one Parmesan setting."""

import json
import logging

import pandas as pd

from mtmeta import parmesan_study as ps
from mtmeta.align import parse_links
from mtmeta.data.prepare import source_file
from mtmeta.data.textio import GZIP_WITHOUT_TIMESTAMP
from mtmeta.logsetup import configure
from mtmeta.metrics.tokenize import tokenizer
from mtmeta.scoring import preload_tokens


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("mtmeta")
    preload_tokens(snakemake.input.tokens)
    setting, spec = snakemake.params.setting, snakemake.params.lexicon
    lang = snakemake.wildcards.lp.split("-")[1]
    path, manifest = source_file("resources", spec["source"])
    lexicon = ps.build_lexicon(spec["kind"], path, lang, setting.get("filter"))
    links = None
    if setting["selection"] == "alignment":
        aligned = pd.read_parquet(snakemake.input.alignment)
        links = {(s, int(i)): parse_links(t) for s, i, t in zip(aligned["system"], aligned["seg_id"],
                                                                aligned["links"], strict=True)}
    segments = pd.read_parquet(snakemake.input.segments)
    table, substitutions = ps.paraphrase(segments, lexicon, lang, setting["order"], setting["selection"],
                                         tokenizer(snakemake.params.tokenize), links)
    summary = ps.summarize(table)
    summary.update(dataset=snakemake.wildcards.dataset, lp=snakemake.wildcards.lp, setting=snakemake.wildcards.setting,
                   order=setting["order"], selection=setting["selection"], filter=setting.get("filter"),
                   lexicon=spec["source"], lexicon_kind=spec["kind"], lexicon_sha256=manifest["sha256"],
                   lexicon_entries=lexicon.n_entries, tokenize=snakemake.params.tokenize, lemmas="simplemma",
                   substitutions=int(len(substitutions)))
    log.info("%s: %.2f words and %.2f phrases replaced per sentence; %d of %d sentences changed",
             snakemake.wildcards.setting, summary["words_per_sentence"], summary["phrases_per_sentence"],
             summary["sentences_changed"], summary["sentences"])
    table.drop(columns=["original_reference"]).to_parquet(snakemake.output.segments, index=False)
    ps.write_references(table, snakemake.output.references)
    substitutions.to_csv(snakemake.output.substitutions, sep="\t", index=False, compression=GZIP_WITHOUT_TIMESTAMP)
    ps.sample(substitutions, snakemake.params.samples, snakemake.params.sample_seed).to_csv(
        snakemake.output.samples, sep="\t", index=False)
    with open(snakemake.output.summary, "w") as handle:
        json.dump(summary, handle, indent=1)


main(snakemake)  # noqa: F821
