"""Rule train_embeddings: word2vec on the tokenised corpus (or pre-trained vectors), and a
nearest-neighbour sanity table."""

import json
import logging
import time

from mtmeta.embeddings.training import import_pretrained, train
from mtmeta.embeddings.vectors import neighbour_table
from mtmeta.logsetup import configure


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("mtmeta")
    spec, lang = snakemake.params.spec, snakemake.wildcards.lang
    pretrained = spec["pretrained"].get(lang)
    start = time.perf_counter()
    if pretrained:
        summary = import_pretrained(pretrained, "resources", snakemake.output.vectors)
    else:
        log.info("training word2vec on %s (one worker thread)", snakemake.input[0])
        summary = train(snakemake.input[0], spec["params"], snakemake.output.vectors)
    summary.update(model=snakemake.wildcards.model, lang=lang)
    log.info("%s %s: vocabulary %d, %s training tokens, %.1f s, sha256 %s", summary["model"], lang,
             summary["vocabulary"], summary.get("corpus_tokens", "-"), time.perf_counter() - start,
             summary["sha256"][:12])
    table = neighbour_table(snakemake.output.vectors, snakemake.params.probes)
    for probe, rows in table.groupby("probe", sort=False):
        log.info("neighbours of %s: %s", probe, ", ".join(f"{w} {s:.2f}" for w, s in zip(rows["neighbour"],
                                                                                         rows["cosine"], strict=True)))
    table.to_csv(snakemake.output.neighbours, sep="\t", index=False, float_format="%.6f")
    with open(snakemake.output.summary, "w") as handle:
        json.dump(summary, handle, indent=1)


main(snakemake)  # noqa: F821
