"""Seed 002's experiments around the pure paraphraser (:mod:`mtmeta.parmesan.paraphraser`): lexicons from the
study's resources, paraphrasing of a prepared segment table, summaries, samples, pair rankings for
the appendix. Their correlations with Meng's test come from :func:`mtmeta.metaeval.significance.correlation_rows`.

Lemmas come from simplemma (the seed used the Morce tagger, which is not available).
"""

from __future__ import annotations

import logging
import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from mtmeta.data.corpus import target_language
from mtmeta.errors import ConfigError
from mtmeta.io import write_csv, write_parquet, write_text
from mtmeta.lexicons import paraphrases
from mtmeta.parmesan.paraphraser import ORDERS, SELECTIONS, Lexicon, Paraphraser, SegmentTexts, paraphrase_segments

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


def build_lexicon(kind: str, path: str | Path, lang: str, filter_kind: str | None = None,
                  raw: list | None = None) -> Lexicon:
    """``raw``: the resource's entries already read (:func:`mtmeta.lexicons.paraphrases.raw_entries`)."""
    lemma = lemmatizer(lang)
    lexicon = Lexicon.build(paraphrases.entries(kind, path, filter_kind, lemma, raw), lemma)
    log.info("lexicon %s (%s, filter %s): %d entries, %d one-word lemmas, %d phrases", Path(path).name, kind,
             filter_kind or "none", lexicon.n_entries, len(lexicon.words), len(lexicon.phrases))
    return lexicon


def paraphrase(segments: pd.DataFrame, lexicon: Lexicon, lang: str, order: str, selection: str,
               tokenize: Callable[[str], list[str]], links: dict | None = None, texts: SegmentTexts | None = None):
    """(new segment table, substitutions) for one setting; see :func:`mtmeta.parmesan.paraphrase_segments`
    (``texts``: the segments' tokens, lemmas and candidates shared by several settings)."""
    check_setting(order, selection, links)
    paraphraser = Paraphraser(lexicon, lemmatizer(lang), order)
    return paraphrase_segments(segments, paraphraser, tokenize, links if selection == "alignment" else None, texts)


def check_setting(order: str, selection: str, links: dict | None) -> None:
    if selection not in SELECTIONS:
        raise ConfigError(f"unknown selection {selection!r}; known: {', '.join(SELECTIONS)}")
    if selection == "alignment" and links is None:
        raise ConfigError("selection 'alignment' needs word alignments (rule align_outputs)")
    if order not in ORDERS:
        raise ConfigError(f"unknown substitution order {order!r}; known: {', '.join(ORDERS)}")


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
        write_text(path, "".join(line + "\n" for line in rows["reference"]))
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


# -- the study's steps, as the workflow's rules run them --------------------------------------------


def links_of(alignment: pd.DataFrame) -> dict[tuple[str, int], set[tuple[int, int]]]:
    """(system, seg_id) -> hypothesis-reference word links, from rule align_outputs' table."""
    from mtmeta.parmesan.alignment import parse_links

    return {(s, int(i)): parse_links(t) for s, i, t in zip(alignment["system"], alignment["seg_id"],
                                                            alignment["links"], strict=True)}


def paraphrase_settings(segments: pd.DataFrame, settings: dict[str, dict], lexicon_spec: dict, lexicon_path,
                        lexicon_sha256: str, lang: str, tokenize: str, links: dict | None, dataset: str, lp: str):
    """For each configured setting in order: (name, new segment table, substitutions, summary).

    Settings that share a lexicon filter share the lexicon (they differ in order and selection more
    often than in the filter); the resource is read once for all filters; the segments' texts are
    tokenised and lemmatised once, and each lexicon's candidates found once (:class:`SegmentTexts`)."""
    from mtmeta.data.tokenize import tokenizer

    raw = list(paraphrases.raw_entries(lexicon_spec["kind"], lexicon_path))
    texts = SegmentTexts(segments, tokenizer(tokenize), lemmatizer(lang))
    lexicons = {}
    for number, (name, setting) in enumerate(settings.items()):
        filter_kind = setting.get("filter")
        if filter_kind not in lexicons:
            lexicons[filter_kind] = build_lexicon(lexicon_spec["kind"], lexicon_path, lang, filter_kind, raw)
        lexicon = lexicons[filter_kind]
        table, substitutions = paraphrase(segments, lexicon, lang, setting["order"], setting["selection"],
                                          tokenizer(tokenize), links, texts)
        summary = summarize(table)
        summary.update(dataset=dataset, lp=lp, setting=name, order=setting["order"], selection=setting["selection"],
                       filter=filter_kind, lexicon=lexicon_spec["source"], lexicon_kind=lexicon_spec["kind"],
                       lexicon_sha256=lexicon_sha256, lexicon_entries=lexicon.n_entries, tokenize=tokenize,
                       lemmas="simplemma", substitutions=int(len(substitutions)))
        log.info("[%d/%d] %s: %.2f words and %.2f phrases replaced per sentence; %d of %d sentences changed",
                 number + 1, len(settings), name, summary["words_per_sentence"], summary["phrases_per_sentence"],
                 summary["sentences_changed"], summary["sentences"])
        yield name, table, substitutions, summary


def correlate_paraphrased(human: pd.DataFrame, dataset: dict, summaries: list[dict],
                          original: dict[str, pd.DataFrame], paraphrased: list[tuple[str, str, pd.DataFrame]]
                          ) -> pd.DataFrame:
    """Pearson with the human score for every metric with the original references and with each
    setting's, and Meng's test against the original references.

    ``dataset``: the target's summary; ``summaries``: each setting's paraphrasing summary;
    ``original``: metric id -> system scores with the original references; ``paraphrased``:
    (setting, metric id, system scores) of each run."""
    from mtmeta.metaeval.significance import correlation_rows
    from mtmeta.metaeval.system_level import primary_human_score

    human_score = primary_human_score(human)  # "> others"; the official score on a target without judgments
    by_setting = {info["setting"]: info for info in summaries}
    scored: dict[str, dict[str, pd.DataFrame]] = {}
    for setting, metric, table in paraphrased:
        scored.setdefault(metric, {})[setting] = table
    frames = []
    for metric, tables in scored.items():
        rows = correlation_rows(human, {"original": original[metric], **tables}, baseline="original",
                                human_score=human_score)
        rows.insert(0, "metric", metric)
        frames.append(rows)
    table = pd.concat(frames, ignore_index=True).rename(columns={"variant": "references"})
    for key in ("order", "selection", "filter", "words_per_sentence", "phrases_per_sentence"):
        table[key] = [by_setting.get(r, {}).get(key) for r in table["references"]]
    table["human_score"] = human_score
    table.insert(0, "lp", dataset["lp"])
    table.insert(0, "dataset", dataset["dataset"])
    return table


def share_sweep(segments: pd.DataFrame, human: pd.DataFrame, lexicon_spec: dict,
                lexicon_path, setting: dict, appendix: dict, metric, tokenize: str, corpus) -> tuple[
                    pd.DataFrame, pd.DataFrame, float]:
    """The appendix: rank the lexicon's one-word pairs each way, keep the best shares, score the
    references paraphrased with each share. ``appendix``: its config entry (target, rankings,
    fractions, seed, window); ``setting``: the Parmesan setting it paraphrases with; ``metric``: a
    :class:`~mtmeta.metrics.spec.MetricSpec` or its entry, scored against each system's new
    references, and against the original ones for the baseline (here, not read from the study's
    scores: rescoring the metric need not rerun this sweep, editing its code does); ``corpus``: the
    tokenised text of the distributional ranking. Returns (one row per ranking x share, the
    rankings, the metric's Pearson with the original references)."""
    import functools

    from mtmeta.data.tokenize import tokenizer
    from mtmeta.metaeval.significance import correlation_rows
    from mtmeta.metrics.spec import MetricSpec

    dataset, lp = appendix["target"].split("/")
    lang = target_language(lp)
    lexicon = build_lexicon(lexicon_spec["kind"], lexicon_path, lang, setting.get("filter"))
    sentences = lemmatised_corpus(corpus, lang) if "distributional" in appendix["rankings"] else None
    spec = MetricSpec.of(metric)
    metric, metric_id = spec.build(lang), spec.id
    check_setting(setting["order"], setting["selection"], None)
    # Every share re-paraphrases the same outputs and references: tokenise and lemmatise each text,
    # and find each reference word's candidates, once (SharedParaphrasing); each share's statistics
    # are computed only for the (segment, reference) pairs no earlier share had (SystemScorer).
    paraphrasing = SharedParaphrasing(segments, lexicon, lemmatizer(lang), functools.cache(tokenizer(tokenize)))
    scorer = SystemScorer(segments, metric)
    original = scorer(segments["reference"].tolist())
    baseline = float(correlation_rows(human, {"original": original}, "original")["pearson"].iloc[0])
    rows, rankings = [], []
    for ranking in appendix["rankings"]:
        ranked = rank_pairs(lexicon, ranking, seed=appendix["seed"], sentences=sentences, window=appendix["window"])
        rankings.append(ranked.assign(ranking=ranking, rank=range(1, len(ranked) + 1)))
        for fraction in appendix["fractions"]:
            kept = top_share(ranked, fraction)
            table = paraphrasing(kept)
            systems = scorer(table["reference"].tolist())
            r = correlation_rows(human, {"original": original, "paraphrased": systems}, "original")
            new = r.loc[r["variant"] == "paraphrased"].iloc[0]
            rows.append({"dataset": dataset, "lp": lp, "metric": metric_id, "ranking": ranking,
                         "fraction": fraction, "pairs_kept": len(kept), "pairs_total": len(ranked),
                         "words_per_sentence": float(table["words_replaced"].mean()), "pearson": new["pearson"],
                         "pearson_original": baseline, "meng_p_two_sided": new["meng_p_two_sided"],
                         "signature": new["signature"]})
            log.info("%s top %.0f%% (%d pairs): r = %.4f", ranking, 100 * fraction, len(kept), new["pearson"])
    return pd.DataFrame(rows), pd.concat(rankings, ignore_index=True), baseline


class SharedParaphrasing:
    """The appendix's paraphrasings of one segment table with shares of one lexicon's one-word pairs,
    as :func:`paraphrase` with ``lexicon.keep_pairs(kept)`` and greedy selection makes them (any
    order: the kept lexicon has no phrases), from one pass over the texts.

    With a share, reference word ``i`` (a lemma the hypothesis lacks) takes the hypothesis word of
    the best-ranked kept paraphrase that has a position not used yet (its first such position);
    :meth:`Lexicon.keep_pairs` keeps each lemma's paraphrases in the lexicon's order, so ranks in
    the whole lexicon order the kept ones as their own ranks do. Each reference word's candidates
    (paraphrases the hypothesis offers, best first, with their pair and positions) are found once;
    a share only walks them.
    """

    def __init__(self, segments: pd.DataFrame, lexicon: Lexicon, lemma: Callable[[str], str],
                 tokenize: Callable[[str], list[str]]):
        self.segments = segments
        self.pair_ids = {pair: k for k, pair in enumerate(lexicon.word_pairs())}
        ranks = lexicon.word_ranks
        self.unchanged: list[str] = []  # per row: the reference's tokens joined (what a row without substitutions gets)
        self.open: list[tuple] = []  # (row, reference tokens, hypothesis tokens, candidates per reference word)
        reference_tokens: dict[str, list[str]] = {}
        for row, (hyp, ref) in enumerate(zip(segments["hypothesis"].tolist(), segments["reference"].tolist(),
                                             strict=True)):
            ref_tokens = reference_tokens.get(ref)
            if ref_tokens is None:
                ref_tokens = reference_tokens[ref] = tokenize(ref)
            hyp_tokens = tokenize(hyp)
            self.unchanged.append(" ".join(ref_tokens))
            slots = self._candidates([lemma(w) for w in ref_tokens], [lemma(w) for w in hyp_tokens], ranks)
            if slots:
                self.open.append((row, ref_tokens, hyp_tokens, slots))

    def _candidates(self, ref_lemmas: list[str], hyp_lemmas: list[str], ranks: dict[str, dict[str, int]]) -> list:
        """(reference position, ((pair id, hypothesis positions) of each candidate, best first)) of each
        reference word with candidates in the whole lexicon (see :meth:`Paraphraser._words`)."""
        ref_set, hyp_set = set(ref_lemmas), set(hyp_lemmas)
        positions: dict[str, list[int]] = defaultdict(list)
        for j, w in enumerate(hyp_lemmas):
            positions[w].append(j)
        offers = [w for w in positions if w not in ref_set]
        slots = []
        for i, r in enumerate(ref_lemmas):
            rank = ranks.get(r) if r not in hyp_set else None
            if not rank:
                continue
            found = sorted((rank[w], w) for w in offers if w in rank)
            if found:
                slots.append((i, tuple((self.pair_ids[(r, w) if r <= w else (w, r)], positions[w]) for _, w in found)))
        return slots

    def __call__(self, kept: set[tuple[str, str]]) -> pd.DataFrame:
        """The segment table with the references paraphrased with the ``kept`` lemma pairs (either
        direction), as :func:`paraphrase` returns it."""
        pair_ids = self.pair_ids
        allowed = {pair_ids.get(pair, pair_ids.get(pair[::-1])) for pair in kept} - {None}
        new_refs = list(self.unchanged)
        words = [0] * len(new_refs)
        for row, ref_tokens, hyp_tokens, slots in self.open:
            used, tokens = set(), None
            for i, candidates in slots:
                choice = next((j for pair, js in candidates if pair in allowed for j in js if j not in used), None)
                if choice is not None:
                    if tokens is None:
                        tokens = list(ref_tokens)
                    tokens[i] = hyp_tokens[choice]
                    used.add(choice)
            if tokens is not None:
                new_refs[row] = " ".join(tokens)
                words[row] = len(used)
        table = self.segments.copy()
        table["original_reference"] = table["reference"]
        table["reference"] = new_refs
        table["words_replaced"] = words
        table["phrases_replaced"] = [0] * len(words)
        return table


class SystemScorer:
    """System scores of one metric on segment tables that differ in their references only (each
    system against its own), as :func:`mtmeta.metrics.score_tables.score_segments` gives them with
    ``own_references``: statistics are per segment, so each (row, reference) pair's are computed
    once, by the first table that has it, and a system's corpus score comes from its rows' in
    segment order."""

    def __init__(self, segments: pd.DataFrame, metric):
        self.metric = metric
        self.hypotheses = segments["hypothesis"].tolist()
        frame = pd.DataFrame({"system": segments["system"].to_numpy(), "seg_id": segments["seg_id"].to_numpy()})
        ordered = frame.sort_values(["system", "seg_id"], kind="stable")
        self.systems: list[tuple[str, np.ndarray]] = []
        seg_ids = None
        for system, rows in ordered.groupby("system", sort=True):
            if seg_ids is None:
                seg_ids, first = rows["seg_id"].to_numpy(), system
            elif not np.array_equal(rows["seg_id"].to_numpy(), seg_ids):
                raise ValueError(f"system {system!r} does not cover the same segments and references as {first!r}")
            self.systems.append((system, rows.index.to_numpy()))
        self.known: dict[tuple[int, str], int] = {}  # (row, reference) -> its row of self.stats
        self.stats: np.ndarray | None = None

    def __call__(self, references: list[str]) -> pd.DataFrame:
        """The system table (system, score, n_segments, signature) with each row's new reference."""
        metric, known = self.metric, self.known
        missing = [row for row, ref in enumerate(references) if (row, ref) not in known]
        if missing:
            metric.prepare(list(dict.fromkeys(references[row] for row in missing)))
            pending = set(missing)
            for _, rows in self.systems:  # one call per system, as score_segments makes them (a call's
                # vocabulary stays small enough for the compiled BLEU counting)
                new = [row for row in rows.tolist() if row in pending]
                if new:
                    refs = [references[row] for row in new]
                    self._add(new, metric.stats([self.hypotheses[row] for row in new], [refs]), references)
        index = np.fromiter((known[(row, ref)] for row, ref in enumerate(references)), dtype=np.int64,
                            count=len(references))
        sys_rows = []
        for number, (system, rows) in enumerate(self.systems, start=1):
            sys_rows.append({"system": system, "score": metric.corpus_score(self.stats[index[rows]]),
                             "n_segments": len(rows)})
            log.info("[%d/%d] %s: %s = %.4f", number, len(self.systems), system, metric.name, sys_rows[-1]["score"])
        table = pd.DataFrame(sys_rows)
        table["signature"] = metric.signature()
        return table

    def _add(self, rows: list[int], stats: np.ndarray, references: list[str]) -> None:
        start = len(self.known)
        self.known.update(((row, references[row]), start + k) for k, row in enumerate(rows))
        self.stats = stats if self.stats is None else np.concatenate([self.stats, stats])


def lemmatised_corpus(path, lang: str) -> list[list[str]]:
    """The distributional ranking's corpus: one lemmatised sentence per line of a tokenised file."""
    lemma = lemmatizer(lang)
    with open(path, encoding="utf-8") as handle:
        sentences = [[lemma(w) for w in line.split()] for line in handle]
    log.info("distributional ranking: %d corpus sentences, %d tokens", len(sentences), sum(map(len, sentences)))
    return sentences


def write_setting(table: pd.DataFrame, substitutions: pd.DataFrame, summary: dict, outputs: dict,
                  samples: int, sample_seed: int) -> None:
    """One setting's files: the new segment table, a reference file per system, the substitutions
    (gzip), a seeded sample of them for a person to judge, and the summary. ``outputs``: segments,
    references (a folder), substitutions, samples, summary."""
    import json

    from mtmeta.data.textio import GZIP_WITHOUT_TIMESTAMP

    write_parquet(table.drop(columns=["original_reference"]), outputs["segments"])
    write_references(table, outputs["references"])
    write_csv(substitutions, outputs["substitutions"], sep="\t", index=False, compression=GZIP_WITHOUT_TIMESTAMP)
    write_csv(sample(substitutions, samples, sample_seed), outputs["samples"], sep="\t", index=False)
    write_text(outputs["summary"], json.dumps(summary, indent=1))
