import io
import tarfile
import zipfile

import pytest

from mtmeta.data.archive import safe_extract
from mtmeta.errors import ArchiveError


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
