"""Seed 002's experiments around the pure paraphraser (:mod:`mtmeta.parmesan.paraphraser`): lexicons from the
study's resources, paraphrasing of a prepared segment table, summaries, samples, pair rankings for
the appendix. Their correlations with Meng's test come from :func:`mtmeta.metaeval.significance.correlation_rows`.

Lemmas come from simplemma (the seed used the Morce tagger, which is not available).
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.errors import ConfigError
from mtmeta.lexicons import paraphrases
from mtmeta.parmesan.paraphraser import SELECTIONS, Lexicon, Paraphraser, paraphrase_segments

log = logging.getLogger(__name__)

RANKINGS = ("random", "thesaurus", "distributional")


@cache
def lemmatizer(lang: str) -> Callable[[str], str]:
    """Lower-cased simplemma lemma of a lower-cased word (cached); METEOR's lemma stemmer underneath.

    One function per language and process, so that its cache serves every paraphrasing of the
    process (a target's nine settings, the appendix's 30 shares of the lexicon)."""
    from mtmeta.lexicons.stemmers import make_stemmer

    simplemma_lemma = make_stemmer(lang, "lemma")

    @cache
    def lemma(word: str) -> str:
        return simplemma_lemma(word.lower()).lower()

    return lemma


def build_lexicon(kind: str, path: str | Path, lang: str, filter_kind: str | None = None) -> Lexicon:
    lemma = lemmatizer(lang)
    lexicon = Lexicon.build(paraphrases.entries(kind, path, filter_kind, lemma), lemma)
    log.info("lexicon %s (%s, filter %s): %d entries, %d one-word lemmas, %d phrases", Path(path).name, kind,
             filter_kind or "none", lexicon.n_entries, len(lexicon.words), len(lexicon.phrases))
    return lexicon


def paraphrase(segments: pd.DataFrame, lexicon: Lexicon, lang: str, order: str, selection: str,
               tokenize: Callable[[str], list[str]], links: dict | None = None):
    """(new segment table, substitutions) for one setting; see :func:`mtmeta.parmesan.paraphrase_segments`."""
    if selection not in SELECTIONS:
        raise ConfigError(f"unknown selection {selection!r}; known: {', '.join(SELECTIONS)}")
    if selection == "alignment" and links is None:
        raise ConfigError("selection 'alignment' needs word alignments (rule align_outputs)")
    paraphraser = Paraphraser(lexicon, lemmatizer(lang), order)
    return paraphrase_segments(segments, paraphraser, tokenize, links if selection == "alignment" else None)


def summarize(table: pd.DataFrame) -> dict:
    """Seed 002's table of replacements: average replaced words and phrases per sentence."""
    return {
        "sentences": int(len(table)),
        "systems": int(table["system"].nunique()),
        "words_per_sentence": float(table["words_replaced"].mean()),
        "phrases_per_sentence": float(table["phrases_replaced"].mean()),
        "sentences_changed": int(((table["words_replaced"] + table["phrases_replaced"]) > 0).sum()),
    }


def sample(substitutions: pd.DataFrame, n: int, seed: int) -> pd.DataFrame:
    """``n`` substitutions drawn at random (seeded), for a person to judge."""
    if len(substitutions) <= n:
        return substitutions.reset_index(drop=True)
    return substitutions.sample(n=n, random_state=seed).sort_values(["system", "seg_id"]).reset_index(drop=True)


def write_references(table: pd.DataFrame, folder: str | Path) -> list[Path]:
    """One file per system: its new references, one line per segment in segment order."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for system, rows in table.sort_values(["system", "seg_id"]).groupby("system", sort=True):
        path = folder / f"{system}.ref"
        path.write_text("".join(line + "\n" for line in rows["reference"]), encoding="utf-8")
        written.append(path)
    return written


# -- the appendix: keep the best-ranked share of the thesaurus's one-word pairs -------------------------


def rank_pairs(lexicon: Lexicon, ranking: str, seed: int = 1,
               sentences: Sequence[Sequence[str]] | None = None, window: int = 2) -> pd.DataFrame:
    """The lexicon's one-word lemma pairs, best first, with the score that ranked them.

    ``random``: shuffled (seeded); ``thesaurus``: the thesaurus's own order (earlier entries
    first); ``distributional``: cosine of PPMI co-occurrence vectors over ``sentences`` (lemmas).
    """
    pairs = lexicon.word_pairs()
    if ranking == "random":
        order = list(range(len(pairs)))
        random.Random(seed).shuffle(order)
        score = np.empty(len(pairs))
        score[order] = np.arange(len(pairs), 0, -1)
    elif ranking == "thesaurus":
        score = np.arange(len(pairs), 0, -1, dtype=float)
    elif ranking == "distributional":
        if sentences is None:
            raise ConfigError("the distributional ranking needs the corpus sentences")
        from mtmeta.parmesan.distributional import ppmi_cosine

        score = ppmi_cosine(sentences, pairs, window=window)
    else:
        raise ConfigError(f"unknown ranking {ranking!r}; known: {', '.join(RANKINGS)}")
    frame = pd.DataFrame({"a": [a for a, _ in pairs], "b": [b for _, b in pairs], "score": score})
    # Stable: ties keep the thesaurus order.
    return frame.sort_values("score", ascending=False, kind="stable").reset_index(drop=True)


def top_share(ranked: pd.DataFrame, fraction: float) -> set[tuple[str, str]]:
    keep = math.ceil(round(fraction * len(ranked), 9))
    head = ranked.iloc[:keep]
    return set(zip(head["a"], head["b"], strict=True))
