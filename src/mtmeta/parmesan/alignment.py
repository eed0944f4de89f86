"""Word alignment of references and system outputs, for seed 002's alignment-restricted selection.

As the seed does (with GIZA++), the aligner is trained on every ordered pair of the test set's
texts (each system output and the reference against every other), which all translate the same
source. The aligner is eflomal (Östling and Tiedemann 2016) through SIL's ``thot`` bindings
(package ``sil-thot``), which expose its random seed: with ``deterministic`` on, the same texts and
seed give the same links. Links are symmetrised with grow-diag-final-and.

eflomal runs ``samplers`` independent Gibbs chains and averages them. Its own default is 3; the
study uses 1 (config ``parmesan.alignment.samplers``), which trains about three times faster on the
same sentence pairs. The chains run one after another when ``deterministic`` is on, so each one
costs the full training time.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import numpy as np

log = logging.getLogger(__name__)


def train(texts: dict[str, list[list[str]]], seed: int = 1, samplers: int = 1):
    """An eflomal model trained on all ordered pairs of ``texts`` (name -> tokenised lines)."""
    if samplers < 1:
        raise ValueError(f"eflomal needs at least one sampler, got samplers={samplers}")
    import thot.alignment as ta

    names = sorted(texts)
    lengths = {len(lines) for lines in texts.values()}
    if len(lengths) != 1:
        raise ValueError(f"texts differ in length: {sorted(lengths)} lines")
    model = ta.EflomalAlignmentModel()
    model.seed = seed
    model.deterministic = True
    model.num_samplers = samplers
    pairs = 0
    for a in names:
        for b in names:
            if a != b:
                for x, y in zip(texts[a], texts[b], strict=True):
                    model.add_sentence_pair(x, y)
                    pairs += 1
    model.start_training()
    iterations = model.scheduled_iterations
    log.info("eflomal: %d sentence pairs from %d texts, %d sweeps (IBM1, HMM, fertility: %s), %d sampler(s)",
             pairs, len(names), iterations, model.get_iterations(), samplers)
    for _ in range(iterations):
        model.train()
    model.end_training()
    return model


def aligner(model):
    """A symmetrised (grow-diag-final-and) aligner: the model aligns in both directions."""
    import thot.alignment as ta

    symmetrised = ta.SymmetrizedAligner(model, model)
    symmetrised.heuristic = ta.SymmetrizationHeuristic.GROW_DIAG_FINAL_AND
    return symmetrised


def links(symmetrised, source: list[str], target: list[str]) -> set[tuple[int, int]]:
    """Alignment links (source index, target index) of one sentence pair."""
    if not source or not target:
        return set()
    _, matrix = symmetrised.get_best_alignment(source, target)
    rows, cols = np.nonzero(matrix.to_numpy())
    return set(zip(rows.tolist(), cols.tolist(), strict=True))


def format_links(pairs: Iterable[tuple[int, int]]) -> str:
    """Pharaoh format ("0-0 1-2 ..."), sorted."""
    return " ".join(f"{i}-{j}" for i, j in sorted(pairs))


def parse_links(text: str) -> set[tuple[int, int]]:
    out = set()
    for item in text.split():
        i, _, j = item.partition("-")
        out.add((int(i), int(j)))
    return out


def align_segments(segments, tokenize, seed: int = 1, lowercase: bool = True, samplers: int = 1):
    """Links between each reference and each system output of a prepared segment table.

    Returns a table (system, seg_id, links) with links in Pharaoh format (reference index -
    hypothesis index), over the tokens ``tokenize`` gives (lower-cased for training if asked).
    """
    import pandas as pd

    def tokens(text: str) -> list[str]:
        words = tokenize(text)
        return [w.lower() for w in words] if lowercase else words

    ordered = segments.sort_values(["system", "seg_id"], kind="stable")
    first = ordered.loc[ordered["system"] == ordered["system"].iloc[0]]
    texts = {"<reference>": [tokens(t) for t in first["reference"]]}
    seg_ids = first["seg_id"].tolist()
    for system, rows in ordered.groupby("system", sort=True):
        if rows["seg_id"].tolist() != seg_ids:
            raise ValueError(f"system {system!r} does not cover the same segments as the reference")
        texts[system] = [tokens(t) for t in rows["hypothesis"]]
    model = train(texts, seed=seed, samplers=samplers)
    symmetrised = aligner(model)
    out = []
    reference = texts["<reference>"]
    for system in sorted(set(texts) - {"<reference>"}):
        hypothesis = texts[system]
        for seg_id, ref, hyp in zip(seg_ids, reference, hypothesis, strict=True):
            out.append((system, int(seg_id), format_links(links(symmetrised, ref, hyp))))
        log.info("aligned %s: %d segments", system, len(hypothesis))
    return pd.DataFrame(out, columns=["system", "seg_id", "links"])
