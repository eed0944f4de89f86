"""A source that is a set of files of a repository at a commit: one sha256 per file for both origins."""

import hashlib
import http.server
import json
import threading
from functools import partial

import pytest

from mtmeta.data.fetch import FILES, fetch, files_digest, plan_fetch
from mtmeta.errors import ConfigError, FetchError

CONTENT = {"README.md": b"read me\n", "ted/ende/scores v1.tsv": b"system\tscore\nA\t1\n"}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def spec(url="https://raw.example.org/owner/repo/0123abcd/", **overrides) -> dict:
    return {"upstream": {"url": url}, "mirror": {"path": "wmt21/repo"},
            "files": {path: sha(data) for path, data in CONTENT.items()}, **overrides}


@pytest.fixture
def repository(tmp_path):
    """The repository's folder (as in the mirror), also served over HTTP at <url>/owner/repo/0123abcd/."""
    www = tmp_path / "www"
    for root in (tmp_path / "mirror/wmt21/repo", www / "owner/repo/0123abcd"):
        for path, data in CONTENT.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_bytes(data)
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(www))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield tmp_path / "mirror", f"http://127.0.0.1:{server.server_address[1]}/owner/repo/0123abcd/"
    server.shutdown()


def test_plan_uses_the_mirror_folder_or_the_raw_base_url(tmp_path):
    mirrored = plan_fetch("repo", spec(), tmp_path)
    assert (mirrored.origin, mirrored.location, mirrored.filename) == ("mirror", str(tmp_path / "wmt21/repo"), FILES)
    upstream = plan_fetch("repo", spec(), None)
    assert (upstream.origin, upstream.location) == ("upstream", "https://raw.example.org/owner/repo/0123abcd/")
    assert upstream.files == tuple(sorted((p, sha(d)) for p, d in CONTENT.items())) and not upstream.archive
    # One digest for the set: the sha256 of its sha256sum-style listing, sorted by path.
    listing = "".join(f"{sha(CONTENT[p])}  {p}\n" for p in sorted(CONTENT)).encode()
    assert upstream.sha256 == mirrored.sha256 == files_digest(upstream.files) == sha(listing)


def test_fetch_from_mirror_and_from_upstream_give_the_same_files(repository, tmp_path):
    mirror, url = repository
    plans = {"mirror": plan_fetch("repo", spec(url), mirror), "upstream": plan_fetch("repo", spec(url), None)}
    for origin, plan in plans.items():
        manifest = fetch(plan, tmp_path / origin / "repo")
        for path, data in CONTENT.items():
            assert (tmp_path / origin / "repo" / FILES / path).read_bytes() == data
        assert manifest["origin"] == origin and manifest["verified"] and not manifest["archive"]
        assert manifest["files"] == {p: sha(d) for p, d in CONTENT.items()}
        assert manifest["bytes"] == sum(map(len, CONTENT.values())) and manifest["file"] == FILES
        assert json.loads((tmp_path / origin / "repo/manifest.json").read_text()) == manifest
        assert not (tmp_path / origin / "repo" / (FILES + ".partial")).exists()


def test_wrong_sha256_names_the_file_and_leaves_nothing(repository, tmp_path):
    mirror, url = repository
    bad = spec(url, files={**spec()["files"], "README.md": "0" * 64})
    for plan in (plan_fetch("repo", bad, mirror), plan_fetch("repo", bad, None)):
        with pytest.raises(FetchError) as info:
            fetch(plan, tmp_path / "res/repo")
        message = str(info.value)
        assert "README.md" in message and "0" * 64 in message and sha(CONTENT["README.md"]) in message
        assert "sources.repo.files" in message
        assert not (tmp_path / "res/repo" / FILES).exists() and not (tmp_path / "res/repo/manifest.json").exists()
        assert not (tmp_path / "res/repo" / (FILES + ".partial")).exists()


def test_missing_file_in_the_mirror_or_upstream(repository, tmp_path):
    mirror, url = repository
    missing = spec(url, files={**spec()["files"], "absent.tsv": sha(b"")})
    with pytest.raises(FetchError, match=r"mirror file .*wmt21/repo/absent.tsv is missing.*0123abcd/absent.tsv"):
        fetch(plan_fetch("repo", missing, mirror), tmp_path / "res/repo")
    with pytest.raises(FetchError, match=r"absent.tsv failed after 1 attempts.*404"):
        fetch(plan_fetch("repo", missing, None), tmp_path / "res/repo", retries=1)
    assert not (tmp_path / "res/repo" / (FILES + ".partial")).exists()


@pytest.mark.parametrize(("change", "message"), [
    ({"files": {}}, r"sources.repo.files: expected a non-empty mapping"),
    ({"files": {"../outside.txt": "0" * 64}}, r"'../outside.txt' is not a plain relative path"),
    ({"files": {"/etc/passwd": "0" * 64}}, r"'/etc/passwd' is not a plain relative path"),
    ({"files": {"a/./b.txt": "0" * 64}}, r"'a/./b.txt' is not a plain relative path"),
    ({"files": {"a.txt": "xyz"}}, r"sources.repo.files.a.txt: 'xyz' is not a sha256"),
    ({"upstream": {"url": "https://raw.example.org/owner/repo/0123abcd"}}, r"must end with '/'"),
    ({"upstream": {"url": "https://raw.example.org/r/", "sha256": "0" * 64}},
     r"sources.repo.upstream.sha256: .*one sha256 per file"),
    ({"extract_prefix": "x"}, r"sources.repo.extract_prefix: a source with files is not an archive"),
])
def test_bad_catalogue_entries_name_the_key(change, message):
    with pytest.raises(ConfigError, match=message):
        plan_fetch("repo", {**spec(), **change}, None)
