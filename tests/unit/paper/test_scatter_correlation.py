"""The scatter plot's check of a negated score uses the tables' correlation routine: on subnormal
scores np.corrcoef said NaN, so a lower-is-better metric's figure lost its "negated" label."""

import numpy as np
import pandas as pd

from mtmeta.paper.figures import reads_negated


def test_a_negated_subnormal_score_is_recognised():
    table = pd.DataFrame({"gt_others": [0.1, 0.5, 0.3, 0.7], "score": np.array([4.0, 2, 3, 1]) * 5e-324})
    assert reads_negated({"table": table, "pearson": 1.0}, "gt_others")
    assert not reads_negated({"table": table, "pearson": -1.0}, "gt_others")
