"""A table rule's per-pair pieces (mtmeta.table_cache): reused only while every input, parameter and
line of code is the same, and the same bytes whether reused or computed."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mtmeta.table_cache import TableCache, code_digest


@pytest.fixture
def study(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rule.py").write_text("# the rule's script\n")
    (tmp_path / "in.tsv").write_text("system\tscore\nA\t1\n")
    return tmp_path


def cache(study) -> TableCache:
    return TableCache(study / "rule.py", root=study / "results" / "cache")


def writer(calls: list, text: str):
    """A computation that writes ``text`` to out.tsv and records that it ran."""
    def compute():
        calls.append(text)
        Path("out.tsv").write_text(text)
    return compute


def test_a_piece_is_computed_once_and_then_copied(study):
    calls = []
    first = cache(study)
    key = first.key(["in.tsv"], {"level": 0.05})
    assert first.files(key, ["out.tsv"], writer(calls, "computed\n")) is False
    assert calls == ["computed\n"] and first.computed == 1 and first.reused == 0
    (study / "out.tsv").unlink()
    second = cache(study)  # the next job
    assert second.key(["in.tsv"], {"level": 0.05}) == key
    assert second.files(key, ["out.tsv"], writer(calls, "other\n")) is True
    assert calls == ["computed\n"]  # not computed again
    assert (study / "out.tsv").read_text() == "computed\n"
    assert second.summary().startswith("1 of 1 pieces reused")


@pytest.mark.parametrize("change", ["input bytes", "input name", "parameter", "script"])
def test_the_key_changes_with_every_thing_the_piece_is_computed_from(study, change):
    key = cache(study).key(["in.tsv"], {"level": 0.05})
    inputs, params = ["in.tsv"], {"level": 0.05}
    if change == "input bytes":
        (study / "in.tsv").write_text("system\tscore\nA\t2\n")
    elif change == "input name":
        (study / "in.tsv").rename(study / "other.tsv")
        inputs = ["other.tsv"]
    elif change == "parameter":
        params = {"level": 0.01}
    else:
        (study / "rule.py").write_text("# edited\n")
        code_digest.cache_clear()
    assert cache(study).key(inputs, params) != key


def test_a_piece_with_a_file_missing_is_computed_again(study):
    calls = []
    first = cache(study)
    key = first.key(["in.tsv"], {})
    (study / "b.tsv").write_text("b\n")
    first.files(key, ["out.tsv", "b.tsv"], writer(calls, "one\n"))
    piece = study / "results" / "cache" / "rule" / key
    assert sorted(p.name for p in piece.iterdir()) == ["0.tsv", "1.tsv"]
    (piece / "1.tsv").unlink()
    assert cache(study).files(key, ["out.tsv", "b.tsv"], writer(calls, "two\n")) is False
    assert calls == ["one\n", "two\n"]


def test_a_table_reads_back_the_same_whether_reused_or_computed(study):
    table = pd.DataFrame({"dataset": ["wmt12", "wmt12"], "metric": ["NA", "bleu"], "value": [0.1 + 0.2, np.nan],
                          "pairs": [3, 4], "recorded": [True, False]})
    first = cache(study)
    key = first.key(["in.tsv"], {})
    computed = first.frame(key, lambda: table)
    reused = cache(study).frame(key, lambda: pytest.fail("computed again"))
    pd.testing.assert_frame_equal(computed, table)
    pd.testing.assert_frame_equal(reused, table)
    assert reused.to_csv(sep="\t", float_format="%.17g") == table.to_csv(sep="\t", float_format="%.17g")


def test_a_job_keeps_only_the_pieces_it_used(study):
    first = cache(study)
    old = first.key(["in.tsv"], {"pair": "old"})
    first.frame(old, lambda: pd.DataFrame({"a": [1]}))
    second = cache(study)
    new = second.key(["in.tsv"], {"pair": "new"})
    second.frame(new, lambda: pd.DataFrame({"a": [2]}))
    second.prune()
    assert [p.name for p in (study / "results" / "cache" / "rule").iterdir()] == [new]


def test_an_input_directory_stands_for_every_file_under_it(study):
    (study / "root" / "news").mkdir(parents=True)
    (study / "root" / "news" / "en-de.mqm.seg.score").write_text("A\t-1\n")
    key = cache(study).key(["root"], {})
    assert cache(study).key(["root"], {}) == key
    (study / "root" / "news" / "en-de.mqm.seg.score").write_text("A\t-2\n")
    changed = cache(study).key(["root"], {})
    assert changed != key
    (study / "root" / "news" / "zh-en.mqm.seg.score").write_text("A\t-2\n")  # a file more
    more = cache(study).key(["root"], {})
    assert more not in (key, changed)
    # a linked-in directory counts by its files; a link back up (a loop) is read once
    (study / "ted").mkdir()
    (study / "ted" / "en-de.mqm.seg.score").write_text("A\t-3\n")
    (study / "root" / "ted").symlink_to(study / "ted")
    (study / "root" / "news" / "up").symlink_to(study / "root")
    linked = cache(study).key(["root"], {})
    assert linked != more
    (study / "ted" / "en-de.mqm.seg.score").write_text("A\t-4\n")
    assert cache(study).key(["root"], {}) not in (linked, more)


def test_a_directory_output_is_kept_and_copied_as_a_tree(study):
    def compute():
        (study / "out" / "scores").mkdir(parents=True, exist_ok=True)
        (study / "out" / "run.json").write_text('{"k": 1000}\n')
        (study / "out" / "scores" / "mine.seg.tsv").write_text("lp\tscore\n")
        Path("out.tsv").write_text("table\n")

    first = cache(study)
    key = first.key(["in.tsv"], {})
    assert first.files(key, ["out.tsv"], compute, directories=("out",)) is False
    for path in ("out/run.json", "out/scores/mine.seg.tsv", "out.tsv"):
        (study / path).unlink()
    (study / "out" / "stale.tsv").write_text("from an older run\n")
    second = cache(study)
    assert second.files(key, ["out.tsv"], lambda: pytest.fail("computed again"), directories=("out",)) is True
    assert sorted(p.relative_to(study / "out").as_posix() for p in (study / "out").rglob("*")) == [
        "run.json", "scores", "scores/mine.seg.tsv"]  # the stored tree, nothing else
    assert (study / "out" / "run.json").read_text() == '{"k": 1000}\n'
    assert (study / "out.tsv").read_text() == "table\n"


def test_the_jobs_of_one_rule_keep_their_pieces_apart(study):
    one, two = (TableCache(study / "rule.py", root=study / "results" / "cache", job=name) for name in ("a", "b"))
    one.frame(one.key(["in.tsv"], {"job": "a"}), lambda: pd.DataFrame({"a": [1]}))
    two.frame(two.key(["in.tsv"], {"job": "b"}), lambda: pd.DataFrame({"a": [2]}))
    one.prune()
    two.prune()
    assert sorted(p.parent.name for p in (study / "results" / "cache" / "rule").glob("*/*")) == ["a", "b"]
    with pytest.raises(ValueError, match="one path component"):
        TableCache(study / "rule.py", job="../elsewhere")
