import gzip

import pytest

from mtmeta.data.textio import iter_tsv, read_lines
from mtmeta.errors import InputError


def test_lines_split_on_newline_only(tmp_path):
    path = tmp_path / "f.txt"
    # U+0085 and U+2028 are line breaks for str.splitlines, but they are text inside a segment here.
    path.write_bytes("a\u0085b\r\nc\u2028d\n\nlast".encode())
    assert read_lines(path) == ["a\u0085b", "c\u2028d", "", "last"]


def test_gzip_and_bom_are_transparent(tmp_path):
    path = tmp_path / "f.gz"
    path.write_bytes(gzip.compress("\ufeffx\ny\n".encode()))
    assert read_lines(path) == ["x", "y"]


def test_invalid_utf8_names_file_line_and_byte(tmp_path):
    path = tmp_path / "sys.txt"
    path.write_bytes(b"good\nalso good\nbad \x85 byte\n")
    with pytest.raises(InputError) as info:
        read_lines(path)
    message = str(info.value)
    assert f"{path}:3:" in message
    assert "85" in message and "column 5" in message and "expected UTF-8" in message
    assert info.value.line == 3


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        read_lines(tmp_path / "nope.txt")


def test_corrupt_gzip(tmp_path):
    path = tmp_path / "f.gz"
    path.write_bytes(gzip.compress(b"some text\n" * 100)[:30])
    with pytest.raises(InputError, match="corrupt gzip"):
        read_lines(path)


def test_tsv_header_and_width_are_checked(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("a\tb\n1\t2\n3\n")
    rows = iter_tsv(path, ["a", "b"])
    assert next(rows) == (2, ["1", "2"])
    with pytest.raises(InputError, match=r"t.tsv:3: found 1 tab-separated fields; expected 2 fields"):
        next(rows)
    with pytest.raises(InputError, match=r"t.tsv:1: unexpected header"):
        next(iter_tsv(path, ["a", "c"]))


def test_a_nul_byte_is_an_error_naming_line_and_column(tmp_path):
    path = tmp_path / "hyp.txt"
    path.write_bytes(b"fine\nnot \x00 fine\n")
    with pytest.raises(InputError, match=rf"^{path}:2: NUL byte at column 5; expected text without NUL bytes \(is it "
                                         r"a binary file, or UTF-16\? convert it to UTF-8\)$"):
        read_lines(path)


def test_utf16_text_is_not_read_as_text_with_nuls(tmp_path):
    path = tmp_path / "utf16.txt"
    path.write_bytes("a cat\n".encode("utf-16-le"))  # no BOM: valid UTF-8, a NUL after every letter
    with pytest.raises(InputError, match=r":1: NUL byte at column 2"):
        read_lines(path)


def test_a_directory_is_not_a_file(tmp_path):
    with pytest.raises(InputError, match=rf"^{tmp_path}: is a directory; expected an existing file$"):
        read_lines(tmp_path)
