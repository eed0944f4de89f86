"""One name policy at every reader: a name mt-metrics-eval's writer could not write back, or one that
would collide with a table's column, is refused where it is read, naming the file and line."""

import pandas as pd
import pytest
from test_evalset import tiny  # this directory is on sys.path (no __init__.py)

from mtmeta.data.evalset import read_evalset, write_evalset
from mtmeta.data.prepare import prepare
from mtmeta.data.tables import read_table
from mtmeta.errors import InputError

DS = {"kind": "mtme", "testset": "wmt99", "language_pairs": ["de-en"], "description": "toy", "human_score": "mqm",
      "references": {"de-en": "refA"}}


@pytest.mark.parametrize(("name", "what"), [("my sys", "' ', U+0020 at position 3"),
                                            ("my\tsys", "'\\t', U+0009 at position 3"),
                                            ("my\nsys", "'\\n', U+000A at position 3"),
                                            ("my\u2028sys", "'\\u2028', U+2028 at position 3")])
def test_a_system_named_with_whitespace_is_refused_when_read(tmp_path, name, what):
    # Before, it was scored, and only the export to mt-metrics-eval's layout failed.
    write_evalset(tiny(), tmp_path)
    outputs = tmp_path / "wmt99/system-outputs/de-en"
    (outputs / "sys-2.txt").rename(outputs / f"{name}.txt")
    with pytest.raises(InputError) as info:
        read_evalset(tmp_path, "wmt99", "de-en", std_ref="refA")
    assert str(info.value) == (
        f"{outputs / name}.txt: system name {name!r} contains whitespace ({what}); expected a system name non-empty, "
        "without whitespace or control characters, no '/' or leading '.' (mt-metrics-eval's score files split on "
        "whitespace)")


@pytest.mark.parametrize("name", ["system", "seg_id"])
def test_a_human_score_named_like_a_column_is_refused_when_read(tmp_path, name):
    write_evalset(tiny(), tmp_path)
    scores = tmp_path / "wmt99/human-scores"
    (scores / "de-en.wmt-z.sys.score").rename(scores / f"de-en.{name}.sys.score")
    with pytest.raises(InputError) as info:
        prepare("toy", {**DS, "evalset": {"path": str(tmp_path)}}, "de-en", tmp_path)
    assert str(info.value).startswith(
        f"{scores}/de-en.{name}.sys.score: human score name {name!r} is the name of a column of mtmeta's tables "
        "(reserved: dataset, doc, domain, hypothesis, item, level, line, lp, metric, name, reference, score, seg_id, "
        "source, system); expected a human score name non-empty, without whitespace or control characters, not a "
        "reserved column name")
    evalset = tiny()
    evalset.human["sys"] = evalset.human["sys"].assign(name=name)
    with pytest.raises(ValueError, match=rf"human score name '{name}' is the name of a column"):
        write_evalset(evalset, tmp_path / "out")


def test_a_table_name_with_a_control_character_or_line_separator_is_named(tmp_path):
    path = tmp_path / "scores.tsv"
    path.write_text("system\tscore\nA\t1\nB\x1bC\t2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"scores.tsv:3: system 'B\\x1bC' contains a control character \('\\x1b', "
                                         r"U\+001B at position 2\); expected a system name non-empty"):
        read_table(path, {"system": "name", "score": "number"}, what="scores")
    path.write_text("system\tscore\nA\t1\nB C\t2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"scores.tsv:3: system 'B C' contains whitespace \(' ', U\+0020 at "
                                         r"position 2\)"):
        read_table(path, {"system": "name", "score": "number"}, what="scores")


def test_a_human_score_at_the_doc_level_only_is_named(tmp_path):
    evalset = tiny()
    evalset.human = {"doc": evalset.human["doc"]}
    write_evalset(evalset, tmp_path)
    with pytest.raises(InputError) as info:
        prepare("toy", {**DS, "evalset": {"path": str(tmp_path)}}, "de-en", tmp_path)
    assert str(info.value) == (
        f"{tmp_path}/wmt99: de-en has no sys- or seg-level human score 'mqm' (it has none at the sys or seg level; "
        "unused: mqm (doc level only)); expected human-scores/de-en.mqm.sys.score or .seg.score. Set the dataset's "
        "human_score to one it has")
    assert pd.notna(evalset.human["doc"]["score"]).any()
