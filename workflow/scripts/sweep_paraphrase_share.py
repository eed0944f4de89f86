"""Rule sweep_paraphrase_share: seed 002's appendix. Rank the lexicon's one-word pairs (random,
the thesaurus's order, distributional similarity), keep the best 10%, 20%, ... and score the
references paraphrased with each share."""

import functools
import logging

import pandas as pd

from mtmeta import metrics
from mtmeta.data.prepare import source_file
from mtmeta.data.textio import GZIP_WITHOUT_TIMESTAMP
from mtmeta.data.tokenize import tokenizer
from mtmeta.logsetup import configure
from mtmeta.metaeval.significance import correlation_rows
from mtmeta.metrics.scoring import preload_tokens, score_segments
from mtmeta.paper.figures import share_figure
from mtmeta.parmesan import study as ps


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("mtmeta")
    preload_tokens(snakemake.input.tokens)
    appendix, setting, spec = snakemake.params.appendix, snakemake.params.setting, snakemake.params.lexicon
    dataset, lp = appendix["target"].split("/")
    lang = lp.split("-")[1]
    path, _ = source_file("resources", spec["source"])
    lexicon = ps.build_lexicon(spec["kind"], path, lang, setting.get("filter"))
    lemma = ps.lemmatizer(lang)
    segments = pd.read_parquet(snakemake.input.segments)
    human = pd.read_csv(snakemake.input.human_scores, sep="\t")
    entry = snakemake.params.metric
    metric = metrics.get_for_dataset(entry["name"], lang, entry["params"])
    # Every share re-paraphrases the same outputs and references: tokenise each text once.
    tokenize = functools.cache(tokenizer(snakemake.params.tokenize))
    original = pd.read_csv(snakemake.input.original, sep="\t")  # the same metric on the original references
    baseline = float(correlation_rows(human, {"original": original}, "original")["pearson"].iloc[0])
    sentences = None
    if "distributional" in appendix["rankings"]:
        with open(snakemake.input.corpus, encoding="utf-8") as handle:
            sentences = [[lemma(w) for w in line.split()] for line in handle]
        log.info("distributional ranking: %d corpus sentences, %d tokens", len(sentences), sum(map(len, sentences)))
    rows, rankings = [], []
    for ranking in appendix["rankings"]:
        ranked = ps.rank_pairs(lexicon, ranking, seed=appendix["seed"], sentences=sentences, window=appendix["window"])
        rankings.append(ranked.assign(ranking=ranking, rank=range(1, len(ranked) + 1)))
        for fraction in appendix["fractions"]:
            kept = ps.top_share(ranked, fraction)
            table, _ = ps.paraphrase(segments, lexicon.keep_pairs(kept), lang, setting["order"], setting["selection"],
                                     tokenize)
            _, systems = score_segments(table, metric, own_references=True)
            r = correlation_rows(human, {"original": original, "paraphrased": systems}, "original")
            new = r.loc[r["variant"] == "paraphrased"].iloc[0]
            rows.append({"dataset": dataset, "lp": lp, "metric": entry["id"], "ranking": ranking,
                         "fraction": fraction, "pairs_kept": len(kept), "pairs_total": len(ranked),
                         "words_per_sentence": float(table["words_replaced"].mean()), "pearson": new["pearson"],
                         "pearson_original": baseline, "meng_p_two_sided": new["meng_p_two_sided"],
                         "signature": new["signature"]})
            log.info("%s top %.0f%% (%d pairs): r = %.4f", ranking, 100 * fraction, len(kept), new["pearson"])
    out = pd.DataFrame(rows)
    out.to_csv(snakemake.output.table, sep="\t", index=False, float_format="%.17g")
    pd.concat(rankings, ignore_index=True).to_csv(snakemake.output.rankings, sep="\t", index=False,
                                                  compression=GZIP_WITHOUT_TIMESTAMP)
    share_figure(out, baseline, f"{dataset} {lp}, {entry['id']}, {snakemake.params.appendix['setting']} references",
                 [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
