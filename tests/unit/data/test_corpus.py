import pytest

from mtmeta.data.corpus import Layout, discover_systems, load_segments
from mtmeta.data.report import Report
from mtmeta.errors import InputError

WMT12_LAYOUT = Layout(
    reference="d/plain/references/test-ref.{trg}",
    source="d/plain/sources/test-src.{src}",
    system="d/plain/system-outputs/{lp}/test.{lp}.{system}",
)
WMT14_LAYOUT = Layout(
    reference="d/txt/references/test-{pair}-ref.{trg}",
    source="d/txt/sources/test-{pair}-src.{src}",
    system="d/txt/system-outputs/{lp}/test.{system}.{lp}",
)


def write(path, lines, raw=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw if raw is not None else ("\n".join(lines) + "\n").encode())


@pytest.fixture
def corpus(tmp_path):
    write(tmp_path / "d/plain/references/test-ref.cs", ["r1", "r2", "r3"])
    write(tmp_path / "d/plain/sources/test-src.en", ["s1", "s2", "s3"])
    out = tmp_path / "d/plain/system-outputs/en-cs"
    write(out / "test.en-cs.alpha", ["a1", "a2", "a3"])
    write(out / "test.en-cs.beta.2", ["b1", "", "b3"])
    write(out / ".DS_Store", [], raw=b"\x00\x80binary")
    write(out / "test.en-cs.alpha~", ["x"])
    write(out / "README", ["not a system"])
    return tmp_path


def test_segments_table(corpus):
    report = Report()
    table = load_segments(corpus, WMT12_LAYOUT, "en-cs", report=report)
    assert list(table.columns) == ["system", "seg_id", "hypothesis", "reference", "source"]
    assert table["system"].tolist() == ["alpha"] * 3 + ["beta.2"] * 3
    assert table["seg_id"].tolist() == [1, 2, 3, 1, 2, 3]
    assert table.loc[table.system == "beta.2", "hypothesis"].tolist() == ["b1", "", "b3"]
    assert table["reference"].tolist() == ["r1", "r2", "r3"] * 2 and table["source"].tolist()[:3] == ["s1", "s2", "s3"]
    excluded = {row["detail"]: row["action"] for row in report.rows}
    assert set(excluded) == {".DS_Store", "test.en-cs.alpha~", "README"}
    assert "does not match" in excluded["README"] and "hidden, backup" in excluded[".DS_Store"]


def test_line_count_mismatch_names_both_files_and_counts(corpus):
    write(corpus / "d/plain/system-outputs/en-cs/test.en-cs.short", ["only", "two"])
    with pytest.raises(InputError) as info:
        load_segments(corpus, WMT12_LAYOUT, "en-cs")
    message = str(info.value)
    assert "test.en-cs.short" in message and "test-ref.cs" in message
    assert "has 2 lines" in message and "has 3" in message


def test_non_utf8_system_output(corpus):
    write(corpus / "d/plain/system-outputs/en-cs/test.en-cs.latin1", [], raw="ok\nčau\n".encode("latin-1", "replace")
          + b"\xe8\n")
    with pytest.raises(InputError, match=r"test.en-cs.latin1:3: invalid UTF-8 byte\(s\) e8"):
        load_segments(corpus, WMT12_LAYOUT, "en-cs")


def test_wmt14_pair_template(tmp_path):
    for lp in ("en-cs", "cs-en"):
        src, trg = lp.split("-")
        write(tmp_path / f"d/txt/references/test-csen-ref.{trg}", ["r"])
        write(tmp_path / f"d/txt/sources/test-csen-src.{src}", ["s"])
        write(tmp_path / f"d/txt/system-outputs/{lp}/test.onlineA.0.{lp}", ["h"])
    assert list(discover_systems(tmp_path, WMT14_LAYOUT, "en-cs")) == ["onlineA.0"]
    table = load_segments(tmp_path, WMT14_LAYOUT, "cs-en")
    assert table.iloc[0][["system", "hypothesis", "reference", "source"]].tolist() == ["onlineA.0", "h", "r", "s"]


def test_no_systems_is_an_error(tmp_path):
    write(tmp_path / "d/plain/references/test-ref.cs", ["r"])
    write(tmp_path / "d/plain/sources/test-src.en", ["s"])
    (tmp_path / "d/plain/system-outputs/en-cs").mkdir(parents=True)
    with pytest.raises(InputError, match="no system outputs for en-cs"):
        load_segments(tmp_path, WMT12_LAYOUT, "en-cs")


def test_language_pair_parts_and_target():
    from mtmeta.data.corpus import split_lp, target_language
    from mtmeta.errors import ConfigError

    assert split_lp("en-cs") == ("en", "cs") and target_language("xx-en") == "en"
    with pytest.raises(ConfigError, match="'en_cs' must look like 'src-trg'"):
        target_language("en_cs")
