"""Rule paper_official_wmt12: the official WMT12 metrics-task record beside the study's numbers, with
the factors that move each of them (mtmeta.paper.official); the re-scored factors come from rule
rescore_official_wmt12."""

import pandas as pd
import yaml

from mtmeta.io import read_tsv, write_text, write_tsv
from mtmeta.logsetup import configure
from mtmeta.metrics.meteor import scoring
from mtmeta.metrics.spec import MetricSpec
from mtmeta.paper import official


def main(snakemake):
    configure(snakemake.log[0])
    params, inputs = snakemake.params, snakemake.input
    record = yaml.safe_load(open(inputs.record, encoding="utf-8"))
    specs = {entry["id"]: MetricSpec.of(entry) for entry in params.metrics}
    scores = iter(inputs.systems)
    rescored = read_tsv(inputs.variants)
    values, rows = {}, []
    for lp, human_path in zip(params.lps, inputs.human_scores, strict=True):
        lang = lp.split("-")[1]
        variant = {name: rows_.set_index("system")["score"] for name, rows_ in rescored[rescored["lp"] == lp]
                   .groupby("variant")}
        human = read_tsv(human_path).set_index("system")["gt_others"]
        systems = {metric_id: read_tsv(next(scores)).set_index("system")["score"] for metric_id in specs}
        for metric_id, spec in specs.items():
            values[(metric_id, lp)] = official.spearman(systems[metric_id], human, spec.higher_is_better)
        defaults, as_run = params.defaults, params.as_run
        # BLEU: words split at ASCII whitespace only (re-scored on the glued text).
        bleu = specs[defaults["bleu"]]
        rows += official.factor_rows(params.dataset, lp, "bleu", systems[bleu.id], human, [
            ("text", "words split at ASCII whitespace only (as mteval)", variant[official.BLEU_ASCII], "")])
        rows += official.factor_rows(params.dataset, lp, "ter", systems[defaults["ter"]], human, [
            ("normalisation", f"tercom -N ({as_run['ter']})", systems[as_run["ter"]], "")], higher_is_better=False)
        meteor = specs[as_run["meteor"]]
        same = scoring.preset("wmt12", lang) == scoring.preset("rank", lang)
        variants = [("input", f"the jar's -norm, WMT12 parameters ({meteor.id})", systems[meteor.id],
                     "the WMT12 parameters as sourced equal Meteor 1.5's: the input mode alone" if same else ""),
                    ("parameters", "Meteor 1.3's, as sourced", None,
                     "identical to Meteor 1.5's rank parameters for this language" if same
                     else "not measured alone (the input row changes both)")]
        if lang != "en":  # the study has Meteor's English paraphrase table, not the others
            variants.append(("paraphrase", "module dropped (-norm, WMT12 parameters)",
                             variant[official.METEOR_NO_PARAPHRASE], "the study's stand-in is the MyThes thesaurus"))
        rows += official.factor_rows(params.dataset, lp, "meteor", systems[defaults["meteor"]], human, variants)
    factors = pd.DataFrame(rows, columns=official.FACTOR_COLUMNS)
    table = official.official_table(record, values, factors, params.defaults, params.as_run)
    write_tsv(table, snakemake.output.tsv)
    write_tsv(factors, snakemake.output.factors)
    write_text(snakemake.output.markdown, official.official_markdown(table, factors))


main(snakemake)  # noqa: F821
