"""The six WMT21 eval sets assembled from three tiny repositories written here: names translated in
one place, exclusions reported with counts, TED outputs from the annotation, and the layout's round
trip."""

import numpy as np
import pandas as pd
import pytest

from mtmeta.data.evalset import read_evalset
from mtmeta.data.wmt21 import (
    NEWS,
    SYSTEM_NAMES,
    TED,
    assemble_wmt21,
    neural_external_scores,
    read_mqm_errors,
    write_wmt21,
)

HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"


def put(path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def lines(*texts) -> str:
    return "".join(f"{t}\n" for t in texts)


def ted_annotation(lp: str, refs: list[str]) -> tuple[str, str]:
    """Segments 1, 2 and 4 annotated (3 not: unrated); Nemo lacks segment 4, so it is left out."""
    rows, avg = [HEADER], ["system mqm_avg_score seg_id"]
    systems = ["Nemo", "Online-W", *refs]
    for system in systems:
        scores = []
        for seg, doc, doc_id in ((1, "talk.1", 1), (2, "talk.1", 2), (4, "talk.2", 1)):
            if system == "Nemo" and seg == 4:
                scores.append((seg, None))
                continue
            target = f"{system} {lp} {seg}"
            if (system, seg) == ("Online-W", 2):
                rows.append(f"{system}\t{doc}\t{doc_id}\t{seg}\tr1\tsrc {seg}\t{target[:3]}<v>{target[3:]}</v>\t"
                            "Accuracy/Mistranslation\tMajor")
                rows.append(f"{system}\t{doc}\t{doc_id}\t{seg}\tr1\tsrc {seg}\t<v>{target}</v>\tFluency/Punctuation\t"
                            "Minor")
                scores.append((seg, -5.1))
            else:
                rows.append(f"{system}\t{doc}\t{doc_id}\t{seg}\tr1\tsrc {seg}\t{target}\tNo-error\tNo-error")
                scores.append((seg, 0.0))
        scores.append((3, None))
        for seg, score in sorted(scores):
            name = {"ref": "ref-A", "refB": "ref-B"}.get(system, system)
            avg.append(f"{name}\t{'None' if score is None else f'{score:.6f}'} {seg}")
    return lines(*rows), lines(*avg)


@pytest.fixture
def repositories(tmp_path):
    google, news, unbabel = tmp_path / "google", tmp_path / "news", tmp_path / "unbabel"
    for lp, code, refs in (("en-de", "ende", ["ref"]), ("zh-en", "zhen", ["ref", "refB"])):
        annotation, avg = ted_annotation(lp, refs)
        put(google / f"ted/{code}/mqm_ted_{code}.tsv", annotation)
        put(google / f"ted/{code}/mqm_ted_{code}.avg_seg_scores.tsv", avg)
    # newstest2021: three segments; Google's MQM also rates metricsystem1 and ref-B, which have no text.
    for lp, code, refs, systems in (("en-de", "ende", "ACD", ["NVIDIA-NeMo", "UEdin"]),
                                    ("zh-en", "zhen", "A", ["Borderline", "NiuTrans"]),
                                    ("en-ru", None, "AB", ["NVIDIA-NeMo"])):
        src, tgt = lp.split("-")
        put(news / f"txt/sources/newstest2021.{lp}.src.{src}", lines("s1", "s2", "s3"))
        for letter in refs:
            put(news / f"txt/references/newstest2021.{lp}.ref.{letter}.{tgt}", lines(f"r{letter}1", f"r{letter}2",
                                                                                    f"r{letter}3"))
        for system in systems:
            texts = [f"{system} {i}" for i in (1, 2, 3)]
            if system == "Borderline":  # trailing whitespace, an empty output
                texts = [f"{system} 1", f"{system} 2 ", ""]
            put(news / f"txt/system-outputs/newstest2021.{lp}.hyp.{system}.{tgt}", lines(*texts))
        if code:
            mqm_names = [("Nemo" if s == "NVIDIA-NeMo" else s) for s in systems] + ["metricsystem1", "ref-A", "ref-B"]
            put(google / f"newstest2021/{code}/mqm_newstest2021_{code}.avg_seg_scores.tsv", lines(
                "system mqm_avg_score seg_id",
                *(f"{s}\t{v} {i}" for s in mqm_names for i, v in ((1, "-1.000000"), (2, "None"), (3, "-0.000000")))))
    put(news / "humaneval/newstest2021-toen/ad-seg-scores-zh-en.csv", "".join(f"{row} \n" for row in [
        "SYS SID RAW.SCR Z.SCR N", "Borderline.1 1 70 0.5 2", "Borderline.1 3 60 -0.5 1", "NiuTrans.21 2 80 1 1",
        "HUMAN.0 1 90 1.5 1"]))
    data = unbabel / "Data/WMT21-data"
    put(data / "sources/newstest2021.en-ru.src.en", lines("s1", "s2", "s3"))
    for letter in "AB":
        text = lines(f"r{letter}1", f"r{letter}2", f"r{letter}3")
        put(data / f"references/newstest2021.en-ru.ref.ref-{letter}.ru", text)
        put(data / f"system-outputs/newstest2021/newstest2021.en-ru.ref.ref-{letter}.ru", text)
    put(data / "system-outputs/newstest2021/newstest2021.en-ru.hyp.Nemo.ru",
        lines("NVIDIA-NeMo 1", "other", "NVIDIA-NeMo 3"))
    put(data / "system-outputs/newstest2021/newstest2021.en-ru.hyp.metricsystem1.ru", lines("m1", "m2", "m3"))
    for name in ("mqm", "wmt-raw", "wmt-z"):
        put(data / f"evaluation/newstest2021/en-ru.{name}.seg.score", lines(*(
            f"{s}\t{v}" for s in ("metricsystem1", "refA", "refB", "Nemo") for v in ("100.0", "None", "50.0"))))
        put(data / f"evaluation/newstest2021/en-ru.{name}.sys.score", lines(
            "metricsystem1\t75.0", "refA\t75.0", "refB\t75.0", "Nemo\t75.00000000000001"))
    put(data / "sources/tedtalks.en-ru.src.en", lines("t1", "t2"))
    put(data / "references/tedtalks.en-ru.ref.ref-A.ru", lines("tr1", "tr2"))
    put(data / "system-outputs/tedtalks/tedtalks.en-ru.ref.ref-A.ru", lines("tr1", "tr2"))
    put(data / "system-outputs/tedtalks/tedtalks.en-ru.hyp.Online-Y.ru", lines("y1", "y2"))
    put(data / "evaluation/tedtalks/en-ru.mqm.seg.score", lines("Online-Y\t90.0", "Online-Y\t80.0", "refA\t100.0",
                                                                "refA\t100.0"))
    put(data / "evaluation/tedtalks/en-ru.mqm.sys.score", lines("Online-Y\t85.0", "refA\t100.0"))
    put(unbabel / "Data/tedtalks/BLEURT-20/Nemo_BLEURT-20.tsv", lines("BLEURT-20", "0.5", "0.25"))
    put(unbabel / "Data/newstest2021/BLEURT-20/Nemo_BLEURT-20.tsv",
        lines("BLEURT-20_ref_A\tBLEURT-20_ref_B", "0.1\t0.2", "0.3\t0.4", "0.5\t0.6"))
    return google, news, unbabel


def report_of(assembly, evalset, lp):
    report = assembly.report
    return report[(report["evalset"] == evalset) & (report["lp"] == lp)]


def test_news_sets(repositories):
    assembly = assemble_wmt21(*repositories)
    en_de = assembly.evalsets[(NEWS, "en-de")]
    assert en_de.systems == ["NVIDIA-NeMo", "UEdin", "refA", "refC", "refD"] and en_de.std_ref == "refC"
    assert en_de.human_systems == ["refA", "refC", "refD"]
    mqm = en_de.human_segment_scores("mqm").set_index(["system", "seg_id"])["score"]
    assert mqm[("NVIDIA-NeMo", 1)] == -1 and np.isnan(mqm[("NVIDIA-NeMo", 2)]) and mqm[("refA", 3)] == 0
    assert set(en_de.human_system_scores("mqm")["score"]) == {-0.5}  # the mean over scored segments
    excluded = report_of(assembly, NEWS, "en-de").query("kind == 'scores_without_output'")
    assert sorted(excluded["detail"].str.split().str[3]) == ["metricsystem1,", "refB,"]
    assert list(excluded["count"]) == [2, 2]  # rated segments left out, per system

    zh_en = assembly.evalsets[(NEWS, "zh-en")]
    assert zh_en.std_ref == "refA" and zh_en.reference_names == ["refA"]
    assert zh_en.outputs.set_index(["system", "seg_id"]).loc[("Borderline", 2), "hypothesis"] == "Borderline 2"
    assert zh_en.outputs.set_index(["system", "seg_id"]).loc[("Borderline", 3), "hypothesis"] == ""
    z = zh_en.human_system_scores("wmt-z").set_index("system")["score"]
    assert z.to_dict() == {"Borderline": 0.0, "NiuTrans": 1.0, "refA": 1.5}  # HUMAN is reference A
    raw = zh_en.human_segment_scores("wmt-raw").set_index(["system", "seg_id"])["score"]
    assert raw[("Borderline", 3)] == 60 and np.isnan(raw[("NiuTrans", 1)])
    kinds = report_of(assembly, NEWS, "zh-en").set_index("kind")
    assert kinds.loc["trailing_whitespace", "count"] == 1 and kinds.loc["empty_output", "count"] == 1
    assert kinds.loc["standard_reference", "detail"].startswith("mt-metrics-eval's standard reference refB")

    en_ru = assembly.evalsets[(NEWS, "en-ru")]
    assert en_ru.systems == ["NVIDIA-NeMo", "metricsystem1", "refA", "refB"]
    assert en_ru.human_system_scores("mqm").set_index("system")["score"]["NVIDIA-NeMo"] == 75.00000000000001
    checks = assembly.text_checks.set_index(["evalset", "lp", "what"])
    assert tuple(checks.loc[(NEWS, "en-ru", "output NVIDIA-NeMo"), ["segments", "matching"]]) == (3, 2)
    assert (checks.loc[(NEWS, "en-ru", "reference refA"), "matching"] == 3).all()


def test_ted_sets_from_the_annotation(repositories):
    assembly = assemble_wmt21(*repositories)
    en_de = assembly.evalsets[(TED, "en-de")]
    # Segment 4 is left out for every system (Nemo's annotation lacks it); 3 was never annotated.
    assert en_de.n_segments == 2 and en_de.systems == ["NVIDIA-NeMo", "Online-W", "refA"]
    assert list(en_de.texts["doc"]) == ["talk.1", "talk.1"] and list(en_de.texts["source"]) == ["src 1", "src 2"]
    assert en_de.reference("refA").to_dict() == {1: "ref en-de 1", 2: "ref en-de 2"}
    outputs = en_de.outputs.set_index(["system", "seg_id"])["hypothesis"]
    assert outputs[("Online-W", 2)] == "Online-W en-de 2"  # the marks stripped
    scores = en_de.human_segment_scores("mqm").set_index(["system", "seg_id"])["score"]
    assert scores[("Online-W", 2)] == pytest.approx(-5.1) and scores[("NVIDIA-NeMo", 1)] == 0
    report = report_of(assembly, TED, "en-de").set_index("kind")
    assert report.loc["ted_segment_lacking", "count"] == 1
    checks = report_of(assembly, TED, "en-de").query("kind == 'avg_seg_scores_check'").set_index("detail")["count"]
    assert checks.to_dict() == {"segment scores vs the repository's avg_seg_scores: equal": 8,
                                "segment scores vs the repository's avg_seg_scores: unrated in both": 4}
    errors = assembly.mqm_errors["en-de"]
    assert list(errors.columns) == ["line", "system", "seg_id", "annotation_seg_id", "rater", "category",
                                    "subcategory", "severity", "weight"]
    assert set(errors["annotation_seg_id"]) == {1, 2} and set(errors["system"]) == {"NVIDIA-NeMo", "Online-W", "refA"}
    zh_en = assembly.evalsets[(TED, "zh-en")]
    assert zh_en.std_ref == "refB" and zh_en.human_systems == ["refA", "refB"]
    en_ru = assembly.evalsets[(TED, "en-ru")]
    assert en_ru.systems == ["Online-Y", "refA"] and en_ru.human_system_scores("mqm")["score"].tolist() == [85.0, 100.0]


def test_layout_round_trip_and_repeatable_bytes(repositories, tmp_path):
    assembly = assemble_wmt21(*repositories)
    write_wmt21(assembly, tmp_path / "one")
    for (name, lp), evalset in assembly.evalsets.items():
        back = read_evalset(tmp_path / "one", name, lp, std_ref=evalset.std_ref)
        for table, expected in evalset.tables().items():
            pd.testing.assert_frame_equal(back.tables()[table], expected, obj=f"{name} {lp} {table}")
    write_wmt21(assemble_wmt21(*repositories), tmp_path / "two")
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert len(files) > 40 and "wmt21_report.tsv" in {str(f) for f in files}
    for path in files:
        assert (tmp_path / "one" / path).read_bytes() == (tmp_path / "two" / path).read_bytes(), path
    errors = read_mqm_errors(tmp_path / "one/wmt21.tedtalks/mqm-errors/en-de.tsv")
    pd.testing.assert_frame_equal(errors, assembly.mqm_errors["en-de"].reset_index(drop=True), check_dtype=False)
    assert list(errors["subcategory"]).count("") == len(errors) - 2  # No-error rows: an empty sub-category
    report = pd.read_csv(tmp_path / "one/wmt21_report.tsv", sep="\t", dtype=str, keep_default_na=False)
    assert not report["file"].str.startswith(str(tmp_path)).any()  # repository-relative names


def test_names_are_data_in_one_place(repositories):
    assert SYSTEM_NAMES["Nemo"] == "NVIDIA-NeMo" and SYSTEM_NAMES["HUMAN"] == "refA" and SYSTEM_NAMES["ref"] == "refA"
    datasets = {"newstest2021": "wmt21_news", "tedtalks": "wmt21_ted"}
    table = neural_external_scores(repositories[2], "BLEURT-20", datasets, reference="B")
    assert table.to_dict("list") == {"dataset": ["wmt21_news"] * 3 + ["wmt21_ted"] * 2, "lp": ["en-ru"] * 5,
                                     "system": ["NVIDIA-NeMo"] * 5, "seg_id": [1, 2, 3, 1, 2],
                                     "score": [0.2, 0.4, 0.6, 0.5, 0.25]}
