"""Embedding-softened BLEU (seed 000) on hand-checked cases, and the word-vector utilities."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest
import sacrebleu

from mtmeta import metrics
from mtmeta.data.fetch import sha256_file
from mtmeta.embeddings.training import train
from mtmeta.embeddings.vectors import Vectors
from mtmeta.errors import ConfigError, InputError


class StubVectors:
    """Similarities given by hand (symmetric, 0 otherwise); neighbours ranked by them."""

    digest = "0123456789abcdef"

    def __init__(self, sims):
        self.sims = {frozenset(pair): value for pair, value in sims.items()}
        self.vocab = sorted({w for pair in sims for w in pair})

    def similarity(self, a, b):
        return self.sims.get(frozenset((a, b)), 0.0)

    def similarities(self, words_a, words_b):
        return np.array([[self.similarity(a, b) for b in words_b] for a in words_a]).reshape(len(words_a), -1)

    def neighbours(self, word, k):
        others = sorted((w for w in self.vocab if w != word and self.similarity(word, w) != 0),
                        key=lambda w: -self.similarity(word, w))
        return {w: self.similarity(word, w) for w in others[:k]}


SHOP = StubVectors({("store", "supermarket"): 0.2, ("store", "shop"): 0.7, ("store", "market"): 0.5})
REF = "the boy went to the store"
HYP = "the boy went to the supermarket"


def soft(**params):
    return metrics.get("softbleu", lang="en", vectors=params.pop("vectors", SHOP), **params)


def bleu_by_hand(correct, total, hyp_len, ref_len):
    bp = 1.0 if hyp_len >= ref_len else math.exp(1 - ref_len / hyp_len)
    return 100 * bp * math.exp(sum(math.log(c / t) for c, t in zip(correct, total, strict=True)) / len(total))


def test_supermarket_earns_its_similarity_not_one():
    metric = soft()
    stats = metric.stats([HYP], [[REF]])
    row = dict(zip(metric.stat_names, stats[0], strict=True))
    assert (row["exact_1"], row["soft_1"], row["total_1"]) == (5, pytest.approx(0.2), 6)
    assert row["soft_2"] == row["soft_3"] == row["soft_4"] == 0  # higher orders stay exact
    assert metric.corpus_score(stats) == pytest.approx(bleu_by_hand([5.2, 4, 3, 2], [6, 5, 4, 3], 6, 6), abs=1e-12)
    assert metric.corpus_score(stats) > sacrebleu.corpus_bleu([HYP], [[REF]]).score


def test_no_soft_credit_is_exactly_sacrebleu():
    hyps = [HYP, "a completely different sentence", "the boy went to the store"]
    refs = [[REF, "nothing alike here at all", REF]]
    metric = soft(floor=0.2)  # 0.2 is at the floor: earns nothing
    stats = metric.stats(hyps, refs)
    assert not stats[:, 6:10].any()
    assert metric.corpus_score(stats) == sacrebleu.corpus_bleu(hyps, refs).score
    for k, hyp in enumerate(hyps):
        assert metric.segment_scores(stats)[k] == sacrebleu.sentence_bleu(hyp, [refs[0][k]]).score


def test_greedy_in_order_versus_optimal_assignment():
    vectors = StubVectors({("a", "x"): 0.9, ("a", "y"): 0.8, ("b", "x"): 0.7, ("b", "y"): 0.1})
    hyp, ref = ["w a b"], [["w x y"]]
    greedy = soft(vectors=vectors).stats(hyp, ref)[0]
    optimal = soft(vectors=vectors, assignment="optimal").stats(hyp, ref)[0]
    assert greedy[6] == pytest.approx(0.9 + 0.1)  # a takes x first; b is left with y
    assert optimal[6] == pytest.approx(0.8 + 0.7)


def test_negative_similarity_never_subtracts_and_unknown_words_are_zero():
    vectors = StubVectors({("good", "bad"): -0.6})
    stats = soft(vectors=vectors).stats(["it was good", "it was zzz"], [["it was bad", "it was bad"]])
    assert stats[0, 6] == 0 and stats[1, 6] == 0
    real = Vectors(["bad", "good"], np.array([[1.0, 0.0], [-1.0, 0.2]]))
    assert real.similarity("good", "unknown") == 0.0
    assert soft(vectors=real).stats(["it was good"], [["it was bad"]])[0, 6] == 0


def test_removed_reference_word_is_not_reused():
    vectors = StubVectors({("the", "cat"): 0.3})
    stats = soft(vectors=vectors).stats(["the the the"], [["the cat"]])
    assert (stats[0, 2], stats[0, 6]) == (1, pytest.approx(0.3))  # one exact, then one soft match only


def test_generation_method_needs_a_nearest_neighbour():
    # store's neighbours: shop 0.7, market 0.5, supermarket 0.2.
    assert soft(method="generation", k=2).stats([HYP], [[REF]])[0, 6] == 0
    assert soft(method="generation", k=3).stats([HYP], [[REF]])[0, 6] == pytest.approx(0.2)
    assert soft(method="generation", k=1).stats(["the boy went to the shop"], [[REF]])[0, 6] == pytest.approx(0.7)


def test_phrase_variant_credits_ngrams_one_word_off():
    metric = soft(method="generation", phrase=True, k=3)
    stats = metric.stats([HYP], [[REF]])[0]
    soft_credit = dict(zip(metric.stat_names, stats, strict=True))
    # "the supermarket", "to the supermarket", "went to the supermarket" each differ in one word.
    assert [soft_credit[f"soft_{n}"] for n in (1, 2, 3, 4)] == pytest.approx([0.2, 0.2, 0.2, 0.2])
    two_off = metric.stats(["the boy ran to the supermarket"], [[REF]])[0]
    # "ran to the supermarket" differs in two words from "went to the store": no 4-gram credit.
    assert two_off[6 + 3] == 0 and two_off[6 + 1] == pytest.approx(0.2)


def test_signature_and_errors():
    metric = soft(method="generation", k=3)
    metric.stats([HYP], [[REF]])
    signature = metric.signature()
    assert signature.startswith("softBLEU|emb:study-w2v@0123456789ab|method:generation|assign:greedy|floor:0|k:3")
    assert "|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:4|sacrebleu:2.6.0|mtmeta:" in signature
    with pytest.raises(ValueError, match="one reference"):
        soft().stats([HYP], [[REF], [REF]])
    with pytest.raises(ConfigError, match="floor"):
        soft(floor=-0.1)
    with pytest.raises(ConfigError, match="method"):
        soft(method="cosine")
    stats = metric.stats([HYP], [[REF]])
    for backend in ("compiled", "python"):  # weighted lengths must stay counts (sacrebleu formats them as integers)
        metric.backend = backend
        for weights in ([0.37], [1.7]):
            with pytest.raises(ValueError, match="lengths must be whole numbers"):
                metric.corpus_score_weighted(stats, np.array(weights))
    required = metrics.metric_class("softbleu").required_files("cs", embeddings="m")
    assert required == ["results/embeddings/m/cs/vectors.bin"]


def test_vectors_cosine_and_neighbours():
    vectors = Vectors(["a", "b", "c", "d"], np.array([[1.0, 0], [0.6, 0.8], [0, 2.0], [-1.0, 0]]))
    assert vectors.similarity("a", "b") == pytest.approx(0.6)
    assert vectors.neighbours("a", 2) == pytest.approx({"b": 0.6, "c": 0.0})
    np.testing.assert_allclose(vectors.similarities(["a", "zz"], ["c", "b"]), [[0.0, 0.6], [0.0, 0.0]])
    # Ties go to the earlier word: e and f are both at cosine 0.6 from a.
    tied = Vectors(["a", "f", "e", "g"], np.array([[1.0, 0], [0.6, 0.8], [0.6, -0.8], [0.0, 1.0]]))
    assert list(tied.neighbours("a", 1)) == ["f"] and list(tied.neighbours("a", 5)) == ["f", "e", "g"]
    # The partial selection equals a full stable sort on random vectors with repeated rows.
    rng = np.random.default_rng(0)
    matrix = rng.normal(size=(200, 5))
    matrix[100:150] = matrix[:50]
    words = [f"w{k}" for k in range(200)]
    many = Vectors(words, matrix)
    for word in ("w0", "w7", "w120"):
        scores = many.unit @ many.unit[many.index[word]]
        scores[many.index[word]] = -np.inf
        expected = [words[j] for j in np.argsort(-scores, kind="stable")[:10]]
        assert list(many.neighbours(word, 10)) == expected


TRAIN = """
import sys
from mtmeta.embeddings.training import train
print(train(sys.argv[1], {"vector_size": 8, "min_count": 1, "epochs": 2, "seed": 3}, sys.argv[2])["sha256"])
"""


def test_training_is_deterministic_across_hash_seeds(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(["the cat sat on the mat", "the dog sat on the rug", "a cat and a dog"] * 20) + "\n")
    digests = set()
    for hash_seed in ("0", "123"):
        out = tmp_path / f"vectors{hash_seed}.bin"
        result = subprocess.run([sys.executable, "-c", TRAIN, str(corpus), str(out)], capture_output=True, text=True,
                                env={**os.environ, "PYTHONHASHSEED": hash_seed}, check=True)
        digests.add(result.stdout.strip())
        assert result.stdout.strip() == sha256_file(out)
    assert len(digests) == 1
    summary = train(corpus, {"vector_size": 8, "min_count": 1, "epochs": 2, "seed": 3}, tmp_path / "again.bin")
    assert summary["sha256"] in digests and summary["vocabulary"] == 9
    assert summary["corpus_tokens"] == 6 * 20 * 2 + 5 * 20
    vectors = Vectors.load(tmp_path / "again.bin")
    assert len(vectors.words) == 9 and vectors.digest == summary["sha256"]


def test_corpus_of_a_language_from_a_wmt_tree(tmp_path):
    from mtmeta.embeddings.training import corpus_parts, study_text_files, write_corpus

    root = tmp_path / "resources" / "tiny" / "extracted"
    files = {
        "data/refs/test-ref.en": "The cat sat.\nA dog!\n",
        "data/refs/test-ref.de": "Die Katze.\nEin Hund.\n",
        "data/srcs/test-src.en": "English source one.\n\n",
        "data/srcs/test-src.de": "Deutsch.\nZwei.\n",
        "data/out/de-en/test.de-en.sysA": "the cat sat .\na dog\n",
        "data/out/de-en/test.de-en.sysA~": "editor backup\n",
        "data/out/en-de/test.en-de.sysB": "Katze\nHund\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (tmp_path / "resources" / "tiny" / "manifest.json").write_text('{"archive": true}')
    layout = {"reference": "data/refs/test-ref.{trg}", "source": "data/srcs/test-src.{src}",
              "system": "data/out/{lp}/test.{lp}.{system}"}
    from mtmeta.data.corpus import Layout

    found = study_text_files(root, Layout.from_config(layout), "en")
    assert [(kind, path.name) for kind, path in found] == [
        ("output de-en", "test.de-en.sysA"), ("reference", "test-ref.en"), ("source", "test-src.en")]
    plan = [{"kind": "wmt", "source": "tiny", "layout": layout, "exclude_files": ["*~"]}]
    summary = write_corpus(corpus_parts(plan, "en", resources=tmp_path / "resources"), tmp_path / "corpus.txt")
    assert (tmp_path / "corpus.txt").read_text().splitlines() == [
        "the cat sat .", "a dog", "The cat sat .", "A dog !", "English source one ."]
    assert (summary["sentences"], summary["tokens"], summary["empty_lines_skipped"]) == (5, 17, 1)


def test_neighbour_cache_round_trips_exactly(tmp_path):
    rng = np.random.default_rng(4)
    words = [f"w{i}" for i in range(300)]
    vectors = Vectors(words, rng.standard_normal((300, 8)), digest="abc")
    vectors.prefetch_neighbours(["w1", "w7", "unknown", "w1"], 3, block=2)
    assert vectors.neighbours("unknown", 3) == {} and len(vectors.neighbours("w7", 3)) == 3
    single = Vectors(words, vectors.unit, digest="abc")
    assert list(single.neighbours("w7", 3)) == list(vectors.neighbours("w7", 3))  # the same neighbours
    assert vectors.save_neighbours(tmp_path / "n.json.gz") == 3
    loaded = Vectors(words, vectors.unit, digest="abc")
    assert loaded.load_neighbours(tmp_path / "n.json.gz") == 3
    assert loaded.neighbours("w7", 3) == vectors.neighbours("w7", 3)  # floats round-trip exactly
    other = Vectors(words, vectors.unit, digest="other")
    with pytest.raises(InputError, match="not of these"):
        other.load_neighbours(tmp_path / "n.json.gz")


def test_binary_vectors_read_as_gensim_reads_them(tmp_path):
    from gensim.models import KeyedVectors

    from mtmeta.embeddings.vectors import read_word2vec_binary

    rng = np.random.default_rng(3)
    words = ["the", "Geschäft", "dům", "x", "supermarket", "\u4e2d"]
    kv = KeyedVectors(vector_size=7)
    kv.add_vectors(words, rng.normal(size=(len(words), 7)).astype(np.float32))
    path = tmp_path / "v.bin"
    kv.save_word2vec_format(str(path), binary=True)
    # The original word2vec tool ends every vector with a newline; gensim reads both.
    c_style = tmp_path / "c.bin"
    body = f"{len(words)} 7\n".encode() + b"".join(w.encode() + b" " + kv[w].tobytes() + b"\n" for w in words)
    c_style.write_bytes(body)
    for file in (path, c_style):
        read_words, matrix = read_word2vec_binary(file)
        reference = KeyedVectors.load_word2vec_format(str(file), binary=True)
        assert read_words == list(reference.index_to_key) == words
        np.testing.assert_array_equal(matrix, reference.vectors)
    c_style.write_bytes(body[:-20])
    with pytest.raises(InputError, match="ends inside the vector"):
        Vectors.load(c_style)


def test_compiled_greedy_assignment_equals_the_walk_over_python_floats():
    from mtmeta.metrics.assign_kernel import greedy_total

    def walk(matrix):  # the definition: rows in order, the largest free credit, the first on ties
        available, total = [True] * matrix.shape[1], 0.0
        for row in matrix.tolist():
            best_j, best = 0, row[0] if available[0] else 0.0
            for j in range(1, len(row)):
                value = row[j] if available[j] else 0.0
                if value > best:
                    best_j, best = j, value
            if best > 0:
                total += best
                available[best_j] = False
        return total

    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(500):
        shape = tuple(rng.integers(1, 9, size=2))
        matrix = np.round(rng.uniform(-0.5, 1, size=shape), int(rng.integers(1, 4)))  # ties and negatives
        matrix[rng.random(shape) < 0.3] = 0.0
        assert greedy_total(matrix) == walk(matrix)
        checked += walk(matrix) > 0
    assert checked > 400
    assert greedy_total(np.array([[0.5, 0.5], [0.5, 0.2]])) == 0.7  # row 0 takes column 0 (first on ties)


@pytest.mark.parametrize("params", [
    {}, {"assignment": "optimal"}, {"method": "generation", "k": 3}, {"method": "generation", "k": 2, "assignment":
    "optimal"}, {"phrase": True, "k": 3}, {"phrase": True, "k": 4, "floor": 0.3}, {"floor": 0.2},
], ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()) or "similarity")
def test_compiled_backend_gives_the_per_segment_statistics(params):
    """Random vectors (some words unknown, some pairs of identical vectors: ties) and random sentences
    with repeated words: the compiled backend's statistics equal the per-segment code's exactly."""
    rng = np.random.default_rng(7)
    words = [f"w{k}" for k in range(30)]
    matrix = rng.normal(size=(30, 6))
    matrix[20:25] = matrix[:5]  # exact ties between different words
    vectors = Vectors(words, matrix)
    pool = [*words, "oov1", "oov2"]

    def sentence():
        return " ".join(rng.choice(pool[:12] if rng.random() < 0.5 else pool, size=rng.integers(0, 14)))

    hyps = [sentence() for _ in range(300)]
    refs = [sentence() or "w1" for _ in range(300)]
    rows = {}
    for backend in ("compiled", "python"):
        metric = metrics.get("softbleu", lang="en", vectors=Vectors(words, matrix), backend=backend, **params)
        rows[backend] = np.vstack([metric.stats(hyps[:150], [refs[:150]]), metric.stats(hyps[150:], [refs[150:]])])
    np.testing.assert_array_equal(rows["compiled"], rows["python"])
    # Scores: the compiled copy of sacrebleu's compute_bleu against sacrebleu itself (python backend),
    # bit for bit, on fractional soft credit; corpus scores and bootstrap-style weighted totals too.
    compiled, python = (metrics.get("softbleu", lang="en", vectors=vectors, backend=b, **params)
                        for b in ("compiled", "python"))
    assert compiled.segment_scores(rows["compiled"]).tolist() == python.segment_scores(rows["compiled"]).tolist()
    assert compiled.corpus_score(rows["compiled"]) == python.corpus_score(rows["compiled"])
    totals = rng.integers(0, 3, size=(5, len(hyps))).astype(float) @ rows["compiled"]
    assert compiled.score_totals(totals).tolist() == python.score_totals(totals).tolist()
    soft = rows["compiled"][:, 6:10]
    assert (soft[:, 0] > 0).sum() > 100 and (not params.get("phrase") or (soft[:, 1:] > 0).sum() > 50)
    assert vectors.unit.shape == (30, 6)


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_phrase_ties_go_to_the_first_reference_ngram(backend):
    """'x c' is one word off both 'u c' and 'v c', at the same cosine (u and v mirror each other about
    x); it takes the first, 'u c'. 'y c' is then left with 'v c', and y is not among v's 2 nearest
    neighbours (z and x are): so the bigram credit is cos 30 degrees, not cos 30 + cos 15."""
    angle = {"x": 0, "u": 30, "y": 45, "v": -30, "z": -50, "c": 90}
    words = list(angle)
    vectors = Vectors(words, np.array([[math.cos(math.radians(a)), math.sin(math.radians(a))] for a in angle.values()]))
    assert list(vectors.neighbours("v", 2)) == ["z", "x"] and list(vectors.neighbours("u", 2)) == ["y", "x"]
    metric = metrics.get("softbleu", lang="en", vectors=vectors, phrase=True, k=2, backend=backend)
    row = dict(zip(metric.stat_names, metric.stats(["x c y c"], [["u c v c"]])[0], strict=True))
    assert row["soft_2"] == pytest.approx(math.cos(math.radians(30)), abs=1e-12)
    assert row["soft_1"] == pytest.approx(math.cos(math.radians(30)) + math.cos(math.radians(75)), abs=1e-12)


@pytest.mark.parametrize("params", [
    {}, {"assignment": "optimal"}, {"method": "generation", "k": 3}, {"phrase": True, "k": 3},
], ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()) or "similarity")
def test_one_metric_object_over_different_reference_sets_equals_fresh_objects(params):
    """What a metric object keeps per reference set (the neighbour table, the prefetch) never goes
    stale: reference sets in turn (then the first again, with new hypotheses whose words are the
    earlier references' neighbours) give the statistics of a fresh object for each call."""
    rng = np.random.default_rng(11)
    words = [f"w{k}" for k in range(40)]
    matrix = rng.normal(size=(40, 5))
    pools = [words[:14], words[14:28], words]

    def sentences(pool, count):
        return [" ".join(rng.choice(pool, size=rng.integers(1, 12))) for _ in range(count)]

    calls = [(sentences(pools[0], 60), sentences(pools[0], 60)), (sentences(pools[1], 60), sentences(pools[1], 60))]
    calls.append((sentences(pools[2], 60), calls[0][1]))  # the first references, hypotheses of every word
    calls.append((sentences(pools[2], 60), calls[1][1]))
    for backend in ("compiled", "python"):
        kept = metrics.get("softbleu", lang="en", vectors=Vectors(words, matrix), backend=backend, **params)
        for hyps, refs in calls:
            fresh = metrics.get("softbleu", lang="en", vectors=Vectors(words, matrix), backend=backend, **params)
            expected = fresh.stats(hyps, [refs])
            np.testing.assert_array_equal(kept.stats(hyps, [refs]), expected)
            python = metrics.get("softbleu", lang="en", vectors=Vectors(words, matrix), backend="python", **params)
            np.testing.assert_array_equal(expected, python.stats(hyps, [refs]))
            assert (expected[:, 6] > 0).sum() > 10


def test_unmatched_from_ngram_ids_equals_the_pairwise_kernel():
    from mtmeta.metrics.ngrams import gram_ids
    from mtmeta.metrics.soft_kernel import unmatched, unmatched_ids

    rng = np.random.default_rng(5)
    texts = [rng.integers(1, 6 if t % 2 else 40, size=rng.integers(0, 16)) for t in range(400)]
    values = np.concatenate(texts).astype(np.int64)
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(t) for t in texts])
    hyp_text = rng.integers(0, 400, size=500)
    ref_text = rng.integers(0, 400, size=500)
    grams = gram_ids(values, offsets, 4)
    for n in range(1, 5):
        for mine, theirs in zip(unmatched_ids(*grams[n - 1], offsets, hyp_text, ref_text, n),
                                unmatched(values, offsets, hyp_text, ref_text, n), strict=True):
            np.testing.assert_array_equal(mine, theirs)


@pytest.mark.parametrize("k", [1, 3, 7])
def test_block_neighbours_equal_the_full_partition_with_ties(k):
    # A vocabulary above the sample that bounds each row's k-th best, with duplicate vectors (exact
    # ties, broken by vocabulary order) and a zero vector: the block path must pick what _top picks.
    rng = np.random.default_rng(11)
    matrix = rng.standard_normal((5000, 6))
    matrix[3000:3010] = matrix[17]  # ten copies of w17, all beyond the sample
    matrix[2500] = matrix[42]
    matrix[4000] = 0.0
    words = [f"w{i}" for i in range(len(matrix))]
    vectors = Vectors(words, matrix)
    rows = np.array([17, 42, 4000, 3005, 0, 4999])
    products = vectors.unit[rows] @ vectors.unit.T  # one product for both (a block's last bits are its own)
    full = [vectors._top(row, i, k) for row, i in zip(products.copy(), rows, strict=True)]
    block = vectors._block_top(products, rows, k)
    assert [list(found.items()) for found in block] == [list(found.items()) for found in full]
    assert list(block[0])[:min(k, 10)] == [f"w{i}" for i in range(3000, 3000 + min(k, 10))]  # ties: vocabulary order
