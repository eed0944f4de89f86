import pandas as pd
import pytest

from mtmeta.data.judgments import (
    match_system_names,
    read_cmu_rankings_text,
    read_cmu_rankings_tsv,
    read_evaluator,
    read_pairwise_tsv,
    read_system_scores,
    read_wmt_ranking_csv,
)
from mtmeta.errors import ConfigError, InputError

HEADER = ("srclang,trglang,srcIndex,documentId,segmentId,judgeId,"
          + ",".join(f"system{i}Number,system{i}Id" for i in range(1, 6))
          + "," + ",".join(f"system{i}rank" for i in range(1, 6)))


def csv_row(src, trg, seg, systems, ranks):
    ids = ",".join(f"{n},{name}" for n, name in enumerate(systems, start=1))
    return f"{src},{trg},{seg},doc,{seg},judge1,{ids}," + ",".join(map(str, ranks))


def write_csv(path, rows):
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


def pairs(judgments):
    return sorted(judgments.comparisons[["seg_id", "sys_a", "sys_b", "outcome"]].itertuples(index=False, name=None))


def test_ranking_csv_gives_all_pairs_with_ties_and_blanks(tmp_path):
    path = write_csv(tmp_path / "rnk.csv", [
        csv_row("English", "Czech", 7, ["A", "B", "C", "D", "E"], [1, 2, 2, 5, -1]),
        csv_row("Czech", "English", 3, ["A", "B", "C", "D", "E"], [1, 1, 1, 1, 1]),
    ])
    judgments = read_wmt_ranking_csv(path, {"en-cs"})
    assert judgments.tasks == {"en-cs": 1}
    assert pairs(judgments) == [
        (7, "A", "B", "a"), (7, "A", "C", "a"), (7, "A", "D", "a"),
        (7, "B", "C", "tie"), (7, "B", "D", "a"), (7, "C", "D", "a"),
    ]
    assert judgments.report.rows[0]["kind"] == "blank_rank" and judgments.report.rows[0]["count"] == 1
    everything = read_wmt_ranking_csv(path)
    assert everything.tasks == {"en-cs": 1, "cs-en": 1}
    assert len(everything.comparisons) == 6 + 10


def test_ranking_csv_records_who_judged_each_task(tmp_path):
    """The judgeId of each task (its comparisons' ``task``), for inter-annotator agreement."""
    path = write_csv(tmp_path / "rnk.csv", [
        csv_row("English", "Czech", 7, ["A", "B", "C", "D", "E"], [1, 2, 2, 5, -1]),
        csv_row("English", "Czech", 7, ["A", "B", "C", "D", "E"], [2, 1, 2, 5, -1]).replace("judge1", " judge2 "),
    ])
    judgments = read_wmt_ranking_csv(path, {"en-cs"})
    assert judgments.judges == {"line 2": "judge1", "line 3": "judge2"}
    assert set(judgments.comparisons["task"]) == {"line 2", "line 3"}


def test_ranking_csv_reports_repeated_rows_and_keeps_them(tmp_path):
    row = csv_row("English", "Czech", 7, ["A", "B", "C", "D", "E"], [1, 2, 3, 4, 5])
    other_judge = row.replace("judge1", "judge2")
    path = write_csv(tmp_path / "rnk.csv", [row, other_judge, row, row,
                                            csv_row("Czech", "English", 3, ["A", "B", "C", "D", "E"], [1] * 5)])
    judgments = read_wmt_ranking_csv(path, {"en-cs"})
    assert judgments.tasks == {"en-cs": 4} and len(judgments.comparisons) == 4 * 10  # counted as given
    [repeated] = [r for r in judgments.report.rows if r["kind"] == "duplicate_row"]
    assert repeated["count"] == 2 and repeated["detail"].startswith("en-cs: ranking rows identical")
    assert repeated["action"].startswith("kept")


def test_ranking_csv_accepts_wmt14_language_codes_and_file_names(tmp_path):
    path = write_csv(tmp_path / "wmt14.csv", [
        csv_row("cze", "eng", 1, ["newstest2014.x.1.cs-en", "newstest2014.y.2.cs-en", "_ref", "z", "w"],
                [2, 1, 1, 3, 4]),
    ])
    judgments = read_wmt_ranking_csv(path, {"cs-en"})
    assert ("newstest2014.x.1.cs-en", "newstest2014.y.2.cs-en", "b") in {
        (a, b, o) for a, b, o in judgments.comparisons[["sys_a", "sys_b", "outcome"]].itertuples(index=False)}
    matched = match_system_names(judgments, {"x.1", "y.2", "z", "w"}, "cs-en", testset="newstest2014")
    assert set(matched.comparisons["sys_a"]) | set(matched.comparisons["sys_b"]) == {"x.1", "y.2", "z", "w"}
    assert len(matched.comparisons) == 6  # the 4 pairs with the reference are excluded
    reference = [row for row in matched.report.rows if row["kind"] == "reference_system"]
    assert reference[0]["count"] == 4


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (csv_row("English", "Czech", 1, list("ABCDE"), [1, 2, 9, 4, 5]), r"rnk.csv:2: system3rank is 9"),
        (csv_row("English", "Czech", 1, list("ABCDE"), [1, 2, "x", 4, 5]), r"rnk.csv:2: column system3rank: 'x'"),
        (csv_row("Klingon", "Czech", 1, list("ABCDE"), [1, 2, 3, 4, 5]), r"rnk.csv:2: unknown language 'Klingon'"),
        (csv_row("English", "Czech", 0, list("ABCDE"), [1, 2, 3, 4, 5]), r"rnk.csv:2: srcIndex 0"),
        ("English,Czech,1", r"rnk.csv:2: found 3 fields; expected 21 fields"),
    ],
)
def test_ranking_csv_errors_name_file_and_line(tmp_path, row, message):
    path = write_csv(tmp_path / "rnk.csv", [row])
    with pytest.raises(InputError, match=message):
        read_wmt_ranking_csv(path)


def test_ranking_csv_missing_columns(tmp_path):
    path = tmp_path / "rnk.csv"
    path.write_text("srclang,trglang,srcIndex\nEnglish,Czech,1\n")
    with pytest.raises(InputError, match=r"rnk.csv:1: WMT ranking header lacks"):
        read_wmt_ranking_csv(path)


def test_pairwise_tsv(tmp_path):
    path = tmp_path / "p.tsv"
    path.write_text("lp\tseg_id\tbetter\tworse\ncs-en\t4\tX\tY\nde-en\t1\tP\tQ\n")
    judgments = read_pairwise_tsv(path, {"cs-en"})
    assert pairs(judgments) == [(4, "X", "Y", "a")]
    path.write_text("lp\tseg_id\tbetter\tworse\ncs-en\tfour\tX\tY\n")
    with pytest.raises(InputError, match=r"p.tsv:2: column seg_id: 'four'"):
        read_pairwise_tsv(path)


def test_cmu_rankings_tsv_higher_rank_is_better(tmp_path):
    path = tmp_path / "dev.tsv"
    path.write_text(
        "lp\tseg_id\tgroup\trank\tsystems\n"
        "en-cs\t5\tg1\t0\tA\n"
        "en-cs\t5\tg1\t2\tB,C\n"  # B and C produced the same text: no comparison between them
        "en-cs\t5\tg1\t2\tD\n"
        "en-cs\t8,9\tg2\t1\tA\n"
        "en-cs\t8,9\tg2\t0\tB\n"
    )
    judgments = read_cmu_rankings_tsv(path, {"en-cs"})
    assert pairs(judgments) == [
        (5, "A", "B", "b"), (5, "A", "C", "b"), (5, "A", "D", "b"), (5, "B", "D", "tie"), (5, "C", "D", "tie"),
        (8, "A", "B", "a"),
    ]
    assert judgments.tasks == {"en-cs": 2}
    assert judgments.ambiguous == [("en-cs", (8, 9), 5)]
    identical = [row for row in judgments.report.rows if row["kind"] == "identical_output"]
    assert identical[0]["count"] == 1


def test_cmu_rankings_text_recovers_segments_and_systems(tmp_path):
    references = ["ref one", "ref two", "ref one"]
    outputs = {"A": ["a1", "a2", "a1-other"], "B": ["b1", "b2", "b3"], "C": ["a1", "c2", "c3"]}
    path = tmp_path / "en-cs.dev.rankings"
    path.write_text("7 ||| 0 ||| ref one ||| a1\n7 ||| 1 ||| ref one ||| b1\n8 ||| 1 ||| ref two ||| nobody\n")
    judgments = read_cmu_rankings_text(path, "en-cs", references, outputs)
    assert pairs(judgments) == [(1, "A", "B", "b"), (1, "C", "B", "b")]
    unmatched = [row for row in judgments.report.rows if row["kind"] == "unmatched_hypothesis"]
    assert unmatched[0]["count"] == 1
    path.write_text("7 ||| 0 ||| ref one\n")
    with pytest.raises(InputError, match=r"dev.rankings:1: found 3"):
        read_cmu_rankings_text(path, "en-cs", references, outputs)


def test_evaluator(tmp_path):
    data = tmp_path / "hyp1-hyp2-ref"
    labels = tmp_path / "dev.answers"
    data.write_text("a b ||| a c ||| a b\nx ||| y ||| z\nq ||| r ||| s\n")
    labels.write_text("1\n0\n-1\n1\n")
    segments, judgments = read_evaluator(data, labels, limit=2, lp="xx-en")
    assert segments[["system", "seg_id", "hypothesis", "reference"]].values.tolist() == [
        ["hyp1", 1, "a b", "a b"], ["hyp1", 2, "x", "z"], ["hyp2", 1, "a c", "a b"], ["hyp2", 2, "y", "z"]]
    assert pairs(judgments) == [(1, "hyp1", "hyp2", "a"), (2, "hyp1", "hyp2", "tie")]
    assert sorted(row["count"] for row in judgments.report.rows) == [1, 2]  # 1 tuple and 2 labels unused

    labels.write_text("1\n")
    with pytest.raises(InputError, match=r"dev.answers: has 1 labels but .* has 2 tuples"):
        read_evaluator(data, labels, limit=2, lp="xx-en")
    labels.write_text("1\nmaybe\n")
    with pytest.raises(InputError, match=r"dev.answers:2: label 'maybe'; expected 1, 0 or -1"):
        read_evaluator(data, labels, limit=2, lp="xx-en")
    data.write_text("only ||| two\n")
    with pytest.raises(InputError, match=r"hyp1-hyp2-ref:1: found 2"):
        read_evaluator(data, labels, limit=2, lp="xx-en")


def judgments_of(rows):
    from mtmeta.data.judgments import Judgments
    from mtmeta.data.report import Report

    frame = [("en-cs", seg, a, b, o, f"t{n}") for n, (seg, a, b, o) in enumerate(rows)]
    return Judgments.from_rows(frame, Report(), {"en-cs": len(rows)})


def test_name_matching_policies():
    raw = judgments_of([(1, "jhu-heiro", "onlineA", "a"), (1, "ghost", "onlineA", "b"),
                        (2, "onlineA", "onlineA", "tie"), (2, "jhu-heiro", "ghost", "a")])
    systems = {"jhu-hiero", "onlineA"}
    matched = match_system_names(raw, systems, "en-cs", aliases={"jhu-heiro": "jhu-hiero"})
    assert pairs(matched) == [(1, "jhu-hiero", "onlineA", "a")]
    kinds = {row["kind"]: row for row in matched.report.rows}
    assert kinds["alias"]["count"] == 2
    assert kinds["unmatched_id"]["detail"] == "en-cs: ghost" and kinds["unmatched_id"]["count"] == 2
    assert kinds["self_comparison"]["count"] == 1 and kinds["self_comparison"]["action"] == "excluded"

    kept = match_system_names(raw, systems, "en-cs", aliases={"jhu-heiro": "jhu-hiero"}, unmatched="keep",
                              self_comparisons="keep")
    assert len(kept.comparisons) == 4 and "ghost" in set(kept.comparisons["sys_a"]) | set(kept.comparisons["sys_b"])

    with pytest.raises(InputError, match=r"\['ghost', 'jhu-heiro'\] match no system output.*aliases"):
        match_system_names(raw, systems, "en-cs", unmatched="error")
    with pytest.raises(InputError, match="comparisons of a system with itself"):
        match_system_names(raw, systems, "en-cs", aliases={"jhu-heiro": "jhu-hiero"}, self_comparisons="error")
    with pytest.raises(ConfigError, match="no system output named 'jhu-hieroo'"):
        match_system_names(raw, systems, "en-cs", aliases={"jhu-heiro": "jhu-hieroo"})


def test_match_keeps_column_types():
    raw = judgments_of([(3, "A", "B", "a")])
    matched = match_system_names(raw, {"A", "B"}, "en-cs")
    assert matched.comparisons.dtypes["seg_id"] == "int32"
    pd.testing.assert_frame_equal(matched.comparisons, raw.comparisons)


def test_system_scores_of_one_pair(tmp_path):
    path = tmp_path / "human.scores"
    path.write_text("human\ten-cs\tnewstest2014\tcu-depfix.3452\t0.371\n"
                    "human\tcs-en\tnewstest2014\tonlineB.0\t0.591\n"
                    "human\ten-cs\tnewstest2014\tcommercial2.3222\t-0.95\n\n", encoding="utf-8")
    table = read_system_scores(path, "en-cs", "newstest2014")
    assert table.values.tolist() == [["cu-depfix.3452", 0.371], ["commercial2.3222", -0.95]]
    assert read_system_scores(path, "en-de", "newstest2014").empty


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("human\ten-cs\tnewstest2014\tx", r"scores:2: found 4 tab-separated fields; expected 5 fields"),
        ("human\ten-cs\tnewstest2014\tx\thigh", r"scores:2: system 'x' with score 'high'; expected a system"),
        ("human\ten-cs\tnewstest2014\tx\tnan", r"with score 'nan'"),
        ("human\ten-cs\tnewstest2013\tx\t0.1", r"scores:2: test set 'newstest2013'; expected 'newstest2014'"),
        ("human\ten-cs\tnewstest2014\ta\t0.2", r"scores:2: en-cs: system 'a' listed again \(first on line 1\)"),
    ],
)
def test_system_scores_errors_name_file_and_line(tmp_path, line, message):
    path = tmp_path / "human.scores"
    path.write_text("human\ten-cs\tnewstest2014\ta\t0.5\n" + line + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message) as error:
        read_system_scores(path, "en-cs", "newstest2014")
    assert "human.scores" in str(error.value)


WMT_HEADER = ("srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,system2Number,system2Id,"
              "system1rank,system2rank")


@pytest.mark.parametrize(("header", "message"), [
    (WMT_HEADER.replace("judgeId", "judgeID"),
     r"rnk.csv:1: WMT ranking header lacks judgeId; has unknown column\(s\) 'judgeID'; expected the WMT columns"),
    (WMT_HEADER.replace(",documentId", ""), r"rnk.csv:1: WMT ranking header lacks documentId;"),
    (WMT_HEADER + ",comment", r"rnk.csv:1: WMT ranking header has unknown column\(s\) 'comment'"),
    (WMT_HEADER.replace("system2rank", "system2Rank"), r"lacks system2rank; has unknown column\(s\) 'system2Rank'"),
])
def test_a_renamed_or_unknown_ranking_column_is_an_error(tmp_path, header, message):
    from mtmeta.data.judgments import read_wmt_ranking_csv

    path = tmp_path / "rnk.csv"
    path.write_text(header + "\nEnglish,Czech,1,d,1,j,1,A,2,B,1,2\n")
    with pytest.raises(InputError, match=message):
        read_wmt_ranking_csv(path)
    path.write_text(WMT_HEADER + "\nEnglish,Czech,1,d,1,j,1,NA,2,null,1,2\n")
    assert read_wmt_ranking_csv(path).comparisons[["sys_a", "sys_b", "outcome"]].values.tolist() == [
        ["NA", "null", "a"]]


@pytest.mark.parametrize(("content", "message"), [
    ("sys_a\tsys_b\toutcome\n", r"c.tsv:2: no rows below the header"),
    ("sys_a\tsys_b\tresult\nA\tB\ta\n", r"c.tsv:1: no 'outcome' column"),
    ("sys_a\tsys_b\toutcome\nA\tB\ta\nB\tA\twin\n", r"c.tsv:3: outcome 'win'; expected a, b or tie"),
    ("sys_a\tsys_b\toutcome\nA\tB\n", r"c.tsv:2: found 2 tab-separated fields; expected 3"),
    ("sys_a\tsys_b\toutcome\n\tB\ta\n", r"c.tsv:2: empty sys_a"),
    ("", r"c.tsv:1: file is empty"),
])
def test_comparisons_tables_name_file_and_line(tmp_path, content, message):
    from mtmeta.data.judgments import read_comparisons

    path = tmp_path / "c.tsv"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        read_comparisons(path)


def test_comparisons_parquet_rows_are_checked_and_names_kept(tmp_path):
    import pandas as pd

    from mtmeta.data.judgments import read_comparisons

    path = tmp_path / "c.parquet"
    pd.DataFrame({"sys_a": ["NA", "None"], "sys_b": ["nan", "NA"], "outcome": ["a", "tie"]}).to_parquet(path)
    assert read_comparisons(path)[["sys_a", "sys_b"]].values.tolist() == [["NA", "nan"], ["None", "NA"]]
    pd.DataFrame({"sys_a": ["A", None], "sys_b": ["B", "A"], "outcome": ["a", "b"]}).to_parquet(path)
    with pytest.raises(InputError, match=r"c.parquet: row 2: no sys_a \(null\); expected a non-empty name"):
        read_comparisons(path)
    pd.DataFrame({"sys_a": ["A", "B"], "sys_b": ["B", "A"], "outcome": ["a", "x"]}).to_parquet(path)
    with pytest.raises(InputError, match=r"c.parquet: row 2: outcome 'x'; expected a, b or tie"):
        read_comparisons(path)
    path.write_text("not parquet")
    with pytest.raises(InputError, match=r"c.parquet: not a readable parquet file"):
        read_comparisons(path)
