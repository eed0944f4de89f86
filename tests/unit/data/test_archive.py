import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from mtmeta.data.archive import safe_extract
from mtmeta.errors import ArchiveError, OutputError


def make_tar(path, members):
    """members: list of (name, kind, payload) with kind 'file', 'symlink', 'hardlink' or 'fifo'."""
    with tarfile.open(path, "w:gz") as tf:
        for name, kind, payload in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                data = payload.encode()
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
                continue
            info.type = {"symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE, "fifo": tarfile.FIFOTYPE}[kind]
            info.linkname = payload or ""
            tf.addfile(info)
    return path


def test_extracts_regular_members(tmp_path):
    archive = make_tar(tmp_path / "ok.tar.gz", [("top/a.txt", "file", "A"), ("top/sub/b.txt", "file", "B"),
                                                 ("top/link", "symlink", "sub/b.txt")])
    names = safe_extract(archive, tmp_path / "out")
    assert names == ["top/a.txt", "top/sub/b.txt", "top/link"]
    assert (tmp_path / "out/top/sub/b.txt").read_text() == "B"
    assert (tmp_path / "out/top/link").read_text() == "B"
    assert not (tmp_path / "out.partial").exists()


@pytest.mark.parametrize(
    ("member", "reason"),
    [
        (("/etc/passwd", "file", "x"), "absolute path"),
        (("top/../../evil.txt", "file", "x"), "'..'"),
        (("top/link", "symlink", "../../outside"), "points outside"),
        (("top/link", "symlink", "/etc/passwd"), "absolute path"),
        (("top/hard", "hardlink", "../x"), "points outside"),
        (("top/pipe", "fifo", None), "special file"),
    ],
)
def test_unsafe_tar_members_are_refused_before_anything_is_written(tmp_path, member, reason):
    archive = make_tar(tmp_path / "bad.tgz", [("top/first.txt", "file", "ok"), member])
    with pytest.raises(ArchiveError) as info:
        safe_extract(archive, tmp_path / "out")
    assert reason in str(info.value)
    assert member[0] in str(info.value) and "bad.tgz" in str(info.value)
    assert not (tmp_path / "out").exists()
    assert not (tmp_path / "out.partial").exists()


@pytest.mark.parametrize(("name", "reason"), [("../evil.txt", "'..'"), ("/abs.txt", "absolute path")])
def test_unsafe_zip_members_are_refused(tmp_path, name, reason):
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("fine.txt", "x")
        zf.writestr(zipfile.ZipInfo(name), "y")
    with pytest.raises(ArchiveError, match=reason):
        safe_extract(archive, tmp_path / "out")


def test_corrupt_archive_is_a_clear_error(tmp_path):
    good = make_tar(tmp_path / "good.tar.gz", [(f"top/f{i}.txt", "file", "x" * 5000) for i in range(20)])
    truncated = tmp_path / "truncated.tar.gz"
    truncated.write_bytes(good.read_bytes()[:200])
    with pytest.raises(ArchiveError, match="corrupt or unreadable archive"):
        safe_extract(truncated, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_zip_extracts(tmp_path):
    archive = tmp_path / "ok.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("corpora/wordnet/LICENSE", "licence text")
    assert safe_extract(archive, tmp_path / "out") == ["corpora/wordnet/LICENSE"]
    assert (tmp_path / "out/corpora/wordnet/LICENSE").read_text() == "licence text"


def flipped_tarball(tmp_path):
    """A gzip tarball whose deflate data is stored (level 0), with one byte of a member's text flipped:
    the stream still decodes, into a corrupted member; only gzip's CRC-32 at its end tells."""
    text = b"the quick brown fox jumps over the lazy dog\n" * 200
    archive = tmp_path / "flipped.tar.gz"
    with tarfile.open(archive, "w:gz", compresslevel=0) as tf:
        info = tarfile.TarInfo("top/text.txt")
        info.size = len(text)
        tf.addfile(info, io.BytesIO(text))
    data = bytearray(archive.read_bytes())
    at = data.index(b"lazy dog")
    data[at] ^= 0x20  # "lazy" -> "Lazy"
    archive.write_bytes(bytes(data))
    return archive, text


def test_a_flipped_byte_in_a_gzip_tarball_is_refused_before_extraction(tmp_path):
    archive, text = flipped_tarball(tmp_path)
    with tarfile.open(archive) as tf:  # what tarfile alone does: no error, a corrupted member
        assert tf.extractfile("top/text.txt").read() != text
    with pytest.raises(ArchiveError, match=r"flipped.tar.gz: corrupt or unreadable archive \(BadGzipFile: CRC check "
                                           r"failed"):
        safe_extract(archive, tmp_path / "out")
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.partial").exists()


def test_a_corrupt_zip_member_is_refused(tmp_path):
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("corpora/x.txt", "some stored text " * 20)
    data = bytearray(archive.read_bytes())
    data[data.index(b"stored text")] ^= 0x20
    archive.write_bytes(bytes(data))
    with pytest.raises(ArchiveError, match=r"bad.zip: member 'corpora/x.txt' fails its CRC-32 check"):
        safe_extract(archive, tmp_path / "out")
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.partial").exists()


def test_extraction_is_capped_in_bytes_and_files(tmp_path):
    archive = make_tar(tmp_path / "big.tgz", [(f"top/f{i}.txt", "file", "x" * 1000) for i in range(5)])
    with pytest.raises(ArchiveError, match=r"big.tgz: 5 files of 5,000 bytes to extract; expected at most 100,000 "
                                           r"files and 4,999 bytes \(the extraction cap\)"):
        safe_extract(archive, tmp_path / "out", max_bytes=4999)
    with pytest.raises(ArchiveError, match=r"expected at most 4 files"):
        safe_extract(archive, tmp_path / "out", max_members=4)
    assert safe_extract(archive, tmp_path / "out", max_bytes=5000, max_members=5) == [f"top/f{i}.txt" for i in range(5)]


def test_a_gzip_bomb_is_refused_while_verifying(tmp_path):
    import gzip

    archive = tmp_path / "bomb.tar.gz"
    archive.write_bytes(gzip.compress(b"\0" * 3_000_000))
    with pytest.raises(ArchiveError, match=r"bomb.tar.gz: its gzip stream decompresses to more than"):
        safe_extract(archive, tmp_path / "out", max_bytes=1000, max_members=10)


def test_dot_slash_members_are_selected_by_their_normalised_names(tmp_path):
    archive = make_tar(tmp_path / "dot.tgz", [("./top/a.txt", "file", "A"), ("./top/b.txt", "file", "B")])
    assert safe_extract(archive, tmp_path / "out", members=["top/b.txt"]) == ["top/b.txt"]
    assert (tmp_path / "out/top/b.txt").read_text() == "B" and not (tmp_path / "out/top/a.txt").exists()
    assert not (tmp_path / "out.partial").exists()
    with pytest.raises(ArchiveError, match=r"members \['top/c.txt'\] not found"):
        safe_extract(archive, tmp_path / "out2", members=["top/c.txt"])
    assert not (tmp_path / "out2.partial").exists()


def test_two_members_of_one_name_are_refused(tmp_path):
    archive = make_tar(tmp_path / "twice.tgz", [("top/a.txt", "file", "first"), ("./top/a.txt", "file", "second")])
    with pytest.raises(ArchiveError, match=r"member 'top/a.txt': the archive holds two members of this name"):
        safe_extract(archive, tmp_path / "out")


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_any_failure_during_extraction_removes_the_partial_tree(tmp_path, monkeypatch, error):
    archive = make_tar(tmp_path / "ok.tgz", [("top/a.txt", "file", "A")])
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "previous.txt").write_text("kept")

    def fail(self, path, *args, **kwargs):
        (Path(path) / "top").mkdir(parents=True)
        raise error

    monkeypatch.setattr(tarfile.TarFile, "extractall", fail)
    with pytest.raises(OutputError if isinstance(error, OSError) else KeyboardInterrupt) as info:
        safe_extract(archive, tmp_path / "out")
    if isinstance(error, OSError):  # a full disk is the target's problem, not the archive's
        assert str(info.value).startswith(f"{tmp_path / 'out'}: cannot write: No space left on device")
    assert not (tmp_path / "out.partial").exists()
    assert (tmp_path / "out" / "previous.txt").read_text() == "kept"  # the previous extraction is untouched
