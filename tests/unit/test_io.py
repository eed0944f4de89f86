"""mtmeta.io: outputs written atomically (a failure leaves the previous file or nothing, and names the
file), and the study's tables read back with names as strings ("NA" is a system, not a missing value)."""

import errno
import gzip
import os

import pandas as pd
import pytest

from mtmeta import io
from mtmeta.data.textio import GZIP_WITHOUT_TIMESTAMP
from mtmeta.errors import OutputError

MISSING_WORDS = ["NA", "nan", "NaN", "null", "NULL", "None", "N/A", "n/a", "#N/A", "<NA>", "-nan", "1.#IND"]


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_names_that_spell_missing_values_read_back_as_names(tmp_path):
    n = len(MISSING_WORDS)
    table = pd.DataFrame({"system": MISSING_WORDS, "metric": "null", "score": [i + 0.5 for i in range(n)],
                          "gt_others": [None, *range(1, n)]})
    io.write_tsv(table, tmp_path / "t.tsv")
    back = io.read_tsv(tmp_path / "t.tsv")
    assert back["system"].tolist() == MISSING_WORDS and back["metric"].eq("null").all()
    assert back["gt_others"].isna().tolist() == [True] + [False] * (n - 1)  # only "" is missing
    assert back["score"].dtype == float and back["gt_others"].dtype == float
    # The same bytes again when written back: nothing changed on the way.
    io.write_tsv(back, tmp_path / "again.tsv")
    assert (tmp_path / "again.tsv").read_bytes() == (tmp_path / "t.tsv").read_bytes()


def test_numeric_looking_system_names_stay_strings(tmp_path):
    (tmp_path / "t.tsv").write_text("system\tscore\n1\t0.5\n007\t0.25\n")
    assert io.read_tsv(tmp_path / "t.tsv")["system"].tolist() == ["1", "007"]


def test_an_atomic_write_replaces_the_file_whole_and_leaves_nothing_behind(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("previous")
    io.write_text(target, "new text")
    assert target.read_text() == "new text" and leftovers(tmp_path) == []


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_a_failed_write_keeps_the_previous_file_and_names_it(tmp_path, code):
    target = tmp_path / "williams.tsv"
    target.write_text("previous result\n")
    with pytest.raises(OutputError) as info, io.atomic_path(target) as part:
        with open(part, "w") as handle:
            handle.write("half a tab")
        raise OSError(code, os.strerror(code), str(part))
    assert str(info.value) == (f"{target}: cannot write: {os.strerror(code)}; "
                               "expected a writable location with free space")
    assert target.read_text() == "previous result\n" and leftovers(tmp_path) == []


def test_a_failed_first_write_leaves_no_file(tmp_path, monkeypatch):
    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    with pytest.raises(OutputError, match=r"new.tsv: cannot write: No space left on device"):
        io.write_tsv(pd.DataFrame({"a": [1]}), tmp_path / "new.tsv")
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_directory_is_named(tmp_path, monkeypatch):
    def refuse(path, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(io, "_fresh_directory", refuse)
    with pytest.raises(OutputError, match=r"out/x.tsv: cannot write: Permission denied"):
        io.write_tsv(pd.DataFrame({"a": [1]}), tmp_path / "out" / "x.tsv")


def test_a_device_or_directory_is_not_replaced(tmp_path):
    with pytest.raises(OutputError, match="exists and is not a regular file"):
        io.write_text("/dev/full", "x")
    with pytest.raises(OutputError, match="exists and is not a regular file"):
        io.write_text(tmp_path, "x")
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")


def test_an_error_about_an_input_is_not_an_output_error(tmp_path):
    with pytest.raises(FileNotFoundError), io.atomic_path(tmp_path / "out.txt"):
        open(tmp_path / "missing-input.txt")
    assert list(tmp_path.iterdir()) == []


def test_gzip_output_has_the_bytes_of_a_direct_write(tmp_path):
    """The staging file has the output's own name, so gzip's header (which holds the file name) and
    pandas' format inference see what they would without the staging."""
    table = pd.DataFrame({"system": ["a", "b"], "value": [1.5, 2.0]})
    direct = tmp_path / "direct" / "rankings.tsv.gz"
    direct.parent.mkdir()
    table.to_csv(direct, sep="\t", index=False, compression=GZIP_WITHOUT_TIMESTAMP)
    io.write_csv(table, tmp_path / "rankings.tsv.gz", sep="\t", index=False, compression=GZIP_WITHOUT_TIMESTAMP)
    assert (tmp_path / "rankings.tsv.gz").read_bytes() == direct.read_bytes()
    assert gzip.decompress(direct.read_bytes())[:12] == b"system\tvalue"
    io.write_tsv(table, tmp_path / "inferred.tsv.gz")  # compression inferred from the name, as before
    assert gzip.decompress((tmp_path / "inferred.tsv.gz").read_bytes()).startswith(b"system\tvalue\n")


def test_a_directory_is_replaced_whole_or_not_at_all(tmp_path):
    out = tmp_path / "evaluate" / "mine"
    with io.atomic_directory(out) as staging:
        (staging / "a.tsv").write_text("first run, a\n")
        (staging / "b.tsv").write_text("first run, b\n")
    with io.atomic_directory(out) as staging:
        (staging / "a.tsv").write_text("second run\n")
    assert sorted(p.name for p in out.iterdir()) == ["a.tsv"]  # b.tsv of the first run is gone
    with pytest.raises(OutputError, match=r"mine/b.tsv: cannot write: No space left on device"), \
            io.atomic_directory(out) as staging:
        (staging / "a.tsv").write_text("third run\n")
        raise OSError(errno.ENOSPC, "No space left on device", str(staging / "b.tsv"))
    assert (out / "a.tsv").read_text() == "second run\n" and leftovers(out.parent) == []
