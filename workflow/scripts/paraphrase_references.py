"""Rule paraphrase_references: new references for every system output of one target, with each
Parmesan setting."""

import json
import logging

import pandas as pd

from mtmeta.data.prepare import source_file
from mtmeta.data.textio import GZIP_WITHOUT_TIMESTAMP
from mtmeta.data.tokenize import tokenizer
from mtmeta.logsetup import configure
from mtmeta.metrics.scoring import preload_tokens
from mtmeta.parmesan import study as ps
from mtmeta.parmesan.alignment import parse_links


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("mtmeta")
    preload_tokens(snakemake.input.tokens)
    spec, out = snakemake.params.lexicon, snakemake.output
    dataset, lp = snakemake.wildcards.dataset, snakemake.wildcards.lp
    lang = lp.split("-")[1]
    path, manifest = source_file("resources", spec["source"])
    segments = pd.read_parquet(snakemake.input.segments)
    links = None
    if "alignment" in snakemake.input.keys():
        aligned = pd.read_parquet(snakemake.input.alignment)
        links = {(s, int(i)): parse_links(t) for s, i, t in zip(aligned["system"], aligned["seg_id"],
                                                                aligned["links"], strict=True)}
    lexicons = {}  # settings differ in order and selection more often than in the lexicon's filter
    for number, (name, setting) in enumerate(snakemake.params.settings.items()):
        filter_kind = setting.get("filter")
        if filter_kind not in lexicons:
            lexicons[filter_kind] = ps.build_lexicon(spec["kind"], path, lang, filter_kind)
        lexicon = lexicons[filter_kind]
        table, substitutions = ps.paraphrase(segments, lexicon, lang, setting["order"], setting["selection"],
                                             tokenizer(snakemake.params.tokenize), links)
        summary = ps.summarize(table)
        summary.update(dataset=dataset, lp=lp, setting=name, order=setting["order"], selection=setting["selection"],
                       filter=filter_kind, lexicon=spec["source"], lexicon_kind=spec["kind"],
                       lexicon_sha256=manifest["sha256"], lexicon_entries=lexicon.n_entries,
                       tokenize=snakemake.params.tokenize, lemmas="simplemma", substitutions=int(len(substitutions)))
        log.info("[%d/%d] %s: %.2f words and %.2f phrases replaced per sentence; %d of %d sentences changed",
                 number + 1, len(snakemake.params.settings), name, summary["words_per_sentence"],
                 summary["phrases_per_sentence"], summary["sentences_changed"], summary["sentences"])
        table.drop(columns=["original_reference"]).to_parquet(out.segments[number], index=False)
        ps.write_references(table, out.references[number])
        substitutions.to_csv(out.substitutions[number], sep="\t", index=False, compression=GZIP_WITHOUT_TIMESTAMP)
        ps.sample(substitutions, snakemake.params.samples, snakemake.params.sample_seed).to_csv(
            out.samples[number], sep="\t", index=False)
        with open(out.summary[number], "w") as handle:
            json.dump(summary, handle, indent=1)


main(snakemake)  # noqa: F821
