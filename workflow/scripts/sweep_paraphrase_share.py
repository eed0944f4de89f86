"""Rule sweep_paraphrase_share: seed 002's appendix. Rank the lexicon's one-word pairs (random,
the thesaurus's order, distributional similarity), keep the best 10%, 20%, ... and score the
references paraphrased with each share."""

import functools

import pandas as pd

from mtmeta import metrics
from mtmeta.data.prepare import source_file
from mtmeta.data.textio import GZIP_WITHOUT_TIMESTAMP
from mtmeta.data.tokenize import tokenizer
from mtmeta.io import read_tsv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metrics.scoring import preload_tokens
from mtmeta.paper.figures import share_figure
from mtmeta.parmesan import study


def main(snakemake):
    configure(snakemake.log[0])
    preload_tokens(snakemake.input.tokens)
    appendix, setting, spec, entry = (snakemake.params.appendix, snakemake.params.setting, snakemake.params.lexicon,
                                      snakemake.params.metric)
    dataset, lp = appendix["target"].split("/")
    lang = lp.split("-")[1]
    path, _ = source_file("resources", spec["source"])
    lexicon = study.build_lexicon(spec["kind"], path, lang, setting.get("filter"))
    distributional = "distributional" in appendix["rankings"]
    sentences = study.lemmatised_corpus(snakemake.input.corpus, lang) if distributional else None
    # Every share re-paraphrases the same outputs and references: tokenise each text once.
    out, rankings, baseline = study.share_sweep(
        pd.read_parquet(snakemake.input.segments), read_tsv(snakemake.input.human_scores),
        read_tsv(snakemake.input.original), lexicon, lang, setting, appendix,
        metrics.get_for_dataset(entry["name"], lang, entry["params"]), entry["id"],
        functools.cache(tokenizer(snakemake.params.tokenize)), sentences, dataset, lp)
    write_tsv(out, snakemake.output.table)
    rankings.to_csv(snakemake.output.rankings, sep="\t", index=False, compression=GZIP_WITHOUT_TIMESTAMP)
    share_figure(out, baseline, f"{dataset} {lp}, {entry['id']}, {appendix['setting']} references",
                 [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
