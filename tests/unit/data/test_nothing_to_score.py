"""An mt-metrics-eval pair with nothing left to score (only the reference, or every output missing)
is a named error at prepare, not a pandas merge error further on."""

import pandas as pd
import pytest

from mtmeta.data.evalset import EvalSet, write_evalset
from mtmeta.data.prepare import prepare_mtme
from mtmeta.errors import InputError


def _evalset(outputs: pd.DataFrame) -> EvalSet:
    texts = pd.DataFrame({"seg_id": [1, 2], "source": ["Eins.", "Zwei."], "domain": ["news"] * 2, "doc": ["d1"] * 2})
    references = pd.DataFrame({"reference": ["refA"] * 2, "seg_id": [1, 2], "text": ["One.", "Two."]})
    human = {"seg": pd.DataFrame({"name": "mqm", "system": ["refA"] * 2, "seg_id": [1, 2], "score": [0.0, 0.0]}),
             "sys": pd.DataFrame({"name": ["mqm"], "system": ["refA"], "score": [0.0]}),
             "doc": pd.DataFrame(columns=["name", "system", "doc", "score"])}
    return EvalSet("wmt99", "de-en", "refA", texts, references, outputs, human)


REF = pd.DataFrame({"system": ["refA"] * 2, "seg_id": [1, 2], "hypothesis": ["One.", "Two."]})
MISSING = pd.DataFrame({"system": ["sys-1"] * 2 + ["sys-2"] * 2, "seg_id": [1, 2] * 2, "hypothesis": [None] * 4})


@pytest.mark.parametrize(("outputs", "excluded"), [
    (REF, "refA: the standard reference"),
    (pd.concat([REF, MISSING]), "refA: the standard reference; sys-1: no output for 2 segment(s); sys-2: no output "
                                "for 2 segment(s)"),
])
def test_nothing_left_to_score_is_named(tmp_path, outputs, excluded):
    # Before: "You are trying to merge on float64 and object columns for key 'system'".
    write_evalset(_evalset(outputs), tmp_path)
    ds = {"evalset": {"path": str(tmp_path)}, "testset": "wmt99", "language_pairs": ["de-en"],
          "references": {"de-en": "refA"}, "human_score": "mqm"}
    with pytest.raises(InputError) as caught:
        prepare_mtme("toy", ds, "de-en", tmp_path)
    assert str(caught.value) == (f"{tmp_path / 'wmt99'}: de-en: nothing left to score: every system output is excluded "
                                 f"({excluded}); expected at least one system with an output (not '[No translation "
                                 "supplied]') for every segment")
