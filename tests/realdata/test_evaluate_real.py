"""`mtmeta evaluate` on WMT12 English-Czech: a user's metric made from chrF's segment scores (exactly,
and with seeded noise) is meta-evaluated beside built-in BLEU, chrF and TER scored here, and its
tables are checked against chrF's own (the same scores must give the same numbers) and scipy."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mtmeta.app.cli import main
from mtmeta.app.config import load_config
from mtmeta.data.prepare import prepare, write_prepared
from mtmeta.io import write_tsv
from mtmeta.metaeval.segment_level import segment_level_agreement
from mtmeta.metaeval.system_level import system_level_correlations
from mtmeta.metrics import get_for_dataset
from mtmeta.metrics.score_tables import score_segments

pytestmark = pytest.mark.realdata
BUILTINS = ["bleu", "chrf", "ter"]


@pytest.fixture(scope="module")
def study(fetch_sources, tmp_path_factory):
    """A results directory with WMT12 en-cs prepared and scored by three built-in metrics."""
    config = load_config()
    root = tmp_path_factory.mktemp("evaluate")
    resources = fetch_sources("evaluate", ["wmt12_data", "wmt12_judgments"])
    prepared = prepare("wmt12", config["datasets"]["wmt12"], "en-cs", resources)
    write_prepared(prepared, root / "results" / "datasets" / "wmt12" / "en-cs")
    scores = root / "results" / "scores" / "wmt12" / "en-cs"
    scores.mkdir(parents=True)
    tables = {}
    for metric_id in BUILTINS:
        segments, systems = score_segments(prepared.segments, get_for_dataset(metric_id, "cs", {}))
        systems.insert(1, "metric", metric_id)
        segments.to_parquet(scores / f"{metric_id}.seg.parquet")
        write_tsv(systems, scores / f"{metric_id}.sys.tsv")
        tables[metric_id] = (segments, systems)
    return {"root": root, "prepared": prepared, "tables": tables}


def user_files(study, name, noise, system_scores="means"):
    """chrF's segment scores plus Gaussian noise (seed 1) as a user's segment file, and their means (or
    chrF's corpus scores, ``system_scores="chrf"``) as the system file."""
    segments, systems = study["tables"]["chrf"]
    rng = np.random.default_rng(1)
    rows = segments[["system", "seg_id", "score"]].assign(score=lambda t: t["score"] + rng.normal(0, noise, len(t)))
    rows.insert(0, "lp", "en-cs")
    rows.insert(0, "dataset", "wmt12")
    seg_path, sys_path = study["root"] / f"{name}.seg.tsv", study["root"] / f"{name}.sys.tsv"
    rows.sample(frac=1, random_state=0).to_csv(seg_path, sep="\t", index=False, float_format="%.17g")  # any order
    means = rows.groupby(["dataset", "lp", "system"], as_index=False)["score"].mean()
    if system_scores == "chrf":
        means["score"] = means["system"].map(systems.set_index("system")["score"])
    means.to_csv(sys_path, sep="\t", index=False, float_format="%.17g")
    return seg_path, sys_path


def run_evaluate(study, capsys, *args):
    code = main(["evaluate", "--results", str(study["root"] / "results"), "--against", *BUILTINS, "--draws", "200",
                 *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out


def test_the_same_scores_as_chrf_give_chrfs_numbers(study, capsys):
    seg_path, sys_path = user_files(study, "chrf-copy", noise=0.0, system_scores="chrf")
    out = run_evaluate(study, capsys, "--segment", str(seg_path), "--system", str(sys_path), "--format", "json")
    tables = json.loads(out.out)["wmt12 en-cs"]
    # chrF's corpus score is not the mean of its sentence scores: the bootstrap says so
    assert any("not the means of the segment scores" in note for note in tables["notes"])
    prepared = study["prepared"]
    chrf_segments, chrf_systems = study["tables"]["chrf"]
    expected = system_level_correlations(prepared.summary, prepared.human_scores, chrf_systems, "chrf")
    ours = pd.DataFrame(tables["system_level"])
    assert ours["human_score"].tolist() == ["gt_others", "ge_others", "expected_wins"]
    assert ours["pearson"].to_numpy() == pytest.approx(expected["pearson"].to_numpy(), rel=1e-9)
    assert ours["n_systems"].tolist() == [13, 13, 13]
    segment = segment_level_agreement(prepared.summary, prepared.comparisons, chrf_segments, "chrf").iloc[0]
    assert tables["segment_level"][0]["tau_wmt12"] == pytest.approx(segment["tau_wmt12"], rel=1e-12)
    assert tables["segment_level"][0]["n_comparisons"] == segment["n_comparisons"]
    ranks = pd.DataFrame(tables["ranks"]).set_index("metric")
    assert ranks.loc["chrf-copy", "rank"] == ranks.loc["chrf", "rank"]
    assert set(ranks.index) == {"chrf-copy", *BUILTINS}


def test_a_noisy_metric_is_evaluated_against_scipy_and_written(study, capsys):
    seg_path, sys_path = user_files(study, "noisy", noise=10.0)
    out = run_evaluate(study, capsys, "--segment", str(seg_path), "--system", str(sys_path))
    written = study["root"] / "results" / "evaluate" / "noisy"
    system_level = pd.read_csv(written / "system_level.tsv", sep="\t").set_index("human_score")
    user = pd.read_csv(sys_path, sep="\t").set_index("system")["score"]
    gt = study["prepared"].human_scores.set_index("system").loc[user.index, "gt_others"]
    assert system_level.loc["gt_others", "pearson"] == pytest.approx(stats.pearsonr(user, gt)[0], rel=1e-9)
    boot = pd.read_csv(written / "bootstrap.tsv", sep="\t").set_index("human_score").loc["gt_others"]
    assert boot["draws"] == 200
    assert boot["pearson_low"] < system_level.loc["gt_others", "pearson"] < boot["pearson_high"]
    williams = pd.read_csv(written / "williams.tsv", sep="\t")
    assert len(williams) == 2 * len(BUILTINS)  # the user's metric against each built-in one, both ways
    assert "wmt12 en-cs: noisy, 13 systems" in out.out and "<- yours" in out.out
    # the study's second-annotator level (rule judgment_levels) is not in this results directory: said so
    assert (written / "notes.txt").read_text() == (
        "wmt12 en-cs: no human level (the second annotator) in levels.tsv: it is read from the study's "
        f"{study['root'] / 'results' / 'correlations' / 'segment_levels.tsv'} (rule judgment_levels, after every "
        "metric's segment-level table: `make study`), which is not there\n")
    assert not (written / "levels.tsv").exists()


def test_a_system_the_study_does_not_have_is_an_error(study, capsys, tmp_path):
    _, sys_path = user_files(study, "ghost", noise=0.0)
    bad = tmp_path / "ghost.sys.tsv"
    bad.write_text(sys_path.read_text().replace("CU_TectoMT", "CU_Tecto"))
    code = main(["evaluate", "--results", str(study["root"] / "results"), "--system", str(bad)])
    err = capsys.readouterr().err
    assert code == 2
    assert "ghost.sys.tsv:2: system 'CU_Tecto' is not a system of wmt12 en-cs; expected one of: " in err
