"""Google's MQM annotation: reading and checking every line, weights, segment scores, the avg_seg_scores
files. Scores below are computed by hand from the rows written here."""

import numpy as np
import pandas as pd
import pytest

from mtmeta.data.mqm import (
    compare_segment_scores,
    error_weight,
    read_avg_seg_scores,
    read_mqm_tsv,
    segment_scores,
    strip_marks,
    system_scores,
)
from mtmeta.errors import ConfigError, InputError

HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
# Two systems, segments 1-3 of talk.1 (segment 3 of B unrated), two raters on A's segment 1.
ROWS = [
    "A\ttalk.1\t1\t1\tr1\tHello world.\tHallo <v>Welt</v>.\tAccuracy/Mistranslation\tMajor",
    "A\ttalk.1\t1\t1\tr1\tHello world.\tHallo Welt<v>.</v>\tFluency/Punctuation\tMinor",
    "A\ttalk.1\t1\t1\tr2\tHello world.\tHallo Welt.\tNo-error\tNo-error",
    "A\ttalk.1\t2\t2\tr1\tGood <v>morning</v>.\tGuten.\tAccuracy/Omission\tMinor",
    "A\ttalk.1\t2\t2\tr1\tGood morning.\tGuten.\tStyle/Awkward\tNeutral",
    "A\ttalk.1\t3\t3\tr1\tBye \"now\".\tTschüss \"jetzt\".\tNo-error\tNo-error",
    "B\ttalk.1\t1\t1\tr2\tHello world.\t<v>xyz</v>\tNon-translation!\tMajor",
    "B\ttalk.1\t2\t2\tr2\tGood morning.\tGuten Morgen.\tNo-error\tNo-error",
]


def write(tmp_path, rows=ROWS, header=HEADER, name="mqm.tsv"):
    path = tmp_path / name
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def test_marks_and_weights():
    assert strip_marks("a <v>b</v> c<v>") == "a b c"
    assert error_weight("Major", "Accuracy", "Mistranslation") == 5
    assert error_weight("Minor", "Fluency", "Punctuation") == 0.1  # the most specific key wins
    assert error_weight("Minor", "Fluency", "Grammar") == 1
    assert error_weight("Major", "Fluency", "Punctuation") == 5
    assert error_weight("Major", "Non-translation") == 25 and error_weight("Neutral", "Style", "Awkward") == 0
    assert error_weight("Critical", "Accuracy") == 0  # unmatched: 0, as mt-metrics-eval's score_mqm


def test_read_keeps_every_row_and_the_stripped_texts(tmp_path):
    annotation = read_mqm_tsv(write(tmp_path))
    errors = annotation.errors
    assert list(errors["line"]) == list(range(2, 10))
    assert list(errors["category"]) == ["Accuracy", "Fluency", "No-error", "Accuracy", "Style", "No-error",
                                        "Non-translation", "No-error"]
    assert list(errors["subcategory"])[:2] == ["Mistranslation", "Punctuation"]
    assert list(errors["weight"]) == [5, 0.1, 0, 1, 0, 0, 25, 0]
    texts = annotation.segments.set_index(["system", "seg_id"])
    assert texts.loc[("A", 1), "target"] == "Hallo Welt." and texts.loc[("B", 1), "target"] == "xyz"
    assert texts.loc[("A", 2), "source"] == "Good morning."  # an omission's span is marked in the source
    assert texts.loc[("A", 3), "source"] == 'Bye "now".'  # no quoting: a quote is text
    assert texts.loc[("A", 3), "doc"] == "talk.1" and len(texts) == 5
    report = annotation.report.to_frame().set_index("kind")["count"]
    assert report["mqm_rows"] == 8 and report["mqm_source_spans"] == 1 and report["mqm_several_raters"] == 1
    assert report["mqm_over_five_errors"] == 0


def test_segment_scores_by_hand(tmp_path):
    errors = read_mqm_tsv(write(tmp_path)).errors
    scores = segment_scores(errors).set_index(["system", "seg_id"])
    # A/1: rater r1 5 + 0.1, rater r2 no error: -(5.1 + 0) / 2. A/2: Minor 1 + Neutral 0. B/1: 25.
    assert scores.loc[("A", 1), "score"] == pytest.approx(-2.55, abs=1e-12) and scores.loc[("A", 1), "raters"] == 2
    assert scores.loc[("A", 2), "score"] == -1 and scores.loc[("B", 1), "score"] == -25
    assert scores.loc[("A", 3), "score"] == 0 and not np.signbit(scores.loc[("A", 3), "score"])  # 0.0, not -0.0
    assert ("B", 3) not in scores.index  # unrated: no score, never 0
    systems = system_scores(scores.reset_index()).set_index("system")
    assert systems.loc["A", "score"] == pytest.approx(-(2.55 + 1 + 0) / 3) and systems.loc["B", "segments"] == 2


def test_scores_restricted_to_a_category_or_a_severity(tmp_path):
    errors = read_mqm_tsv(write(tmp_path)).errors
    accuracy = segment_scores(errors, categories={"Accuracy"}).set_index(["system", "seg_id"])["score"]
    # Rated segments none of whose errors is Accuracy score 0; unrated ones stay missing.
    assert accuracy.to_dict() == {("A", 1): -2.5, ("A", 2): -1.0, ("A", 3): 0.0, ("B", 1): 0.0, ("B", 2): 0.0}
    minor = segment_scores(errors, severities={"Minor"}).set_index(["system", "seg_id"])["score"]
    assert minor[("A", 1)] == pytest.approx(-0.05) and minor[("A", 2)] == -1 and minor[("B", 1)] == 0
    both = segment_scores(errors, categories={"Fluency"}, severities={"Major"})
    assert (both["score"] == 0).all() and len(both) == 5
    with pytest.raises(ConfigError, match="'Locale'.*known: Accuracy"):
        segment_scores(errors, categories={"Locale"})
    with pytest.raises(ConfigError, match="'Critical'"):
        segment_scores(errors, severities={"Critical"})


@pytest.mark.parametrize(("line", "message"), [
    ("A\ttalk.1\t1\t4\tr1\tx\ty\tAccuracy/Mistranslation", r":2: found 8 tab-separated fields; expected 9"),
    ("A\ttalk.1\t1\tfour\tr1\tx\ty\tNo-error\tNo-error", r":2: seg_id 'four' is not a positive integer"),
    ("A\ttalk.1\t0\t4\tr1\tx\ty\tNo-error\tNo-error", r":2: doc_id '0' is not a positive integer"),
    ("A\ttalk.1\t1\t4\tr1\tx\ty\tAccuracy/Mistranslation\tCritical", r":2: unknown severity 'Critical'"),
    ("A\ttalk.1\t1\t4\tr1\tx\ty\tGrammar\tMinor", r":2: unknown error category 'Grammar'"),
    ("A\ttalk.1\t1\t4\tr1\tx\ty\tNo-error\tMinor", r":2: category 'No-error' with severity 'Minor'"),
    ("A\ttalk.1\t1\t4\tr1\tx\ty\tStyle/Awkward\tNo-error", r":2: category 'Style/Awkward' with severity 'No-error'"),
    ("\ttalk.1\t1\t4\tr1\tx\ty\tNo-error\tNo-error", r":2: empty system"),
])
def test_every_malformed_line_is_named(tmp_path, line, message):
    with pytest.raises(InputError, match=message):
        read_mqm_tsv(write(tmp_path, [line]))


def test_inconsistent_text_names_both_lines(tmp_path):
    rows = [*ROWS, "A\ttalk.1\t1\t1\tr3\tHello world.\tHallo Welten.\tNo-error\tNo-error"]
    with pytest.raises(InputError, match=r":10: system 'A' segment 1: the output differs from line 2's"):
        read_mqm_tsv(write(tmp_path, rows))
    rows = [*ROWS, "C\ttalk.1\t1\t1\tr3\tHello, world.\tHallo.\tNo-error\tNo-error"]
    with pytest.raises(InputError, match=r":10: segment 1: source text differs from line 2's"):
        read_mqm_tsv(write(tmp_path, rows))
    rows = [*ROWS, "C\ttalk.2\t1\t1\tr3\tHello world.\tHallo.\tNo-error\tNo-error"]
    with pytest.raises(InputError, match=r":10: segment 1: doc or doc_id differs"):
        read_mqm_tsv(write(tmp_path, rows))


def test_header_comment_column_and_empty_file(tmp_path):
    rows = [row + "\tsome comment" for row in ROWS]
    assert len(read_mqm_tsv(write(tmp_path, rows, HEADER + "\tcomment")).errors) == 8
    with pytest.raises(InputError, match=r":1: unexpected header"):
        read_mqm_tsv(write(tmp_path, ROWS, HEADER.replace("rater", "annotator")))
    with pytest.raises(InputError, match=r":2: no rows below the header"):
        read_mqm_tsv(write(tmp_path, []))


def test_avg_seg_scores_reader(tmp_path):
    path = tmp_path / "x.avg_seg_scores.tsv"
    # The repository's own separators: a space-separated header, rows "system<TAB>score<SPACE>seg_id".
    path.write_text("system mqm_avg_score seg_id\nA\t-2.550000 1\nA\t-0.000000 2\nA\tNone 3\nref-A\t-0.100000 1\n")
    table = read_avg_seg_scores(path)
    assert list(table["system"]) == ["A", "A", "A", "ref-A"] and list(table["seg_id"]) == [1, 2, 3, 1]
    assert table["score"].iloc[0] == -2.55 and table["score"].iloc[1] == 0 and not np.signbit(table["score"].iloc[1])
    assert np.isnan(table["score"].iloc[2])  # None: unrated, never 0
    for body, message in [("A\t-1.0 1 extra\n", r":2: found 4 whitespace-separated fields"),
                          ("A\tbad 1\n", r":2: score 'bad' is not a number"),
                          ("A\t-1.0 0\n", r":2: seg_id '0' is not a positive integer"),
                          ("A\t-1.0 1\nA\t-2.0 1\n", r":3: system 'A' segment 1 is given twice")]:
        path.write_text("system mqm_avg_score seg_id\n" + body)
        with pytest.raises(InputError, match=message):
            read_avg_seg_scores(path)


def test_compare_segment_scores_statuses():
    ours = pd.DataFrame({"system": ["A", "A", "A"], "seg_id": [1, 2, 4], "score": [-2.55, -1.0, 0.0]})
    theirs = pd.DataFrame({"system": ["A"] * 4, "seg_id": [1, 2, 3, 4],
                           "score": [-2.5500004, -1.1, np.nan, np.nan]})
    status = compare_segment_scores(ours, theirs).set_index("seg_id")["status"]
    assert status.to_dict() == {1: "equal", 2: "differs", 3: "unrated in both", 4: "only ours"}
    assert compare_segment_scores(ours.iloc[:1], theirs.iloc[:2]).set_index("seg_id")["status"][2] == "only theirs"
