"""A study on a user's mt-metrics-eval directory reruns a pair when a file of that pair changes: the
pair's manifest (path, size, SHA-256 of every file it reads) is its input, not the directory, whose
time does not change when a file in it is edited."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mtmeta.data.evalset import EvalSet, write_evalset

pytestmark = pytest.mark.workflow

CONFIG = """\
metrics: [bleu]
datasets:
  toy:
    description: a toy mt-metrics-eval set
    kind: mtme
    evalset: {path: data}
    testset: wmt99
    human_score: mqm
    references: {de-en: refA}
    language_pairs: [de-en]
"""


def toy() -> EvalSet:
    n, systems = 6, ["sysA", "sysB", "sysC", "sysD"]
    texts = pd.DataFrame({"seg_id": range(1, n + 1), "source": [f"Satz {i}." for i in range(n)], "domain": "news",
                          "doc": ["d1"] * 3 + ["d2"] * 3})
    references = pd.DataFrame({"reference": "refA", "seg_id": range(1, n + 1),
                               "text": [f"the sentence number {i} ." for i in range(n)]})
    outputs = pd.DataFrame({"system": np.repeat(systems, n), "seg_id": list(range(1, n + 1)) * len(systems),
                            "hypothesis": [f"the sentence {'number ' * (k % 2)}{i}{' .' * k}" for k in range(4)
                                           for i in range(n)]})
    human = {"sys": pd.DataFrame({"name": "mqm", "system": systems, "score": [-1.0, -2.0, -0.5, -3.0]})}
    return EvalSet("wmt99", "de-en", "refA", texts, references, outputs, human)


def snakemake(repo, workdir, *extra):
    command = [str(Path(sys.executable).parent / "snakemake"), "--snakefile", str(repo / "Snakefile"),
               "--configfile", str(workdir / "config.yaml"), "--directory", str(workdir), "--cores", "1", *extra]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout + result.stderr


def test_an_edit_inside_the_directory_reruns_its_pair(repo, tmp_path):
    write_evalset(toy(), tmp_path / "data")
    (tmp_path / "config.yaml").write_text(CONFIG)
    target = "results/datasets/toy/de-en/summary.json"
    snakemake(repo, tmp_path, target, "--quiet")
    assert "Nothing to be done" in snakemake(repo, tmp_path, target, "-n")
    # An output edited with its time kept (a copy with cp -p, an archive's time): rerun all the same.
    output = tmp_path / "data/wmt99/system-outputs/de-en/sysB.txt"
    times = os.stat(output)
    output.write_text(output.read_text().replace("sentence", "phrase"))
    os.utime(output, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert "prepare_dataset" in snakemake(repo, tmp_path, target, "-n")
    snakemake(repo, tmp_path, target, "--quiet")
    assert "Nothing to be done" in snakemake(repo, tmp_path, target, "-n")
    # A stray file beside the outputs is not read, but reported: the pair reruns to say so.
    (tmp_path / "data/wmt99/system-outputs/de-en/sysB.txt~").write_text("old\n")
    snakemake(repo, tmp_path, target, "--quiet")
    report = pd.read_csv(tmp_path / "results/datasets/toy/de-en/report.tsv", sep="\t")
    ignored = report[report["kind"] == "ignored_file"].iloc[0]
    assert ignored["detail"] == "de-en: system-outputs/de-en/sysB.txt~" and ignored["count"] == 1
