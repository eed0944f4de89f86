"""A tiny three-rater study end to end: WMT23-style side-by-side MQM (both pairs) in a local mirror,
assembled by rule assemble_wmt23, scored by BLEU and chrF, and the MQM protocol table with its chance
levels, the human ceiling (rule ceiling_levels) and the share of the headroom each metric closes.

Every rater orders the four systems alike (A > B > C > D: no, one Minor, one Major, two Major errors
per segment, rater r1 adding a Minor to A's first segment), so the human ceiling of system pairwise
accuracy is 1 whichever rater is held out, its chance level 1/2 (no tied system scores)."""

import hashlib
import io
import subprocess
import tarfile

import pandas as pd
import pytest
import yaml
from synthetic_study import snakemake_command, snakemake_env

pytestmark = pytest.mark.workflow

HEADER = ("system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata"
          "\t# Documentation: https://example.org")
TEXTS = {  # lp: (sources, references): two documents of three lines each
    "en-de": ([f"Source sentence number {k} ." for k in range(1, 7)],
              ["Der Hund biss den Mann gestern Abend .", "Es war nicht überraschend , sagte sie .",
               "Die Katze sitzt auf der Matte im Haus .", "Wir fahren morgen früh nach Berlin .",
               "Das Wetter ist heute sehr schön .", "Er hat das Buch schon gelesen ."]),
    "zh-en": ([f"源句子{k}。" for k in range(1, 7)],
              ["The dog bit the man yesterday evening .", "It was not surprising , she said .",
               "The cat sits on the mat in the house .", "We drive to Berlin early tomorrow .",
               "The weather is very nice today .", "He has already read the book ."]),
}
ERRORS = {"A": [], "B": ["Minor"], "C": ["Major"], "D": ["Major", "Major"]}


def outputs(reference: str) -> dict[str, str]:
    words = reference.split()
    return {"A": reference, "B": " ".join(words[:-2] + words[-1:]), "C": " ".join(words[::2]),
            "D": " ".join(words[:2])}


def annotation(lp: str) -> bytes:
    sources, references = TEXTS[lp]
    rows = [HEADER]
    for seg in range(1, 7):
        doc, k = ("d1", seg) if seg <= 3 else ("d2", seg - 3)
        raters = ("r1", "r2", "r3") if seg % 2 else ("r2", "r3", "r4")
        for system, text in outputs(references[seg - 1]).items():
            for rater in raters:
                severities = ERRORS[system] + (["Minor"] if (system, seg, rater) == ("A", 1, "r1") else [])
                cells = [("Accuracy/Mistranslation", s) for s in severities] or [("No-error", "No-error")]
                for category, severity in cells:
                    rows.append("\t".join([f"{system}_with_X", f"{doc}:{lp}", str(k), str(seg), rater,
                                           sources[seg - 1], text, category, severity, "{}"]))
    return ("\n".join(rows) + "\n").encode()


def write_mirror(mirror):
    files = {"google": {}, "news": {}}
    for lp, code in (("en-de", "ende"), ("zh-en", "zhen")):
        member = f"sxs_mqm_generalMT2023_{code}.3ratingsPerSegment.tsv"
        path = f"generalMT2023/{code}/{member}.tar.gz"
        (mirror / "google" / path).parent.mkdir(parents=True, exist_ok=True)
        with tarfile.open(mirror / "google" / path, "w:gz") as archive:
            data = annotation(lp)
            info = tarfile.TarInfo(member)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        files["google"][path] = None
        src, tgt = lp.split("-")
        sources, references = TEXTS[lp]
        for path, lines in ((f"txt/sources/generaltest2023.{lp}.src.{src}", sources),
                            (f"txt/references/generaltest2023.{lp}.ref.refA.{tgt}", references)):
            (mirror / "news" / path).parent.mkdir(parents=True, exist_ok=True)
            (mirror / "news" / path).write_text("\n".join(lines) + "\n", encoding="utf-8")
            files["news"][path] = None
    return {folder: {path: hashlib.sha256((mirror / folder / path).read_bytes()).hexdigest() for path in paths}
            for folder, paths in files.items()}


def config(mirror, sums) -> dict:
    def source(folder):
        return {"upstream": {"url": f"http://example.invalid/{folder}/"}, "mirror": {"path": folder},
                "files": sums[folder]}

    return {
        "data_mirror": str(mirror),
        "metrics": ["bleu", "chrf"],
        "bootstrap": {"draws": 20, "seed": 1},
        "permutation": {"draws": 20, "seed": 1},
        "chance": {"draws": 12},
        "paper": {"mqm": {}},
        "sources": {"wmt23_mqm_human_evaluation": source("google"), "wmt23_news_systems": source("news")},
        "datasets": {"sxs": {"description": "tiny three-rater set", "kind": "mtme", "evalset": {"assemble": "wmt23"},
                             "testset": "wmt23.sxs", "references": {"en-de": "refA", "zh-en": "refA"},
                             "language_pairs": ["en-de", "zh-en"]}},
    }


@pytest.fixture(scope="module")
def three_raters(tmp_path_factory, repo):
    root = tmp_path_factory.mktemp("raters")
    mirror, workdir = root / "mirror", root / "work"
    sums = write_mirror(mirror)
    (workdir / "config").mkdir(parents=True)
    (workdir / "config" / "config.yaml").write_text(yaml.safe_dump(config(mirror, sums), allow_unicode=True))
    targets = ["results/paper/mqm_protocols.tsv", "results/paper/mqm_protocols.md"]
    result = subprocess.run(snakemake_command(repo, workdir, *targets), capture_output=True, text=True,
                            env=snakemake_env(root, PYTHONPATH=str(repo / "src")))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return workdir


def test_assembled_pairs_keep_every_rating_and_the_gold_only_in_the_layout(three_raters):
    base = three_raters / "results/evalsets/wmt23/wmt23.sxs"
    for lp in ("en-de", "zh-en"):
        raters = pd.read_csv(base / f"{lp}.raters.tsv", sep="\t")
        assert len(raters) == 4 * 6 * 3 and sorted(raters["rater"].unique()) == ["r1", "r2", "r3", "r4"]
        assert sorted(p.name for p in (base / "human-scores").glob(f"{lp}.*")) == [f"{lp}.mqm.seg.score",
                                                                                  f"{lp}.mqm.sys.score"]


def test_protocol_table_has_chance_human_ceiling_and_headroom(three_raters):
    table = pd.read_csv(three_raters / "results/paper/mqm_protocols.tsv", sep="\t")
    assert len(table) == 2 * 2 * 2  # two pairs x two metrics x (three-rater gold, two-rater means)
    gold = table[table["gold"] == "mqm"]
    assert set(gold["sys_accuracy_chance"]) == {0.5} and set(gold["sys_pearson_chance"]) == {0.0}
    assert gold["seg_acc_eq_chance"].notna().all() and (gold["seg_acc_eq_chance_se"] > 0).all()
    assert (gold["seg_acc_eq_floor"] <= gold["seg_acc_eq_chance"]).all()
    two = table[table["gold"] != "mqm"]
    assert set(two["sys_accuracy_human"]) == {1.0} and set(two["sys_accuracy_chance"]) == {0.5}
    share = (two["sys_accuracy"] - 0.5) / (1.0 - 0.5)
    assert list(two["sys_accuracy_share"]) == pytest.approx(list(share))
    # Every rater orders the systems alike: the two-rater means order them as the three-rater mean.
    merged = two.merge(gold, on=["dataset", "lp", "metric"], suffixes=("_two", ""))
    assert list(merged["sys_accuracy_two"]) == list(merged["sys_accuracy"])
    text = (three_raters / "results/paper/mqm_protocols.md").read_text()
    # The ceiling with its interval over bootstrap draws of the segments (every draw orders alike: 1 to 1).
    assert "| **human: one rater** | **1.000** (1.000–1.000) |" in text
    ceiling = pd.read_csv(three_raters / "results/metaeval/ceiling/sxs/zh-en.tsv", sep="\t")
    assert set(ceiling["level"]) == {"human", "metric", "chance", "floor"}
