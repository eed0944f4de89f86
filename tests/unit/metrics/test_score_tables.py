"""Scoring one metric on its runs: the tables score_segments writes, one metric object per target
language and tokenisation, paraphrased references per system."""

import pandas as pd
import pytest
import sacrebleu

from mtmeta import metrics
from mtmeta.metrics.score_tables import score_runs, score_segments


def write_run(folder, references_by_system):
    folder.mkdir(parents=True)
    rows = [{"system": system, "seg_id": k + 1, "hypothesis": hyp, "reference": ref, "source": ""}
            for system, pairs in references_by_system.items() for k, (hyp, ref) in enumerate(pairs)]
    pd.DataFrame(rows).to_parquet(folder / "segments.parquet", index=False)
    pd.DataFrame({"tokenizer": pd.Series([], dtype=str), "line": pd.Series([], dtype=str),
                  "tokens": pd.Series([], dtype=str)}).to_parquet(folder / "tokens.parquet", index=False)
    return folder / "tokens.parquet", folder / "segments.parquet"


def test_score_runs_tables_and_one_metric_per_language(tmp_path, monkeypatch):
    shared = [("the cat sat on the mat", "the cat sat on the mat"), ("a dog", "the dog barked")]
    first = write_run(tmp_path / "one", {"s1": shared, "s2": [("the cat sat", "the cat sat on the mat"),
                                                               ("a dog barked", "the dog barked")]})
    own = write_run(tmp_path / "two", {"s1": [("a b c d", "a b c d")], "s2": [("a b c d", "a b x d")]})
    third = write_run(tmp_path / "three", {"s1": shared})
    made = []
    real = metrics.get_for_dataset
    monkeypatch.setattr(metrics, "get_for_dataset",
                        lambda *a, **k: made.append((a[1], k["tokenized"])) or real(*a, **k))
    runs = [{"dataset": "d", "lp": "en-cs", "tokenized": False}, {"dataset": "p", "lp": "de-cs", "setting": "owo"},
            {"dataset": "e", "lp": "cs-en", "tokenized": False}]
    spec = {"id": "bleu-plain", "name": "bleu", "params": {}}
    out = list(score_runs(spec, runs[:1], [first[0]], [first[1]]))
    paraphrased = list(score_runs(spec, runs[1:2], [own[0]], [own[1]], own_references=True))
    both = list(score_runs(spec, [runs[0], runs[2]], [first[0], third[0]], [first[1], third[1]]))
    assert made == [("cs", False), ("cs", False), ("cs", False), ("en", False)]  # per call, per language
    segments, systems = out[0]
    assert systems.columns.tolist() == ["system", "metric", "score", "n_segments", "signature"]
    assert systems["metric"].tolist() == ["bleu-plain"] * 2
    s2 = sacrebleu.corpus_bleu(["the cat sat", "a dog barked"], [["the cat sat on the mat", "the dog barked"]])
    assert systems.set_index("system").loc["s2", "score"] == s2.score
    assert segments[["system", "seg_id"]].values.tolist() == [["s1", 1], ["s1", 2], ["s2", 1], ["s2", 2]]
    _, systems = paraphrased[0]
    assert systems.columns.tolist()[:3] == ["system", "metric", "references"]
    assert set(systems["references"]) == {"owo"}
    by_system = systems.set_index("system")["score"]  # each system against its own reference
    assert by_system["s1"] == sacrebleu.corpus_bleu(["a b c d"], [["a b c d"]]).score
    assert by_system["s2"] == sacrebleu.corpus_bleu(["a b c d"], [["a b x d"]]).score < by_system["s1"]
    assert [t[1]["system"].tolist() for t in both] == [["s1", "s2"], ["s1"]]


def test_share_runs_balances_largest_first_and_keeps_order():
    from mtmeta.metrics.score_tables import share_runs

    # 5 -> first, 4 -> second, 3 -> second (4 < 5), 2 -> first (5 < 7), 1 -> first (7 = 7: the lower worker)
    assert share_runs([5, 1, 4, 2, 3], 2) == [[0, 1, 3], [2, 4]]
    assert share_runs([1, 1], 4) == [[0], [1]]  # empty shares dropped
    assert share_runs([3, 2], 1) == [[0, 1]]


def test_write_runs_same_bytes_in_two_processes(tmp_path, caplog):
    import logging

    from mtmeta.metrics.score_tables import write_runs

    texts = [("the cat sat on the mat", "the cat sat on the mat"), ("a dog", "the dog barked"),
             ("it rains today", "today it is raining")]
    runs, tokens, segments = [], [], []
    for number in range(3):
        rotated = texts[number:] + texts[:number]
        token_file, segment_file = write_run(tmp_path / f"run{number}",
                                             {"s1": rotated, "s2": [(hyp[::-1], ref) for hyp, ref in rotated]})
        runs.append({"dataset": f"d{number}", "lp": "en-cs"})
        tokens.append(token_file)
        segments.append(segment_file)
    spec = {"id": "chrf", "name": "chrf", "params": {}}
    written = {}
    for workers in (1, 2):
        out = tmp_path / f"out{workers}"
        out.mkdir()
        seg = [out / f"{k}.seg.parquet" for k in range(3)]
        sys = [out / f"{k}.sys.tsv" for k in range(3)]
        write_runs(spec, runs, tokens, segments, seg, sys, workers=workers)
        written[workers] = [path.read_bytes() for path in seg + sys]
    assert written[1] == written[2]
    assert all(written[2])
    caplog.clear()  # the calls above may have logged too, where another test left the level at INFO
    with caplog.at_level(logging.INFO, logger="mtmeta.metrics.score_tables"):
        write_runs(spec, runs, tokens, segments, seg, sys, workers=2)
    # two shares (the largest run alone, the other two together), each timed as it ends
    assert "3 runs in 2 shares, 2 at a time" in caplog.text
    assert sorted(line.split(":")[0] for line in caplog.messages if line.startswith("share ")) == [
        "share 1 of 2", "share 2 of 2"]


def test_write_runs_names_the_runs_of_a_failed_process(tmp_path):
    import pytest

    from mtmeta.metrics.score_tables import write_runs

    good = write_run(tmp_path / "good", {"s1": [("a b c", "a b d")] * 50})
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet")  # smaller than the good run: the second process gets it
    out = [tmp_path / name for name in ("0.seg.parquet", "1.seg.parquet", "0.sys.tsv", "1.sys.tsv")]
    with pytest.raises(RuntimeError, match=r"a scoring process failed on runs d1 en-cs \(exit code 1\)"):
        write_runs({"id": "bleu", "name": "bleu", "params": {}}, [{"dataset": "d0", "lp": "en-cs"},
                   {"dataset": "d1", "lp": "en-cs"}], [good[0], good[0]], [good[1], bad], out[:2], out[2:], workers=2)
    assert out[0].exists() and not out[1].exists()


@pytest.mark.parametrize("change, column", [("a b x", "reference"), (4, "seg_id")])
def test_systems_with_other_segments_or_references_are_an_error(change, column):
    segments = pd.DataFrame({"system": ["s1"] * 3 + ["s2"] * 3, "seg_id": [1, 2, 3] * 2,
                             "hypothesis": ["a b c", "d e", "f"] * 2, "reference": ["a b c", "d e f", "f"] * 2})
    assert score_segments(segments, metrics.get("bleu"))[1]["n_segments"].tolist() == [3, 3]
    segments.loc[5, column] = change  # the second system's last segment
    with pytest.raises(ValueError, match="system 's2' does not cover the same segments and references as 's1'"):
        score_segments(segments, metrics.get("bleu"))
    # Paraphrased references: each system has its own, the segments must still agree.
    assert column == "seg_id" or len(score_segments(segments, metrics.get("bleu"), own_references=True)[0]) == 6
