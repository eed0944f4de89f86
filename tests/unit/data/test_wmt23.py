"""WMT23 side-by-side MQM (three raters per segment): reading, bad input counted and named, the line
mapping, the eval set written and read back. A small repository is written here by hand."""

import tarfile

import numpy as np
import pandas as pd
import pytest

from mtmeta.data import wmt23
from mtmeta.data.evalset import read_evalset
from mtmeta.data.mqm import read_mqm_tsv
from mtmeta.errors import InputError

HEADER = ("system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata"
          "\t# Documentation: https://example.org")
SOURCES = ["Unrated first line.", "Hello world.", "Good morning.", "Other doc.", "Hello world."]
REFERENCES = ["R0", "Hallo Welt.", "Guten Morgen.", "Anderes.", "Hallo Welt!"]


def row(system, doc, k, seg, rater, source, target, category="No-error", severity="No-error"):
    return "\t".join([system, doc, str(k), str(seg), rater, source, target, category, severity, "{}"])


def good_rows():
    """Segments 1-2 (doc d1, lines 2-3) and 3 (doc d2, line 4); systems A and B (B shown twice, as
    B_with_A and B_with_ref); raters r1 r2 r3 on segments 1-2, r1 r2 r4 on segment 3."""
    rows = []
    texts = {1: ("d1", 1, "Hello world.", "Hallo Welt."), 2: ("d1", 2, "Good  morning.", "Guten Morgen."),
             3: ("d2", 1, "Other doc.", "Anderes.")}
    raters = {1: ("r1", "r2", "r3"), 2: ("r1", "r2", "r3"), 3: ("r1", "r2", "r4")}
    for seg, (doc, k, source, target) in texts.items():
        for rater in raters[seg]:
            for system in ("A", "B_with_A", "B_with_ref"):
                rows.append(row(system, doc, k, seg, rater, source, target))
    # r1 finds a Major error in A's segment 1, r2 a Minor one; a source issue (weight 0) in segment 2;
    # B_with_ref differs from B_with_A once.
    rows.append(row("A", "d1", 1, 1, "r1", "Hello world.", "Hallo <v>Welt</v>.", "Accuracy/Mistranslation", "Major"))
    rows.append(row("A", "d1", 1, 1, "r2", "Hello world.", "Hallo <v>Welt</v>.", "Fluency/Grammar", "Minor"))
    rows.append(row("A", "d1", 2, 2, "r3", "Good <v>morning </v>.", "Guten Morgen.", "Source issue", "Major"))
    rows.append(row("B_with_ref", "d1", 1, 1, "r1", "Hello world.", "Hallo <v>Welt</v>.", "Style/Awkward", "Minor"))
    # Attention checks: a planted error (the text differs); rater r9 has nothing else.
    rows.append(row("A", "d1", 1, 1, "r1", "Hello world.", "Hallo <v>Katze</v>.", "Found", "HOTW-test"))
    rows.append(row("B_with_A", "d2", 1, 3, "r9", "Other doc.", "<v>X</v>", "Missed", "HOTW-test"))
    return rows


def repository(tmp_path, rows, lp="en-de"):
    google, news = tmp_path / "google", tmp_path / "news"
    code = wmt23.PAIRS[lp]
    folder = google / "generalMT2023" / code
    folder.mkdir(parents=True)
    tsv = tmp_path / f"sxs_mqm_generalMT2023_{code}.3ratingsPerSegment.tsv"
    tsv.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    with tarfile.open(wmt23.annotation_path(google, lp), "w:gz") as archive:
        archive.add(tsv, arcname=tsv.name)
    src, tgt = lp.split("-")
    (news / "txt" / "sources").mkdir(parents=True)
    (news / "txt" / "references").mkdir(parents=True)
    (news / "txt" / "sources" / f"generaltest2023.{lp}.src.{src}").write_text("\n".join(SOURCES) + "\n")
    (news / "txt" / "references" / f"generaltest2023.{lp}.ref.refA.{tgt}").write_text("\n".join(REFERENCES) + "\n")
    return google, news


def counts(report):
    return report.set_index("kind")["count"].to_dict()


def test_reader_drops_attention_checks_and_counts_them(tmp_path):
    google, _ = repository(tmp_path, good_rows())
    annotation = wmt23.read_annotation(wmt23.annotation_path(google, "en-de"))
    assert len(annotation.attention_checks) == 2 and not (annotation.errors["severity"] == "HOTW-test").any()
    report = annotation.report.to_frame().set_index("kind")
    assert report.loc["mqm_attention_checks", "count"] == 2
    assert "r1 1, r9 1" in report.loc["mqm_attention_checks", "detail"]
    assert report.loc["mqm_source_spacing", "count"] == 1  # "Good <v>morning </v>." has an extra space


def test_plain_reader_rejects_attention_rows_as_unknown_severity(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("\n".join([HEADER, *[r for r in good_rows() if "Source issue" not in r]]) + "\n",
                    encoding="utf-8")
    with pytest.raises(InputError, match="x.tsv:32: unknown severity 'HOTW-test'"):
        read_mqm_tsv(path)


def test_assembly_scores_raters_apart_and_their_mean(tmp_path):
    google, news = repository(tmp_path, good_rows())
    sxs = wmt23.assemble_sxs("en-de", google, news)
    c = counts(sxs.report)
    assert c["system_rated_twice"] == 10  # the B_with_ref rows dropped, B_with_A kept
    assert "B is rated under 2 labels (B_with_A, B_with_ref); 8 of 9 same-rater" in \
        sxs.report.set_index("kind").loc["system_rated_twice", "detail"]
    assert c["attention_checks_only"] == 1 and "r9" in sxs.report.set_index("kind").loc["attention_checks_only",
                                                                                             "detail"]
    assert c["source_issues"] == 1 and c["rated_once"] == 0 and c["rater_missing"] == 0
    scores = sxs.raters.set_index(["system", "seg_id", "rater"])["score"]
    assert scores[("A", 1, "r1")] == -5 and scores[("A", 1, "r2")] == -1 and scores[("A", 1, "r3")] == 0
    assert scores[("A", 2, "r3")] == 0  # a source issue weighs 0
    gold = sxs.evalset.human_segment_scores("mqm").set_index(["system", "seg_id"])["score"]
    assert gold[("A", 1)] == pytest.approx(-2.0) and gold[("B", 1)] == 0
    r4 = sxs.evalset.human_segment_scores("mqm-r4").set_index(["system", "seg_id"])["score"]
    assert np.isnan(r4[("A", 1)]) and r4[("A", 3)] == 0
    assert list(sxs.lines["line"]) == [2, 3, 4]  # "Hello world." is also line 5: the document decides
    assert list(sxs.evalset.reference()) == ["Hallo Welt.", "Guten Morgen.", "Anderes."]
    assert sxs.evalset.systems == ["A", "B"]


def test_missing_and_single_ratings_are_named_and_not_averaged(tmp_path):
    def drop(r, system, seg, raters):
        fields = r.split("\t")
        return fields[0] == system and fields[3] == seg and fields[4] in raters and fields[8] != "HOTW-test"
    # A's segment 1 loses rater r3; B's segment 3 keeps r1 only.
    rows = [r for r in good_rows() if not drop(r, "A", "1", ("r3",)) and not drop(r, "B_with_A", "3", ("r2", "r4"))]
    google, news = repository(tmp_path, rows)
    sxs = wmt23.assemble_sxs("en-de", google, news)
    report = sxs.report.set_index("kind")
    assert report.loc["rater_missing", "count"] == 1 and "A seg 1" in report.loc["rater_missing", "detail"]
    assert report.loc["rated_once", "count"] == 1 and "B seg 3" in report.loc["rated_once", "detail"]
    gold = sxs.evalset.human_segment_scores("mqm").set_index(["system", "seg_id"])["score"]
    assert np.isnan(gold[("A", 1)]) and np.isnan(gold[("B", 3)]) and gold[("A", 2)] == 0
    assert len(sxs.raters[(sxs.raters["system"] == "B") & (sxs.raters["seg_id"] == 3)]) == 1  # the rating is kept


def test_a_malformed_row_names_the_archive_member_and_line(tmp_path):
    rows = good_rows()
    rows[4] = rows[4].replace("\tNo-error\tNo-error\t", "\tNo-error\tCritical\t")
    google, news = repository(tmp_path, rows)
    archive = wmt23.annotation_path(google, "en-de")
    with pytest.raises(InputError) as caught:
        wmt23.assemble_sxs("en-de", google, news)
    assert str(caught.value).startswith(f"{archive}:sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv:6: "
                                        "unknown severity 'Critical'; expected one of Major, Minor, Neutral, "
                                        "No-error, HOTW-test")


def test_unplaceable_document_is_an_error(tmp_path):
    rows = [r.replace("Other doc.", "Not in the test set.") for r in good_rows()]
    google, news = repository(tmp_path, rows)
    with pytest.raises(InputError, match="document 'd2': its sources match 0 places"):
        wmt23.assemble_sxs("en-de", google, news)


def test_written_sets_read_back(tmp_path):
    google, news = repository(tmp_path, good_rows())
    sxs = wmt23.assemble_sxs("en-de", google, news)
    base = wmt23.write_sxs({"en-de": sxs}, tmp_path / "out")
    back = read_evalset(tmp_path / "out", wmt23.EVALSET, "en-de", std_ref="refA")
    for name, table in sxs.evalset.tables().items():
        pd.testing.assert_frame_equal(back.tables()[name], table, check_dtype=False)
    assert (base / "en-de.raters.tsv").is_file() and (base / "report.tsv").is_file()
    # Byte-identical when written again.
    first = {p.relative_to(base): p.read_bytes() for p in base.rglob("*") if p.is_file()}
    wmt23.write_sxs({"en-de": wmt23.assemble_sxs("en-de", google, news)}, tmp_path / "out")
    assert {p.relative_to(base): p.read_bytes() for p in base.rglob("*") if p.is_file()} == first


def test_the_studys_layout_holds_the_gold_only_and_every_rating_beside_it(tmp_path):
    google, news = repository(tmp_path, good_rows())
    sxs = wmt23.assemble_sxs("en-de", google, news)
    base = wmt23.write_sxs({"en-de": sxs}, tmp_path / "out", rater_scores=False)
    back = read_evalset(tmp_path / "out", wmt23.EVALSET, "en-de", std_ref="refA")
    assert back.human_score_names == {"seg": ["mqm"], "sys": ["mqm"]}
    assert sorted(p.name for p in (base / "human-scores").iterdir()) == ["en-de.mqm.seg.score", "en-de.mqm.sys.score"]
    pd.testing.assert_frame_equal(pd.read_csv(base / "en-de.raters.tsv", sep="\t"), sxs.raters, check_dtype=False)
