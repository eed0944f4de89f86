"""`mtmeta evaluate` reads the built-in metrics' system scores of a finished study: a truncated
`bleu.sys.tsv` (systems missing, its time kept) is a named error, not BLEU ranked first."""

import pandas as pd
import pytest

from mtmeta.app.config import load_config
from mtmeta.app.evaluate import builtin_scores
from mtmeta.errors import InputError
from mtmeta.io import write_parquet, write_tsv


def test_a_truncated_builtin_score_table_is_named(tmp_path):
    results = tmp_path / "results"
    systems = ["sysA", "sysB", "sysC", "sysD"]
    (results / "datasets/wmt12/en-cs").mkdir(parents=True)
    write_parquet(pd.DataFrame({"system": [s for s in systems for _ in range(2)], "seg_id": [1, 2] * 4}),
                  results / "datasets/wmt12/en-cs/segments.parquet")
    path = results / "scores/wmt12/en-cs/bleu.sys.tsv"
    path.parent.mkdir(parents=True)
    write_tsv(pd.DataFrame({"system": systems[:1], "metric": "bleu", "score": [30.5], "signature": "BLEU|toy"}), path)
    with pytest.raises(InputError) as caught:
        builtin_scores(load_config(), results, "wmt12", "en-cs", ["bleu"])
    assert str(caught.value) == (f"{path}: no score for 3 of the pair's 4 systems (sysB, sysC, sysD); expected a score "
                                 f"for every system of {results}/datasets/wmt12/en-cs/segments.parquet. A truncated or "
                                 "stale file: delete it and rerun its scoring")
    write_tsv(pd.DataFrame({"system": systems, "metric": "bleu", "score": [30.5, 20.0, 25.0, 12.5],
                            "signature": "BLEU|toy"}), path)
    assert list(builtin_scores(load_config(), results, "wmt12", "en-cs", ["bleu"])["bleu"][0]["system"]) == systems
