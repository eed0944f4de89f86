"""The short studies of config/examples/: each is a valid study the workflow plans on its own (no
config/config.yaml involved), and the one-pair study runs for real on the data mirror."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

pytestmark = pytest.mark.workflow

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "config" / "examples").glob("*.yaml"))


def snakemake(repo, workdir, example, *extra):
    command = [str(Path(sys.executable).parent / "snakemake"), "--snakefile", str(repo / "Snakefile"),
               "--configfile", str(example), "--directory", str(workdir), "--cores", "2", *extra]
    return subprocess.run(command, capture_output=True, text=True)


@pytest.mark.parametrize("example", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_every_example_is_planned_alone(repo, tmp_path, example):
    result = snakemake(repo, tmp_path, example, "-n")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "score_bleu" in result.stdout


def test_the_one_pair_study_runs_with_one_command(repo, tmp_path, mirror):
    result = snakemake(repo, tmp_path, repo / "config/examples/one-pair.yaml", "--quiet")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    table = pd.read_csv(tmp_path / "results/correlations/system_level.tsv", sep="\t")
    assert sorted(table["metric"].unique()) == ["bleu", "chrf"]
    assert set(zip(table["dataset"], table["lp"], strict=True)) == {("wmt12", "en-cs")}
    assert (table["n_systems"] == 13).all()
    # The full study's numbers for the same pair (tests/headline/expected.yaml checks them too).
    row = table[(table["metric"] == "bleu") & (table["human_score"] == "gt_others")].iloc[0]
    assert row["pearson"] == pytest.approx(0.789, abs=5e-4)
    assert not (tmp_path / "results/paper").exists() or not any((tmp_path / "results/paper").glob("*.png"))
