"""The study's workflow as Snakemake loads it (no DAG), for tests that read its rules or globals.

A test passes ``LOADED_WORKFLOW + <lines that print JSON from ``workflow``>`` to :func:`loaded_json`,
which runs it as ``python -c PROGRAM REPO WORKDIR CONFIG`` in a subprocess of its own (Snakemake keeps
global state), through the Python API (Snakemake is pinned in requirements.lock;
WorkflowApi._workflow is what `snakemake --list-rules` uses).
"""

import json
import subprocess
import sys

LOADED_WORKFLOW = """
import json, sys
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.types import ConfigSettings, OutputSettings, Quietness, ResourceSettings

repo, workdir = Path(sys.argv[1]), Path(sys.argv[2])
config = repo / sys.argv[3]
with SnakemakeApi(OutputSettings(quiet={Quietness.ALL})) as api:
    workflow = api.workflow(
        resource_settings=ResourceSettings(), snakefile=repo / "Snakefile", workdir=workdir,
        config_settings=ConfigSettings(configfiles=[repo / "config/sources.yaml", config]),
    )._workflow
"""


def loaded_json(program: str, repo, workdir, config: str = "config/config.yaml"):
    """What ``program`` (LOADED_WORKFLOW and its lines) prints last, as JSON, for the study of
    ``config`` (relative to ``repo``) loaded in ``workdir``."""
    result = subprocess.run([sys.executable, "-c", program, str(repo), str(workdir), config],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])
