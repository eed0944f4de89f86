"""Rule paper_parmesan_settings: BLEU and Meteor's paraphrase settings on one English->Czech target,
Pearson with "> others" and Meng's test against BLEU (seed 002)."""

import yaml

from mtmeta.io import read_json, read_tsv, write_titled_table
from mtmeta.logsetup import configure
from mtmeta.paper.parmesan import settings_table


def main(snakemake):
    configure(snakemake.log[0])
    params, inputs = snakemake.params, snakemake.input
    summary = read_json(inputs.summary)
    systems = {metric_id: read_tsv(path) for metric_id, path in zip(params.metrics, inputs.systems, strict=True)}
    table = settings_table(params.label, read_tsv(inputs.human_scores), systems, yaml.safe_load(open(inputs.reported)),
                           summary, params.meteor_settings, params.baseline, params.exact_meteor)
    official = summary.get("official_scores", {}).get("name")
    human = {"gt_others": "\"> others\"", "official": f"the official score ({official})"}
    title = (f"Seed 002 ({params.label}): Pearson correlation with {human[table['human_score'].iloc[0]]} on "
             f"{summary['description']}, "
             f"{table['n_systems'].iloc[0]} systems; Meng's test of each Meteor setting against BLEU")
    write_titled_table(table, snakemake.output.tsv, snakemake.output.markdown, title,
                       [c for c in table.columns if c not in ("description", "data", "signature")])


main(snakemake)  # noqa: F821
