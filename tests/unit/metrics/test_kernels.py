"""The plain equivalents of the compiled kernels (mtmeta.metrics.kernels) give the same numbers:
n-gram matches, TER edits, BLEU and chrF scores, bit for bit."""

import random

import numpy as np
import pytest

from mtmeta.metrics import get, kernels, ngrams
from mtmeta.metrics.ngram_kernel import pair_matches, sorted_keys

WORDS = ["the", "a", "dog", "bit", "man", "it", "was", "not", "surprising", ".", ",", "Haus", "ßtraße", "猫", "😀",
         "'s", "--", "&amp;", "1,000", "man."]


def _sentences(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 30))) for _ in range(n)]


def _kernel_matches(symbols, hyp_text, ref_text, order):
    values, offsets, alphabet = symbols
    values, alphabet = ngrams._ranks(values)
    bits = ngrams.symbol_bits(alphabet, order)
    keys = sorted_keys(values, offsets, order, bits)
    return pair_matches(keys, offsets, hyp_text.astype(np.int64), ref_text.astype(np.int64), order, bits)


@pytest.mark.parametrize("alphabet", [3, 40, 5000])  # 5000 symbols: pair, key and side need more than 63 bits
@pytest.mark.parametrize("order", [1, 4, 6])
def test_plain_matches_equal_the_kernels(alphabet, order):
    rng = np.random.default_rng(alphabet * 10 + order)
    lengths = rng.integers(0, 12, size=300)
    lengths[:3] = [0, 1, order]  # empty, shorter than the order, exactly the order
    values = rng.integers(1, alphabet + 1, size=int(lengths.sum())).astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    hyp_text = rng.integers(0, 300, size=500)
    ref_text = rng.integers(0, 300, size=500)
    ref_text[:50] = hyp_text[:50]  # a text against itself: every n-gram matches
    symbols = (values, offsets, alphabet)
    bits = ngrams.symbol_bits(alphabet, order)
    if bits is None:
        assert ngrams.plain_matches(values, offsets, hyp_text, ref_text, order) is None
        return
    plain = ngrams.plain_matches(values, offsets, hyp_text, ref_text, order)
    assert plain.dtype == np.int64
    assert np.array_equal(plain, _kernel_matches(symbols, hyp_text, ref_text, order))
    assert plain[:50].sum() > 0


@pytest.mark.parametrize(("name", "params"), [
    ("bleu", {}), ("bleu", {"tokenize": "char"}), ("bleu", {"smooth_method": "add-k", "smooth_value": 1}),
    ("chrf", {}), ("chrf++", {}), ("chrf", {"eps_smoothing": True}), ("ter", {}), ("ter", {"tokenizer": "tercom"}),
])
def test_plain_and_compiled_give_the_same_statistics_and_scores(monkeypatch, name, params):
    hyps, refs, refs2 = _sentences(150, 1), _sentences(150, 2), _sentences(150, 3)
    refs[:10] = hyps[:10]
    results = {}
    for compiled in (True, False):
        monkeypatch.setattr(kernels, "compiled", lambda work, limit, compiled=compiled: compiled)
        metric = get(name, **params)
        stats = metric.stats(hyps, [refs])
        two = get(name, **params).stats(hyps, [refs, refs2])
        results[compiled] = (stats, two, metric.segment_scores(stats), metric.corpus_score(stats),
                             metric.score_totals(stats[:40].astype(np.float64) * 1.5))
    for compiled_value, plain_value in zip(results[True], results[False], strict=True):
        assert np.array_equal(np.asarray(compiled_value), np.asarray(plain_value))  # bit for bit


def test_the_default_is_compiled_and_a_large_call_stays_compiled(monkeypatch):
    assert kernels.compiled(1, 100)
    with kernels.preferring_plain():
        monkeypatch.delitem(__import__("sys").modules, "numba", raising=False)
        assert not kernels.compiled(99, 100) and kernels.compiled(100, 100)
        monkeypatch.undo()
        __import__("numba")
        assert kernels.compiled(1, 100)  # numba loaded: its cost is paid
    assert kernels.compiled(1, 100)


def _ids(text: str, vocabulary: dict) -> list[int]:
    return [vocabulary.setdefault(word, len(vocabulary)) for word in text.split()]


def test_the_plain_ter_kernel_counts_as_sacrebleu_at_its_limits():
    # The kernel's code run by Python on lists (kernels.plain): sacrebleu's edits where its shift search
    # runs out of candidates, where very unequal lengths widen the beam, and on empty sides.
    from sacrebleu.metrics.lib_ter import translation_edit_rate

    plain = kernels.plain("mtmeta.metrics.ter_kernel")
    rng = random.Random(3)
    pairs = [(" ".join(rng.choice("abc") for _ in range(120)), " ".join(rng.choice("abc") for _ in range(110))),
             ("x " * 200 + "y", "y"), ("y", "x " * 200 + "y"), ("", "a b"), ("a b", ""),
             ("d e f g h a b c", "a b c d e f g h")]
    vocabulary: dict = {}
    for hyp, ref in pairs:
        expected = translation_edit_rate(hyp.split(), ref.split())[0]
        assert plain.translation_edit_rate(_ids(hyp, vocabulary), _ids(ref, vocabulary)) == expected
    assert plain.np is kernels._ListArrays and not hasattr(plain.translation_edit_rate, "py_func")  # not numba's


def test_the_plain_kernel_loads_without_numba():
    import subprocess
    import sys

    code = ("import sys; from mtmeta.metrics import kernels; "
            "m = kernels.plain('mtmeta.metrics.ter_kernel'); "
            "print(m.corpus_edits([0, 1, 2, 2, 1, 0], [0, 3, 6], [1, 2, 0, 2, 1], [0, 3, 5]), 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[1,", "1]", "False"]  # a shift; a deletion


def test_ter_counts_a_long_line_compiled_even_where_plain_is_preferred(monkeypatch):
    from mtmeta.metrics import ter

    monkeypatch.setattr(kernels, "compiled", lambda work, limit: False)
    loaded = []
    real_plain = kernels.plain
    monkeypatch.setattr(kernels, "plain", lambda name: loaded.append(name) or real_plain(name))
    short = get("ter").stats(["a b c"], [["a c b"]])
    assert loaded == ["mtmeta.metrics.ter_kernel"] and short[0, 0] == 1
    long_line = " ".join(["a", "b"] * (ter.PLAIN_MAX_WORDS // 2)) + " c"
    stats = get("ter").stats([long_line], [["c " + long_line[:-2]]])
    assert len(loaded) == 1 and stats[0, 0] == 2  # compiled; c moves farther than a shift may: two edits
