"""Foreign directories and hostile files: links under an output directory are never written through,
reading is bounded, a lone carriage return and a dangling link are named."""

import gzip
import os
import re

import pandas as pd
import pytest
from test_evalset import tiny  # this directory is on sys.path (no __init__.py)

from mtmeta import io
from mtmeta.app.evaluate import check_output_directory
from mtmeta.data import textio
from mtmeta.data.corpus import LANGUAGE_PAIR, split_lp, target_language
from mtmeta.data.evalset import manifest, read_evalset, update_manifest, write_evalset, write_metric_scores
from mtmeta.data.tables import read_table
from mtmeta.errors import InputError, OutputError

SYS = pd.DataFrame({"system": ["NA", "sys-2"], "score": [0.5, 0.25]})


def test_a_planted_tmp_link_is_not_written_through(tmp_path):
    # A downloaded release can carry a link where a fixed temporary name would be opened for writing.
    folder = tmp_path / "wmt99/metric-scores/de-en"
    folder.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (folder / "BLEU-refB.sys.score.tmp").symlink_to(victim)
    path = write_metric_scores(tmp_path / "wmt99", "de-en", "BLEU", "refB", "sys", SYS, systems=tiny().systems)
    assert victim.read_text() == "precious\n"
    assert not path.is_symlink() and path.read_text() == "NA\t0.5\nsys-2\t0.25\n"


def test_a_linked_directory_or_file_under_the_output_directory_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "wmt99/metric-scores").mkdir(parents=True)
    (tmp_path / "wmt99/metric-scores/de-en").symlink_to(elsewhere)
    with pytest.raises(OutputError) as info:
        write_metric_scores(tmp_path / "wmt99", "de-en", "BLEU", "refB", "sys", SYS, systems=tiny().systems)
    assert str(info.value) == (
        f"{tmp_path}/wmt99/metric-scores/de-en: cannot write: it is a symbolic link (to {elsewhere}), and mtmeta "
        f"never writes through a link under the output directory {tmp_path}/wmt99; expected a regular file or "
        "directory there, or none (remove the link)")
    assert list(elsewhere.iterdir()) == []
    (tmp_path / "wmt99/metric-scores/de-en").unlink()
    (tmp_path / "wmt99/metric-scores/de-en").mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / "wmt99/metric-scores/de-en/BLEU-refB.sys.score").symlink_to(victim)
    with pytest.raises(OutputError, match=r"BLEU-refB.sys.score: cannot write: it is a symbolic link"):
        write_metric_scores(tmp_path / "wmt99", "de-en", "BLEU", "refB", "sys", SYS, systems=tiny().systems)
    assert victim.read_text() == "precious\n"


def test_write_evalset_refuses_a_linked_folder_before_deleting_anything(tmp_path):
    write_evalset(tiny(), tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("x\n")
    outputs = tmp_path / "wmt99/system-outputs/de-en"
    for path in outputs.iterdir():
        path.unlink()
    outputs.rmdir()
    outputs.symlink_to(elsewhere)
    before = sorted(p.name for p in (tmp_path / "wmt99/references").iterdir())
    with pytest.raises(OutputError, match=r"system-outputs/de-en: cannot write: it is a symbolic link"):
        write_evalset(tiny(), tmp_path)
    assert [p.name for p in elsewhere.iterdir()] == ["keep.txt"]
    assert sorted(p.name for p in (tmp_path / "wmt99/references").iterdir()) == before


def test_an_atomic_write_under_a_root_refuses_a_link_but_a_named_file_may_be_one(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("old")
    (tmp_path / "out").mkdir()
    (tmp_path / "out/link.txt").symlink_to(target)
    with pytest.raises(OutputError, match="symbolic link"), io.atomic_path(tmp_path / "out/link.txt",
                                                                            root=tmp_path / "out"):
        pass
    io.write_text(tmp_path / "out/link.txt", "new")  # no root: the file the user named, followed
    assert target.read_text() == "new"


def test_the_current_directory_is_refused_as_an_output_directory_before_any_work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # empty: before, only the final rename failed, after all the work
    for out in (".", str(tmp_path), ".."):
        with pytest.raises(OutputError, match=r"cannot write: it is the current directory or one above it"):
            check_output_directory(io.Path(out))
    with pytest.raises(OutputError, match="current directory"), io.atomic_directory("."):
        pass
    check_output_directory(tmp_path / "new")  # a directory of its own is fine


def test_a_lone_carriage_return_is_named_by_every_line_reader(tmp_path):
    # Both files with a lone CR on line 2: sacrebleu (files) keeps 3 lines, its stdin and mt-metrics-eval 4.
    path = tmp_path / "hyp.txt"
    path.write_bytes(b"a b c\nd e\rf g\nh i\n")
    message = rf"{path}:2: carriage return \(\\r\) inside the line at column 4; expected lines ending in \\n or"
    with pytest.raises(InputError, match=message):
        textio.read_lines(path)
    table = tmp_path / "scores.tsv"
    table.write_bytes(b"system\tscore\nA\t1\r\nB\r\t2\n")
    with pytest.raises(InputError, match=rf"{table}:3: carriage return \(\\r\) inside the line at column 2"):
        read_table(table, {"system": "name", "score": "number"}, what="scores")
    path.write_bytes(b"a\r\nb\r\n")  # CRLF line ends are fine
    assert textio.read_lines(path) == ["a", "b"]


def test_a_gzip_bomb_is_refused_while_streaming(tmp_path, monkeypatch):
    bomb = tmp_path / "hyp.txt.gz"
    bomb.write_bytes(gzip.compress(b"a\n" * 5_000_000, 9))  # 10 MB from about 10 KB
    assert os.path.getsize(bomb) < 50_000
    monkeypatch.setattr(textio, "MAX_TEXT_BYTES", 4 * 2**20)
    with pytest.raises(InputError) as info:
        textio.read_lines(bomb)
    assert str(info.value) == (f"{bomb}: too large: gzip data that decompresses to more than 4,194,304 bytes (a "
                               "compression bomb?); expected at most 4,194,304 bytes of text, the most mtmeta reads "
                               "into memory (split the file, or check that it is the right one)")
    plain = tmp_path / "big.txt"
    plain.write_bytes(b"x" * (4 * 2**20 + 1))
    with pytest.raises(InputError, match=r"big.txt: too large: 4,194,305 bytes; expected at most 4,194,304"):
        textio.read_bytes(plain)
    assert textio.read_bytes(bomb, limit=10_000_000) == b"a\n" * 5_000_000


def test_a_dangling_link_is_named_with_its_target(tmp_path):
    write_evalset(tiny(), tmp_path)
    source = tmp_path / "wmt99/sources/de-en.txt"
    source.unlink()
    source.symlink_to(tmp_path / "gone.txt")
    with pytest.raises(InputError) as info:
        read_evalset(tmp_path, "wmt99", "de-en", std_ref="refA")
    assert str(info.value) == f"{source}: dangling symbolic link (to {tmp_path}/gone.txt, which does not exist); " \
                              "expected an existing file"


def test_entries_mt_metrics_eval_does_not_read_are_ignored_and_listed(tmp_path):
    # Before, a stray refB.txt~, a README or a .tsv refused the whole set.
    write_evalset(tiny(), tmp_path)
    base = tmp_path / "wmt99"
    (base / "references/de-en.refB.txt~").write_text("old\n")
    (base / "system-outputs/de-en/README").write_text("about\n")
    (base / "system-outputs/de-en/NA.tsv").write_text("x\n")
    (base / "system-outputs/de-en/.hidden.txt").write_text("x\n")
    evalset = read_evalset(tmp_path, "wmt99", "de-en", std_ref="refA")
    assert evalset.systems == ["NA", "refB", "sys-2"] and evalset.reference_names == ["refA", "refB"]
    assert evalset.ignored == ["system-outputs/de-en/.hidden.txt", "system-outputs/de-en/NA.tsv",
                               "system-outputs/de-en/README", "references/de-en.refB.txt~"]
    for system in evalset.systems:
        (base / f"system-outputs/de-en/{system}.txt").unlink()
    with pytest.raises(InputError) as info:
        read_evalset(tmp_path, "wmt99", "de-en", std_ref="refA")
    assert str(info.value) == (f"{base}/system-outputs/de-en: no system outputs (3 other entries ignored: .hidden.txt, "
                               "NA.tsv, README); expected one file <system>.txt (or .jsonl) per system of de-en, as "
                               "mt-metrics-eval reads them")


def test_a_system_given_as_txt_and_jsonl_is_named(tmp_path):
    write_evalset(tiny(), tmp_path)
    (tmp_path / "wmt99/system-outputs/de-en/NA.jsonl").write_text("{}\n")
    with pytest.raises(InputError, match=r"NA.txt and NA.jsonl: system NA is given twice; expected one file per "
                                         r"system"):
        read_evalset(tmp_path, "wmt99", "de-en", std_ref="refA")


def test_the_manifest_changes_with_any_file_of_the_pair_and_only_then(tmp_path):
    write_evalset(tiny(), tmp_path / "data")
    target = tmp_path / "manifests/de-en.tsv"
    assert update_manifest(target, tmp_path / "data", "wmt99", "de-en")
    lines = target.read_text().splitlines()
    assert lines[0] == "path\tsize\tsha256" and lines[1].startswith("sources/de-en.txt\t18\t")
    assert [line.split("\t")[0] for line in lines[1:]] == [
        "sources/de-en.txt", "documents/de-en.docs", "references/de-en.refA.txt", "references/de-en.refB.txt",
        "system-outputs/de-en/NA.txt", "system-outputs/de-en/refB.txt", "system-outputs/de-en/sys-2.txt",
        "human-scores/de-en.mqm.doc.score", "human-scores/de-en.mqm.seg.score", "human-scores/de-en.mqm.sys.score",
        "human-scores/de-en.wmt-z.sys.score"]
    before = target.stat().st_mtime_ns
    assert not update_manifest(target, tmp_path / "data", "wmt99", "de-en")  # unchanged: not rewritten
    assert target.stat().st_mtime_ns == before
    output = tmp_path / "data/wmt99/system-outputs/de-en/sys-2.txt"
    times = os.stat(output)
    output.write_text(output.read_text().replace("Dos", "Zwo"))  # same size, same time
    os.utime(output, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert update_manifest(target, tmp_path / "data", "wmt99", "de-en")
    (tmp_path / "data/wmt99/system-outputs/de-en/new.txt").write_text("a\nb\nc\n")
    assert update_manifest(target, tmp_path / "data", "wmt99", "de-en")
    assert "system-outputs/de-en/new.txt\t6\t" in target.read_text()
    assert manifest(tmp_path / "data", "wmt99", "en-de") == (  # another pair: nothing of de-en
        "path\tsize\tsha256\nsources/en-de.txt\t-\t-\ndocuments/en-de.docs\t-\t-\n")


def test_locale_pairs_as_mt_metrics_eval_names_them(tmp_path):
    evalset = tiny()
    for lp in ("en-ko_KR", "en-sr_Cyrl_RS", "cs-de_DE"):
        evalset.lp = lp
        write_evalset(evalset, tmp_path)
        assert read_evalset(tmp_path, "wmt99", lp, std_ref="refA").systems == ["NA", "refB", "sys-2"]
    assert split_lp("en-ko_KR") == ("en", "ko") and target_language("en-sr_Cyrl_RS") == "sr"
    assert re.fullmatch(LANGUAGE_PAIR, "en-ko_KR") and not re.fullmatch(LANGUAGE_PAIR, "en-ko_kr")


def test_check_config_accepts_a_locale_pair(tmp_path):
    from mtmeta.app.config import load_config

    path = tmp_path / "c.yaml"
    # chrF, since BLEU's default tokeniser for Korean (ko-mecab) needs packages that check-config asks for
    path.write_text("metrics: [chrf]\ndatasets:\n  wmt25:\n    description: x\n    kind: mtme\n"
                    "    evalset: {path: data}\n    testset: wmt25\n    human_score: mqm\n"
                    "    language_pairs: [en-ko_KR, en-sr_Cyrl_RS]\n")
    assert load_config([str(path)])["datasets"]["wmt25"]["language_pairs"] == ["en-ko_KR", "en-sr_Cyrl_RS"]


def test_a_huge_header_is_not_echoed_whole(tmp_path):
    path = tmp_path / "scores.tsv"
    header = "\t".join(f"column{i}" for i in range(60_000))  # about 600 KB
    path.write_text(header + "\nA\t1\n")
    with pytest.raises(InputError) as info:
        read_table(path, {"system": "name", "score": "number"}, what="scores")
    message = str(info.value)
    assert len(message) < 5000 and message.startswith(f"{path}:1: no 'system', 'score' columns (header: ['column0'")
    assert "characters left out] ... " in message and message.endswith("then one row per line")


def test_the_score_command_names_a_lone_carriage_return(tmp_path, capsys):
    from mtmeta.app.cli import main

    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    for path in (ref, hyp):  # sacrebleu scores 3 segments from these files, and 4 from hyp.txt on stdin
        path.write_bytes(b"a b c\nd e\rf g\nh i\n")
    assert main(["score", str(ref), "-i", str(hyp), "-m", "bleu"]) == 2
    err = capsys.readouterr().err
    assert f"{ref}:2: carriage return (\\r) inside the line at column 4" in err and "Traceback" not in err
