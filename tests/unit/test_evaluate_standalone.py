"""`mtmeta evaluate` without a finished study: a pair the results lack is built by the study's workflow
(the command checked with a fake runner), a built-in metric without score files is scored here when it
needs nothing but the prepared pair (its numbers checked against sacrebleu's), and one needing
resources is left out and named. tests/realdata/test_evaluate_standalone_real.py runs it for real."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import sacrebleu

from mtmeta.app.cli import main
from mtmeta.app.config import load_config
from mtmeta.app.evaluate import builtin_scores, study_pairs
from mtmeta.app.evaluate_inputs import READ, workflow_builder
from mtmeta.errors import MtmetaError
from mtmeta.io import write_parquet, write_tsv

SYSTEMS = ["sysA", "sysB", "sysC", "sysD"]
REFERENCES = ["The cat sat on the mat .", "It is raining in Prague today .", "We will meet at noon, said she."]
HYPOTHESES = {
    "sysA": ["The cat sat on the mat .", "It rains in Prague today .", "We meet at noon, she said."],
    "sysB": ["A cat is on the mat .", "Today it is raining in Prague .", "She said we will meet at noon."],
    "sysC": ["The cat sits on a mat .", "In Prague it rains .", "We will meet at twelve, she said."],
    "sysD": ["cat mat", "raining Prague", "meet noon"],
}
PAIR = ("wmt12", "en-cs")


@pytest.fixture(scope="module")
def config():
    return load_config()


def write_pair(results: Path) -> Path:
    """A prepared toy pair of wmt12 en-cs (four systems, three segments): its segment table and summary."""
    folder = results / "datasets" / "wmt12" / "en-cs"
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{"system": s, "seg_id": k + 1, "hypothesis": HYPOTHESES[s][k], "reference": REFERENCES[k]}
            for s in SYSTEMS for k in range(3)]
    write_parquet(pd.DataFrame(rows), folder / "segments.parquet")
    (folder / "summary.json").write_text('{"dataset": "wmt12", "lp": "en-cs"}')
    write_tsv(pd.DataFrame({"system": SYSTEMS, "gt_others": [0.6, 0.5, 0.4, 0.1]}), folder / "human_scores.tsv")
    return folder


@pytest.fixture
def project(tmp_path, monkeypatch):
    """An empty study project (a Snakefile and workflow/), the working directory."""
    (tmp_path / "Snakefile").write_text("# the study's\n")
    (tmp_path / "workflow").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


class FakeRunner:
    """Records the command; writes the prepared pair as the workflow would (or fails with ``status``)."""

    def __init__(self, status=0):
        self.status, self.calls = status, []

    def __call__(self, command, **options):
        self.calls.append((command, options))
        if self.status == 0:
            write_pair(Path("results"))
        else:
            options["stdout"].write("Building DAG of jobs...\nError in rule prepare_dataset:\n    jobid: 0\n")
        return subprocess.CompletedProcess(command, self.status)


def test_a_missing_pair_is_built_by_the_workflow_for_its_prepared_files_only(project, config, capsys):
    runner = FakeRunner()
    build = workflow_builder(Path("results"), "config/mine.yaml", 3, runner=runner)
    pairs = study_pairs(config, Path("results"), [PAIR], build, "config/mine.yaml")
    assert pairs[PAIR].systems == tuple(SYSTEMS) and pairs[PAIR].seg_ids == (1, 2, 3)
    ((command, options),) = runner.calls
    folder = "results/datasets/wmt12/en-cs"
    assert command == [str(Path(sys.executable).parent / "snakemake"), "--cores", "3",
                       *(f"{folder}/{name}" for name in ["segments.parquet", "summary.json", "human_scores.tsv",
                                                         "comparisons.parquet", "human_segments.parquet",
                                                         "human_translations.tsv"]),
                       "--configfile", "config/mine.yaml"]
    assert len(READ) == 6 and options["env"]["PYTHONHASHSEED"] == "0" and options["stdin"] == subprocess.DEVNULL
    assert options["stdout"].name == "results/logs/evaluate/prepare_dataset.log"
    err = capsys.readouterr().err
    assert err.count("\n") == 1  # one line before the run; Snakemake's output went to the log
    assert err.startswith("mtmeta evaluate: wmt12 en-cs: not prepared in results; running the study's workflow for "
                          f"6 files: {command[0]} --cores 3 {folder}/segments.parquet ")
    assert err.endswith("(Snakemake's output: results/logs/evaluate/prepare_dataset.log)\n")
    # Prepared now: read, not built again.
    assert study_pairs(config, Path("results"), [PAIR], build)[PAIR].systems == tuple(SYSTEMS)
    assert len(runner.calls) == 1


def test_a_failed_workflow_run_names_its_error_and_log(project, config):
    build = workflow_builder(Path("results"), None, 2, runner=FakeRunner(status=1))
    with pytest.raises(MtmetaError) as caught:
        study_pairs(config, Path("results"), [PAIR], build)
    assert str(caught.value) == (
        "the study's workflow failed (status 1) preparing wmt12 en-cs: Error in rule prepare_dataset:; expected it to "
        "write results/datasets/wmt12/en-cs/segments.parquet and the pair's other files: Snakemake's output is in "
        "results/logs/evaluate/prepare_dataset.log")


def test_outside_the_project_the_error_says_what_to_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no Snakefile here
    assert workflow_builder(Path("results"), None, 2, runner=FakeRunner()) is None
    scores = tmp_path / "mine.seg.tsv"
    scores.write_text("dataset\tlp\tsystem\tseg_id\tscore\nwmt12\ten-cs\tsysA\t1\t0.5\n")
    assert main(["evaluate", "--segment", str(scores), "--cores", "2"]) == 2
    err = capsys.readouterr().err
    assert err == ("mtmeta evaluate: error: results/datasets/wmt12/en-cs/segments.parquet not found: evaluate reads "
                   "the prepared pair from a study's results, and builds it only when run in the study's directory "
                   "(the one with its Snakefile) with the default --results results; run there `snakemake --cores "
                   f"{_cores()} results/datasets/wmt12/en-cs/segments.parquet` (or `make study`), or pass --results "
                   "DIR of a study that has it\n")


def _cores():
    from mtmeta.app.evaluate_inputs import default_cores

    return default_cores()


def test_the_workflow_is_run_only_for_the_projects_own_results(project):
    assert workflow_builder(Path("results"), None, 2) is not None
    assert workflow_builder(project / "results", None, 2) is not None  # the same directory
    assert workflow_builder(Path("elsewhere/results"), None, 2) is None  # the workflow writes results/, not there


def test_builtin_metrics_without_score_files_are_scored_here_or_left_out(tmp_path, config, capsys):
    results = tmp_path / "results"
    write_pair(results)
    notes = []
    found = builtin_scores(config, results, "wmt12", "en-cs", ["bleu", "meteor", "chrf", "ter", "bleu-w2v"], notes)
    assert list(found) == ["bleu", "chrf", "ter"]  # meteor and bleu-w2v need resources other rules build
    assert [higher for _, higher in found.values()] == [True, True, False]
    references = [REFERENCES]
    for metric_id, reference_score in [("bleu", sacrebleu.corpus_bleu), ("chrf", sacrebleu.corpus_chrf),
                                       ("ter", sacrebleu.corpus_ter)]:
        table = found[metric_id][0].set_index("system")
        assert list(table.index) == SYSTEMS and (table["metric"] == metric_id).all()
        for system in SYSTEMS:
            assert table.at[system, "score"] == pytest.approx(
                reference_score(HYPOTHESES[system], references).score, abs=1e-9), (metric_id, system)
        assert table["n_segments"].tolist() == [3, 3, 3, 3]
    assert not (results / "scores").exists()  # the study's scoring rules' files: not written here
    left_out = ("left out meteor, bleu-w2v: no score files in {}/scores/wmt12/en-cs, and they need more than the "
                "prepared pair (source function_words_en, source thesaurus_cs, "
                "resources/thesaurus_cs/paraphrase-arrays, results/embeddings/study-w2v/cs/vectors.bin); the study "
                "scores them: `snakemake --cores {} "
                "score_meteor score_bleu_w2v` (a rule scores its metric on every pair it has), or `make study`")
    assert notes == [f"bleu, chrf, ter: scored by evaluate (no score files in {results}/scores/wmt12/en-cs), with the "
                     "study's scoring code", left_out.format(results, _cores())]
    err = capsys.readouterr().err.splitlines()
    assert err == [f"mtmeta evaluate: wmt12 en-cs: scoring bleu, chrf, ter here (no score files in {results}/scores/"
                   "wmt12/en-cs), as the study's scoring rules do; nothing is written there",
                   "mtmeta evaluate: wmt12 en-cs: " + left_out.format(results, _cores())]


def test_a_score_file_the_study_has_is_read_not_recomputed(tmp_path, config, capsys):
    results = tmp_path / "results"
    write_pair(results)
    path = results / "scores/wmt12/en-cs/bleu.sys.tsv"
    path.parent.mkdir(parents=True)
    write_tsv(pd.DataFrame({"system": SYSTEMS, "metric": "bleu", "score": [1.5, 2.5, 3.5, 4.5], "n_segments": 3,
                            "signature": "BLEU|study"}), path)
    notes = []
    found = builtin_scores(config, results, "wmt12", "en-cs", ["bleu", "chrf"], notes, "mine.yaml")
    assert found["bleu"][0]["score"].tolist() == [1.5, 2.5, 3.5, 4.5]
    assert found["chrf"][0].set_index("system").at["sysD", "score"] == pytest.approx(
        sacrebleu.corpus_chrf(HYPOTHESES["sysD"], [REFERENCES]).score, abs=1e-9)
    assert notes == [f"chrf: scored by evaluate (no score files in {results}/scores/wmt12/en-cs), with the study's "
                     "scoring code"]
    found = builtin_scores(config, results, "wmt12", "en-cs", ["bleu", "meteor-basic"], notes, "mine.yaml")
    assert list(found) == ["bleu"]
    assert notes[-1].endswith("it needs more than the prepared pair (source function_words_en); the study scores it: "
                              f"`snakemake --cores {_cores()} score_meteor_basic --configfile mine.yaml` (a rule "
                              "scores its metric on every pair it has), or `make study`")
    capsys.readouterr()


def test_a_pair_the_study_does_not_have_is_named_before_anything_is_prepared(project, capsys):
    runner = FakeRunner()
    scores = project / "mine.seg.tsv"
    scores.write_text("dataset\tlp\tsystem\tseg_id\tscore\nwmt12\ten-cs\tsysA\t1\t0.5\nwmt12\ten-xx\tsysA\t1\t0.5\n")
    from mtmeta.app.evaluate import read_user_scores

    with pytest.raises(MtmetaError) as caught:
        read_user_scores(load_config(), Path("results"), None, scores,
                         workflow_builder(Path("results"), None, 2, runner=runner))
    assert str(caught.value).startswith(f"{scores}:3: dataset 'wmt12' with language pair 'en-xx' is not in the "
                                        "study; expected one of: wmt12 cs-en, ")
    assert runner.calls == [] and capsys.readouterr().err == ""


def test_without_the_project_every_missing_pair_is_named_in_the_command(tmp_path):
    from mtmeta.app.evaluate_inputs import not_prepared_message

    message = not_prepared_message(tmp_path / "results", [("wmt12", "en-cs"), ("wmt21news", "en-de")], "mine.yaml")
    assert message.startswith(f"{tmp_path}/results/datasets/wmt12/en-cs/segments.parquet not found: ")
    assert (f"run there `snakemake --cores {_cores()} results/datasets/wmt12/en-cs/segments.parquet "
            "results/datasets/wmt21news/en-de/segments.parquet --configfile mine.yaml` (or `make study`)") in message


@pytest.mark.parametrize(("dataset", "lp", "annotated"), [
    ("wmt12", "en-cs", True), ("wmt14", "hi-en", True), ("wmt13dev", "en-cs", False), ("wmt14", "en-cs", False),
    ("wmt21news", "en-de", False), ("evaluator", "xx-en", False)])
def test_the_pairs_with_a_second_annotator_are_the_workflows(config, dataset, lp, annotated):
    """A WMT pair with repeated judgments has the study's second-annotator level (rule judgment_levels);
    evaluate says when that table is not there rather than leave the level out silently."""
    from mtmeta.app.evaluate import _annotated

    assert _annotated(config, dataset, lp) is annotated


def test_scoring_here_leaves_no_tokenisations_behind(tmp_path, config, capsys):
    """The tokenisations score_here preloads live in a scratch file: a tokeniser made afterwards in the
    same process (here `mtmeta score` with another tokeniser) must not look for it."""
    from mtmeta.app.evaluate_inputs import score_here

    write_pair(tmp_path / "results")
    assert list(score_here(config, tmp_path / "results", "wmt12", "en-cs", ["bleu"])) == ["bleu"]
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYPOTHESES["sysC"]) + "\n")
    ref.write_text("\n".join(REFERENCES) + "\n")
    assert main(["score", "bleu", "--hyp", str(hyp), "--ref", str(ref), "--set", "tokenize=intl"]) == 0
    score = float(capsys.readouterr().out.split("\t")[0])
    assert score == pytest.approx(sacrebleu.corpus_bleu(HYPOTHESES["sysC"], [REFERENCES], tokenize="intl").score,
                                  abs=1e-6)
