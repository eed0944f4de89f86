"""10,000 systems: the (draws x pairs) arrays are estimated and refused with a named error before
they are allocated (37 GiB and more), in every statistic over pairs of systems."""

import re

import numpy as np
import pandas as pd
import pytest

from mtmeta.stats.correlation import bootstrap_intervals
from mtmeta.stats.human import score_draws
from mtmeta.stats.memory_limit import MEMORY_LIMIT, ResourceLimitError, check_allocation
from mtmeta.stats.system_pairs import agreement, pairwise_p_values

N = 10_000
LIMIT = re.escape(f"the limit is {MEMORY_LIMIT / 2**30:.1f} GiB")


def test_the_message_states_the_estimate_and_the_limit():
    with pytest.raises(ResourceLimitError) as caught:
        check_allocation("a test of 1000 draws x 49995000 pairs", 1000 * 49_995_000, 8, limit=4 * 2**30)
    assert str(caught.value) == ("a test of 1000 draws x 49995000 pairs would need 372.5 GiB of memory; the limit is "
                                 "4.0 GiB; expected fewer systems or fewer draws")
    assert caught.value.needed == 1000 * 49_995_000 * 8 and caught.value.limit == 4 * 2**30
    check_allocation("small", 1000, 8, limit=8000)  # at the limit: allowed


def test_ten_thousand_systems_are_refused_before_allocating():
    rng = np.random.default_rng(0)
    draws = rng.random((100, N))
    with pytest.raises(ResourceLimitError, match=r"^Kendall's tau of 100 draws x 49995000 pairs of systems would need "
                       rf"186\.2 GiB of memory; {LIMIT}"):
        bootstrap_intervals(draws, draws[::-1])
    with pytest.raises(ResourceLimitError, match=r"^soft pairwise accuracy's permutation test of 1000 permutations x "
                       r"49995000 pairs of systems"):
        pairwise_p_values(rng.random((N, 3)))
    comparisons = pd.DataFrame({"seg_id": [1, 2], "sys_a": ["s0", "s1"], "sys_b": ["s1", "s2"], "outcome": ["a", "b"]})
    with pytest.raises(ResourceLimitError, match=r"^the human scores of 100 draws at once x 100000000 ordered pairs"):
        score_draws(comparisons, [f"s{k}" for k in range(N)], np.ones((1000, 2), dtype=int), np.array([1, 2]))


def test_a_study_sized_pair_passes():
    gold = np.linspace(0, 1, 20)
    assert agreement(gold, gold) == (190, 190)
