"""The checked TSV reader (mtmeta.data.tables): each malformed file ends in an InputError naming the
file and line and what was expected; names are strings, whatever they spell."""

import pytest

from mtmeta.data.tables import read_system_score_file, read_table
from mtmeta.errors import InputError

COLUMNS = {"system": "name", "score": "number"}


def write(tmp_path, content: bytes | str, name="t.tsv"):
    path = tmp_path / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def read(path, **options):
    return read_table(path, COLUMNS, what="system scores", **options)


@pytest.mark.parametrize(("content", "message"), [
    (b"", r"t.tsv:1: file is empty; expected system scores: a tab-separated header with system, score"),
    (b"\n", r"t.tsv:1: file is empty"),
    (b"system\tscore\n", r"t.tsv:2: no rows below the header"),
    (b"system\tscore\nA\t1\nB\n", r"t.tsv:3: found 1 tab-separated field; expected 2, one per column of the header "
                                  r"\(system, score\)"),
    (b"system\tscore\nA\t1\t7\n", r"t.tsv:2: found 3 tab-separated fields; expected 2"),
    (b"system\tscore\nA\t1\nB\t\xe9t\xe9\n", r"t.tsv:3: invalid UTF-8 byte\(s\) e9 at column 3; expected UTF-8 text"),
    (b"system\tscore\nA\t1\x00\n", r"t.tsv:2: NUL byte at column 4; expected text without NUL bytes"),
    (b"name\tscore\nA\t1\n", r"t.tsv:1: no 'system' column \(header: \['name', 'score'\]\)"),
    (b"System\tscore\nA\t1\n", r"t.tsv:1: no 'system' column \(renamed\? the header has 'System' for 'system'\?\)"),
    (b"system\tscores\nA\t1\n", r"no 'score' column \(renamed\? the header has 'scores' for 'score'\?\)"),
    (b"system\tscore\tsystem\nA\t1\tB\n", r"t.tsv:1: column 'system' appears twice in the header"),
    (b"system\tscore\n\t1\n", r"t.tsv:2: empty system; expected a system name"),
    (b"system\tscore\n  \t1\n", r"t.tsv:2: empty system"),
    (b"system\tscore\nA\tone\n", r"t.tsv:2: score 'one' is not a number; expected a number"),
    (b"system\tscore\nA\t\n", r"t.tsv:2: score '' is not a number"),
])
def test_each_malformed_file_names_file_and_line(tmp_path, content, message):
    with pytest.raises(InputError, match=message):
        read(write(tmp_path, content))


def test_a_directory_or_a_missing_file_is_named(tmp_path):
    with pytest.raises(InputError, match=rf"^{tmp_path}: is a directory; expected system scores$"):
        read(tmp_path)
    with pytest.raises(InputError, match=r"absent.tsv: file not found; expected system scores$"):
        read(tmp_path / "absent.tsv")


def test_names_are_strings_and_line_numbers_skip_nothing(tmp_path):
    names = ["NA", "nan", "null", "None", "N/A", "NaN", "#N/A", "<NA>", "1", "007"]
    rows = "".join(f"{name}\t{k}.5\n" + ("\n" if k == 2 else "") for k, name in enumerate(names))
    table = read(write(tmp_path, "\ufeffsystem\tscore\r\n" + rows))  # a BOM, a CRLF header, an empty line
    assert table["system"].tolist() == names
    assert table["score"].tolist() == [k + 0.5 for k in range(len(names))]
    assert table["line"].tolist() == [2, 3, 4, *range(6, 6 + len(names) - 3)]  # the empty line 5 holds no row


def test_other_columns_are_ignored_and_optional_ones_read_if_present(tmp_path):
    path = write(tmp_path, "comment\tscore\tsystem\tseg_id\nx\t1\tA\t3\n")
    table = read(path, optional={"seg_id": "integer", "lp": "name"})
    assert list(table.columns) == ["line", "system", "score", "seg_id"] and table["seg_id"].tolist() == [3]


def test_numbers_are_parsed_exactly_and_missing_ones_are_allowed_where_asked(tmp_path):
    path = write(tmp_path, "system\tscore\nA\t0.1000000000000000055511151231257827\nB\t\nC\t-1e-3\nD\tnan\n")
    table = read_table(path, {"system": "name", "score": "number?"}, what="x")
    assert table["score"].iloc[0] == 0.1 and table["score"].iloc[2] == -0.001
    assert table["score"].isna().tolist() == [False, True, False, True]
    with pytest.raises(InputError, match=r"t.tsv:2: seg_id '1.5' is not an integer"):
        read_table(write(tmp_path, "system\tseg_id\nA\t1.5\n"), {"system": "name", "seg_id": "integer"}, what="x")


def test_a_header_only_file_may_be_allowed(tmp_path):
    table = read(write(tmp_path, "system\tscore\n"), rows_required=False)
    assert table.empty and list(table.columns) == ["line", "system", "score"]


def test_system_score_files_refuse_a_system_given_twice(tmp_path):
    path = write(tmp_path, "system\tgt_others\nNA\t0.5\nB\t\nNA\t0.7\n")
    with pytest.raises(InputError, match=r"t.tsv:4: system 'NA' is given 2 times \(lines 2, 4\)"):
        read_system_score_file(path, "gt_others")
    table = read_system_score_file(write(tmp_path, "system\tgt_others\nNA\t0.5\nB\t\n"), "gt_others")
    assert table["system"].tolist() == ["NA", "B"] and table["gt_others"].isna().tolist() == [False, True]
