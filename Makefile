# Two entry points for a fresh machine with Python >= 3.11:
#   make study   -> create .venv from requirements.lock, then run the whole study (default config)
#   make test    -> same set-up, then run the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CORES  ?= 2
# Hash randomisation is fixed so that set iteration order (and gensim, later) is reproducible.
export PYTHONHASHSEED := 0

.PHONY: study test setup lint clean-results

setup: $(VENV)/.installed

$(VENV)/.installed: requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "mtmeta needs Python >= 3.11, found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $@

study: setup
	$(BIN)/snakemake --cores $(CORES)

test: setup
	$(BIN)/ruff check src tests workflow/scripts
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check src tests workflow/scripts
	$(BIN)/snakemake --lint

clean-results:
	rm -rf results
