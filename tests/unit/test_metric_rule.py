"""`make metric METRIC=<id>`: tools/metric_rule.py names a study metric's rules as
mtmeta.app.config.score_rule_name does (score_<suffix> scores it, metric_<suffix> is its own results),
and refuses an id the study does not score, naming the ids it has, before Snakemake starts."""

import subprocess
import sys

import pytest


def metric_rule(repo, *arguments):
    return subprocess.run([sys.executable, str(repo / "tools" / "metric_rule.py"), *arguments], cwd=repo,
                          capture_output=True, text=True)


@pytest.mark.parametrize(("metric_id", "config", "suffix"), [
    ("bleu", "", "bleu"), ("bleu-w2v-phrase", "", "bleu_w2v_phrase"),
    ("meteor-cs-thesaurus", "", "meteor_cs_thesaurus"),  # scored on three pairs only (extra_metrics)
    ("bleurt-20", "", "bleurt_20"),  # a user's scores (external_scores)
    ("ter-wmt", "config/extended.yaml", "ter_wmt"),  # the extended study's
    ("chrf++", "config/extended.yaml", "chrfpp"),
])
def test_a_study_metric_gets_its_rules_suffix(repo, metric_id, config, suffix):
    result = metric_rule(repo, metric_id, config)
    assert (result.returncode, result.stdout, result.stderr) == (0, suffix + "\n", "")


def test_an_extended_study_metric_is_not_the_default_studys(repo):
    result = metric_rule(repo, "ter-wmt")
    assert result.returncode == 2 and "the study (config/config.yaml) scores no metric of that id" in result.stderr


def test_an_id_the_study_does_not_score_is_refused_with_its_ids(repo):
    result = metric_rule(repo, "bleu2")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("METRIC=bleu2: the study (config/config.yaml) scores no metric of that id; "
                                    "its ids: bleu, nist, wer, ter, chrf, meteor, meteor-basic,")
    short = metric_rule(repo, "meteor", "config/examples/one-pair.yaml")
    assert (short.returncode, short.stderr) == (2, "METRIC=meteor: the study (config/examples/one-pair.yaml) "
                                                   "scores no metric of that id; its ids: bleu, chrf\n")
    assert metric_rule(repo, "chrf", "config/examples/one-pair.yaml").stdout == "chrf\n"
    empty = metric_rule(repo, "")
    assert empty.returncode == 2 and empty.stderr.startswith("make metric needs METRIC=<a metric id of the study>")


def test_make_metric_stops_before_snakemake_on_an_unknown_id(repo):
    result = subprocess.run(["make", "metric", "METRIC=bleu2"], cwd=repo, capture_output=True, text=True)
    assert result.returncode != 0
    assert "METRIC=bleu2: the study (config/config.yaml) scores no metric of that id" in result.stderr
    assert "snakemake" not in result.stdout + result.stderr
