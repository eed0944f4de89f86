"""Rule tokenize_corpus: the study's text in one language, tokenised as the metrics tokenise it."""

import json
import logging

from mtmeta.embeddings.training import corpus_parts, write_corpus
from mtmeta.io import write_text
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("mtmeta")
    parts = corpus_parts(snakemake.params.plan, snakemake.wildcards.lang, snakemake.params.tokenize,
                         snakemake.params.lowercase)
    summary = write_corpus(parts, snakemake.output.corpus)
    summary.update(model=snakemake.wildcards.model, lang=snakemake.wildcards.lang,
                   tokenize=snakemake.params.tokenize, lowercase=snakemake.params.lowercase)
    log.info("%s %s: %d sentences, %d tokens from %d files", summary["model"], summary["lang"],
             summary["sentences"], summary["tokens"], len(summary["parts"]))
    write_text(snakemake.output.summary, json.dumps(summary, indent=1))


main(snakemake)  # noqa: F821
