"""The default study's DAG: every configured dataset x language pair is planned (dry run, no data needed)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from loaded_workflow import LOADED_WORKFLOW, loaded_json

pytestmark = pytest.mark.workflow

# Each dataset's params of the rules that prepare its pairs, as the loaded workflow gives them.
PREPARE_PARAMS_PROGRAM = LOADED_WORKFLOW + """    from types import SimpleNamespace
    given = workflow.globals["dataset_config"]
    print(json.dumps({name: given(SimpleNamespace(dataset=name)) for name in workflow.globals["DATASETS"]}))
"""


def dry_run(repo, tmp_path, *extra):
    snakemake = str(Path(sys.executable).parent / "snakemake")
    result = subprocess.run(
        [snakemake, "-n", "--snakefile", str(repo / "Snakefile"), "--directory", str(tmp_path),
         "--configfile", str(repo / "config/sources.yaml"), str(repo / "config/config.yaml"), "--cores", "2",
         *extra],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout + result.stderr


def job_counts(output):
    return {m[1]: int(m[2]) for m in re.finditer(r"^(\w+)\s+(\d+)$", output, re.M)}


def test_default_study_plans_every_dataset(repo, tmp_path):
    counts = job_counts(dry_run(repo, tmp_path))
    # 8 WMT12 + 4 WMT13 + 2 WMT13-dev + 10 WMT14 language pairs (5 of them with official scores only)
    # + the evaluator set + the six WMT21 MQM sets + the two WMT23 side-by-side MQM sets, 13 metrics
    # each (9 of the library, 4 of seed 000's softened BLEU);
    # plus seed 001's three module variants on the evaluator set, seed 002's six Meteor paraphrase
    # settings on WMT12 and WMT13-dev en-cs, and three neural metrics' published scores on the two
    # WMT21 en-ru sets.
    assert counts["prepare_dataset"] == counts["tokenize_segments"] == 33
    assert counts["assemble_wmt21"] == counts["assemble_wmt23"] == 1 and counts["categorise_mqm_errors"] == 2
    # One scoring job per metric id, for all the pairs it is scored on: the 13 of every pair, seed
    # 001's three and seed 002's six, the three neural metrics' external scores; and one per metric
    # scored against paraphrased references. The official WMT12 record's metrics (ter-wmt,
    # meteor-wmt12), PER and chrF++ are the extended study's.
    scoring = {rule for rule in counts if rule.startswith("score_") and not rule.startswith("score_paraphrased_")}
    assert len(scoring) == 13 + 3 + 6 + 3
    assert not {"score_meteor_wmt12", "score_ter_wmt", "score_per", "score_chrfpp"} & scoring
    assert {counts[rule] for rule in scoring} == {1}
    assert {"score_bleurt_20", "score_comet_mqm_2021", "score_comet_qe_mqm_2021"} <= scoring
    assert {"score_bleu", "score_chrf", "score_ter", "score_bleu_w2v_phrase", "score_meteor_stem_syn"} <= scoring
    # One meta-evaluation job per metric id (all its pairs), joined by one job per table.
    assert counts["evaluate_metric"] == 13 + 3 + 6 + 3
    # The human scores' bootstrap draws, which every metric's bootstrap reads: one job for the pairs
    # with judgments.
    assert counts["resample_human_scores"] == 1
    assert "paper_official_wmt12" not in counts and "rescore_official_wmt12" not in counts
    assert counts["collect_system_level"] == counts["collect_protocols"] == counts["collect_categories"] == 1
    assert counts["plot_system_scatter"] == 13 + 3  # one figure per study-wide metric and user's metric
    # Seed 000: one word2vec model per target language (en, cs, de, es, fr, hi, ru).
    assert counts["tokenize_corpus"] == counts["train_embeddings"] == 7
    assert counts["find_neighbours"] == 7  # the generation and phrase variants' neighbours, per language
    # Seed 002: its two targets (WMT14 en-cs is the extended study's); 9 settings x (BLEU, exact
    # Meteor), plus 6 more Meteor settings on the one-word-only references; alignments once per
    # target; one appendix sweep.
    assert counts["align_outputs"] == counts["correlate_paraphrased"] == 2
    assert counts["paraphrase_references"] == 2  # one per target, all 9 settings
    paraphrased = {rule for rule in counts if rule.startswith("score_paraphrased_")}
    assert len(paraphrased) == 2 + 6 and {counts[rule] for rule in paraphrased} == {1}
    assert counts["sweep_paraphrase_share"] == counts["paper_parmesan"] == counts["paper_softbleu"] == 1
    # 11 data sources (WMT14's official scores among them), plus METEOR's: the English function words
    # (Meteor 1.5 uses them for every language); WordNet; Meteor's English paraphrase table; the cs, de,
    # es, fr and ru thesauri; the Meteor jar (its -norm prefixes, for the sensitivity tables' Meteor
    # input modes).
    # + the three WMT21 repositories + the two WMT23 ones
    assert counts["download_source"] == 11 + 1 + 1 + 1 + 5 + 1 + 3 + 2
    # METEOR's cached indexes: WordNet's synonyms; Meteor's English paraphrase table and the five
    # thesauri that METEOR reads whole as paraphrase tables.
    assert counts["index_wordnet"] == 1 and counts["index_paraphrase_table"] == 1 + 5
    assert counts["extract_archive"] == 4 + 2 + 1
    # Seed 002's sensitivity tables: WMT12 en-cs and the WMT13 dev subset.
    assert counts["paper_sensitivity"] == 2
    assert counts["sensitivity_metric"] == 2 * 9 and counts["preprocess_sensitivity_text"] == 2
    # Comparisons between metrics: Williams and mt-metrics-eval's permutation tests, each one job for
    # the 32 system-level pairs (WMT12-14 and the MQM sets); the MQM sets' scores in its layout.
    assert counts["test_significance"] == counts["rank_metrics"] == 1
    assert counts["export_metric_scores"] == 8
    assert counts["paper_mqm"] == 1
    # mt-metrics-eval's task sets: WMT23 on WMT21 news and on the side-by-side sets, WMT24 on news and TED.
    assert counts["official_tasks"] == 4
    assert counts["ceiling_levels"] == 2  # the human ceiling on the two three-rater WMT23 sets
    assert counts["crowd_levels"] == 2  # WMT21 news zh-en and en-ru: DA scored as a metric against MQM
    # The WMT12-14 pairs with WMT's own judgments (not the WMT13 dev subset): one job for all.
    assert counts["judgment_levels"] == 1
    assert counts["paper_levels"] == 1  # both eras between chance and a human
    assert counts["sweep_parameters"] == 4
    assert counts["paper_meteor_tuning"] == counts["paper_overview"] == counts["paper_ledger"] == 1
    # The Meteor settings on WMT12 and the WMT13 dev subset, English->Czech.
    assert counts["parmesan_settings_wmt12_en_cs"] == counts["parmesan_settings_wmt13dev_en_cs"] == 1
    assert "parmesan_settings_wmt14_en_cs" not in counts


def test_extended_study_adds_the_official_record_and_parmesan_on_wmt14(repo, tmp_path):
    # config/extended.yaml extends the default with the official WMT12 record (ter-wmt on every pair,
    # meteor-wmt12 on WMT12's, the re-scored factors and the table), PER and chrF++ on every pair, and
    # Parmesan on WMT14 en-cs (a third target's alignment, paraphrases, correlations and settings
    # table), and nothing else.
    default = job_counts(dry_run(repo, tmp_path))
    extended = job_counts(dry_run(repo, tmp_path, "--configfile", str(repo / "config/sources.yaml"),
                                  str(repo / "config/extended.yaml")))
    assert {rule: n for rule, n in extended.items() if default.get(rule) != n} == {
        "score_ter_wmt": 1, "score_meteor_wmt12": 1, "score_per": 1, "score_chrfpp": 1,
        "evaluate_metric": default["evaluate_metric"] + 4,
        "plot_system_scatter": default["plot_system_scatter"] + 3,  # ter-wmt, per, chrf++: study-wide
        "rescore_official_wmt12": 1, "paper_official_wmt12": 1,
        "align_outputs": 3, "paraphrase_references": 3, "correlate_paraphrased": 3,
        "parmesan_settings_wmt14_en_cs": 1, "total": default["total"] + 17}


def test_the_extended_study_prepares_no_pair_again(repo, tmp_path):
    """The extended study adds meteor-wmt12 to WMT12's pairs (extra_metrics). Were that key among
    prepare_dataset's params, the extended study run in the default study's directory would prepare
    those pairs again and then, their files being new, rescore every metric: it is left out."""
    default = loaded_json(PREPARE_PARAMS_PROGRAM, repo, tmp_path)
    extended = loaded_json(PREPARE_PARAMS_PROGRAM, repo, tmp_path, "config/extended.yaml")
    assert default == extended and "wmt12" in default
    assert not any("extra_metrics" in dataset for dataset in default.values())


def test_the_report_has_a_page_for_every_table_and_figure(repo, tmp_path):
    """report.smk: one page per table and figure the report shows, beside its file; made by the target
    report_pages (`make report`), not by rule all, so that a rerun of one metric leaves them."""
    assert not any(rule.startswith("report_") for rule in job_counts(dry_run(repo, tmp_path)))
    counts = job_counts(dry_run(repo, tmp_path, "all", "report_pages"))
    assert counts["report_system_scatter"] == counts["plot_system_scatter"] == 13 + 3
    assert counts["report_embeddings"] == counts["train_embeddings"] == 7  # every trained model's neighbours
    assert counts["report_sweep"] == 2 * counts["sweep_parameters"] == 8  # the figure and the best settings
    assert counts["report_parmesan_samples"] == 2 * 9  # every target and setting
    assert counts["report_sensitivity"] == 3 * counts["paper_sensitivity"] == 6  # TSV, Markdown, figure
    assert counts["report_system_level"] == counts["report_segment_level"] == counts["report_ledger"] == 2
    assert counts["report_overview"] == 3 and counts["report_mqm"] == 11 and counts["report_meteor_tuning"] == 7
    assert counts["report_official_tasks"] == 3 * counts["official_tasks"] == 12  # TSV, Markdown, figure
    assert counts["report_segment_levels"] == 2  # WMT12-14 between chance and a second annotator
    assert counts["report_levels"] == 5  # between chance and a human: two TSVs, Markdown, two figures
    assert "report_official" not in counts  # the official WMT12 record is the extended study's
    assert sum(n for rule, n in counts.items() if rule.startswith("report_") and rule != "report_pages") == 122


def test_paper_target_builds_every_artefact(repo, tmp_path):
    counts = job_counts(dry_run(repo, tmp_path, "paper"))
    assert counts["paper"] == counts["paper_ledger"] == counts["paper_meteor_tuning"] == counts["paper_overview"] == 1
    assert counts["parmesan_settings_wmt12_en_cs"] == counts["parmesan_settings_wmt13dev_en_cs"] == 1
    assert counts["paper_softbleu"] == counts["paper_parmesan"] == counts["sweep_paraphrase_share"] == 1
    assert counts["paper_sensitivity"] == 2
    assert "plot_system_scatter" not in counts  # figures of the study, not of the seeds


def test_slurm_profile_plans_the_same_jobs(repo, tmp_path):
    output = dry_run(repo, tmp_path, "--workflow-profile", str(repo / "profiles/slurm"))
    counts = job_counts(output)
    assert counts["score_meteor"] == 1 and counts["plot_system_scatter"] == 13 + 3


def plan_mqm_tables(repo, tmp_path):
    study = tmp_path / "mqm.yaml"
    study.write_text(f"extends: {repo / 'config/examples/mtme-directory.yaml'}\npaper: {{mqm: {{}}}}\n")
    snakemake = str(Path(sys.executable).parent / "snakemake")
    result = subprocess.run([snakemake, "-n", "--snakefile", str(repo / "Snakefile"), "--directory", str(tmp_path),
                             "--configfile", str(study), "--cores", "1", "results/paper/mqm_protocols.tsv"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    output = result.stdout + result.stderr
    return re.search(r"rule paper_mqm:\n(?:.*\n)*?\s+output: (.*)\n", output)[1], job_counts(output)


def test_mqm_tables_without_an_error_annotation_state_its_absence(repo, tmp_path):
    """paper: {mqm: {}} on an mt-metrics-eval directory without error categories: the rule declared a
    category figure it could not draw (MissingOutputException, and Snakemake deleted the other tables).
    Now the category table is a stated absence (paper_mqm writes it) and no figure is declared."""
    (tmp_path / "mt-metrics-eval-v2" / "wmt21.tedtalks").mkdir(parents=True)
    outputs, counts = plan_mqm_tables(repo, tmp_path)
    assert "results/paper/mqm_protocols.tsv" in outputs and "results/paper/eras.md" in outputs
    assert "results/paper/mqm_categories.tsv" in outputs and "results/paper/mqm_categories.md" in outputs
    assert "mqm_categories.png" not in outputs and "categorise_mqm_errors" not in counts


def test_mqm_categories_where_the_data_has_an_error_annotation(repo, tmp_path):
    """Without paper.mqm.categories, the pairs whose eval set has an error table (mqm-errors/<lp>.tsv)."""
    errors = tmp_path / "mt-metrics-eval-v2" / "wmt21.tedtalks" / "mqm-errors"
    errors.mkdir(parents=True)
    (errors / "zh-en.tsv").write_text("line\tsystem\tseg_id\n")
    outputs, counts = plan_mqm_tables(repo, tmp_path)
    assert "results/paper/mqm_categories.png" in outputs and counts["categorise_mqm_errors"] == 1
