"""METEOR scores from sufficient statistics (vectorised; parameters broadcast for sweeps).

Statistics of one segment, for K modules::

    hyp_len, ref_len, hyp_func, ref_func,
    (hyp_content_k, hyp_func_k, ref_content_k, ref_func_k) for k = 1..K,
    chunks, hyp_matches, ref_matches

Meteor 1.5's formula (``MeteorScorer.computeMetrics``):

- P = sum_k w_k (delta * hyp_content_k + (1 - delta) * hyp_func_k) / (delta * |h_content| + (1 - delta) * |h_func|);
  R likewise on the reference;
- Fmean = P R / (alpha P + (1 - alpha) R);
- frag = chunks / ((hyp_matches + ref_matches) / 2), except 0 when both sides are fully matched in
  one chunk (``full_match_rule``; the seeds' textbook variants have no such exception);
- score = Fmean * (1 - gamma * frag ** beta), clipped at 0, NaN (nothing to divide by) -> 0.

System level sums the statistics, but a fully matched one-chunk segment adds no chunks (as
Meteor's ``MeteorStats.addStats`` does when ``full_match_rule`` is on).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mtmeta.errors import ConfigError
from mtmeta.metrics.base import float_draws

HEADER = ["hyp_len", "ref_len", "hyp_func", "ref_func"]
TRAILER = ["chunks", "hyp_matches", "ref_matches"]
SHORT = {"exact": "ex", "stem": "st", "synonym": "sy", "paraphrase": "pa"}


def stat_names(modules: list[str]) -> list[str]:
    per_module = [f"{side}_{kind}_{SHORT[m]}" for m in modules for side in ("hyp", "ref")
                  for kind in ("content", "func")]
    # Order within a module: hyp content, hyp func, ref content, ref func.
    return HEADER + per_module + TRAILER


@dataclass(frozen=True)
class Preset:
    alpha: float
    beta: float
    gamma: float
    delta: float
    modules: tuple[str, ...]
    weights: tuple[float, ...]
    full_match_rule: bool = True
    description: str = ""
    extra: dict = field(default_factory=dict)


# Meteor 1.5 (util/Constants.java): task "rank" per language, weights in module order.
RANK = {
    "en": Preset(0.85, 0.20, 0.60, 0.75, ("exact", "stem", "synonym", "paraphrase"), (1.0, 0.6, 0.8, 0.6)),
    "cs": Preset(0.95, 0.20, 0.60, 0.80, ("exact", "paraphrase"), (1.0, 0.4)),
    "fr": Preset(0.90, 1.40, 0.60, 0.65, ("exact", "stem", "paraphrase"), (1.0, 0.2, 0.4)),
    "es": Preset(0.65, 1.30, 0.50, 0.80, ("exact", "stem", "paraphrase"), (1.0, 0.8, 0.6)),
    "de": Preset(0.95, 1.00, 0.55, 0.55, ("exact", "stem", "paraphrase"), (1.0, 0.8, 0.2)),
    "ru": Preset(0.75, 1.40, 0.70, 0.50, ("exact", "stem", "paraphrase"), (1.0, 0.5, 0.5)),
}
# The WMT12 metrics task's Meteor: Meteor 1.3 (Denkowski & Lavie 2011), task "rank", for the five target
# languages that release supported. Meteor 1.3's own table (its paper's, or its Constants.java) is not
# among the sources the study could read, so these are the task "rank" values that Constants.java of
# releases 1.4 and 1.5 share for these languages (the same numbers as RANK). For English a measurement
# says they are the ones WMT12 ran: with them and the jar's -norm, METEOR gives the official WMT12 es-en
# Meteor system scores within 5.4e-5 on all 12 systems (docs/official-record.md); cs, de, es, fr cannot
# be checked.
WMT12_LANGUAGES = ("en", "cs", "de", "es", "fr")
WMT12 = {lang: Preset(RANK[lang].alpha, RANK[lang].beta, RANK[lang].gamma, RANK[lang].delta, RANK[lang].modules,
                      RANK[lang].weights, description="Meteor 1.3 task 'rank', as the WMT12 metrics task ran it")
         for lang in WMT12_LANGUAGES}
# Language-independent parameters; modules: exact, plus stem where a Snowball stemmer exists.
LI = Preset(0.75, 1.40, 0.70, 0.50, ("exact",), (1.0,), description="Meteor 1.5 'li'")
# The seeds' variants (seed 001: METEOR-basic and METEOR with a fragmentation penalty; seed 003: the
# textbook METEOR of Banerjee & Lavie 2005, Fmean = 10PR/(R+9P), penalty 0.5 (chunks/matches)^3).
# Unweighted precision and recall are delta = 0.5 with all module weights 1.
SEED = {
    "basic": Preset(0.9, 3.0, 0.0, 0.5, ("exact",), (1.0,), full_match_rule=False,
                    description="harmonic mean of P and R with alpha, no penalty (seed 001)"),
    "penalty": Preset(0.9, 3.0, 0.5, 0.5, ("exact",), (1.0,), full_match_rule=False,
                      description="Fmean with penalty gamma (chunks/matches)^beta, beta 3 (seed 001)"),
    "textbook": Preset(0.9, 3.0, 0.5, 0.5, ("exact", "stem", "synonym"), (1.0, 1.0, 1.0), full_match_rule=False,
                       description="10PR/(R+9P) * (1 - 0.5 (chunks/matches)^3) (Banerjee & Lavie 2005; seed 003)"),
}


def preset(name: str, lang: str) -> Preset:
    if name == "rank":
        if lang in RANK:
            return RANK[lang]
        name = "li"  # as Meteor 1.5 does for languages without a rank preset
    if name == "li":
        from mtmeta.lexicons.stemmers import SNOWBALL

        if lang in SNOWBALL:
            return Preset(LI.alpha, LI.beta, LI.gamma, LI.delta, ("exact", "stem"), (1.0, 0.5),
                          description=LI.description)
        return LI
    if name == "wmt12":
        if lang not in WMT12:
            raise ConfigError(f"METEOR preset 'wmt12' (Meteor 1.3 as the WMT12 metrics task ran it) has parameters "
                              f"for {', '.join(WMT12_LANGUAGES)}, not {lang!r}; use preset rank or li")
        return WMT12[lang]
    if name in SEED:
        return SEED[name]
    raise ConfigError(f"unknown METEOR preset {name!r}; known: rank, li, wmt12, {', '.join(SEED)}")


def _columns(stats: np.ndarray, n_modules: int):
    stats = np.asarray(stats, dtype=float)
    per = stats[..., 4 : 4 + 4 * n_modules].reshape(*stats.shape[:-1], n_modules, 4)
    tail = stats[..., 4 + 4 * n_modules :]
    return stats[..., 0], stats[..., 1], stats[..., 2], stats[..., 3], per, tail[..., 0], tail[..., 1], tail[..., 2]


def full_match(stats: np.ndarray, n_modules: int) -> np.ndarray:
    hyp_len, ref_len, _, _, _, chunks, hyp_m, ref_m = _columns(stats, n_modules)
    return (hyp_m == hyp_len) & (ref_m == ref_len) & (chunks == 1)


def aggregate(stats: np.ndarray, n_modules: int, full_match_rule: bool = True, weights=None) -> np.ndarray:
    """Summed statistics of a corpus (fully matched one-chunk segments add no chunks).

    ``weights`` counts segment i weights[i] times (bootstrap resampling); a matrix of weights
    (draws x segments) gives one row of sums per draw. The statistics are counts, so the sums are
    exact whatever their order.
    """
    stats = np.asarray(stats, dtype=float)
    weights = np.ones(len(stats)) if weights is None else float_draws(np.asarray(weights))[0]
    if not len(stats):
        return np.zeros((*weights.shape[:-1], stats.shape[1]))
    if full_match_rule:  # one product for every column: the full matches' chunks count as zero
        stats = stats.copy()
        stats[full_match(stats, n_modules), 4 + 4 * n_modules] = 0.0
    return weights @ stats


def scores(stats: np.ndarray, n_modules: int, *, alpha, beta, gamma, delta, weights, full_match_rule: bool = True,
           details: bool = False):
    """METEOR of each row of ``stats``; alpha, beta, gamma, delta broadcast against the rows.

    ``weights`` has one entry per module (each may itself broadcast). With ``details`` a dict of
    precision, recall, fmean, penalty and score is returned.
    """
    hyp_len, ref_len, hyp_func, ref_func, per, chunks, hyp_m, ref_m = _columns(stats, n_modules)
    alpha, beta, gamma, delta = (np.asarray(x, dtype=float) for x in (alpha, beta, gamma, delta))
    if len(weights) != n_modules:
        raise ConfigError(f"METEOR: {len(weights)} module weights for {n_modules} modules")
    with np.errstate(divide="ignore", invalid="ignore"):
        hyp_weighted_len = delta * (hyp_len - hyp_func) + (1 - delta) * hyp_func
        ref_weighted_len = delta * (ref_len - ref_func) + (1 - delta) * ref_func
        # Summation in Meteor's order (all content terms, then all function terms), so that results
        # agree to the last digit.
        weights = [np.asarray(w, dtype=float) for w in weights]
        hyp_weighted = ref_weighted = 0.0
        for k, w in enumerate(weights):
            hyp_weighted = hyp_weighted + per[..., k, 0] * w * delta
            ref_weighted = ref_weighted + per[..., k, 2] * w * delta
        for k, w in enumerate(weights):
            hyp_weighted = hyp_weighted + per[..., k, 1] * w * (1 - delta)
            ref_weighted = ref_weighted + per[..., k, 3] * w * (1 - delta)
        precision = hyp_weighted / hyp_weighted_len
        recall = ref_weighted / ref_weighted_len
        fmean = 1.0 / ((1.0 - alpha) / precision + alpha / recall)
        frag = chunks / ((hyp_m + ref_m) / 2.0)
        if full_match_rule:
            frag = np.where((hyp_m == hyp_len) & (ref_m == ref_len) & (chunks == 1), 0.0, frag)
        penalty = gamma * np.power(frag, beta)
        score = fmean * (1.0 - penalty)
    score = np.where(np.isnan(score), 0.0, np.maximum(score, 0.0))
    if details:
        return {"precision": precision, "recall": recall, "fmean": fmean, "penalty": penalty, "score": score}
    return score
