"""A finished study's official task tables (rule official_tasks) are what `mtmeta tasks` prints and
writes on the study's exported layout: the command each table records, run in the study's directory,
gives the same table to the last digit (skipped where no finished study is in results/; `make
check-results` runs it after the study)."""

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.workflow, pytest.mark.study]
REPO = Path(__file__).resolve().parents[2]


def test_mtmeta_tasks_on_the_studys_layout_prints_the_studys_table(tmp_path, finished_study):
    # the WMT23 design on the WMT21 news pairs
    table = finished_study("paper/official_tasks_wmt23_wmt21news/run.json").parent
    command = json.loads((table / "run.json").read_text())["command"]
    words = shlex.split(command)
    assert words[:4] == ["mtmeta", "tasks", "wmt23", "--root"] and "--all-metrics" in words
    result = subprocess.run([sys.executable, "-m", "mtmeta", *words[1:], "--out", str(tmp_path)], capture_output=True,
                            text=True, cwd=REPO)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout == (table / "table.txt").read_text()
    for name in ("ranking.tsv", "tasks.tsv", "average.tsv", "p_values.tsv", "table.md"):
        assert (tmp_path / name).read_bytes() == (table / name).read_bytes(), name
    paper_table = REPO / "results/paper/official_tasks_wmt23_wmt21news.tsv"
    assert paper_table.read_bytes() == (table / "ranking.tsv").read_bytes()
