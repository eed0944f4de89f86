"""mt-metrics-eval's score files: ``[DOMAIN] SYSNAME SCORE`` lines, read strictly and written so that
they read back as the same doubles."""

import numpy as np
import pandas as pd
import pytest

from mtmeta.data.mtme_scores import format_score, read_score_file, score_lines
from mtmeta.errors import InputError


def write(tmp_path, text, name="x.seg.score"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_segment_blocks_with_none(tmp_path):
    # Unbabel's files: system<TAB>score, one block per system; mt-metrics-eval splits on any whitespace.
    table = read_score_file(write(tmp_path, "sysA\t1.5\nsysA\tNone\nsysB 2\nsysB\t-0.25\n"), "seg", human=True)
    assert list(table["system"]) == ["sysA", "sysA", "sysB", "sysB"] and list(table["item"]) == [1, 2, 1, 2]
    assert table["score"].iloc[0] == 1.5 and np.isnan(table["score"].iloc[1]) and table["score"].iloc[3] == -0.25
    assert list(table["line"]) == [1, 2, 3, 4]


@pytest.mark.parametrize(("text", "level", "human", "message"), [
    ("a\t1\na\tNone\n", "seg", False, r":2: metric score None; expected a number: only human scores may be None"),
    ("a\t1\nb\t2\na\t3\n", "seg", True, r":3: system 'a' starts a second block"),
    ("a\t1\na\t2\n", "sys", True, r":2: system 'a' has a second score"),
    ("a\t1\t2\n", "sys", True, r":1: found 3 whitespace-separated fields; expected SYSNAME SCORE"),
    ("a\tone\n", "seg", True, r":1: score 'one' is not a number"),
    ("a\tnan\n", "seg", True, r":1: score 'nan' is not a finite number"),
    ("a\tinf\n", "seg", False, r":1: score 'inf' is not a finite number"),
    ("", "seg", True, r":1: file is empty"),
    ("news a 1\nnews a 2\n", "domain", True, r":2: domain 'news' system 'a' is given twice"),
    ("a 1\n", "domain", True, r":1: found 2 whitespace-separated fields; expected DOMAIN SYSNAME SCORE"),
])
def test_malformed_files(tmp_path, text, level, human, message):
    with pytest.raises(InputError, match=message):
        read_score_file(write(tmp_path, text), level, human=human)


def test_domain_file(tmp_path):
    table = read_score_file(write(tmp_path, "news a 1\nted a None\nnews b 2\n"), "domain", human=True)
    assert list(table.columns) == ["domain", "system", "score", "line"]
    assert list(table["domain"]) == ["news", "ted", "news"] and np.isnan(table["score"].iloc[1])


def test_written_scores_read_back_as_the_same_doubles(tmp_path):
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.normal(size=50) * 10.0 ** rng.integers(-9, 9, size=50), [0.1, 1 / 3, -0.0, 1e-300]])
    table = pd.DataFrame({"system": ["b"] * 27 + ["a"] * 27, "item": list(range(1, 28)) * 2, "score": values})
    lines = score_lines(table, "seg", human=False)
    assert lines[0].startswith("a\t") and lines[27].startswith("b\t")  # systems sorted, blocks in item order
    path = write(tmp_path, "\n".join(lines) + "\n")
    back = read_score_file(path, "seg", human=False)
    expected = table.sort_values(["system", "item"], kind="stable")["score"].to_numpy() + 0.0
    assert np.array_equal(back["score"].to_numpy(), expected)
    assert "a\t0.0" in lines and "a\t-0.0" not in lines and "a\t0.1" in lines and "a\t0.3333333333333333" in lines
    assert format_score(np.nan, human=True) == "None" and format_score(2, human=False) == "2.0"
    with pytest.raises(ValueError, match="missing"):
        format_score(None, human=False)


def test_writer_refuses_what_cannot_be_read_back():
    with pytest.raises(ValueError, match="missing"):
        score_lines(pd.DataFrame({"system": ["a"], "score": [np.nan]}), "sys", human=False)
    with pytest.raises(ValueError, match="'my system' cannot be written"):
        score_lines(pd.DataFrame({"system": ["my system"], "score": [1.0]}), "sys", human=False)
    with pytest.raises(ValueError, match="not finite"):
        score_lines(pd.DataFrame({"system": ["a"], "score": [np.inf]}), "sys", human=True)
    lines = score_lines(pd.DataFrame({"system": ["b", "a"], "domain": ["ted", "news"], "score": [1.0, np.nan]}),
                        "domain", human=True)
    assert lines == ["news\ta\tNone", "ted\tb\t1.0"]
