"""Human system-level scores from pairwise comparisons (WMT definitions).

Input: a table with columns ``sys_a, sys_b, outcome`` (outcome ``a``, ``b`` or ``tie``).

- ``gt_others`` ("> others", official WMT12) = wins / (wins + losses); ties ignored.
- ``ge_others`` ("≥ others", official WMT08-11) = (wins + ties) / (wins + ties + losses).
- ``expected_wins`` (WMT13; Koehn 2012) = mean over opponents j of wins(i,j) / (wins(i,j) + wins(j,i)).
  An opponent never met in a non-tied comparison gives 0/0; it is left out of the mean, and
  ``ew_opponents`` says over how many opponents the mean was taken.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

SCORE_COLUMNS = ["gt_others", "ge_others", "expected_wins"]
COLUMNS = ["system", "wins", "losses", "ties", "comparisons", "opponents", "ew_opponents", *SCORE_COLUMNS]


def pairwise_counts(comparisons: pd.DataFrame, weights: np.ndarray | None = None) -> pd.DataFrame:
    """Wins, losses and ties of each system against each opponent (both directions listed).

    ``weights`` counts comparison i weights[i] times (bootstrap resampling of segments).
    """
    outcome = comparisons["outcome"].to_numpy()
    w = np.ones(len(outcome), dtype=np.int64) if weights is None else np.asarray(weights)
    a_won = (outcome == "a") * w
    b_won = (outcome == "b") * w
    tie = (outcome == "tie") * w
    long = pd.DataFrame(
        {
            "system": np.concatenate([comparisons["sys_a"], comparisons["sys_b"]]),
            "opponent": np.concatenate([comparisons["sys_b"], comparisons["sys_a"]]),
            "wins": np.concatenate([a_won, b_won]),
            "losses": np.concatenate([b_won, a_won]),
            "ties": np.concatenate([tie, tie]),
        }
    )
    return long.groupby(["system", "opponent"], sort=True, as_index=False)[["wins", "losses", "ties"]].sum()


def system_scores(comparisons: pd.DataFrame, weights: np.ndarray | None = None) -> pd.DataFrame:
    """One row per system with win/loss/tie counts and the three WMT scores."""
    if comparisons.empty:
        return pd.DataFrame(columns=COLUMNS)
    bad = set(comparisons["outcome"].unique()) - {"a", "b", "tie"}
    if bad:
        raise ValueError(f"outcomes must be 'a', 'b' or 'tie'; found {sorted(bad)}")
    pairs = pairwise_counts(comparisons, weights)
    decided = pairs["wins"] + pairs["losses"]
    pairs["win_rate"] = np.where(decided > 0, pairs["wins"] / decided.where(decided > 0, 1), np.nan)
    per_system = pairs.groupby("system", sort=True).agg(
        wins=("wins", "sum"),
        losses=("losses", "sum"),
        ties=("ties", "sum"),
        opponents=("opponent", "nunique"),
        ew_opponents=("win_rate", "count"),
        expected_wins=("win_rate", "mean"),
    )
    per_system["comparisons"] = per_system[["wins", "losses", "ties"]].sum(axis=1)
    decided_total = per_system["wins"] + per_system["losses"]
    per_system["gt_others"] = per_system["wins"] / decided_total.where(decided_total > 0)
    per_system["ge_others"] = (per_system["wins"] + per_system["ties"]) / per_system["comparisons"]
    return per_system.reset_index()[COLUMNS]
