"""Run the whole workflow on a tiny synthetic study (the ``study`` fixture of conftest.py) and check the
numbers it produces, and its Snakemake report in a real headless Chromium (every table and figure
shown, no docutils message; tools/report_browser.py, as test_report.py uses it).

The expected values are computed here independently of mtmeta: "> others" by counting the
ranking tasks of the synthetic study (synthetic_study.py), BLEU with sacrebleu, correlations with scipy.
"""

import itertools
import json
import re
import subprocess

import pandas as pd
import pytest
import sacrebleu
from scipy import stats
from synthetic_study import (  # tests/workflow/synthetic_study.py: the test file's directory is on sys.path
    REFERENCES,
    REPORT_CATEGORIES,
    REPORT_EMPTY_TABLES,
    REPORT_RESULTS,
    SYSTEMS,
    TASKS,
    length_gaps,
    snakemake_command,
    snakemake_env,
)

pytestmark = pytest.mark.workflow


def read(path) -> pd.DataFrame:
    """A table the study wrote, its names as strings: one system is called NA."""
    return pd.read_csv(path, sep="\t", keep_default_na=False, na_values=[""])


def expected_gt_others() -> dict[str, float]:
    """> others by direct counting, skipping blanks, self-comparisons and ids without outputs."""
    wins = dict.fromkeys(SYSTEMS, 0)
    losses = dict.fromkeys(SYSTEMS, 0)
    for _, ranked in TASKS:
        usable = [(s, r) for s, r in ranked if r != -1 and s in SYSTEMS]
        for (a, ra), (b, rb) in itertools.combinations(usable, 2):
            if a == b or ra == rb:
                continue
            winner, loser = (a, b) if ra < rb else (b, a)
            wins[winner] += 1
            losses[loser] += 1
    return {s: wins[s] / (wins[s] + losses[s]) for s in SYSTEMS}


def test_system_level_correlations(study):
    table = read(study / "results/correlations/system_level.tsv")
    table = table[table.metric == "bleu"].set_index("human_score")
    gt = expected_gt_others()
    bleu = {s: sacrebleu.corpus_bleu(t, [REFERENCES]).score for s, t in SYSTEMS.items()}
    names = sorted(SYSTEMS)
    x = [bleu[s] for s in names]
    y = [gt[s] for s in names]
    row = table.loc["gt_others"]
    assert row["n_systems"] == 4 and row["dataset"] == "tiny" and row["lp"] == "en-de"
    assert row["pearson"] == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-9)
    assert row["spearman"] == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-9)
    assert row["kendall"] == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-9)
    assert row["pearson_p"] == pytest.approx(stats.pearsonr(x, y).pvalue, rel=1e-6)
    assert row["metric_signature"].startswith("BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp")
    assert row["n_tasks"] == len(TASKS)


def test_lower_is_better_metrics_are_negated(study):
    table = read(study / "results/correlations/system_level.tsv")
    row = table[(table.metric == "ter") & (table.human_score == "gt_others")].iloc[0]
    gt = expected_gt_others()
    names = sorted(SYSTEMS)
    ter = [sacrebleu.corpus_ter(SYSTEMS[s], [REFERENCES]).score for s in names]
    assert row["pearson"] == pytest.approx(-stats.pearsonr(ter, [gt[s] for s in names]).statistic, abs=1e-9)
    scores = read(study / "results/scores/tiny/en-de/ter.sys.tsv").set_index("system")["score"]
    assert scores.to_dict() == dict(zip(names, ter, strict=True))  # written losslessly


def test_protocol_values_carry_their_chance_level(study):
    """Pairwise accuracy's chance level, the metric's system scores permuted, by the formula worked out
    here: with P pairs, T of them tied in the gold and a share q tied by the metric,
    (T q + (P - T)(1 - q) / 2) / P; the correlations' level is 0."""
    table = read(study / "results/correlations/protocols.tsv")
    table = table[(table["dataset"] == "tiny") & (table["human_translations"] == "excluded")]
    assert set(table.loc[table["statistic"].isin(["pearson", "spearman", "kendall"]), "chance"]) == {0.0}
    gt = expected_gt_others()
    for metric, sign in (("bleu", 1), ("ter", -1), ("gap", -1)):
        row = table[(table["metric"] == metric) & (table["statistic"] == "accuracy")
                    & (table["aggregation"] == "corpus")].iloc[0]
        assert row["human_score"] == "gt_others"
        scores = read(study / f"results/scores/tiny/en-de/{metric}.sys.tsv").set_index("system")["score"] * sign
        pairs = list(itertools.combinations(sorted(SYSTEMS), 2))
        gold_ties = sum(gt[a] == gt[b] for a, b in pairs)
        q = sum(scores[a] == scores[b] for a, b in pairs) / len(pairs)
        expected = (gold_ties * q + (len(pairs) - gold_ties) * (1 - q) / 2) / len(pairs)
        assert (row["chance"], row["chance_se"]) == (pytest.approx(expected), 0.0)


def test_metric_resources_are_fetched_and_recorded(study):
    systems = read(study / "results/scores/tiny/en-de/meteor-exst.sys.tsv").set_index("system")
    assert systems.loc["sysA", "score"] == 1.0  # the reference itself
    assert systems["signature"].iloc[0].startswith("meteor|lang:de|preset:rank|mods:ex+st|w:1_0.8|a:0.95")
    assert (study / "resources/function_words_en/manifest.json").is_file()  # Meteor 1.5 reads English ones
    assert not (study / "resources/function_words_de").exists()
    assert not (study / "resources/wordnet").exists()  # only what a configured metric needs is fetched


def test_human_scores_and_exclusions(study):
    human = read(study / "results/datasets/tiny/en-de/human_scores.tsv").set_index("system")
    for system, value in expected_gt_others().items():
        assert human.loc[system, "gt_others"] == pytest.approx(value, abs=1e-9)
    exclusions = read(study / "results/datasets/exclusions.tsv")
    by_kind = exclusions.groupby("kind")["count"].sum().to_dict()
    assert by_kind["not_a_system_file"] == 1  # .DS_Store
    assert by_kind["self_comparison"] == 1
    assert by_kind["unmatched_id"] == 4  # ghost was compared with four systems
    assert by_kind["blank_rank"] == 1 + 5  # one -1 rank plus the empty slots of short tasks
    assert by_kind["beyond_limit"] == 1  # the fourth label has no tuple
    summary = json.loads((study / "results/datasets/tiny/en-de/summary.json").read_text())
    assert summary["judgments"]["origin"] == "mirror" and summary["n_systems"] == 4


def test_every_target_exists(study):
    for path in [
        "results/figures/system_scatter.bleu.png",
        "results/figures/system_scatter.bleu.pdf",
        "results/correlations/system_level.md",
        "results/scores/evaltiny/xx-en/bleu.seg.parquet",
        "resources/tiny_data/manifest.json",
    ]:
        assert (study / path).stat().st_size > 0, path
    segments = pd.read_parquet(study / "results/scores/evaltiny/xx-en/bleu.seg.parquet")
    assert segments.set_index(["system", "seg_id"]).loc[("hyp1", 2), "score"] == pytest.approx(100.0)
    manifest = json.loads((study / "resources/eval_data/manifest.json").read_text())
    assert manifest["verified"] is True and manifest["sha256"] == manifest["expected_sha256"]  # every source has one


def test_sweep_rescoring_equals_scoring_from_scratch(study):
    from mtmeta import metrics

    table = read(study / "results/sweeps/tiny_sweep.tsv")
    assert len(table) == 6 * 2 * 3  # settings x targets x splits (all, A, B)
    accuracy = table[(table.dataset == "evaltiny") & (table.split == "all")]
    # Tuple 1: hyp1 is the reference; tuple 2: identical hypotheses (label 0); tuple 3: hyp2 is.
    assert (accuracy["value"] == 1.0).all()
    gt = expected_gt_others()
    names = sorted(SYSTEMS)
    for alpha, gamma in [(0.0, 0.0), (0.5, 0.5), (1.0, 0.5)]:
        metric = metrics.get("meteor", lang="de", modules=["exact", "stem"], alpha=alpha, beta=3.0, gamma=gamma,
                             resources=str(study / "resources"))
        scores = [metric.corpus_score(metric.stats(SYSTEMS[s], [REFERENCES])) for s in names]
        row = table[(table.dataset == "tiny") & (table.split == "all") & (table.alpha == alpha)
                    & (table.gamma == gamma)].iloc[0]
        assert row["value"] == pytest.approx(stats.pearsonr(scores, [gt[s] for s in names]).statistic, abs=1e-12)
    best = read(study / "results/sweeps/tiny_sweep.best.tsv")
    assert set(best["statistic"]) == {"three_way_accuracy", "pearson_gt_others"}


def test_overview_table_and_ledger(study):
    overview = read(study / "results/paper/overview.tsv")
    system_level = read(study / "results/correlations/system_level.tsv")
    bleu = overview[(overview.metric == "bleu") & (overview.dataset == "tiny")].iloc[0]
    expected = system_level[(system_level.metric == "bleu") & (system_level.human_score == "gt_others")]
    assert bleu["pearson"] == expected["pearson"].iloc[0]
    assert bleu["pearson_low"] <= bleu["pearson_high"] and bleu["bootstrap_draws"] == 50
    assert set(overview[overview.dataset == "tiny"]["williams_rank"]) <= {1, 2, 3}
    assert overview[overview.dataset == "evaltiny"]["three_way_accuracy"].notna().all()
    for suffix in ("md", "png", "pdf"):
        assert (study / f"results/paper/overview.{suffix}").stat().st_size > 0
    ledger = read(study / "results/paper/ledger.tsv")
    assert ledger.empty and list(ledger.columns)[:3] == ["seed", "table", "row"]  # no seed data in this config


def test_embeddings_and_softened_bleu(study):
    training = json.loads((study / "results/embeddings/tiny-w2v/de/training.json").read_text())
    assert training["workers"] == 1 and training["vocabulary"] > 20
    neighbours = read(study / "results/embeddings/tiny-w2v/de/neighbours.tsv")
    assert set(neighbours["probe"]) == {"Hund"}
    bleu = read(study / "results/scores/tiny/en-de/bleu.sys.tsv").set_index("system")["score"]
    soft = read(study / "results/scores/tiny/en-de/bleu-w2v.sys.tsv").set_index("system")
    assert soft.loc["sysA", "score"] == pytest.approx(100.0)
    assert (soft["score"] >= bleu.loc[soft.index] - 1e-9).all()  # soft credit never subtracts
    assert training["sha256"][:12] in soft["signature"].iloc[0]
    softbleu = read(study / "results/paper/softbleu.tsv")
    row = softbleu[(softbleu.dataset == "tiny") & (softbleu.metric == "bleu-w2v")].iloc[0]
    assert 0 <= row["williams_p_two_sided"] <= 1


def test_parmesan_references_scores_and_appendix(study):
    base = study / "results/parmesan/tiny/en-de/owo.greedy"
    summary = json.loads((base / "summary.json").read_text())
    # sysB's three edits (gestern/heute, sehr/ganz, Buch/Heft) are thesaurus pairs, and NA's "Ganz"
    # replaces "sehr" in segment 5: 4 words over 4 systems x 6 sentences.
    assert summary["words_per_sentence"] == pytest.approx(4 / 24) and summary["substitutions"] == 4
    new_refs = (base / "references" / "sysB.ref").read_text(encoding="utf-8").splitlines()
    assert new_refs == [" ".join(sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()(h).split()) for h in SYSTEMS["sysB"]]
    scores = read(base / "scores/bleu.sys.tsv").set_index("system")["score"]
    assert scores["sysB"] == pytest.approx(100.0) and scores["sysA"] == pytest.approx(100.0)
    correlations = read(study / "results/parmesan/tiny/en-de/correlations.tsv")
    assert set(correlations["references"]) == {"original", "owo.greedy", "owo.alignment"}
    appendix = read(study / "results/parmesan/appendix.tsv")
    full = appendix[appendix.fraction == 1.0]
    assert len(appendix) == 6 and full["pearson"].nunique() == 1  # every ranking keeps everything at 100%
    greedy = correlations[correlations.references == "owo.greedy"]["pearson"].iloc[0]
    assert full["pearson"].iloc[0] == pytest.approx(greedy)


def test_a_users_external_scores_are_in_every_table(study):
    gaps = length_gaps()
    means = {s: sum(gaps[(s, k)] for k in range(1, len(REFERENCES) + 1)) / len(REFERENCES) for s in SYSTEMS}
    gt = expected_gt_others()
    names = sorted(SYSTEMS)
    table = read(study / "results/correlations/system_level.tsv")
    row = table[(table.metric == "gap") & (table.human_score == "gt_others")].iloc[0]
    # lower is better: correlated as its negation, as TER is
    assert row["pearson"] == pytest.approx(stats.pearsonr([-means[s] for s in names], [gt[s] for s in names])[0])
    assert row["metric_signature"].startswith("external|id:gap|higher_is_better:false|segment:")
    scores = read(study / "results/scores/tiny/en-de/gap.sys.tsv").set_index("system")["score"]
    assert scores.to_dict() == pytest.approx(means)
    williams = read(study / "results/significance/tiny/en-de/williams.tsv")
    assert {"gap", "bleu", "ter"} <= set(williams["metric_1"]) and "gap" in set(williams["metric_2"])
    assert "gap" in set(read(study / "results/significance/tiny/en-de/ranks.tsv")["metric"])
    boot = read(study / "results/correlations/system_bootstrap.tsv")
    boot = boot[(boot["dataset"] == "tiny") & (boot["lp"] == "en-de")]
    assert (boot["metric"] == "gap").sum() == 3 and boot.loc[boot["metric"] == "gap", "draws"].eq(50).all()
    segment = read(study / "results/correlations/segment_level.tsv")
    assert "gap" in set(segment["metric"])
    assert (study / "results/figures/system_scatter.gap.png").stat().st_size > 0
    assert "gap" in (study / "results/paper/overview.md").read_text()


def test_a_system_named_NA_is_a_system_in_every_table(study):
    """pandas reads "NA" as a missing value by default: the study must not (it broke the bootstrap)."""
    assert "NA" in SYSTEMS
    segments = pd.read_parquet(study / "results/datasets/tiny/en-de/segments.parquet")
    assert set(segments["system"]) == set(SYSTEMS)
    human = read(study / "results/datasets/tiny/en-de/human_scores.tsv").set_index("system")
    assert human.loc["NA", "gt_others"] == pytest.approx(expected_gt_others()["NA"], abs=1e-12)
    for metric in ("bleu", "ter", "meteor-exst", "bleu-w2v", "gap"):
        scores = read(study / f"results/scores/tiny/en-de/{metric}.sys.tsv").set_index("system")["score"]
        assert sorted(scores.index) == sorted(SYSTEMS) and scores.notna().all(), metric
    boot = read(study / "results/correlations/system_bootstrap.tsv")
    boot = boot[(boot["dataset"] == "tiny") & (boot["lp"] == "en-de")]
    assert len(boot) == 5 * 3  # five metrics (four scored, the user's) x three human scores
    assert boot["n_systems"].eq(len(SYSTEMS)).all() and boot["pearson_low"].notna().all()
    assert read(study / "results/significance/tiny/en-de/williams.tsv")["n_systems"].eq(len(SYSTEMS)).all()
    # Every comparison of a system with an output, NA's included (blanks, self-comparisons and ghost left out).
    usable = sum(1 for _, ranked in TASKS for (a, ra), (b, rb) in itertools.combinations(
        [(s, r) for s, r in ranked if r != -1 and s in SYSTEMS], 2) if a != b)
    segment = read(study / "results/correlations/segment_level.tsv")
    assert segment.loc[(segment.dataset == "tiny") & (segment.metric == "bleu"), "n_comparisons"].item() == usable
    assert (study / "results/parmesan/tiny/en-de/owo.greedy/references/NA.ref").is_file()


def test_one_metric_rescored_remakes_its_own_results_only(study, repo):
    """`snakemake metric_bleu --forcerun=score_bleu` (`make metric METRIC=bleu`): BLEU's scoring job, its
    meta-evaluation and its figure, the same bytes; no table that compares it with other metrics."""
    own = sorted([*(study / "results/scores").rglob("bleu.*"), *(study / "results/metaeval/bleu").iterdir(),
                  *(study / "results/figures").glob("system_scatter.bleu.*")])
    before = {path: path.read_bytes() for path in own}
    cross = study / "results/correlations/system_level.tsv"
    cross_mtime = cross.stat().st_mtime_ns
    result = subprocess.run(snakemake_command(repo, study, "metric_bleu", "--forcerun=score_bleu"),
                            capture_output=True, text=True,
                            env=snakemake_env(study.parent, PYTHONPATH=str(repo / "src")))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    ran = sorted(re.findall(r"^Finished jobid: \d+ \(Rule: (\w+)\)", result.stdout + result.stderr, re.M))
    assert ran == ["evaluate_metric", "metric_bleu", "plot_system_scatter", "score_bleu"]
    assert len(own) > 5 and {path: path.read_bytes() for path in own} == before
    assert cross.stat().st_mtime_ns == cross_mtime


def test_the_synthetic_studys_report_shows_every_result(study, repo, tmp_path, browser_check):
    report = tmp_path / "report.html"
    result = subprocess.run(snakemake_command(repo, study, "--report", str(report)), capture_output=True, text=True,
                            env=snakemake_env(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    assert browser_check.docutils_messages(result.stdout + result.stderr) == []
    screenshots = {"landing": "landing.png", "results/report/paper/overview.png.html": "overview.png"}
    seen = browser_check.check_report(report, tmp_path / "shots", screenshots, set(REPORT_EMPTY_TABLES))
    assert seen.problems == []
    assert len(seen.results) == REPORT_RESULTS
    assert {r["mime"] for r in seen.results.values()} == {"text/html"}
    assert all(r["labels"] for r in seen.results.values())
    assert set(seen.categories) == REPORT_CATEGORIES
    assert set(seen.categories["Paper"]) == {"Overview", "Softened BLEU", "Targeted paraphrasing",
                                             "Substitution samples", "Ledger"}
    overview = seen.results["results/report/paper/overview.tsv.html"]["page"]
    assert overview["tables"] == [{"head": 20, "rows": 9, "noticed": False}]  # 4 evaluator + 5 tiny metrics
    figure = seen.results["results/report/paper/overview.png.html"]["page"]["figures"][0]
    assert figure["shown"] == figure["natural"] > 0  # at its natural size
    assert all(path.stat().st_size > 10_000 for path in seen.screenshots)
