"""Checks on the real inputs in the local mirror (skipped with a reason when it is absent).

Expected values are recomputed here from the raw files with the standard library only.
"""

import csv
import io
import itertools
import json
import tarfile
from collections import Counter

import pytest

from mtmeta.app.config import load_config
from mtmeta.data.archive import safe_extract
from mtmeta.data.corpus import Layout, discover_systems
from mtmeta.data.fetch import fetch, plan_fetch
from mtmeta.data.prepare import prepare
from mtmeta.data.report import Report
from mtmeta.data.textio import read_lines
from mtmeta.errors import InputError

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def config():
    return load_config()


@pytest.fixture(scope="module")
def resources(tmp_path_factory, mirror, config):
    """Fetch (from the mirror, sha256-verified) and extract the sources these tests use."""
    root = tmp_path_factory.mktemp("resources")
    for name in ("wmt12_data", "wmt12_judgments", "wmt13_data", "wmt13_dev_en_cs"):
        manifest = fetch(plan_fetch(name, config["sources"][name], mirror), root / name)
        assert manifest["verified"] and manifest["origin"] == "mirror"
        if manifest["archive"]:
            safe_extract(root / name / manifest["file"], root / name / "extracted")
    return root


def raw_wmt12_en_cs(mirror):
    """The en-cs rows of the RNK CSV, read straight from the mirror's archive."""
    with tarfile.open(mirror / "wmt12/manual-eval-judgments-2012.tgz") as tf:
        data = tf.extractfile("manual-eval-judgments-2012/wmt12.RNK_results.csv").read().decode("utf-8")
    rows = csv.DictReader(io.StringIO(data))
    return [row for row in rows if (row["srclang"], row["trglang"]) == ("English", "Czech")]


def test_wmt12_en_cs_counts_and_gt_others(resources, mirror, config):
    prepared = prepare("wmt12", config["datasets"]["wmt12"], "en-cs", resources)
    rows = raw_wmt12_en_cs(mirror)
    assert len(rows) == 2308
    assert prepared.summary["n_tasks"] == 2308
    assert prepared.summary["n_systems"] == 13 and prepared.summary["n_judged_systems"] == 13
    assert len(prepared.segments) == 13 * 3003

    wins, losses = Counter(), Counter()
    for row in rows:
        ranked = [(row[f"system{i}Id"], int(row[f"system{i}rank"])) for i in range(1, 6)]
        ranked = [(name, rank) for name, rank in ranked if rank != -1]
        for (a, ra), (b, rb) in itertools.combinations(ranked, 2):
            if ra < rb:
                wins[a] += 1
                losses[b] += 1
            elif rb < ra:
                wins[b] += 1
                losses[a] += 1
    expected = {name: wins[name] / (wins[name] + losses[name]) for name in wins | losses}
    assert len(expected) == 13
    ours = prepared.human_scores.set_index("system")["gt_others"].to_dict()
    assert ours.keys() == expected.keys()
    for name, value in expected.items():
        assert ours[name] == pytest.approx(value, abs=1e-12), name
    # The WMT12 overview's top and bottom English-Czech systems by "> others".
    assert max(ours, key=ours.get) == "cu-depfix" and min(ours, key=ours.get) == "jhu-hiero"


def test_wmt12_cs_en_hidden_file_is_reported(resources, config):
    prepared = prepare("wmt12", config["datasets"]["wmt12"], "cs-en", resources)
    hidden = [row for row in prepared.report.rows if row["detail"] == ".DS_Store"]
    assert hidden and hidden[0]["kind"] == "not_a_system_file"
    assert "jhu-heiro" in set(prepared.human_scores["system"])  # judgment id and file name agree
    assert prepared.summary["n_systems"] == 6


def test_wmt13_backup_file_with_invalid_utf8(resources):
    folder = resources / "wmt13_data/extracted/wmt13-data/plain/system-outputs/newstest2013/ru-en"
    with pytest.raises(InputError) as info:
        read_lines(folder / "newstest2013.ru-en.commercial-3~")
    assert info.value.line == 141
    assert "commercial-3~:141: invalid UTF-8 byte(s) 85 at column 8; expected UTF-8 text" in str(info.value)
    layout = Layout(reference="", source="",
                    system="wmt13-data/plain/system-outputs/newstest2013/{lp}/newstest2013.{lp}.{system}")
    report = Report()
    systems = discover_systems(resources / "wmt13_data/extracted", layout, "ru-en", report=report)
    assert "commercial-3" in systems and "commercial-3~" not in systems
    assert [row["detail"] for row in report.rows] == ["newstest2013.ru-en.commercial-3~"]


def test_wmt13_dev_subset_repeated_lines(resources, config):
    prepared = prepare("wmt13dev", config["datasets"]["wmt13dev"], "en-cs", resources)
    kinds = Counter(row["kind"] for row in prepared.report.rows)
    assert kinds["ambiguous_segment"] == 2  # newstest2013 repeats lines 1877/1880 and 1878/1881
    refs = read_lines(resources / "wmt13_data/extracted/wmt13-data/plain/references/newstest2013-ref.cs")
    assert refs[1876] == refs[1879] and refs[1877] == refs[1880]
    assert prepared.summary["n_systems"] == 14
    assert prepared.comparisons["seg_id"].between(1, 3000).all()
    assert not (prepared.comparisons["sys_a"] == prepared.comparisons["sys_b"]).any()
    assert json.loads(json.dumps(prepared.summary))["n_tasks"] == prepared.summary["n_tasks"]


@pytest.mark.parametrize(
    ("name", "corpus_fn", "sentence_fn"),
    [("bleu", "corpus_bleu", "sentence_bleu"), ("chrf", "corpus_chrf", "sentence_chrf"),
     ("ter", "corpus_ter", "sentence_ter")],
)
def test_sacrebleu_parity_on_a_real_wmt12_system(resources, config, name, corpus_fn, sentence_fn):
    import numpy as np
    import sacrebleu

    from mtmeta import metrics

    segments = prepare("wmt12", config["datasets"]["wmt12"], "en-cs", resources).segments
    rows = segments[segments.system == "cu-depfix"].sort_values("seg_id")
    hyps, refs = rows.hypothesis.tolist(), rows.reference.tolist()
    metric = metrics.get(name, lang="cs")
    stats = metric.stats(hyps, [refs])
    assert metric.corpus_score(stats) == pytest.approx(getattr(sacrebleu, corpus_fn)(hyps, [refs]).score, abs=1e-9)
    sample = slice(0, 3003, 7)  # every 7th segment keeps TER's sentence calls quick
    expected = [getattr(sacrebleu, sentence_fn)(h, [r]).score for h, r in zip(hyps[sample], refs[sample], strict=True)]
    np.testing.assert_allclose(metric.segment_scores(stats[sample]), expected, atol=1e-9, rtol=0)


@pytest.fixture(scope="module")
def wmt14_resources(tmp_path_factory, mirror, config):
    root = tmp_path_factory.mktemp("wmt14")
    for name in ("wmt14_data", "wmt14_judgments", "wmt14_official_scores"):
        manifest = fetch(plan_fetch(name, config["sources"][name], mirror), root / name)
        assert manifest["verified"] and manifest["origin"] == "mirror"
        if manifest["archive"]:
            safe_extract(root / name / manifest["file"], root / name / "extracted")
    return root


def test_wmt14_official_scores_cover_every_pair(wmt14_resources, mirror, config):
    """Out of English: system level only, every output matched to its official score; into English:
    the pairwise scores and the official one side by side."""
    raw = [line.split("\t") for line in (mirror / "wmt14/human-2014-05-16.scores").read_text().splitlines()]
    official = {(lp, system): float(score) for _, lp, _, system, score in raw}
    assert len(official) == 110
    ds = config["datasets"]["wmt14"]
    en_cs = prepare("wmt14", ds, "en-cs", wmt14_resources)
    assert en_cs.comparisons.empty and en_cs.summary["n_comparisons"] == 0 and en_cs.summary["judgments"] is None
    assert en_cs.summary["human_scores"] == ["official"]
    assert en_cs.summary["official_scores"]["name"] == "TrueSkill"
    assert en_cs.summary["official_scores"]["n_systems"] == en_cs.summary["n_systems"] == 10
    human = en_cs.human_scores.set_index("system")
    assert {s: human.loc[s, "official"] for s in human.index} == {
        s: v for (lp, s), v in official.items() if lp == "en-cs"}
    assert human["gt_others"].isna().all()
    assert human.loc["cu-depfix.3452", "official"] == 0.371
    assert en_cs.report.to_frame()["kind"].tolist() == ["no_judgments"]
    cs_en = prepare("wmt14", ds, "cs-en", wmt14_resources)
    assert cs_en.summary["human_scores"] == ["gt_others", "ge_others", "expected_wins", "official"]
    both = cs_en.human_scores.set_index("system")
    assert len(both) == 5 and both[["gt_others", "official"]].notna().all().all()
    assert both.loc["onlineB.0", "official"] == 0.591
    # The best system by "> others" is the best by the official score too.
    assert both["gt_others"].idxmax() == both["official"].idxmax() == "onlineB.0"
    for lp in ("en-de", "en-fr", "en-hi", "en-ru"):
        pair = prepare("wmt14", ds, lp, wmt14_resources)
        assert pair.summary["n_judged_systems"] == pair.summary["n_systems"] == sum(k[0] == lp for k in official)
