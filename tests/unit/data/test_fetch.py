import hashlib
import http.server
import json
import threading
from functools import partial

import pytest

from mtmeta.data.fetch import MIRROR_ENV, fetch, plan_fetch, resolve_mirror
from mtmeta.errors import FetchError

SPEC = {
    "upstream": {"url": "http://example.org/data/judgments.tgz", "format": "wmt_ranking_csv", "member": "j/x.csv"},
    "mirror": {"path": "sub/judgments.tsv.gz", "format": "pairwise_tsv"},
}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def mirror_dir(tmp_path):
    (tmp_path / "mirror/sub").mkdir(parents=True)
    (tmp_path / "mirror/sub/judgments.tsv.gz").write_bytes(b"payload")
    return tmp_path / "mirror"


def test_plan_prefers_mirror_and_uses_its_format(mirror_dir):
    plan = plan_fetch("j", SPEC, mirror_dir)
    assert (plan.origin, plan.filename, plan.format) == ("mirror", "judgments.tsv.gz", "pairwise_tsv")
    assert plan.member == "j/x.csv"  # inherited from upstream when the mirror does not override it
    upstream = plan_fetch("j", SPEC, None)
    assert (upstream.origin, upstream.location, upstream.filename, upstream.format) == (
        "upstream", "http://example.org/data/judgments.tgz", "judgments.tgz", "wmt_ranking_csv")
    assert upstream.archive and not plan.archive


def test_resolve_mirror(tmp_path, monkeypatch):
    monkeypatch.delenv(MIRROR_ENV, raising=False)
    project = tmp_path / "work/project"
    project.mkdir(parents=True)
    assert resolve_mirror("auto", [project]) is None
    (tmp_path / "work/shared/data").mkdir(parents=True)
    assert resolve_mirror("auto", [project]) == (tmp_path / "work/shared/data").resolve()
    assert resolve_mirror("none", [project]) is None
    other = tmp_path / "elsewhere"
    other.mkdir()
    monkeypatch.setenv(MIRROR_ENV, str(other))
    assert resolve_mirror("auto", [project]) == other.resolve()
    with pytest.raises(FetchError, match=r"does not exist.*data_mirror: none"):
        resolve_mirror(str(tmp_path / "missing"), [project])
    monkeypatch.setenv(MIRROR_ENV, str(tmp_path / "missing-too"))
    with pytest.raises(FetchError, match=f"environment variable {MIRROR_ENV}"):
        resolve_mirror("auto", [project])


def test_fetch_from_mirror_verifies_and_writes_manifest(mirror_dir, tmp_path):
    spec = {**SPEC, "mirror": {**SPEC["mirror"], "sha256": sha(b"payload")}}
    manifest = fetch(plan_fetch("j", spec, mirror_dir), tmp_path / "res/j")
    assert (tmp_path / "res/j/judgments.tsv.gz").read_bytes() == b"payload"
    on_disk = json.loads((tmp_path / "res/j/manifest.json").read_text())
    assert on_disk == manifest
    assert manifest["verified"] is True and manifest["sha256"] == sha(b"payload") and manifest["origin"] == "mirror"


def test_checksum_mismatch_names_source_location_and_remedy(mirror_dir, tmp_path):
    spec = {**SPEC, "mirror": {**SPEC["mirror"], "sha256": "0" * 64}}
    with pytest.raises(FetchError) as info:
        fetch(plan_fetch("j", spec, mirror_dir), tmp_path / "res/j")
    message = str(info.value)
    assert "'j'" in message and "judgments.tsv.gz" in message and "0" * 64 in message and sha(b"payload") in message
    assert "config/sources.yaml" in message
    assert not (tmp_path / "res/j/judgments.tsv.gz").exists()
    assert not (tmp_path / "res/j/manifest.json").exists()


def test_missing_mirror_file(tmp_path):
    (tmp_path / "mirror").mkdir()
    with pytest.raises(FetchError) as info:
        fetch(plan_fetch("j", SPEC, tmp_path / "mirror"), tmp_path / "res/j")
    assert "mirror file" in str(info.value) and "http://example.org/data/judgments.tgz" in str(info.value)


@pytest.fixture
def http_server(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    (root / "file.txt").write_bytes(b"served bytes\n")
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_upstream_download(http_server, tmp_path):
    spec = {"upstream": {"url": f"{http_server}/file.txt", "sha256": sha(b"served bytes\n")}}
    manifest = fetch(plan_fetch("s", spec, None), tmp_path / "res/s")
    assert (tmp_path / "res/s/file.txt").read_bytes() == b"served bytes\n"
    assert manifest["origin"] == "upstream" and manifest["verified"]


def test_upstream_checksum_mismatch(http_server, tmp_path):
    spec = {"upstream": {"url": f"{http_server}/file.txt", "sha256": "f" * 64}}
    with pytest.raises(FetchError, match="checksum mismatch"):
        fetch(plan_fetch("s", spec, None), tmp_path / "res/s")


def test_failed_download_names_url_and_remedy(http_server, tmp_path):
    spec = {"upstream": {"url": f"{http_server}/missing.txt"}}
    with pytest.raises(FetchError) as info:
        fetch(plan_fetch("s", spec, None), tmp_path / "res/s", retries=1)
    assert f"{http_server}/missing.txt" in str(info.value) and "404" in str(info.value)
    assert "mirror" in str(info.value)
    assert not (tmp_path / "res/s/missing.txt").exists()


def test_a_source_without_a_sha256_for_its_origin_is_refused(http_server, mirror_dir, tmp_path):
    """The file is obtained, so that the message can give its sha256 to check and pin, then refused;
    nothing is left in the resources directory."""
    upstream = {"upstream": {"url": f"{http_server}/file.txt"}}
    with pytest.raises(FetchError) as info:
        fetch(plan_fetch("s", upstream, None), tmp_path / "res/s")
    assert str(info.value) == (
        f"source 's': no sha256 for its upstream origin (sources.s.upstream.sha256 in the data catalogue, "
        f"config/sources.yaml), so {http_server}/file.txt cannot be verified and is not used. It has sha256 "
        f"{sha(b'served bytes' + bytes([10]))} (13 bytes): if you trust this copy, add that value under that key.")
    assert list((tmp_path / "res/s").iterdir()) == []
    with pytest.raises(FetchError, match=r"no sha256 for its mirror origin \(sources.j.mirror.sha256"):
        fetch(plan_fetch("j", SPEC, mirror_dir), tmp_path / "res/j")  # SPEC's mirror has no sha256
    assert list((tmp_path / "res/j").iterdir()) == []


def test_missing_checksums_names_the_keys_of_the_origins_used(mirror_dir):
    from mtmeta.data.fetch import missing_checksums

    sources = {"j": SPEC, "u": {"upstream": {"url": "http://x/u.txt", "sha256": "a" * 64}},
               "m": {"upstream": {"url": "http://x/m.txt"}, "mirror": {"path": "m.txt", "sha256": "b" * 64}}}
    assert missing_checksums(sources, mirror_dir) == ["sources.j.mirror.sha256"]
    assert missing_checksums(sources, None) == ["sources.j.upstream.sha256", "sources.m.upstream.sha256"]
    assert missing_checksums(sources, None, used=["u", "m"]) == ["sources.m.upstream.sha256"]


def test_a_failed_download_or_copy_leaves_no_part_file(http_server, mirror_dir, tmp_path, monkeypatch):
    spec = {"upstream": {"url": f"{http_server}/missing.txt", "sha256": "f" * 64}}
    with pytest.raises(FetchError):
        fetch(plan_fetch("s", spec, None), tmp_path / "res/s", retries=1)
    assert list((tmp_path / "res/s").iterdir()) == []
    import mtmeta.data.fetch as fetch_module

    def interrupted(src, dst, total, label):
        open(dst, "wb").write(b"half")
        raise KeyboardInterrupt

    monkeypatch.setattr(fetch_module, "_copy_with_hash", interrupted)
    spec = {**SPEC, "mirror": {**SPEC["mirror"], "sha256": sha(b"payload")}}
    with pytest.raises(KeyboardInterrupt):
        fetch(plan_fetch("j", spec, mirror_dir), tmp_path / "res/j")
    assert list((tmp_path / "res/j").iterdir()) == []


def test_a_full_disk_is_named_and_not_retried(http_server, tmp_path, monkeypatch):
    import builtins

    from mtmeta.errors import OutputError

    real_open, calls = builtins.open, []

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def write(self, data):
            calls.append(len(data))
            raise OSError(28, "No space left on device")

        def close(self):
            self.handle.close()

    def full_open(path, mode="r", *args, **kwargs):
        handle = real_open(path, mode, *args, **kwargs)
        return Full(handle) if str(path).endswith(".part") else handle

    monkeypatch.setattr(builtins, "open", full_open)
    spec = {"upstream": {"url": f"{http_server}/file.txt", "sha256": sha(b"served bytes\n")}}
    with pytest.raises(OutputError, match=r"res/s/file.txt.part: cannot write: No space left on device"):
        fetch(plan_fetch("s", spec, None), tmp_path / "res/s", retries=3)
    monkeypatch.undo()
    assert calls == [13]  # one attempt: a full disk is not a network error to retry
    assert list((tmp_path / "res/s").iterdir()) == []
