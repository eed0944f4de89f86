"""Rule rescore_official_wmt12: each WMT12 system's corpus score under the official record's re-scored
factors: BLEU on words split at ASCII whitespace only, and (out of English) METEOR as WMT12 ran it
without its paraphrase module. They read only the prepared text and the metrics' resources, so a rerun
of one metric's scores does not redo them; rule paper_official_wmt12 joins them with the study's
scores (mtmeta.paper.official)."""

import logging

import pandas as pd

from mtmeta.io import write_tsv
from mtmeta.logsetup import configure
from mtmeta.metrics.meteor import scoring
from mtmeta.metrics.spec import MetricSpec
from mtmeta.paper import official
from mtmeta.paper.sensitivity import rescore

log = logging.getLogger("rescore_official_wmt12")


def main(snakemake):
    configure(snakemake.log[0])
    params = snakemake.params
    bleu, meteor = MetricSpec.of(params.bleu), MetricSpec.of(params.meteor)
    tables = []
    for lp, segments_path in zip(params.lps, snakemake.input.segments, strict=True):
        lang = lp.split("-")[1]
        segments = pd.read_parquet(segments_path)
        glued = segments.assign(hypothesis=segments["hypothesis"].map(official.ascii_space),
                                reference=segments["reference"].map(official.ascii_space))
        log.info("wmt12 %s: BLEU on ASCII-whitespace words", lp)
        variants = {official.BLEU_ASCII: rescore(bleu.build(lang), glued)}
        if lang != "en":  # the study has Meteor's English paraphrase table, not the others
            preset = scoring.preset("wmt12", lang)
            kept = [(m, w) for m, w in zip(preset.modules, preset.weights, strict=True) if m != "paraphrase"]
            dropped = MetricSpec(meteor.id, meteor.name, {**meteor.params, "modules": [m for m, _ in kept],
                                                          "weights": [w for _, w in kept]})
            log.info("wmt12 %s: METEOR without its paraphrase module", lp)
            variants[official.METEOR_NO_PARAPHRASE] = rescore(dropped.build(lang), segments)
        for variant, scores in variants.items():
            tables.append(pd.DataFrame({"lp": lp, "variant": variant, "system": scores.index, "score": scores.values}))
    write_tsv(pd.concat(tables, ignore_index=True), snakemake.output[0])


main(snakemake)  # noqa: F821
