"""sacrebleu's BLEU and chrF scores from sufficient statistics, many rows at once, compiled with numba.

Each function follows sacrebleu's own (``BLEU.compute_bleu``, ``CHRF._compute_f_score``) step by
step: the same branches, the same floating-point operations in the same order (``100. * correct /
total``, the log floor of ``sacrebleu.utils.my_log``, left-to-right sums, libm's ``log`` and
``exp``), so each score equals sacrebleu's to the last bit. Called once per row from Python, sacrebleu
spends 10-20 microseconds on a row (a score object with formatted strings); segment scores, bootstrap
draws and sweeps ask for millions of rows. ``tests/unit/metrics/test_bleu.py`` and ``tests/unit/metrics/test_chrf.py``
check every branch against sacrebleu.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

SMOOTHING = {"none": 0, "floor": 1, "add-k": 2, "exp": 3}
_FLOOR, _ADD_K, _EXP = 1, 2, 3


@njit(cache=True)
def _my_log(value: float) -> float:
    return -9999999999.0 if value == 0.0 else math.log(value)


@njit(cache=True)
def bleu_scores(stats: np.ndarray, max_order: int, smooth: int, smooth_value: float, effective_order: bool):
    """BLEU of every row of ``stats`` (float64, one statistics row per score)."""
    out = np.empty(stats.shape[0])
    precisions = np.empty(max_order)
    for r in range(stats.shape[0]):
        sys_len = float(int(stats[r, 0]))
        ref_len = float(int(stats[r, 1]))
        bp = 1.0
        if sys_len < ref_len:
            bp = math.exp(1.0 - ref_len / sys_len) if sys_len > 0 else 0.0
        any_correct = False
        for n in range(max_order):
            precisions[n] = 0.0
            if stats[r, 2 + n] != 0.0:
                any_correct = True
        if not any_correct:  # sacrebleu's early stop (#141)
            out[r] = 0.0
            continue
        smooth_mteval = 1.0
        eff_order = max_order
        for n in range(1, max_order + 1):
            correct = stats[r, 1 + n]
            total = stats[r, 1 + max_order + n]
            if smooth == _ADD_K and n > 1:
                correct += smooth_value
                total += smooth_value
            if total == 0.0:
                break
            if effective_order:
                eff_order = n
            if correct == 0.0:
                if smooth == _EXP:
                    smooth_mteval *= 2.0
                    precisions[n - 1] = 100.0 / (smooth_mteval * total)
                elif smooth == _FLOOR:
                    precisions[n - 1] = 100.0 * smooth_value / total
            else:
                precisions[n - 1] = 100.0 * correct / total
        log_sum = 0.0
        for n in range(eff_order):
            log_sum += _my_log(precisions[n])
        out[r] = bp * math.exp(log_sum / eff_order)
    return out


@njit(cache=True)
def chrf_scores(stats: np.ndarray, order: int, factor: float, eps_smoothing: bool):
    """chrF of every row of ``stats`` (float64 ``[hyp_1, ref_1, match_1, hyp_2, ...]``, ``order`` triples);
    ``factor`` is beta squared."""
    eps = 1e-16
    out = np.empty(stats.shape[0])
    for r in range(stats.shape[0]):
        score = 0.0
        effective_order = 0
        avg_prec, avg_rec = 0.0, 0.0
        for i in range(order):
            n_hyp, n_ref, n_match = stats[r, 3 * i], stats[r, 3 * i + 1], stats[r, 3 * i + 2]
            prec = n_match / n_hyp if n_hyp > 0 else eps
            rec = n_match / n_ref if n_ref > 0 else eps
            denom = factor * prec + rec
            score += ((1 + factor) * prec * rec / denom) if denom > 0 else eps
            if n_hyp > 0 and n_ref > 0:
                avg_prec += prec
                avg_rec += rec
                effective_order += 1
        if eps_smoothing:
            out[r] = 100 * score / order
            continue
        if effective_order == 0:
            avg_prec = avg_rec = 0.0
        else:
            avg_prec /= effective_order
            avg_rec /= effective_order
        if avg_prec + avg_rec != 0.0:
            score = (1 + factor) * avg_prec * avg_rec
            score /= (factor * avg_prec) + avg_rec
            out[r] = 100 * score
        else:
            out[r] = 0.0
    return out
