"""The study's workflow as Snakemake loads it (no DAG), for tests that read its rules or globals.

A test runs ``LOADED_WORKFLOW + <lines that print JSON from ``workflow``>`` with
``python -c PROGRAM REPO WORKDIR [CONFIG]`` (CONFIG relative to REPO, config/config.yaml by default)
in a subprocess of its own (Snakemake keeps global state), through
the Python API (Snakemake is pinned in requirements.lock; WorkflowApi._workflow is what
`snakemake --list-rules` uses).
"""

LOADED_WORKFLOW = """
import json, sys
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.types import ConfigSettings, OutputSettings, Quietness, ResourceSettings

repo, workdir = Path(sys.argv[1]), Path(sys.argv[2])
config = repo / (sys.argv[3] if len(sys.argv) > 3 else "config/config.yaml")
with SnakemakeApi(OutputSettings(quiet={Quietness.ALL})) as api:
    workflow = api.workflow(
        resource_settings=ResourceSettings(), snakefile=repo / "Snakefile", workdir=workdir,
        config_settings=ConfigSettings(configfiles=[repo / "config/sources.yaml", config]),
    )._workflow
"""
