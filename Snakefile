# mtmeta: how well does an MT metric agree with human judgments?
# Thin entry point: configuration, then one module per stage under workflow/rules/.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/download.smk"
include: "workflow/rules/prepare.smk"
include: "workflow/rules/embeddings.smk"
include: "workflow/rules/score.smk"
include: "workflow/rules/correlate.smk"
include: "workflow/rules/analyze.smk"
include: "workflow/rules/parmesan.smk"
include: "workflow/rules/paper.smk"


rule all:
    default_target: True
    input:
        rules.tables.input,
        rules.paper.input,
        all_segment_scores(),
