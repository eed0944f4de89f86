"""A user's score files: every malformed or unmatched row is an error naming the file and line."""

import pytest

from mtmeta.data.user_scores import PairData, check_against, read_score_file
from mtmeta.errors import InputError

PAIRS = {("wmt12", "en-cs"): PairData(("sysA", "sysB"), (1, 2, 3))}
HEADER = {"system": "dataset\tlp\tsystem\tscore", "segment": "dataset\tlp\tsystem\tseg_id\tscore"}


def write(tmp_path, level, rows, header=None):
    path = tmp_path / f"user.{level}.tsv"
    path.write_text("\n".join([header or HEADER[level], *rows]) + "\n")
    return path


def read_and_check(tmp_path, level, rows, header=None):
    path = write(tmp_path, level, rows, header)
    table = read_score_file(path, level)
    check_against(table, path, level, PAIRS)
    return table


def segment_rows(skip=()):
    return [f"wmt12\ten-cs\t{s}\t{i}\t0.{i}" for s in ("sysA", "sysB") for i in (1, 2, 3) if (s, i) not in skip]


def test_valid_files_are_read_with_their_line_numbers(tmp_path):
    table = read_and_check(tmp_path, "system", ["wmt12\ten-cs\tsysA\t0.5", "wmt12\ten-cs\tsysB\t-1e-3"])
    assert table["score"].tolist() == [0.5, -0.001] and table["line"].tolist() == [2, 3]
    segments = read_and_check(tmp_path, "segment", segment_rows())
    assert segments["seg_id"].tolist() == [1, 2, 3, 1, 2, 3]


@pytest.mark.parametrize(("level", "rows", "header", "message"), [
    ("system", ["wmt12\ten-cs\tsysA"], "dataset\tlp\tsystem", r"user.system.tsv:1: no 'score' column"),
    ("segment", ["wmt12\ten-cs\tsysA\t0.5"], HEADER["system"], r":1: no 'seg_id' column"),
    ("system", [], None, r":2: no rows below the header"),
    ("system", ["wmt12\ten-cs\tsysA\t0.5", "wmt12\ten-cs\tsysB\tabc"], None, r":3: score 'abc' is not a number"),
    ("system", ["wmt12\ten-cs\tsysA\tnan", "wmt12\ten-cs\tsysB\t1"], None, r":2: score nan is not a finite number"),
    ("system", ["wmt12\ten-cs\tsysA\t1", "wmt12\ten-cs\tsysB\tinf"], None, r":3: score inf is not a finite number"),
    ("system", ["wmt12\ten-cs\tsysA\t1", "wmt12\ten-cs\tsysB\t2", "wmt12\ten-cs\tsysA\t3"], None,
     r":4: wmt12 en-cs sysA is given 2 times \(lines 2, 4\)"),
    ("segment", [*segment_rows(), "wmt12\ten-cs\tsysB\t2\t0.9"], None, r":8: wmt12 en-cs sysB 2 is given 2 times"),
    ("segment", ["wmt12\ten-cs\tsysA\t1.5\t0.1"], None, r":2: seg_id '1.5' is not an integer"),
    ("segment", ["wmt12\ten-cs\tsysA\t0\t0.1"], None, r":2: seg_id 0 is below 1"),
    ("system", ["\ten-cs\tsysA\t1"], None, r":2: empty dataset"),
])
def test_malformed_rows_name_file_and_line(tmp_path, level, rows, header, message):
    with pytest.raises(InputError, match=message):
        read_and_check(tmp_path, level, rows, header)


@pytest.mark.parametrize(("level", "rows", "message"), [
    ("system", ["wmt12\ten-cs\tsysA\t1", "wmt13\ten-cs\tsysB\t2"],
     r":3: dataset 'wmt13' with language pair 'en-cs' is not in the study; expected one of: wmt12 en-cs"),
    ("system", ["wmt12\ten-cs\tsysA\t1", "wmt12\ten-cs\tsysB\t2", "wmt12\ten-cs\tghost\t3"],
     r":4: system 'ghost' is not a system of wmt12 en-cs; expected one of: sysA, sysB"),
    ("system", ["wmt12\ten-cs\tsysA\t1"], r"wmt12 en-cs: 1 of 2 systems have no score: sysB"),
    ("segment", segment_rows(skip={("sysB", 2)}),
     r"wmt12 en-cs system 'sysB' has 2 of 3 segment scores \(missing seg_id 2\)"),
    ("segment", [*segment_rows(), "wmt12\ten-cs\tsysA\t4\t0.4"], r":8: seg_id 4 is not a segment of wmt12 en-cs"),
])
def test_rows_the_study_does_not_have_or_misses_are_errors(tmp_path, level, rows, message):
    with pytest.raises(InputError, match=message):
        read_and_check(tmp_path, level, rows)


def test_an_empty_file_is_an_error(tmp_path):
    path = tmp_path / "empty.tsv"
    path.write_text("")
    with pytest.raises(InputError, match=r"empty.tsv:1: file is empty"):
        read_score_file(path, "system")
