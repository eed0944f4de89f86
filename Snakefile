# mtmeta: how well does an MT metric agree with human judgments?
# Thin entry point: configuration, then one module per stage under workflow/rules/.
import os
import sys

from snakemake.utils import min_version

from mtmeta.app.config import load_config
from mtmeta.reproducibility import blas_settings

min_version("9.0")

# Jobs inherit this: the same BLAS kernels on every x86-64 machine with AVX2, and one BLAS thread (as
# Snakemake also sets for each job; see mtmeta.reproducibility).
os.environ.update(blas_settings())


# The study's configuration, read as `mtmeta check-config` reads it (mtmeta.app.config.load_config):
# config/config.yaml, or instead the files given with --configfile (a short study stands alone; a
# file may `extends` another to change a few keys of it), --config key=value on top, and the data
# catalogue (sources.yaml beside the config, else the repository's) under it all. Validated once.
_study = load_config(workflow.overwrite_configfiles or ["config/config.yaml"], dict(workflow.config_settings.config))
config.clear()
config.update(_study)


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/embeddings.smk"
include: "workflow/rules/score.smk"
include: "workflow/rules/metaeval.smk"
include: "workflow/rules/parmesan.smk"
include: "workflow/rules/paper.smk"
include: "workflow/rules/report.smk"


# The report's pages are made by `make report` (targets all and report_pages), not by a plain run, so
# that rerunning one metric remakes its tables, not 120 pages. `snakemake --report` reads the results
# of the default target's jobs, so there the pages belong to it.
REPORTING = any(arg == "--report" or arg.startswith("--report=") for arg in sys.argv)


rule all:
    default_target: True
    localrule: True
    input:
        rules.tables.input,
        rules.paper.input,
        all_segment_scores(),
        rules.report_pages.input if REPORTING else [],
