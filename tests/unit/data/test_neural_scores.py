"""Per-segment neural metric scores of wmt21-en-ru-mqm turned into a "bring your own scores" table."""

import pytest

from mtmeta.data.neural_scores import as_external_scores, read_neural_scores
from mtmeta.errors import InputError


def repository(tmp_path):
    news = tmp_path / "Data/newstest2021/BLEURT-20"
    ted = tmp_path / "Data/tedtalks/COMET-QE-MQM_2021"
    news.mkdir(parents=True)
    ted.mkdir(parents=True)
    (news / "Nemo_BLEURT-20.tsv").write_bytes(b"BLEURT-20_ref_A\tBLEURT-20_ref_B\r\n0.71\t0.75\r\n0.50\t0.40\r\n")
    (news / "Online-A_BLEURT-20.tsv").write_text("BLEURT-20_ref_A\tBLEURT-20_ref_B\n0.1\t0.2\n0.3\t0.4\n")
    (news / "README.md").write_text("run times\n")
    (ted / "Online-A_COMET-QE-MQM_2021.tsv").write_text("COMET-QE-MQM_2021\n0.016\n-0.002\n0.169\n")
    return tmp_path


def test_columns_references_and_names(tmp_path):
    root = repository(tmp_path)
    a = read_neural_scores(root, "newstest2021", "BLEURT-20", n_segments=2)
    assert a.to_dict("list") == {"system": ["Nemo", "Nemo", "Online-A", "Online-A"], "seg_id": [1, 2, 1, 2],
                                 "score": [0.71, 0.5, 0.1, 0.3]}
    assert list(read_neural_scores(root, "newstest2021", "BLEURT-20", reference="B")["score"]) == [0.75, 0.4, 0.2, 0.4]
    table = as_external_scores(a, "wmt21_news", "en-ru", {"Nemo": "NVIDIA-NeMo"})
    assert list(table.columns) == ["dataset", "lp", "system", "seg_id", "score"]
    assert set(table["system"]) == {"NVIDIA-NeMo", "Online-A"} and set(table["dataset"]) == {"wmt21_news"}
    qe = read_neural_scores(root, "tedtalks", "COMET-QE-MQM_2021")
    assert list(qe["score"]) == [0.016, -0.002, 0.169]


def test_malformed_files(tmp_path):
    root = repository(tmp_path)
    folder = root / "Data/newstest2021/BLEURT-20"
    with pytest.raises(InputError, match=r"Nemo_BLEURT-20.tsv: 2 scores; expected 1002"):
        read_neural_scores(root, "newstest2021", "BLEURT-20", n_segments=1002)
    (folder / "Online-A_BLEURT-20.tsv").write_text("BLEURT-20_ref_A\tBLEURT-20_ref_B\n0.1\n")
    with pytest.raises(InputError, match=r"Online-A_BLEURT-20.tsv:2: found 1 tab-separated fields"):
        read_neural_scores(root, "newstest2021", "BLEURT-20")
    (folder / "Online-A_BLEURT-20.tsv").write_text("BLEURT-20_ref_A\tBLEURT-20_ref_B\n0.1\tn/a\n")
    with pytest.raises(InputError, match=r"Online-A_BLEURT-20.tsv:2: score 'n/a' is not a number"):
        read_neural_scores(root, "newstest2021", "BLEURT-20", reference="B")
    (folder / "Online-A_BLEURT-20.tsv").write_text("BLEURT\n0.1\n0.2\n")
    with pytest.raises(InputError, match=r"Online-A_BLEURT-20.tsv:1: unexpected header \['BLEURT'\]"):
        read_neural_scores(root, "newstest2021", "BLEURT-20")
    (folder / "Online-A_BLEURT-20.tsv").write_text("BLEURT-20\n0.1\n0.2\n0.3\n")
    with pytest.raises(InputError, match=r"different numbers of scores: \[2, 3\]"):
        read_neural_scores(root, "newstest2021", "BLEURT-20")
    (folder / "Online-A_COMET.tsv").write_text("COMET\n0.1\n")
    with pytest.raises(InputError, match=r"Online-A_COMET.tsv: not a score file of this folder's metric"):
        read_neural_scores(root, "newstest2021", "BLEURT-20")
