"""`mtmeta evaluate` without a finished study, on WMT21 TED English->German (MQM), in two study
directories of one small config (the ten built-in metrics that need nothing but the prepared pair, and
METEOR-basic, which needs a function-word list): in one the study's own workflow prepares and scores
the pair; in the other, empty, `mtmeta evaluate` runs the workflow for the prepared files itself and
scores the metrics in-process. The in-process scores equal the score rules' files value for value, the
two evaluations' tables are byte for byte the same, METEOR-basic is left out and named, and the
correlations are scipy's."""

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from mtmeta.app.config import load_config
from mtmeta.app.evaluate_inputs import READ, score_here
from mtmeta.io import read_json, read_tsv

pytestmark = pytest.mark.realdata
DATASET, LP = "wmt21ted", "en-de"
IN_PROCESS = ["bleu", "nist", "wer", "per", "ter", "ter-wmt", "chrf", "chrf++", "hlepor", "wordmatch"]
NEEDS_RESOURCES = "meteor-basic"
PAIR = f"results/datasets/{DATASET}/{LP}"
SCORES = f"results/scores/{DATASET}/{LP}"
SNAKEMAKE = str(os.path.join(os.path.dirname(sys.executable), "snakemake"))


def make_project(root, repo):
    """A study directory: the repository's Snakefile, workflow and profile, and study.yaml (the
    repository's WMT21 TED entry with en-de only, the metrics above, fewer permutation draws)."""
    root.mkdir()
    for name in ("Snakefile", "workflow", "src", "profiles"):
        (root / name).symlink_to(repo / name)
    full = yaml.safe_load((repo / "config" / "config.yaml").read_text(encoding="utf-8"))
    study = {"metrics": [*IN_PROCESS, NEEDS_RESOURCES],
             "metric_settings": {m: full["metric_settings"][m] for m in ("ter-wmt", NEEDS_RESOURCES)},
             "datasets": {DATASET: {**full["datasets"][DATASET], "language_pairs": [LP]}},
             "permutation": {"draws": 100, "seed": 12345}}
    (root / "study.yaml").write_text(yaml.safe_dump(study), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def environment(mirror, repo):
    return {**os.environ, "MTMETA_DATA_MIRROR": str(mirror), "PYTHONPATH": str(repo / "src"), "PYTHONHASHSEED": "0"}


def run(argv, cwd, env):
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:])
    return result


@pytest.fixture(scope="module")
def scored(tmp_path_factory, repo, environment):
    """A study directory where the study's workflow prepared the pair and scored it with the ten
    metrics (rules prepare_dataset, tokenize_segments, score_<id>)."""
    root = make_project(tmp_path_factory.mktemp("standalone") / "scored", repo)
    targets = [f"{SCORES}/{m}.{kind}" for m in IN_PROCESS for kind in ("sys.tsv", "seg.parquet")]
    run([SNAKEMAKE, "--cores", "2", *targets, *(f"{PAIR}/{name}" for name in READ), "--configfile", "study.yaml"],
        root, environment)
    return root


@pytest.fixture(scope="module")
def user_file(scored):
    """The user's metric: chrF's segment scores with seeded noise (seed 1)."""
    chrf = pd.read_parquet(scored / SCORES / "chrf.seg.parquet")
    rows = chrf[["system", "seg_id"]].assign(dataset=DATASET, lp=LP)
    rows["score"] = chrf["score"] + np.random.default_rng(1).normal(0, 5.0, len(chrf))
    path = scored.parent / "mine.seg.tsv"
    rows[["dataset", "lp", "system", "seg_id", "score"]].to_csv(path, sep="\t", index=False, float_format="%.17g")
    return path


def evaluate(root, user_file, environment):
    return run([sys.executable, "-m", "mtmeta", "evaluate", "--config", "study.yaml", "--segment", str(user_file),
                "--draws", "200", "--cores", "2"], root, environment)


@pytest.fixture(scope="module")
def standalone(tmp_path_factory, repo, environment, user_file):
    """An empty study directory where `mtmeta evaluate` ran: (directory, its run)."""
    root = make_project(tmp_path_factory.mktemp("standalone") / "empty", repo)
    return root, evaluate(root, user_file, environment)


def test_in_process_scores_equal_the_score_rules_files(scored):
    computed = score_here(load_config(scored / "study.yaml"), scored / "results", DATASET, LP, IN_PROCESS)
    assert list(computed) == IN_PROCESS
    summary = read_json(scored / PAIR / "summary.json")
    for metric_id, (segments, systems) in computed.items():
        expected_segments = pd.read_parquet(scored / SCORES / f"{metric_id}.seg.parquet")
        pd.testing.assert_frame_equal(segments, expected_segments, check_exact=True, obj=metric_id)
        pd.testing.assert_frame_equal(systems, read_tsv(scored / SCORES / f"{metric_id}.sys.tsv"), check_exact=True,
                                      obj=metric_id)
        assert len(systems) == summary["n_systems"] and len(segments) == summary["n_systems"] * summary["n_segments"]
    assert computed["bleu"][1].set_index("system")["score"].between(5, 60).all()


def test_evaluate_builds_the_pair_with_the_workflow_and_writes_no_scores(standalone, scored):
    root, result = standalone
    err = result.stderr.splitlines()
    targets = " ".join(f"{PAIR}/{name}" for name in READ)
    assert err[0] == (f"mtmeta evaluate: {DATASET} {LP}: not prepared in results; running the study's workflow for 6 "
                      f"files: {SNAKEMAKE} --cores 2 {targets} --configfile study.yaml (Snakemake's output: "
                      "results/logs/evaluate/prepare_dataset.log)")
    assert err[1] == (f"mtmeta evaluate: {DATASET} {LP}: scoring {', '.join(IN_PROCESS)} here (no score files in "
                      f"{SCORES}), as the study's scoring rules do; nothing is written there")
    assert "Finished jobid" in (root / "results/logs/evaluate/prepare_dataset.log").read_text()
    assert not (root / "results" / "scores").exists()
    for name in ("segments.parquet", "human_segments.parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(root / PAIR / name), pd.read_parquet(scored / PAIR / name))


def test_a_metric_needing_resources_is_left_out_and_named(standalone):
    root, result = standalone
    line = (f"left out {NEEDS_RESOURCES}: no score files in {SCORES}, and it needs more than the prepared pair "
            "(source function_words_en); the study scores it: `snakemake --cores 2 score_meteor_basic --configfile "
            "study.yaml` (a rule scores its metric on every pair it has), or `make study`")
    assert f"mtmeta evaluate: {DATASET} {LP}: {line}" in result.stderr.splitlines()
    assert f"{DATASET} {LP}: {line}" in (root / "results/evaluate/mine/notes.txt").read_text().splitlines()
    ranks = read_tsv(root / "results/evaluate/mine/ranks.tsv")
    assert sorted(ranks["metric"]) == sorted(["mine", *IN_PROCESS])


def test_the_tables_are_those_of_the_studys_score_files(standalone, scored, user_file, environment):
    """evaluate in the scored study reads the rules' files; in the empty one it scored the metrics
    itself: the same tables, byte for byte (the notes say which way the scores came)."""
    root, _ = standalone
    result = evaluate(scored, user_file, environment)
    assert f"scoring {IN_PROCESS[0]}" not in result.stderr and "not prepared" not in result.stderr
    ours, theirs = root / "results/evaluate/mine", scored / "results/evaluate/mine"
    written = sorted(p.name for p in ours.iterdir())
    assert written == sorted(p.name for p in theirs.iterdir())
    assert {"system_level.tsv", "bootstrap.tsv", "williams.tsv", "ranks.tsv", "protocols.tsv"} <= set(written)
    for name in written:
        if name != "notes.txt":
            assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name
    # and the numbers are scipy's: the user's means and chrF's corpus scores against MQM
    summary = read_json(scored / PAIR / "summary.json")
    human = read_tsv(scored / PAIR / "human_scores.tsv").set_index("system")["mqm"]
    human = human.drop(index=summary["human_translations"], errors="ignore").dropna()
    mine = pd.read_csv(user_file, sep="\t").groupby("system")["score"].mean().loc[human.index]
    chrf = read_tsv(scored / SCORES / "chrf.sys.tsv").set_index("system")["score"].loc[human.index]
    system_level = read_tsv(ours / "system_level.tsv").set_index("human_score")
    assert system_level.at["mqm", "n_systems"] == len(human) == 13
    assert system_level.at["mqm", "pearson"] == pytest.approx(stats.pearsonr(mine, human)[0], rel=1e-9)
    ranks = read_tsv(ours / "ranks.tsv").set_index("metric")
    assert ranks.at["chrf", "pearson"] == pytest.approx(stats.pearsonr(chrf, human)[0], rel=1e-9)
