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

from mtmeta.stats.memory_limit import check_allocation

SCORE_COLUMNS = ["gt_others", "ge_others", "expected_wins"]
# A human score read, not computed: the official system-level score of a WMT year (e.g. WMT14's
# TrueSkill). It cannot be re-aggregated from resampled segments.
OFFICIAL = "official"
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


def score_draws(comparisons: pd.DataFrame, systems: list[str], segment_weights: np.ndarray,
                seg_ids: np.ndarray, chunk: int = 100) -> dict[str, np.ndarray]:
    """The three human scores of ``systems`` for every bootstrap draw (draws x systems each).

    ``segment_weights`` (draws x segments) counts how often each segment of ``seg_ids`` was drawn; a
    comparison weighs as much as its segment. Each segment's comparisons are first counted per system
    (won, lost, tied) and per ordered pair (i beat j); a draw's counts are then one matrix product of
    its segment weights with those per-segment counts (in chunks of ``chunk`` draws to bound memory),
    whole numbers, exact in float64; the scores follow :func:`system_scores`.
    """
    position = {s: k for k, s in enumerate(systems)}
    column = {int(seg): k for k, seg in enumerate(seg_ids)}
    known = comparisons["sys_a"].isin(position) & comparisons["sys_b"].isin(position)
    rows = comparisons.loc[known]
    a = rows["sys_a"].map(position).to_numpy()
    b = rows["sys_b"].map(position).to_numpy()
    seg = rows["seg_id"].map(column).to_numpy()
    outcome = rows["outcome"].to_numpy()
    n_sys, n_seg = len(systems), len(seg_ids)
    check_allocation(f"the human scores of {min(chunk, len(segment_weights))} draws at once x {n_sys * n_sys} ordered "
                     "pairs of systems", min(chunk, len(segment_weights)) * n_sys * n_sys, 40)
    a_won, b_won, tied = outcome == "a", outcome == "b", outcome == "tie"

    from scipy import sparse  # here: the correlation jobs import this module, and only the bootstrap needs it

    def per_segment(segments, cols_, n_cols):  # sparse (segments x n_cols) counts of comparisons
        return sparse.csr_matrix((np.ones(len(segments)), (segments, cols_)), shape=(n_seg, n_cols))

    # Per segment: how many comparisons each system won, lost or tied, and each ordered pair (i beats j).
    decided_seg = np.r_[seg[a_won], seg[b_won]]
    counts = sparse.hstack([
        per_segment(decided_seg, np.r_[a[a_won], b[b_won]], n_sys),
        per_segment(decided_seg, np.r_[b[a_won], a[b_won]], n_sys),
        per_segment(np.r_[seg[tied], seg[tied]], np.r_[a[tied], b[tied]], n_sys),
        per_segment(decided_seg, np.r_[a[a_won] * n_sys + b[a_won], b[b_won] * n_sys + a[b_won]], n_sys * n_sys),
    ]).T.tocsr()  # features x segments

    out = {name: np.empty((len(segment_weights), n_sys)) for name in SCORE_COLUMNS}
    for start in range(0, len(segment_weights), chunk):
        w = np.asarray(segment_weights[start : start + chunk], dtype=float)  # draws x segments
        totals = (counts @ w.T).T  # draws x features: sparse-times-dense
        wins, losses, ties = totals[:, :n_sys], totals[:, n_sys:2 * n_sys], totals[:, 2 * n_sys:3 * n_sys]
        with np.errstate(divide="ignore", invalid="ignore"):
            out["gt_others"][start : start + chunk] = wins / (wins + losses)
            out["ge_others"][start : start + chunk] = (wins + ties) / (wins + losses + ties)
            beats = totals[:, 3 * n_sys:].reshape(len(w), n_sys, n_sys)
            decided = beats + beats.transpose(0, 2, 1)
            rate = np.where(decided > 0, beats / np.where(decided > 0, decided, 1), np.nan)
            out["expected_wins"][start : start + chunk] = np.nanmean(rate, axis=2)
    return out
