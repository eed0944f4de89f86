"""The tiny synthetic study: WMT-style data archives in a local mirror, a config, and the command that runs it.

Used by test_workflow_e2e.py (which checks the numbers it produces) and by tools/test_cluster.py (which
runs it locally and through a single-node SLURM cluster and compares the outputs), so that both run the
identical study. Only the standard library and PyYAML: the tool imports it from outside pytest.

    mirror = write_mirror(root / "mirror")          # the archives, once (gzip headers carry a time stamp)
    workdir = write_workdir(root / "work", mirror)  # a study directory: config/config.yaml
    subprocess.run(snakemake_command(repo, workdir), env=snakemake_env(home), check=True)
"""

from __future__ import annotations

import hashlib
import io
import shutil
import sys
import tarfile
from pathlib import Path

import yaml

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
    # A system named as a missing value of pandas' (and R's): it must be a system in every table.
    "NA": ["Ganz andere Wörter hier ." for _ in REFERENCES],
}
# 5-way ranking tasks: (segment, [(system, rank)]); lower rank is better, -1 blank.
TASKS = [
    (1, [("sysA", 1), ("sysB", 2), ("sysC", 3), ("NA", 4)]),
    (2, [("sysB", 1), ("sysA", 2), ("NA", 3), ("sysC", 4)]),
    (3, [("sysA", 1), ("sysC", 2), ("sysB", 2), ("NA", 5)]),
    (4, [("sysC", 1), ("sysB", 2), ("NA", -1), ("sysA", 1)]),
    (5, [("sysB", 1), ("sysB", 2), ("NA", 3), ("sysA", 1)]),  # a self-comparison of sysB
    (6, [("sysA", 2), ("sysB", 3), ("sysC", 4), ("NA", 5), ("ghost", 1)]),  # an id with no output file
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


def write_mirror(mirror: Path) -> Path:
    """The study's data mirror (archives, word lists, a thesaurus) in ``mirror``, which is created."""
    mirror.mkdir(parents=True)
    files = {
        "tiny-data/plain/references/test-ref.de": lines(REFERENCES),
        "tiny-data/plain/sources/test-src.en": lines(f"source {i}" for i in range(1, 7)),
        "tiny-data/plain/system-outputs/en-de/.DS_Store": b"\x00\x01",
    }
    files.update({f"tiny-data/plain/system-outputs/en-de/test.en-de.{s}": lines(t) for s, t in SYSTEMS.items()})
    tar_gz(mirror / "tiny-data.tar.gz", files)
    tar_gz(mirror / "judgments.tgz", {"judgments/rnk.csv": ranking_csv()})
    (mirror / "german.words").write_bytes(lines(["der", "die", "das", "den", "im", "auf", "nach"]))
    (mirror / "eval.txt").write_bytes(lines(["a b c ||| a b d ||| a b c", "x y ||| x y ||| x y", "p ||| q ||| q"]))
    (mirror / "labels.txt").write_bytes(lines(["1", "0", "-1", "1"]))
    # A MyThes thesaurus listing exactly sysB's substitutions (and one pair nobody uses).
    (mirror / "th_de.dat").write_bytes(lines(["UTF-8", "gestern|1", "(Adv)|heute", "sehr|1", "(Adv)|ganz",
                                              "buch|1", "(Subst)|heft|band", "katze|1", "(Subst)|mieze"]))
    return mirror


def study_config(mirror: Path) -> dict:
    """The study's config.yaml for the mirror written by write_mirror (the archives' sha256 included)."""

    def sha256(name):
        return hashlib.sha256((mirror / name).read_bytes()).hexdigest()

    def source(path, sha=None, **extra):
        mirror_spec = {"path": path, **extra}
        if sha:
            mirror_spec["sha256"] = sha
        return {"upstream": {"url": f"http://example.invalid/{path}", **extra}, "mirror": mirror_spec}

    return {
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
        # A user's own metric, scored elsewhere (write_workdir writes its file): in every table beside the rest.
        "external_scores": {"gap": {"segment": USER_SCORES, "higher_is_better": False}},
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
            "tiny_data": source("tiny-data.tar.gz", sha256("tiny-data.tar.gz")),
            "tiny_judgments": source("judgments.tgz", sha256("judgments.tgz"), format="wmt_ranking_csv",
                                     member="judgments/rnk.csv"),
            "eval_data": source("eval.txt", sha256("eval.txt")),
            "eval_labels": source("labels.txt", sha256("labels.txt")),
            "function_words_de": source("german.words", sha256("german.words")),
            "thesaurus_de": source("th_de.dat", sha256("th_de.dat")),
            # any list will do for the tiny evaluator set
            "function_words_en": source("german.words", sha256("german.words")),
            # wordnet and meteor_paraphrase_en (declared by the repository's catalogue, which is found
            # on its own) are never fetched: no metric here reads them.
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


USER_SCORES = "scores/gap.seg.tsv"  # relative to the study directory

# The report's pages (results/report/...) that show a table without rows in this study, and why; every
# other table of its report has rows (tools/report_browser.py checks both).
REPORT_EMPTY_TABLES = {
    "results/report/paper/ledger.tsv.html": "no seed's numbers are configured, so nothing is compared",
    "results/report/paper/ledger.md.html": "the same ledger as Markdown",
    "results/report/embeddings/tiny-w2v/en/neighbours.tsv.html": "no probe words for English (embedding_probes)",
    # The segment-level table keys each year's Kendall variant by a WMT dataset name; "tiny" is none.
    "results/report/paper/softbleu.md.html": "its segment-level table: no WMT year among the datasets",
}
# Its report: how many results, and where (tests/workflow/test_report.py).
REPORT_CATEGORIES = {"Correlations", "Data", "Embeddings", "Figures", "Paper", "Sweeps"}
REPORT_RESULTS = 29


def length_gaps() -> dict[tuple[str, int], int]:
    """The user's metric: |words in the hypothesis - words in the reference| per (system, segment), lower
    is better."""
    return {(system, seg): abs(len(hyp.split()) - len(REFERENCES[seg - 1].split()))
            for system, texts in SYSTEMS.items() for seg, hyp in enumerate(texts, start=1)}


def write_workdir(workdir: Path, mirror: Path) -> Path:
    """A study directory reading ``mirror``: ``workdir/config/config.yaml`` (no sources.yaml: the config
    declares its sources) and the user's score file. Several study directories may share one mirror and
    get the same config."""
    (workdir / "config").mkdir(parents=True)
    (workdir / USER_SCORES).parent.mkdir(parents=True)
    rows = [f"tiny\ten-de\t{system}\t{seg}\t{gap}" for (system, seg), gap in length_gaps().items()]
    (workdir / USER_SCORES).write_text("\n".join(["dataset\tlp\tsystem\tseg_id\tscore", *rows]) + "\n")
    (workdir / "config" / "config.yaml").write_text(yaml.safe_dump(study_config(mirror)))
    return workdir


def snakemake_command(repo: Path, workdir: Path, *extra: str) -> list[str]:
    """The repository's Snakefile run in ``workdir`` by the Snakemake beside this Python (2 cores unless
    ``extra`` says otherwise, e.g. with an executor)."""
    snakemake = shutil.which("snakemake", path=str(Path(sys.executable).parent)) or "snakemake"
    return [snakemake, "--snakefile", str(repo / "Snakefile"), "--directory", str(workdir), "--cores", "2", *extra]


def snakemake_env(home: Path, **extra: str) -> dict[str, str]:
    """A small, fixed environment for the run: this Python's bin first, HOME in the study, hashes fixed."""
    return {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(home), "PYTHONHASHSEED": "0",
            **extra}
