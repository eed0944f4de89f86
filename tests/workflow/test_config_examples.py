"""The short studies of config/examples/: each is a valid study the workflow plans on its own (no
config/config.yaml involved); the one-pair study runs for real on the data mirror, and so does the
study on an mt-metrics-eval data directory (the WMT21 TED sets laid out in that layout from the mirror)."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

pytestmark = pytest.mark.workflow

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "config" / "examples").glob("*.yaml"))
MTME_LINK = "mt-metrics-eval-v2"  # where config/examples/mtme-directory.yaml reads its data


@pytest.fixture(scope="module")
def mtme_data(tmp_path_factory, mirror):
    """The six WMT21 sets in mt-metrics-eval's layout, assembled from the mirror's repositories."""
    from mtmeta.data.wmt21 import assemble_wmt21, write_wmt21

    root = tmp_path_factory.mktemp("mtme-data")
    wmt21 = mirror / "wmt21"
    write_wmt21(assemble_wmt21(wmt21 / "wmt-mqm-human-evaluation", wmt21 / "wmt21-news-systems",
                               wmt21 / "wmt21-en-ru-mqm"), root)
    return root


def snakemake(repo, workdir, example, *extra):
    command = [str(Path(sys.executable).parent / "snakemake"), "--snakefile", str(repo / "Snakefile"),
               "--configfile", str(example), "--directory", str(workdir), "--cores", "2", *extra]
    return subprocess.run(command, capture_output=True, text=True)


@pytest.mark.parametrize("example", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_every_example_is_planned_alone(repo, tmp_path, example, mtme_data):
    (tmp_path / MTME_LINK).symlink_to(mtme_data)
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


def test_a_study_on_an_mt_metrics_eval_directory(repo, tmp_path, mtme_data):
    """The published WMT21 check on data read from mt-metrics-eval's layout, and the study's scores
    written back in it."""
    from mtmeta.data.evalset import read_metric_scores

    (tmp_path / MTME_LINK).symlink_to(mtme_data)
    example = repo / "config/examples/mtme-directory.yaml"
    result = snakemake(repo, tmp_path, example, "tables", "--quiet", "rules", "--config", "bootstrap={draws: 100}",
                       "permutation={draws: 100}")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    table = pd.read_csv(tmp_path / "results/correlations/system_level.tsv", sep="\t")
    bleu = table[(table["dataset"] == "wmt21ted") & (table["lp"] == "en-ru") & (table["metric"] == "bleu")].iloc[0]
    # WMT21 metrics task, TED talks en-ru, 14 MT systems, reference A: BLEU vs MQM, Pearson 0.828.
    assert bleu["human_score"] == "mqm" and bleu["n_systems"] == 14 and round(bleu["pearson"], 3) == 0.828
    name, refs, level, scores = read_metric_scores(
        tmp_path / "results/mtme/wmt21ted/metric-scores/en-ru/bleu-refA.sys.score")
    assert (name, refs, level) == ("bleu", {"refA"}, "sys") and len(scores) == 14
    ours = pd.read_csv(tmp_path / "results/scores/wmt21ted/en-ru/bleu.sys.tsv", sep="\t").set_index("system")["score"]
    assert scores.set_index("system")["score"].to_dict() == pytest.approx(ours.to_dict(), abs=1e-12)


def test_mqm_tables_on_an_mt_metrics_eval_directory_without_error_annotation(repo, tmp_path, mtme_data):
    """paper: {mqm: {}} on mt-metrics-eval's layout as its releases have it (no error tables): every MQM
    table, and the category table as a stated absence (no rows, a page saying why), no figure of it."""
    import shutil

    shutil.copytree(mtme_data, tmp_path / MTME_LINK, ignore=shutil.ignore_patterns("mqm-errors"))
    study = tmp_path / "mqm.yaml"
    study.write_text(f"extends: {repo / 'config/examples/mtme-directory.yaml'}\npaper: {{mqm: {{}}}}\n")
    result = snakemake(repo, tmp_path, study, "results/paper/mqm_protocols.tsv", "--quiet", "rules", "--config",
                       "bootstrap={draws: 100}", "permutation={draws: 100}")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    paper = tmp_path / "results/paper"
    assert (paper / "mqm_protocols.md").is_file() and (paper / "eras.md").is_file()
    categories = pd.read_csv(paper / "mqm_categories.tsv", sep="\t")
    assert categories.empty and "restriction" in categories.columns
    assert "No error-category analysis: none of the study's MQM pairs (wmt21ted en-de, wmt21ted en-ru, " \
           "wmt21ted zh-en) has an MQM error annotation." in (paper / "mqm_categories.md").read_text()
    assert not (paper / "mqm_categories.png").exists()
