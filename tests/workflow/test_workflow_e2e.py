"""Run the whole workflow on a tiny synthetic study and check the numbers it produces.

The expected values are computed here independently of mtmeta: "> others" by counting the
ranking tasks written below, BLEU with sacrebleu, correlations with scipy.
"""

import hashlib
import io
import itertools
import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pandas as pd
import pytest
import sacrebleu
import yaml
from scipy import stats

pytestmark = pytest.mark.workflow

REFERENCES = [
    "Der Hund biss den Mann gestern Abend .",
    "Es war nicht überraschend , sagte sie .",
    "Die Katze sitzt auf der Matte im Haus .",
    "Wir fahren morgen früh nach Berlin .",
    "Das Wetter ist heute sehr schön .",
    "Er hat das Buch schon gelesen .",
]
SYSTEMS = {
    "sysA": REFERENCES,
    "sysB": [r.replace("gestern", "heute").replace("sehr", "ganz").replace("Buch", "Heft") for r in REFERENCES],
    "sysC": [" ".join(r.split()[::2]) for r in REFERENCES],
    "sysD": ["Ganz andere Wörter hier ." for _ in REFERENCES],
}
# 5-way ranking tasks: (segment, [(system, rank)]); lower rank is better, -1 blank.
TASKS = [
    (1, [("sysA", 1), ("sysB", 2), ("sysC", 3), ("sysD", 4)]),
    (2, [("sysB", 1), ("sysA", 2), ("sysD", 3), ("sysC", 4)]),
    (3, [("sysA", 1), ("sysC", 2), ("sysB", 2), ("sysD", 5)]),
    (4, [("sysC", 1), ("sysB", 2), ("sysD", -1), ("sysA", 1)]),
    (5, [("sysB", 1), ("sysB", 2), ("sysD", 3), ("sysA", 1)]),  # a self-comparison of sysB
    (6, [("sysA", 2), ("sysB", 3), ("sysC", 4), ("sysD", 5), ("ghost", 1)]),  # an id with no output file
]


def tar_gz(path: Path, files: dict[str, bytes]) -> str:
    with tarfile.open(path, "w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return hashlib.sha256(path.read_bytes()).hexdigest()


def lines(texts) -> bytes:
    return ("\n".join(texts) + "\n").encode()


def ranking_csv() -> bytes:
    header = ["srclang", "trglang", "srcIndex", "documentId", "segmentId", "judgeId"]
    header += [f"system{i}{k}" for i in range(1, 6) for k in ("Number", "Id")] + [f"system{i}rank" for i in range(1, 6)]
    rows = [",".join(header)]
    for seg, ranked in TASKS:
        ranked = ranked + [("", -1)] * (5 - len(ranked))
        ids = [value for n, (name, _) in enumerate(ranked) for value in (str(n), name)]
        ranks = [str(r) for _, r in ranked]
        rows.append(",".join(["English", "German", str(seg), "doc", str(seg), "j1", *ids, *ranks]))
    return lines(rows)


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


@pytest.fixture(scope="module")
def study(tmp_path_factory, repo):
    root = tmp_path_factory.mktemp("study")
    mirror = root / "mirror"
    mirror.mkdir()
    files = {
        "tiny-data/plain/references/test-ref.de": lines(REFERENCES),
        "tiny-data/plain/sources/test-src.en": lines(f"source {i}" for i in range(1, 7)),
        "tiny-data/plain/system-outputs/en-de/.DS_Store": b"\x00\x01",
    }
    files.update({f"tiny-data/plain/system-outputs/en-de/test.en-de.{s}": lines(t) for s, t in SYSTEMS.items()})
    data_sha = tar_gz(mirror / "tiny-data.tar.gz", files)
    judgments_sha = tar_gz(mirror / "judgments.tgz", {"judgments/rnk.csv": ranking_csv()})
    (mirror / "german.words").write_bytes(lines(["der", "die", "das", "den", "im", "auf", "nach"]))
    (mirror / "eval.txt").write_bytes(lines(["a b c ||| a b d ||| a b c", "x y ||| x y ||| x y", "p ||| q ||| q"]))
    (mirror / "labels.txt").write_bytes(lines(["1", "0", "-1", "1"]))
    # A MyThes thesaurus listing exactly sysB's substitutions (and one pair nobody uses).
    (mirror / "th_de.dat").write_bytes(lines(["UTF-8", "gestern|1", "(Adv)|heute", "sehr|1", "(Adv)|ganz",
                                              "buch|1", "(Subst)|heft|band", "katze|1", "(Subst)|mieze"]))

    def source(path, sha=None, **extra):
        mirror_spec = {"path": path, **extra}
        if sha:
            mirror_spec["sha256"] = sha
        return {"upstream": {"url": f"http://example.invalid/{path}", **extra}, "mirror": mirror_spec}

    config = {
        "data_mirror": str(mirror),
        "metrics": ["bleu", "ter", "meteor-exst", "bleu-w2v"],
        "metric_settings": {"meteor-exst": {"metric": "meteor", "params": {"modules": ["exact", "stem"]}},
                            "bleu-w2v": {"metric": "softbleu", "params": {"embeddings": "tiny-w2v"}}},
        "embeddings": {"tiny-w2v": {"corpus": ["study"],
                                    "params": {"vector_size": 8, "min_count": 1, "epochs": 3, "seed": 1}}},
        "embedding_probes": {"de": ["Hund"]},
        "parmesan": {
            "targets": ["tiny/en-de"],
            "lexicons": {"de": {"source": "thesaurus_de", "kind": "mythes"}},
            "metrics": ["bleu"],
            "settings": {"owo.greedy": {"order": "one-word-only", "selection": "greedy"},
                         "owo.alignment": {"order": "one-word-only", "selection": "alignment"}},
            "samples": 2,
            "appendix": {"target": "tiny/en-de", "setting": "owo.greedy", "metric": "bleu",
                         "rankings": ["random", "thesaurus", "distributional"], "fractions": [0.5, 1.0]},
        },
        "bootstrap": {"draws": 50, "seed": 1},
        "paper": {"overview": {}, "softbleu": {"baseline": "bleu", "metrics": ["bleu-w2v"]}},
        "sweeps": {
            "tiny_sweep": {
                "metric": "meteor-exst",
                "grid": {"alpha": [0.0, 0.5, 1.0], "gamma": [0.0, 0.5]},
                "fixed": {"beta": 3.0},
                "targets": [
                    {"statistic": "three_way_accuracy", "datasets": ["evaltiny"]},
                    {"statistic": "pearson", "human_score": "gt_others", "datasets": ["tiny"]},
                ],
            }
        },
        "sources": {
            "tiny_data": source("tiny-data.tar.gz", data_sha),
            "tiny_judgments": source("judgments.tgz", judgments_sha, format="wmt_ranking_csv",
                                     member="judgments/rnk.csv"),
            "eval_data": source("eval.txt"),
            "eval_labels": source("labels.txt"),
            "function_words_de": source("german.words"),
            "thesaurus_de": source("th_de.dat"),
            "function_words_en": source("german.words"),  # any list will do for the tiny evaluator set
            "wordnet": source("unused.zip"),
            "meteor_paraphrase_en": source("unused.gz"),
        },
        "datasets": {
            "tiny": {
                "description": "tiny synthetic test set",
                "kind": "wmt",
                "corpus": "tiny_data",
                "testset": "test",
                "layout": {
                    "reference": "tiny-data/plain/references/test-ref.{trg}",
                    "source": "tiny-data/plain/sources/test-src.{src}",
                    "system": "tiny-data/plain/system-outputs/{lp}/test.{lp}.{system}",
                },
                "judgments": "tiny_judgments",
                "language_pairs": ["en-de"],
            },
            "evaltiny": {
                "description": "tiny evaluator set",
                "kind": "evaluator",
                "data": "eval_data",
                "labels": "eval_labels",
                "max_items": 3,
                "language_pairs": ["xx-en"],
            },
        },
    }
    workdir = root / "work"
    (workdir / "config").mkdir(parents=True)
    (workdir / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    snakemake = shutil.which("snakemake", path=str(Path(sys.executable).parent)) or "snakemake"
    result = subprocess.run(
        [snakemake, "--snakefile", str(repo / "Snakefile"), "--directory", str(workdir), "--cores", "2"],
        capture_output=True, text=True, env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
                                              "HOME": str(root), "PYTHONHASHSEED": "0"},
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return workdir


def test_system_level_correlations(study):
    table = pd.read_csv(study / "results/correlations/system_level.tsv", sep="\t")
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
    table = pd.read_csv(study / "results/correlations/system_level.tsv", sep="\t")
    row = table[(table.metric == "ter") & (table.human_score == "gt_others")].iloc[0]
    gt = expected_gt_others()
    names = sorted(SYSTEMS)
    ter = [sacrebleu.corpus_ter(SYSTEMS[s], [REFERENCES]).score for s in names]
    assert row["pearson"] == pytest.approx(-stats.pearsonr(ter, [gt[s] for s in names]).statistic, abs=1e-9)
    scores = pd.read_csv(study / "results/scores/tiny/en-de/ter.sys.tsv", sep="\t").set_index("system")["score"]
    assert scores.to_dict() == dict(zip(names, ter, strict=True))  # written losslessly


def test_metric_resources_are_fetched_and_recorded(study):
    systems = pd.read_csv(study / "results/scores/tiny/en-de/meteor-exst.sys.tsv", sep="\t").set_index("system")
    assert systems.loc["sysA", "score"] == 1.0  # the reference itself
    assert systems["signature"].iloc[0].startswith("meteor|lang:de|preset:rank|mods:ex+st|w:1_0.8|a:0.95")
    assert (study / "resources/function_words_en/manifest.json").is_file()  # Meteor 1.5 reads English ones
    assert not (study / "resources/function_words_de").exists()
    assert not (study / "resources/wordnet").exists()  # only what a configured metric needs is fetched


def test_human_scores_and_exclusions(study):
    human = pd.read_csv(study / "results/datasets/tiny/en-de/human_scores.tsv", sep="\t").set_index("system")
    for system, value in expected_gt_others().items():
        assert human.loc[system, "gt_others"] == pytest.approx(value, abs=1e-9)
    exclusions = pd.read_csv(study / "results/datasets/exclusions.tsv", sep="\t")
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
    assert manifest["verified"] is False  # no sha256 configured for that source, and the manifest says so


def test_sweep_rescoring_equals_scoring_from_scratch(study):
    from mtmeta import metrics

    table = pd.read_csv(study / "results/sweeps/tiny_sweep.tsv", sep="\t")
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
    best = pd.read_csv(study / "results/sweeps/tiny_sweep.best.tsv", sep="\t")
    assert set(best["statistic"]) == {"three_way_accuracy", "pearson_gt_others"}


def test_overview_table_and_ledger(study):
    overview = pd.read_csv(study / "results/paper/overview.tsv", sep="\t")
    system_level = pd.read_csv(study / "results/correlations/system_level.tsv", sep="\t")
    bleu = overview[(overview.metric == "bleu") & (overview.dataset == "tiny")].iloc[0]
    expected = system_level[(system_level.metric == "bleu") & (system_level.human_score == "gt_others")]
    assert bleu["pearson"] == expected["pearson"].iloc[0]
    assert bleu["pearson_low"] <= bleu["pearson_high"] and bleu["bootstrap_draws"] == 50
    assert set(overview[overview.dataset == "tiny"]["williams_rank"]) <= {1, 2, 3}
    assert overview[overview.dataset == "evaltiny"]["three_way_accuracy"].notna().all()
    for suffix in ("md", "png", "pdf"):
        assert (study / f"results/paper/overview.{suffix}").stat().st_size > 0
    ledger = pd.read_csv(study / "results/paper/ledger.tsv", sep="\t")
    assert ledger.empty and list(ledger.columns)[:3] == ["seed", "table", "row"]  # no seed data in this config


def test_embeddings_and_softened_bleu(study):
    training = json.loads((study / "results/embeddings/tiny-w2v/de/training.json").read_text())
    assert training["workers"] == 1 and training["vocabulary"] > 20
    neighbours = pd.read_csv(study / "results/embeddings/tiny-w2v/de/neighbours.tsv", sep="\t")
    assert set(neighbours["probe"]) == {"Hund"}
    bleu = pd.read_csv(study / "results/scores/tiny/en-de/bleu.sys.tsv", sep="\t").set_index("system")["score"]
    soft = pd.read_csv(study / "results/scores/tiny/en-de/bleu-w2v.sys.tsv", sep="\t").set_index("system")
    assert soft.loc["sysA", "score"] == pytest.approx(100.0)
    assert (soft["score"] >= bleu.loc[soft.index] - 1e-9).all()  # soft credit never subtracts
    assert training["sha256"][:12] in soft["signature"].iloc[0]
    softbleu = pd.read_csv(study / "results/paper/softbleu.tsv", sep="\t")
    row = softbleu[(softbleu.dataset == "tiny") & (softbleu.metric == "bleu-w2v")].iloc[0]
    assert 0 <= row["williams_p_two_sided"] <= 1


def test_parmesan_references_scores_and_appendix(study):
    base = study / "results/parmesan/tiny/en-de/owo.greedy"
    summary = json.loads((base / "summary.json").read_text())
    # sysB's three edits (gestern/heute, sehr/ganz, Buch/Heft) are thesaurus pairs, and sysD's "Ganz"
    # replaces "sehr" in segment 5: 4 words over 4 systems x 6 sentences.
    assert summary["words_per_sentence"] == pytest.approx(4 / 24) and summary["substitutions"] == 4
    new_refs = (base / "references" / "sysB.ref").read_text(encoding="utf-8").splitlines()
    assert new_refs == [" ".join(sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()(h).split()) for h in SYSTEMS["sysB"]]
    scores = pd.read_csv(base / "scores/bleu.sys.tsv", sep="\t").set_index("system")["score"]
    assert scores["sysB"] == pytest.approx(100.0) and scores["sysA"] == pytest.approx(100.0)
    correlations = pd.read_csv(study / "results/parmesan/tiny/en-de/correlations.tsv", sep="\t")
    assert set(correlations["references"]) == {"original", "owo.greedy", "owo.alignment"}
    appendix = pd.read_csv(study / "results/parmesan/appendix.tsv", sep="\t")
    full = appendix[appendix.fraction == 1.0]
    assert len(appendix) == 6 and full["pearson"].nunique() == 1  # every ranking keeps everything at 100%
    greedy = correlations[correlations.references == "owo.greedy"]["pearson"].iloc[0]
    assert full["pearson"].iloc[0] == pytest.approx(greedy)
