# mtmeta: how well does an MT metric agree with human judgments?
# Thin entry point: configuration, then one module per stage under workflow/rules/.
import os

from snakemake.utils import min_version

from mtmeta.reproducibility import blas_settings

min_version("9.0")

# Jobs inherit this: the same BLAS kernels on every x86-64 machine with AVX2 (see mtmeta.reproducibility).
os.environ.update(blas_settings())


# The data catalogue, then the study's knobs (which may override a source); --configfile files are
# merged over both. A study directory without a catalogue declares its sources in config.yaml.
if os.path.exists("config/sources.yaml"):

    configfile: "config/sources.yaml"


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/embeddings.smk"
include: "workflow/rules/score.smk"
include: "workflow/rules/metaeval.smk"
include: "workflow/rules/parmesan.smk"
include: "workflow/rules/paper.smk"


rule all:
    default_target: True
    localrule: True
    input:
        rules.tables.input,
        rules.paper.input,
        all_segment_scores(),
