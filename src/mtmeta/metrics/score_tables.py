"""Score every system of a prepared segment table with one metric.

Output tables (one row per system x segment, and one per system) keep the sufficient
statistics next to the scores, so later steps (sweeps, resampling) never recompute them.
"""

from __future__ import annotations

import logging
import multiprocessing
import time
from collections.abc import Iterator, Sequence
from multiprocessing.connection import wait
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.metrics.base import Metric

log = logging.getLogger(__name__)

NON_STATISTICS = ("system", "seg_id", "score", "signature")  # a segment table's other columns are statistics
# Shares of a scoring job's runs, each scored in a process of its own (write_runs): fixed, so that the
# files do not depend on how many processes run at once.
SHARES = 2


def stat_columns(segment_table: pd.DataFrame) -> list[str]:
    """The sufficient-statistics columns of a segment table that :func:`score_segments` wrote."""
    return [c for c in segment_table.columns if c not in NON_STATISTICS]


def preload_tokens(path) -> None:
    """Tokenisations of a test set's texts from rule tokenize_segments, for every metric of this
    process to reuse (:func:`mtmeta.data.tokenize.preload_later`: read when a tokeniser first needs
    them), in place of the test set preloaded before (if any)."""
    from mtmeta.data.tokenize import preload_later

    def load(name: str) -> tuple[list[str], list[str]]:
        table = pd.read_parquet(path, columns=["line", "tokens"], filters=[("tokenizer", "==", name)])
        log.info("%d lines of tokeniser %s read from %s", len(table), name, path)
        return table["line"].tolist(), table["tokens"].tolist()

    preload_later(load)


def score_segments(segments: pd.DataFrame, metric: Metric,
                   own_references: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Return ``(segment_table, system_table)`` for every system in ``segments``.

    Every system must cover the same segments. Their references must be identical too, unless
    ``own_references`` (targeted paraphrasing gives each system its own references).
    """
    ordered = segments.sort_values(["system", "seg_id"], kind="stable")
    first_system = ordered["system"].iloc[0]
    first = ordered.loc[ordered["system"] == first_system]
    references = first["reference"].tolist()
    # Compared column to column: Python strings of every system's references cost more than the check.
    first_references = first["reference"].reset_index(drop=True)
    seg_ids = first["seg_id"].to_numpy()
    seg_frames, sys_rows = [], []
    systems = ordered["system"].nunique()
    if own_references:
        metric.prepare(list(dict.fromkeys(ordered["reference"])))
    for number, (system, rows) in enumerate(ordered.groupby("system", sort=True), start=1):
        same_references = own_references or rows["reference"].reset_index(drop=True).equals(first_references)
        if not np.array_equal(rows["seg_id"].to_numpy(), seg_ids) or not same_references:
            raise ValueError(f"system {system!r} does not cover the same segments and references as "
                             f"{first_system!r}")
        if own_references:
            references = rows["reference"].tolist()
        stats = metric.stats(rows["hypothesis"].tolist(), [references])
        frame = pd.DataFrame(stats, columns=metric.stat_names)
        frame.insert(0, "score", metric.segment_scores(stats))
        frame.insert(0, "seg_id", seg_ids)
        frame.insert(0, "system", system)
        seg_frames.append(frame)
        sys_rows.append({"system": system, "score": metric.corpus_score(stats), "n_segments": len(rows)})
        log.info("[%d/%d] %s: %s = %.4f", number, systems, system, metric.name, sys_rows[-1]["score"])
    seg_table = pd.concat(seg_frames, ignore_index=True)
    seg_table["signature"] = metric.segment_signature()
    sys_table = pd.DataFrame(sys_rows)
    sys_table["signature"] = metric.signature()
    return seg_table, sys_table


def score_runs(spec, runs: list[dict], tokens: list, segments: list,
               own_references: bool = False) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    """``(segment_table, system_table)`` of one metric on each run, in order.

    ``spec``: a :class:`~mtmeta.metrics.spec.MetricSpec` or its entry; each run names its
    ``dataset`` and ``lp``, whether its text is already tokenised (``tokenized``) and, for
    paraphrased references, the ``setting`` that wrote them (a ``references`` column of the system
    table); ``tokens`` and ``segments`` are the runs' files. One metric object per target language
    and tokenisation, so its resources load once.
    """
    from mtmeta.data.corpus import split_lp
    from mtmeta.metrics.spec import MetricSpec

    spec = MetricSpec.of(spec)
    made: dict[tuple[str, bool], Metric] = {}
    for number, run in enumerate(runs):
        key = (split_lp(run["lp"])[1], bool(run.get("tokenized", False)))
        if key not in made:
            made[key] = spec.build(key[0], tokenized=key[1])
        references = f", {run['setting']} references," if "setting" in run else ""
        log.info("[%d/%d] %s %s%s with %s", number + 1, len(runs), run["dataset"], run["lp"], references, spec.id)
        preload_tokens(tokens[number])  # the outputs' (paraphrased references are new text)
        segment_table, system_table = score_segments(pd.read_parquet(segments[number]), made[key], own_references)
        system_table.insert(1, "metric", spec.id)
        if "setting" in run:
            system_table.insert(2, "references", run["setting"])
        yield segment_table, system_table


def share_runs(sizes: Sequence[int], shares: int) -> list[list[int]]:
    """The runs (indices) of each of ``shares`` shares: the largest run first to the lightest share
    (by ``sizes``, e.g. rows), each share's runs kept in their given order (runs of one target
    language stay next to each other). Shares left without a run are dropped."""
    loads = [0] * max(1, shares)
    split: list[list[int]] = [[] for _ in loads]
    for run in sorted(range(len(sizes)), key=lambda k: (-sizes[k], k)):
        lightest = min(range(len(loads)), key=lambda w: (loads[w], w))
        split[lightest].append(run)
        loads[lightest] += sizes[run]
    return [sorted(share) for share in split if share]


def write_runs(spec, runs: list[dict], tokens: list, segments: list, segment_outputs: list, system_outputs: list,
               own_references: bool = False, workers: int = 1) -> None:
    """:func:`score_runs`' tables of every run written to its two outputs.

    The runs are split into :data:`SHARES` shares (:func:`share_runs`, by file size), each scored in
    a process of its own forked from this one before anything is scored, ``workers`` at a time. The
    split does not depend on ``workers``: a run's last bits can depend on the state of the process that
    scores it (softBLEU's soft credit moves in the 16th digit in a few rows of a few runs), so every run
    is scored after the same runs, in a process forked from the same state, however many run at once,
    and the files are the same bytes for any number of workers. They are not always the bytes of one
    process scoring every run in order: on the study's data, 8 of softBLEU's 132 segment tables differ
    from those in 1 to 4 rows, in the last bits."""
    from mtmeta.io import write_parquet, write_tsv

    shares = share_runs([Path(path).stat().st_size for path in segments], SHARES)  # bytes: about the rows

    def names(share: list[int]) -> str:
        return ", ".join(f"{runs[k]['dataset']} {runs[k]['lp']}" for k in share)

    log.info("%d runs in %d shares, %d at a time: %s", len(runs), len(shares), max(1, workers),
             "; ".join(names(share) for share in shares))

    def score_share(share: list[int]) -> None:
        try:
            tables = score_runs(spec, [runs[k] for k in share], [tokens[k] for k in share],
                                [segments[k] for k in share], own_references)
            for k, (segment_table, system_table) in zip(share, tables, strict=True):
                write_parquet(segment_table, segment_outputs[k])
                write_tsv(system_table, system_outputs[k])
        except BaseException:
            log.exception("scoring failed")
            raise

    # fork: each share starts from this process's state (modules imported, the log's handlers open)
    fork = multiprocessing.get_context("fork")
    pending = list(enumerate(shares, start=1))
    running: dict = {}  # sentinel -> (share number, share, process, start time)
    failed = []
    try:
        while pending or running:
            while pending and len(running) < max(1, workers):
                number, share = pending.pop(0)
                child = fork.Process(target=score_share, args=(share,), daemon=True)
                child.start()
                running[child.sentinel] = (number, share, child, time.perf_counter())
            for sentinel in wait(list(running)):  # whichever ends first frees its core for the next share
                number, share, child, start = running.pop(sentinel)
                child.join()
                log.info("share %d of %d: %d runs in %.1f s%s", number, len(shares), len(share),
                         time.perf_counter() - start, f", exit code {child.exitcode}" if child.exitcode else "")
                if child.exitcode:
                    failed.append((share, child.exitcode))
    finally:
        for _, _, child, _ in running.values():
            child.terminate()
            child.join()
    if failed:
        which = "; ".join(f"{names(share)} (exit code {code})" for share, code in failed)
        raise RuntimeError(f"a scoring process failed on runs {which}: its error is logged above")
