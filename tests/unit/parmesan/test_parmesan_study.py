"""Seed 002's experiment helpers and tables: pair rankings, shares, correlations with Meng's test,
summaries, and the Parmesan tables beside the reported numbers."""

import math

import numpy as np
import pandas as pd
import pytest
import yaml
from by_hand import meng_by_hand  # tests/by_hand.py: conftest's directory is on sys.path

from mtmeta.metaeval.significance import correlation_rows
from mtmeta.paper.ledger import NOT_REPORTED, ledger_table
from mtmeta.paper.parmesan import DEPFIX_GAP, paraphrased_tables
from mtmeta.paper.softbleu_table import softbleu_table
from mtmeta.parmesan import study as ps
from mtmeta.parmesan.paraphraser import Lexicon, Paraphraser, paraphrase_segments


def lexicon():
    return Lexicon.build([("a", "b"), ("c", "d"), ("e", "f"), ("a", "g")], lambda w: w)


def test_rankings():
    lex = lexicon()
    assert lex.word_pairs() == [("a", "b"), ("a", "g"), ("c", "d"), ("e", "f")]  # unordered, lexicon order
    thesaurus = ps.rank_pairs(lex, "thesaurus")
    assert list(zip(thesaurus["a"], thesaurus["b"], strict=True)) == [("a", "b"), ("a", "g"), ("c", "d"), ("e", "f")]
    first = ps.rank_pairs(lex, "random", seed=3)
    again = ps.rank_pairs(lex, "random", seed=3)
    assert first.equals(again) and sorted(zip(first["a"], first["b"], strict=True)) == sorted(
        zip(thesaurus["a"], thesaurus["b"], strict=True))
    # Distributional: c and d share the contexts x _ y; a and b never co-occur with the same words.
    sentences = [["x", "c", "y"], ["x", "d", "y"], ["p", "a", "q"], ["r", "b", "s"], ["x", "e", "q"], ["t", "f", "y"]]
    ranked = ps.rank_pairs(lex, "distributional", sentences=sentences, window=1)
    assert (ranked["a"].iloc[0], ranked["b"].iloc[0]) == ("c", "d")
    assert ranked["score"].iloc[0] > 0 and ranked.set_index(["a", "b"]).loc[("a", "b"), "score"] == 0


def test_top_share_rounds_up():
    ranked = ps.rank_pairs(lexicon(), "thesaurus")  # 4 pairs
    assert ps.top_share(ranked, 0.1) == {("a", "b")}
    assert ps.top_share(ranked, 0.5) == {("a", "b"), ("a", "g")}
    assert len(ps.top_share(ranked, 1.0)) == 4


def test_keeping_every_pair_paraphrases_as_the_full_lexicon():
    lex = Lexicon.build([("shop", "store"), ("big", "large"), ("quick", "fast"), ("shop", "market")],
                        ps.lemmatizer("en"))
    segments = pd.DataFrame({"system": ["s", "s"], "seg_id": [1, 2], "hypothesis": ["store big", "market x"],
                             "reference": ["shop big", "shop large"], "source": ["", ""]})
    full, subs = ps.paraphrase(segments, lex, "en", "one-word-only", "greedy", str.split)
    kept, _ = ps.paraphrase(segments, lex.keep_pairs(ps.top_share(ps.rank_pairs(lex, "thesaurus"), 1.0)), "en",
                            "one-word-only", "greedy", str.split)
    none, _ = ps.paraphrase(segments, lex.keep_pairs(set()), "en", "one-word-only", "greedy", str.split)
    assert full["reference"].tolist() == kept["reference"].tolist() == ["store big", "market large"]
    assert none["reference"].tolist() == ["shop big", "shop large"]
    assert ps.summarize(full) == {"sentences": 2, "systems": 1, "words_per_sentence": 1.0,
                                  "phrases_per_sentence": 0.0, "sentences_changed": 2}
    assert len(subs) == 2 and ps.sample(subs, 1, seed=0).shape[0] == 1


def test_alignment_selection_needs_links():
    from mtmeta.errors import ConfigError

    segments = pd.DataFrame({"system": ["s"], "seg_id": [1], "hypothesis": ["b"], "reference": ["a"], "source": [""]})
    with pytest.raises(ConfigError, match="word alignments"):
        ps.paraphrase(segments, lexicon(), "xx", "one-word-only", "alignment", str.split)


def test_correlation_rows_pearson_and_meng():
    human = pd.DataFrame({"system": list("abcdef"), "gt_others": [0.1, 0.4, 0.3, 0.6, 0.8, 0.7]})
    original = pd.DataFrame({"system": list("abcdef"), "score": [10, 14, 16, 15, 20, 18.0], "signature": "o"})
    new = pd.DataFrame({"system": list("fedcba"), "score": [19, 21, 16, 15, 14, 9.0], "signature": "n"})
    rows = correlation_rows(human, {"original": original, "new": new}, "original").set_index("variant")
    h = human["gt_others"].to_numpy()
    r_orig = np.corrcoef(original["score"], h)[0, 1]
    new_scores = new.set_index("system").loc[list("abcdef"), "score"].to_numpy()
    r_new = np.corrcoef(new_scores, h)[0, 1]
    assert rows.loc["original", "pearson"] == pytest.approx(r_orig) and math.isnan(rows.loc["original", "meng_z"])
    z, p = meng_by_hand(r_new, r_orig, np.corrcoef(new_scores, original["score"])[0, 1], 6)
    assert rows.loc["new", "meng_z"] == pytest.approx(z) and rows.loc["new", "meng_p_two_sided"] == pytest.approx(p)


def test_paraphrased_tables(repo):
    meteor_settings = yaml.safe_load((repo / "config/config.yaml").read_text())["paper"]["parmesan"]["meteor_settings"]
    reported = yaml.safe_load((repo / "config/reported/seed002.yaml").read_text())
    settings = {"owo": {"order": "one-word-only", "selection": "greedy"},
                "owo-al": {"order": "one-word-only", "selection": "alignment"},
                "owo.pos": {"order": "one-word-only", "selection": "greedy", "filter": "same-pos"}}
    rows = [{"metric": "bleu", "references": "original", "pearson": 0.70, "meng_p_two_sided": math.nan,
             "words_per_sentence": None, "phrases_per_sentence": None},
            {"metric": "bleu", "references": "owo", "pearson": 0.80, "meng_p_two_sided": 0.04,
             "words_per_sentence": 1.5, "phrases_per_sentence": 0.0},
            {"metric": "bleu", "references": "owo-al", "pearson": 0.75, "meng_p_two_sided": 0.2,
             "words_per_sentence": 0.8, "phrases_per_sentence": 0.0}]
    rows += [{"metric": m, "references": "owo", "pearson": 0.9, "meng_p_two_sided": 0.01, "words_per_sentence": 1.5,
              "phrases_per_sentence": 0.0} for m in meteor_settings.values()]
    tables = paraphrased_tables({"WMT12": pd.DataFrame(rows)}, reported, settings, "owo", meteor_settings)
    sub = tables["parmesan_substitution"].set_index(["row", "column"])
    cell = sub.loc[("one-word only, greedy", "WMT12 Pearson, no Depfix")]
    assert cell["reported"] == 0.802 and cell["reproduced"] == 0.80 and cell["delta"] == pytest.approx(-0.002)
    depfix = sub.loc[("one-word only, greedy", "WMT12 Pearson, full Depfix")]
    assert depfix["reported"] == 0.827 and math.isnan(depfix["reproduced"]) and depfix["reason"] == DEPFIX_GAP
    assert math.isnan(sub.loc[("one-word first, greedy", "WMT12 Pearson, no Depfix"), "reproduced"])  # not configured
    assert sub.loc[("baseline (original references)", "WMT12 Pearson"), "reproduced"] == 0.70
    replaced = tables["parmesan_replaced"].set_index(["row", "column"])
    assert replaced.loc[("one-word only, alignment", "WMT12 words per sentence"), "reported"] == 0.86
    assert replaced.loc[("one-word only, alignment", "WMT12 words per sentence"), "reproduced"] == 0.8
    meteor = tables["parmesan_meteor"].set_index(["row", "column"])
    assert meteor.loc[("Meteor, no-paraphrases", "WMT12 Pearson, before Depfix"), "reported"] == 0.931
    assert meteor.loc[("Meteor, no-paraphrases", "WMT12 Pearson, before Depfix"), "reproduced"] == 0.9
    # A test set the seed does not report (WMT14 en-cs): our numbers, no reported ones, no Depfix rows,
    # and none of its rows reaches the ledger.
    both = paraphrased_tables({"WMT12": pd.DataFrame(rows), "WMT14": pd.DataFrame(rows)}, reported, settings, "owo",
                              meteor_settings)
    wmt14 = {name: t[t["column"].str.startswith("WMT14")] for name, t in both.items()}
    assert wmt14["parmesan_substitution"]["column"].tolist() == ["WMT14 Pearson"] + ["WMT14 Pearson, no Depfix"] * 6
    assert wmt14["parmesan_substitution"]["reproduced"].tolist()[:3] == [0.70, 0.80, 0.75]
    assert len(wmt14["parmesan_meteor"]) == len(meteor_settings)
    assert all(t["reported"].isna().all() and set(t["reason"]) == {NOT_REPORTED} for t in wmt14.values())
    ledger = ledger_table({}, {}, both)
    assert not ledger["column"].str.startswith("WMT14").any()
    assert len(ledger) == len(ledger_table({}, {}, tables))


def test_softbleu_table_williams_against_bleu():
    system = pd.DataFrame({"dataset": "d", "lp": "en-cs", "metric": ["bleu", "soft"], "human_score": "gt_others",
                           "n_systems": 9, "pearson": [0.7, 0.75], "metric_signature": ["B", "S"]})
    segment = pd.DataFrame({"dataset": "d", "lp": "en-cs", "metric": ["bleu", "soft"], "tau_wmt13": [0.2, 0.25],
                            "three_way_accuracy": [0.4, 0.45], "n_comparisons": 100, "metric_signature": ["B", "S"]})
    williams = pd.DataFrame({"dataset": "d", "lp": "en-cs", "human_score": "gt_others", "metric_1": ["soft", "bleu"],
                             "metric_2": ["bleu", "soft"], "t": [1.2, -1.2], "p_one_sided": [0.13, 0.87]})
    table = softbleu_table(system, segment, williams, ["bleu", "soft"], {"d": "wmt13"}).set_index("metric")
    assert table.loc["soft", "pearson_minus_bleu"] == pytest.approx(0.05)
    assert table.loc["soft", "williams_p_two_sided"] == pytest.approx(0.26)
    assert table.loc["soft", "tau"] == 0.25 and table.loc["bleu", "three_way_accuracy"] == 0.4
    assert math.isnan(table.loc["bleu", "williams_p_two_sided"])


def test_paraphrase_settings_share_a_lexicon_per_filter_and_summarise(tmp_path, monkeypatch):
    built = []
    real_build = ps.build_lexicon
    monkeypatch.setattr(ps, "build_lexicon", lambda *a: built.append(a[3]) or real_build(*a))
    thesaurus = tmp_path / "th_en.dat"
    thesaurus.write_text("UTF-8\nshop|1\n(noun)|store|market\nbig|1\n(adj)|large\n", encoding="utf-8")
    segments = pd.DataFrame({"system": ["s", "s"], "seg_id": [1, 2], "hypothesis": ["store big", "market x"],
                             "reference": ["shop big", "shop large"], "source": ["", ""]})
    settings = {"owo": {"order": "one-word-only", "selection": "greedy"},
                "owf": {"order": "one-word-first", "selection": "greedy"},
                "owo.pos": {"order": "one-word-only", "selection": "greedy", "filter": "same-pos"}}
    runs = list(ps.paraphrase_settings(segments, settings, {"kind": "mythes", "source": "thesaurus_en"}, thesaurus,
                                       "abc", "en", "none", None, "tiny", "xx-en"))
    assert [name for name, *_ in runs] == ["owo", "owf", "owo.pos"]
    assert built == [None, "same-pos"]  # owo and owf share the unfiltered lexicon
    name, table, substitutions, summary = runs[0]
    assert table["reference"].tolist() == ["store big", "market large"] and len(substitutions) == 2
    assert summary["setting"] == "owo" and summary["filter"] is None and summary["lexicon_sha256"] == "abc"
    assert (summary["dataset"], summary["lp"], summary["substitutions"], summary["words_per_sentence"]) == (
        "tiny", "xx-en", 2, 1.0)


def test_links_of_reads_the_alignment_table():
    aligned = pd.DataFrame({"system": ["s", "t"], "seg_id": [1, 2], "links": ["0-0 1-2", ""]})
    assert ps.links_of(aligned) == {("s", 1): {(0, 0), (1, 2)}, ("t", 2): set()}


def test_correlate_paraphrased_joins_settings_and_summaries():
    human = pd.DataFrame({"system": list("abcdef"), "gt_others": [0.1, 0.4, 0.3, 0.6, 0.8, 0.7]})

    def scores(values, signature):
        return pd.DataFrame({"system": list("abcdef"), "score": values, "signature": signature})

    original = {"bleu": scores([10, 14, 16, 15, 20, 18.0], "o")}
    paraphrased = [("owo", "bleu", scores([11, 15, 14, 17, 21, 19.0], "p1")),
                   ("owf", "bleu", scores([9, 15, 16, 15, 22, 17.0], "p2"))]
    summaries = [{"setting": "owo", "order": "one-word-only", "selection": "greedy", "filter": None,
                  "words_per_sentence": 1.5, "phrases_per_sentence": 0.0}]
    table = ps.correlate_paraphrased(human, {"dataset": "tiny", "lp": "xx-en"}, summaries, original, paraphrased)
    assert table["references"].tolist() == ["original", "owo", "owf"]
    assert list(table.columns[:3]) == ["dataset", "lp", "metric"] and set(table["dataset"]) == {"tiny"}
    expected = correlation_rows(human, {"original": original["bleu"], "owo": paraphrased[0][2],
                                        "owf": paraphrased[1][2]}, "original")
    assert table["pearson"].tolist() == expected["pearson"].tolist()
    assert table.set_index("references").loc["owo", "words_per_sentence"] == 1.5
    assert pd.isna(table.set_index("references").loc["owf", "order"])  # no summary for owf
    assert set(table["human_score"]) == {"gt_others"}
    # A target without judgments (WMT14 en-cs) correlates with its official score instead.
    official = human.rename(columns={"gt_others": "official"}).assign(gt_others=float("nan"))
    other = ps.correlate_paraphrased(official, {"dataset": "tiny", "lp": "xx-en"}, summaries, original, paraphrased)
    assert set(other["human_score"]) == {"official"} and other["pearson"].tolist() == table["pearson"].tolist()


def _share_fixture():
    """A lexicon whose words have several paraphrases, and outputs where they compete for the same
    hypothesis words (two systems, shared references)."""
    lex = Lexicon.build([("shop", "store"), ("shop", "market"), ("big", "large"), ("big", "huge"), ("large", "huge"),
                         ("quick", "fast"), ("quick", "rapid"), ("car", "auto"), ("store", "market")], lambda w: w)
    references = ["the big shop sells a quick car", "a large store and a big market", "quick quick big car"]
    outputs = {"s1": ["the huge market sells a fast auto", "a huge shop and a large store", "fast rapid large auto"],
               "s2": ["the large store sells a rapid car", "one big market and huge market", "rapid fast huge car"]}
    rows = [{"system": s, "seg_id": k + 1, "hypothesis": h, "reference": references[k], "source": ""}
            for s, hyps in outputs.items() for k, h in enumerate(hyps)]
    return lex, pd.DataFrame(rows).iloc[::-1].reset_index(drop=True)  # not in (system, seg_id) order


def test_shared_paraphrasing_equals_paraphrasing_each_share():
    lex, segments = _share_fixture()
    shared = ps.SharedParaphrasing(segments, lex, lambda w: w, str.split)
    full = shared(set(lex.word_pairs()))
    assert full.loc[full["system"] == "s1"].sort_values("seg_id")["reference"].tolist() == [
        "the huge market sells a fast auto", "a large store and a huge shop", "fast rapid large auto"]
    assert full["words_replaced"].tolist() == [3, 1, 3, 4, 2, 4]
    for ranking in ps.RANKINGS[:2]:
        ranked = ps.rank_pairs(lex, ranking, seed=5)
        for fraction in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
            kept = ps.top_share(ranked, fraction)
            fast = shared(kept)
            for order in ("one-word-only", "one-word-first", "multi-word-first"):
                paraphraser = Paraphraser(lex.keep_pairs(kept), lambda w: w, order)
                slow, _ = paraphrase_segments(segments, paraphraser, str.split)
                pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    # Either direction of a pair keeps it, as Lexicon.keep_pairs does.
    assert shared({("store", "shop")})["reference"].tolist() == shared({("shop", "store")})["reference"].tolist()


def test_system_scorer_equals_score_segments():
    from mtmeta.metrics.bleu import BLEU
    from mtmeta.metrics.score_tables import score_segments

    lex, segments = _share_fixture()
    shared, scorer = ps.SharedParaphrasing(segments, lex, lambda w: w, str.split), ps.SystemScorer(segments, BLEU("en"))
    ranked = ps.rank_pairs(lex, "random", seed=2)
    scores = []
    for fraction in (0.2, 1.0, 0.6, 0.2, 1.0):  # later shares reuse earlier shares' statistics
        table = shared(ps.top_share(ranked, fraction))
        fast = scorer(table["reference"].tolist())
        _, slow = score_segments(table, BLEU("en"), own_references=True)
        pd.testing.assert_frame_equal(fast, slow, check_exact=True)
        scores.append(fast["score"].tolist())
    assert scores[0] == scores[3] and scores[1] == scores[4] and scores[1] != scores[0]
    assert len(scorer.known) == len(scorer.stats) < 5 * len(segments)
    bad = segments.loc[~((segments["system"] == "s2") & (segments["seg_id"] == 3))]
    with pytest.raises(ValueError, match="same segments"):
        ps.SystemScorer(bad, BLEU("en"))


def test_ppmi_cosine_equals_scipy_pair_by_pair():
    """The vectorised counts and compiled dot products give scipy's per-pair cosines to the bit."""
    from collections import Counter

    from scipy import sparse

    from mtmeta.parmesan.distributional import ppmi_cosine
    from mtmeta.parmesan.distributional_kernel import pairwise_sum

    rng = np.random.default_rng(7)
    vocabulary = [f"w{k}" for k in range(60)]
    weights = 1 / np.arange(1, 61)
    sentences = [list(rng.choice(vocabulary, size=rng.integers(0, 40), p=weights / weights.sum()))
                 for _ in range(400)]
    pairs = [(vocabulary[a], vocabulary[b]) for a, b in rng.integers(0, 60, size=(300, 2)) if a != b]
    pairs.append(("w1", "unseen"))

    def straightforward(window, max_contexts):
        frequency = Counter(t for s in sentences for t in s)
        ctx = {w: k for k, (w, _) in enumerate(sorted(frequency.items(), key=lambda x: (-x[1], x[0]))[:max_contexts])}
        tgt = {w: k for k, w in enumerate(sorted({w for p in pairs for w in p}))}
        counts, col_sums = np.zeros((len(tgt), len(ctx))), np.zeros(len(ctx))
        for s in sentences:
            for i, w in enumerate(s):
                if w in ctx:
                    col_sums[ctx[w]] += min(len(s), i + window + 1) - max(0, i - window) - 1
                for j in range(max(0, i - window), min(len(s), i + window + 1)):
                    if w in tgt and j != i and s[j] in ctx:
                        counts[tgt[w], ctx[s[j]]] += 1
        coo = sparse.csr_matrix(counts).tocoo()
        pmi = np.log(coo.data * col_sums.sum() / (counts.sum(axis=1)[coo.row] * col_sums[coo.col]))
        ppmi = sparse.csr_matrix((pmi[pmi > 0], (coo.row[pmi > 0], coo.col[pmi > 0])), shape=counts.shape)
        norms = np.sqrt(np.asarray(ppmi.multiply(ppmi).sum(axis=1)).ravel())
        return np.array([float(ppmi[tgt[a]].multiply(ppmi[tgt[b]]).sum()) / (norms[tgt[a]] * norms[tgt[b]])
                         if norms[tgt[a]] > 0 and norms[tgt[b]] > 0 else 0.0 for a, b in pairs])

    for window, max_contexts in ((1, 10000), (2, 10000), (3, 25)):
        expected = straightforward(window, max_contexts)
        got = ppmi_cosine(sentences, pairs, window=window, max_contexts=max_contexts)
        assert got.tobytes() == expected.tobytes()
        assert got[-1] == 0.0 and 0 < got.max() < 1 and (got > 0).sum() > 100
    for n in (0, 1, 7, 8, 9, 127, 128, 129, 1000, 4099):  # numpy's pairwise summation, to the bit
        values = rng.random(n) * 10.0 ** rng.uniform(-4, 4, n)
        assert pairwise_sum(values, 0, n) == (np.sum(values) if n else -0.0)
