"""Rule sweep_paraphrase_share: seed 002's appendix. Rank the lexicon's one-word pairs (random,
the thesaurus's order, distributional similarity), keep the best 10%, 20%, ... and score the
references paraphrased with each share."""

import pandas as pd

from mtmeta.data.prepare import source_file
from mtmeta.data.textio import GZIP_WITHOUT_TIMESTAMP
from mtmeta.io import read_tsv, write_csv, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metrics.score_tables import preload_tokens
from mtmeta.paper.figures import share_figure
from mtmeta.parmesan.study import share_sweep


def main(snakemake):
    configure(snakemake.log[0])
    inputs, params, output, appendix = snakemake.input, snakemake.params, snakemake.output, snakemake.params.appendix
    preload_tokens(inputs.tokens)
    out, rankings, baseline = share_sweep(
        pd.read_parquet(inputs.segments), read_tsv(inputs.human_scores), params.lexicon,
        source_file("resources", params.lexicon["source"])[0], params.setting, appendix, params.metric,
        params.tokenize, inputs.corpus)
    write_tsv(out, output.table)
    write_csv(rankings, output.rankings, sep="\t", index=False, compression=GZIP_WITHOUT_TIMESTAMP)
    title = f"{appendix['target'].replace('/', ' ')}, {params.metric['id']}, {appendix['setting']} references"
    share_figure(out, baseline, title, [output.png, output.pdf])


main(snakemake)  # noqa: F821
