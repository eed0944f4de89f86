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
