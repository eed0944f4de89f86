# Two entry points for a fresh machine with Python >= 3.11:
#   make study   -> create .venv from requirements.lock, then run the whole study (default config)
#   make test    -> same set-up, then run the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CORES  ?= 2
# pytest-xdist workers for `make test` (TEST_WORKERS=0: one process, as plain `pytest` runs). Each test
# file stays in one worker (--dist loadfile), so a file's module fixtures are built once.
TEST_WORKERS ?= $(CORES)
# CONFIG=FILE runs `make study` / `make report` / `make study-timing` on that config instead of
# config/config.yaml (as `snakemake --configfile FILE`), so a short study gets its own report.
CONFIG ?=
STUDY_ARGS := $(if $(CONFIG),--configfile $(CONFIG))
# Hash randomisation is fixed so that set iteration order (and gensim, later) is reproducible.
export PYTHONHASHSEED := 0

.PHONY: study metric test setup lint clean-results check-results study-timing test-cluster report test-report readme-figure

setup: $(VENV)/.installed

$(VENV)/.installed: requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "mtmeta needs Python >= 3.11, found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	@# The package's bytecode, written once: where PYTHONDONTWRITEBYTECODE is set, every job of the study
	@# would otherwise compile the modules it imports from source again (9 CPU-s in a study, profiled).
	$(BIN)/python -m compileall -q src/mtmeta
	@touch $@

# The study, timed: wall time, peak memory and job count go to results/benchmarks/study.json.
study: setup
	$(BIN)/python benchmarks/study_timing.py run -- $(BIN)/snakemake --cores $(CORES) $(STUDY_ARGS)

# One metric rescored on a finished study, METRIC=<id> (`make metric METRIC=bleu`): its scoring job and its
# own results (rule metric_<id>: results/metaeval/<id>/, its scatter figure), nothing that compares it
# with other metrics; the next `make study` brings those tables up to date. tools/metric_rule.py names
# the rules (or says which ids the study has).
metric: setup
	@rule=$$($(BIN)/python tools/metric_rule.py '$(METRIC)' '$(CONFIG)') && \
	echo "$(BIN)/snakemake --cores $(CORES) $(STUDY_ARGS) metric_$$rule --forcerun=score_$$rule" && \
	$(BIN)/snakemake --cores $(CORES) $(STUDY_ARGS) metric_$$rule --forcerun=score_$$rule

# The headline numbers of a finished study against tests/headline/expected.yaml (4 decimals), then the
# tests that read a finished study (marker `study`; `make test` skips them where there is none, as in
# CI, whose tests run beside its study): here a missing study fails them. With CONFIG=config/extended.yaml
# the extended study's additions are checked too.
check-results: setup
	$(BIN)/python tests/headline/check_results.py $(if $(filter %extended.yaml,$(CONFIG)),--extended)
	MTMETA_REQUIRE_STUDY=1 $(BIN)/python -m pytest -q -m study tests

# The 15 most expensive rules of the last run, from results/benchmarks/ (also written to benchmarks/results/).
study-timing: setup
	$(BIN)/python benchmarks/study_timing.py noop -- $(BIN)/snakemake --cores $(CORES) $(STUDY_ARGS)
	$(BIN)/python benchmarks/study_timing.py table --out benchmarks/results/study_timing.md

test: setup
	$(BIN)/ruff check src tests workflow/scripts benchmarks tools
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --durations=20

# Scale-out, tested for real: as root, install Debian's slurm-wlm and munge if missing, start a one-node SLURM
# cluster on this host, run the tiny synthetic study locally and through profiles/slurm, compare every output
# byte for byte, stop the cluster (tools/test_cluster.py; docs/workflow.md#testing-scale-out).
test-cluster: setup
	$(BIN)/python tools/test_cluster.py

# The study's Snakemake report (the default study, or CONFIG's): report.html, one file with every table and figure and its caption.
# The first command brings the study and the report's pages up to date (`make study` leaves the pages
# out, so that a rerun of one metric does not remake them; on a finished study they take seconds).
report: setup
	$(BIN)/snakemake all report_pages --cores $(CORES) $(STUDY_ARGS)
	$(BIN)/snakemake --report report.html $(STUDY_ARGS)

# The report in a real headless Chromium: as root, install Debian's chromium and chromium-driver if missing,
# build the tiny synthetic study's report, open every result, fail on a docutils message, a result the report
# cannot show, an empty table or a shrunk figure; screenshots in the directory it prints
# (tools/test_report.py; docs/testing.md). `.venv/bin/python tools/test_report.py --study DIR` checks a
# finished study's report instead.
test-report: setup
	$(BIN)/python tools/test_report.py

# ruff, then `snakemake --lint` through tools/lint_workflow.py, which fails on every lint except the
# conda/container one (one pinned virtualenv serves every rule; docs/workflow.md#linting).
lint: setup
	$(BIN)/ruff check src tests workflow/scripts benchmarks tools
	$(BIN)/python tools/lint_workflow.py

clean-results:
	rm -rf results

# The README's figure, copied from a finished default study (the figure is the study's output; only
# the copy is kept in git, so that a fresh clone shows what the study makes).
readme-figure:
	cp results/figures/official_tasks_wmt23_wmt21news.png docs/images/official_tasks_wmt23_wmt21news.png
