"""Long lines (the issues: "one 1 MB line makes METEOR and hLEPOR run for minutes", "TER's memory grows
with the square of a line's length"): hLEPOR aligns them in near-linear time, TER counts edits in
memory linear in the length and NIST in linear time, all with the same statistics; METEOR, whose
alignment is quadratic by definition, softBLEU (a similarity matrix) and TER's sacrebleu backend refuse
a segment past their limit with an error naming the metric, segment, side, length and limit, never
truncating.

The 1 MB lines run in a subprocess with a generous timeout: the old code took minutes on them (TER:
a MemoryError; METEOR tens of GB), the new code needs seconds."""

import subprocess
import sys

import numpy as np
import pytest

from mtmeta import metrics
from mtmeta.errors import ConfigError, MtmetaError
from mtmeta.metrics import lepor, lepor_kernel, softbleu, ter, ter_kernel
from mtmeta.metrics import meteor as meteor_module
from mtmeta.metrics.lepor import align

TIMEOUT = 60  # seconds for a 1 MB line; it takes about 2 s (the old code: several minutes)


def run_python(script: str) -> str:
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    return result.stdout


# The recipe (random.seed(2), nine words), scaled to a line of 1,000,000 bytes or more.
RECIPE_1MB = (
    "import random\n"
    "random.seed(2)\n"
    "w = ['the', 'cat', 'dog', 'mat', 'sat', 'on', 'a', 'barked', '.']\n"
    "hyp, ref = (' '.join(random.choice(w) for _ in range(265000)) for _ in range(2))\n"
    "assert len(hyp.encode()) > 1_000_000 and len(ref.encode()) > 1_000_000\n"
)


def words(n: int, seed: int = 0, vocabulary: int = 50) -> str:
    rng = np.random.default_rng(seed)
    return " ".join(f"w{k}" for k in rng.integers(0, vocabulary, size=n))


def meteor(**params):
    return metrics.get("meteor", lang="en", modules=["exact"], function_words="none", tokenize="none", **params)


# -- METEOR: a documented limit -------------------------------------------------------------------

def test_meteor_refuses_a_1mb_line_within_seconds_naming_segment_length_and_limit():
    out = run_python(
        "from mtmeta import metrics\n"
        "from mtmeta.errors import MtmetaError\n"
        "line = ' '.join(['the cat sat on the mat .', 'a dog barked at it'] * 40000)\n"
        "assert len(line.encode()) > 1_000_000\n"
        "metric = metrics.get('meteor', lang='en', modules=['exact'], function_words='none')\n"
        "try:\n"
        "    metric.stats(['a short one', line], [['a short one', line]])\n"
        "except MtmetaError as exc:\n"
        "    print(exc)\n"
    )
    assert out.startswith(f"meteor: segment 2: the hypothesis has 480,000 words (after tokenisation), "
                          f"more than max_words={meteor_module.MAX_WORDS:,}.")
    assert "'Long segments'" in out and "not truncated" in out


def test_meteor_scores_up_to_max_words_and_refuses_one_more():
    assert meteor_module.MAX_WORDS == 1000  # documented in docs/metrics.md
    metric = meteor()
    at_limit = words(1000)
    stats = metric.stats([at_limit], [[words(1000, seed=1)]])
    assert stats[0, :2].tolist() == [1000, 1000]
    with pytest.raises(MtmetaError, match=r"^meteor: segment 2: the hypothesis has 1,001 words \(after "
                                          r"tokenisation\), more than max_words=1,000\."):
        metric.stats(["a b", at_limit + " x"], [["a b", at_limit]])


def test_meteor_names_the_reference_and_its_stream():
    metric = meteor(max_words=3)
    with pytest.raises(MtmetaError, match=r"^meteor: segment 1: the reference has 4 words .* max_words=3\."):
        metric.stats(["a b c"], [["a b c d"]])
    with pytest.raises(MtmetaError, match=r"^meteor: segment 2: the reference 2 has 5 words "):
        metric.stats(["a", "b"], [["a", "b"], [None, "b b b b b"]])
    assert metric.stats(["a b c"], [["a b c"]])[0, :2].tolist() == [3, 3]  # at the limit: scored


@pytest.mark.parametrize("value", [0, -1, 2.5, True])
def test_meteor_max_words_is_a_checked_parameter(value):
    with pytest.raises(ConfigError, match="max_words"):
        meteor(max_words=value)


def test_meteor_max_words_is_not_in_the_signature():
    assert meteor(max_words=5).signature() == meteor().signature()


# -- hLEPOR: near-linear, the same statistics -------------------------------------------------------

def test_hlepor_scores_a_1mb_line_within_seconds():
    # One line of two alternating words: every reference word is a candidate of half the hypothesis,
    # the old scan's worst case (minutes); the indexed alignment takes well under a second.
    out = run_python(
        "from mtmeta import metrics\n"
        "hyp, ref = 'a b ' * 260000, 'b a ' * 260000\n"
        "assert len(hyp.encode()) > 1_000_000\n"
        "for name in ('hlepor', 'lepor'):\n"
        "    metric = metrics.get(name, lang='en')\n"
        "    print(metric.stats([hyp, 'a b'], [[ref, 'a b']])[:, :3].tolist())\n"
    )
    assert out.split("\n")[:2] == ["[[520000.0, 520000.0, 520000.0], [2.0, 2.0, 2.0]]"] * 2


@pytest.mark.parametrize("window", [0, 1, 2, 3, 6])
def test_indexed_alignment_equals_the_scan_and_align(window):
    """The index long pairs use (forced here with scan_limit=0) gives the scan's statistics bit for
    bit, and align()'s: random text over small vocabularies (many candidates, contexts deciding,
    ties in relative position), empty texts, lengths up to 300."""
    rng = np.random.default_rng(window)
    texts = []
    for _ in range(400):
        vocabulary = int(rng.integers(1, 10))
        texts.append(rng.integers(0, vocabulary, size=int(rng.integers(0, [12, 40, 300][len(texts) % 3]))))
    values = np.concatenate(texts).astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in texts])]).astype(np.int64)
    hyp_text = rng.integers(0, len(texts), size=1000).astype(np.int64)
    ref_text = rng.integers(0, len(texts), size=1000).astype(np.int64)
    scanned = lepor_kernel.corpus_alignment(values, offsets, hyp_text, ref_text, window)
    indexed = lepor_kernel.corpus_alignment(values, offsets, hyp_text, ref_text, window, 0)
    assert scanned[0].tobytes() == indexed[0].tobytes() and scanned[1].tobytes() == indexed[1].tobytes()
    assert (indexed[0] > 20).sum() > 100
    for p in range(0, 1000, 7):
        hyp, ref = texts[hyp_text[p]].tolist(), texts[ref_text[p]].tolist()
        links = align(hyp, ref, window)
        npd = sum(abs((i + 1) / len(hyp) - (j + 1) / len(ref)) for i, j in links) / len(hyp) if links else 0.0
        assert (indexed[0][p], indexed[1][p]) == (len(links), npd)


def test_hlepor_long_segment_through_the_metric_equals_the_python_reference():
    # 1,000 x 1,100 words: past the scan limit, so the compiled backend takes the index.
    assert 1000 * 1100 > lepor_kernel.SCAN_LIMIT
    hyp, ref = words(1000, seed=2, vocabulary=30), words(1100, seed=3, vocabulary=30)
    compiled = metrics.get("hlepor", lang="en").stats([hyp], [[ref]])
    links = align(hyp.split(), ref.split())
    npd = sum(abs((i + 1) / 1000 - (j + 1) / 1100) for i, j in links) / 1000
    assert compiled[0].tolist() == [1000, 1100, len(links), npd]


def test_hlepor_python_backend_refuses_long_segments_naming_them():
    metric = metrics.get("hlepor", lang="en", backend="python")
    assert lepor.PYTHON_MAX_WORDS == 1000  # documented in docs/metrics.md
    long = words(1001)
    with pytest.raises(MtmetaError, match=r"^hlepor: segment 2: the reference has 1,001 words \(after tokenisation\), "
                                          r"more than 1,000, the limit of backend=python\. Its alignment compares "
                                          r"every hypothesis word .* refused, not truncated\. Use backend=compiled"):
        metric.stats(["a", "a b"], [["a", long]])
    assert metric.stats([words(1000)], [["w1"]])[0, 0] == 1000


def test_hlepor_index_past_its_size_limit_is_an_error_naming_the_segment():
    # Only a wide window makes it happen at this length (at window 2: a 3.3-million-word reference).
    hyp, ref = words(5000, seed=4), " ".join(f"r{k}" for k in range(5000))
    assert metrics.get("hlepor", lang="en", window=2).stats([hyp], [[ref]])[0, 2] == 0
    with pytest.raises(MtmetaError, match=r"^hlepor: segment 2: aligning its hypothesis of 5,000 words with its "
                                          r"reference of 5,000 words at window=5000 needs an index of 25,000,000 "
                                          r"entries, more than the limit of 16,777,216"):
        metrics.get("hlepor", lang="en", window=5000).stats(["a", hyp], [["a", ref]])


# -- TER: the beam's bands only, memory linear in the length ------------------------------------------

@pytest.mark.parametrize(("n_h", "n_r"), [(100_000, 100_000), (100_000, 80_000), (10, 100_000), (100_000, 3)])
def test_ter_matrices_keep_the_beam_only(n_h, n_r):
    """The distance, backward and operation matrices hold about n_r + 2 * width * n_h cells (rows 0 and
    n_h whole), width = 25 or half the length ratio plus 25: linear in the lengths, where the whole
    matrix would be (n_h + 1) * (n_r + 1) (10^10 cells for two 100,000-word sides)."""
    lo, hi, at = ter_kernel._bands(n_h, n_r)
    cells = int(at[-1])
    assert cells == int((hi - lo).sum())
    assert lo[0] == 0 and hi[0] == n_r + 1 and hi[-1] == n_r + 1  # the first and last rows whole
    assert cells <= 3 * (n_r + 1) + 52 * n_h
    assert cells < (n_h + 1) * (n_r + 1) / 100 or min(n_h, n_r) < 100


def test_ter_scores_a_1mb_line_in_linear_memory():
    # The recipe: 20,000 words took 6.9 GB, 50,000 the OOM killer, 1 MB a MemoryError. The
    # banded matrices of 265,000 x 265,000 words take about 120 MB (the whole ones: 1.2 TB).
    out = run_python(
        RECIPE_1MB + "import resource\n"
        "from mtmeta import metrics\n"
        "variants = [metrics.get('ter'), metrics.get('ter', normalized=True, tokenizer='tercom')]\n"
        "for metric in variants:\n"
        "    metric.stats(['a b'], [['b a']])  # numba's cache loaded\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "for metric in variants:\n"
        "    print(metric.stats([hyp, 'a b c'], [[ref, 'a b d']]).tolist())\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)\n"
    )
    *rows, grown_mb = out.split()
    for row in (rows[:4], rows[4:]):  # edits, reference words: hypothesis and reference of 265,000 words
        edits = float(row[0].strip("[,"))
        assert row[1:] == ["265000.0],", "[1.0,", "3.0]]"] and 150_000 < edits < 265_000
    assert int(grown_mb) < 600


def test_ter_long_pairs_equal_sacrebleu():
    """Pairs far longer than the beam (displaced blocks, very unequal lengths): the banded kernel gives
    sacrebleu's edit counts (sacrebleu takes a few seconds here; its shift search is pure Python)."""
    rng = np.random.default_rng(3)

    def moved(ref, moves):
        hyp = list(ref)
        for _ in range(moves):
            a, size, by = int(rng.integers(0, len(hyp) - 12)), int(rng.integers(1, 10)), int(rng.integers(1, 40))
            block, rest = hyp[a : a + size], hyp[:a] + hyp[a + size :]
            hyp = rest[: a + by] + block + rest[a + by :]
        return hyp

    hyps, refs = [], []
    for n, moves, cut in [(300, 3, 220), (200, 4, 0), (150, 2, 0)]:
        ref = [f"w{k}" for k in rng.integers(0, 300, n)]
        hyps.append(" ".join(moved(ref, moves)[cut:]))
        refs.append(" ".join(ref))
    ours = metrics.get("ter").stats(hyps, [refs])
    np.testing.assert_array_equal(ours, metrics.get("ter", backend="sacrebleu").stats(hyps, [refs]))
    assert ours[1:, 0].tolist() == [4, 3]  # a few shifts (displaced blocks), not hundreds of edits


def test_ter_sacrebleu_backend_refuses_past_its_limit():
    assert ter.SACREBLEU_MAX_WORDS == 1000  # documented in docs/metrics.md
    metric = metrics.get("ter", backend="sacrebleu")
    at_limit = "a " * 1000
    assert metric.stats([at_limit], [[at_limit]]).tolist() == [[0.0, 1000.0]]
    with pytest.raises(MtmetaError, match=r"^ter: segment 2: the reference 2 has 1,001 words \(after tokenisation\), "
                                          r"more than 1,000, the limit of backend=sacrebleu\. sacrebleu's TER keeps a "
                                          r"whole row .* refused, not truncated\. Use backend=compiled"):
        metric.stats(["a", "b"], [["a", "b"], [None, at_limit + "b"]])


def test_ter_compiled_limit_names_the_segment(monkeypatch):
    # 2**29 - 1 words a side keeps the kernel's 32-bit distances below its INF; lowered here to test it.
    assert ter.COMPILED_MAX_WORDS == 2**29 - 1 and 2 * ter.COMPILED_MAX_WORDS <= ter_kernel.MAX_WORDS < ter_kernel.INF
    monkeypatch.setattr(ter, "COMPILED_MAX_WORDS", 3)
    metric = metrics.get("ter", normalized=True, tokenizer="tercom")
    assert metric.stats(["a b c"], [["a c b"]]).tolist() == [[1.0, 3.0]]
    with pytest.raises(MtmetaError, match=r"^ter: segment 2: the hypothesis has 4 words \(after tokenisation\), more "
                                          r"than 3, the limit of the compiled edit counting\. Its edit distances"):
        metric.stats(["a", "a b c d"], [["a", "b"]])


# -- NIST: linear time ---------------------------------------------------------------------------------

def test_nist_scores_a_1mb_line_within_seconds():
    # The kernel compared every pair of positions: the recipe's 1 MB line took about a quarter of an
    # hour. It now counts n-grams by number: a few seconds, most of them fitting the information weights.
    out = run_python(
        RECIPE_1MB + "from mtmeta import metrics\n"
        "print(metrics.get('nist').stats([hyp], [[ref]])[0, [0, 4, 10, 11]].tolist())\n"
    )
    assert out.split("\n")[0] == "[265000.0, 264996.0, 265000.0, 265000.0]"


def test_nist_long_segment_compiled_equals_python():
    hyp, ref = words(20_000, seed=5, vocabulary=2000), words(20_000, seed=6, vocabulary=2000)
    compiled = metrics.get("nist").stats([hyp, "a b"], [[ref, "a c"]])
    np.testing.assert_array_equal(compiled, metrics.get("nist", backend="python").stats([hyp, "a b"], [[ref, "a c"]]))
    assert compiled[0, 5] > 100_000 and compiled[0, 6] > 100  # unigram and bigram information matched


# -- softBLEU: a documented limit ---------------------------------------------------------------------

class Cosines:
    """Every pair of distinct words at cosine 0.5 (a full similarity matrix)."""

    digest = "stub"

    def similarities(self, words_a, words_b):
        return np.array([[1.0 if a == b else 0.5 for b in words_b] for a in words_a])


def test_softbleu_refuses_past_max_words_naming_segment_side_length_and_limit():
    assert softbleu.MAX_WORDS == 1000  # documented in docs/metrics.md
    metric = metrics.get("softbleu", lang="en", vectors=Cosines(), max_words=4, backend="python")
    assert metric.stats(["a b c d"], [["e f g h"]])[0, 6] == pytest.approx(2.0)  # at the limit: 4 x 0.5
    with pytest.raises(MtmetaError, match=r"^softbleu: segment 2: the reference has 5 words \(after tokenisation\), "
                                          r"more than max_words=4\. softBLEU compares every unmatched hypothesis word "
                                          r"with every unmatched reference word.*refused, not truncated"):
        metric.stats(["a", "a b"], [["a", "b c d e f"]])
    with pytest.raises(MtmetaError, match=r"^softbleu: segment 1: the hypothesis has 1,001 words"):
        metrics.get("softbleu", lang="en", vectors=Cosines()).stats(["a " * 1001], [["a"]])
    default = metrics.get("softbleu", lang="en", vectors=Cosines(), backend="python")
    default.stats(["a"], [["b"]])  # sacrebleu's signature needs the number of references
    assert metric.signature() == default.signature()


@pytest.mark.parametrize("value", [0, -1, 2.5, True])
def test_softbleu_max_words_is_a_checked_parameter(value):
    with pytest.raises(ConfigError, match="max_words"):
        metrics.get("softbleu", lang="en", vectors=Cosines(), max_words=value)
