"""TER's tercom tokenizer (tercom 0.7.25's input rules, as the WMT metrics tasks ran TER) against
tercom's stated rules and against sacrebleu's edit counting on the same tokens."""

import random

import numpy as np
import pytest

from mtmeta import metrics
from mtmeta.errors import ConfigError
from mtmeta.metrics.ter import tercom_preprocess

NBSP, THIN = "\u00a0", "\u2009"
WORDS = ["the", "a", "cat", "dog", "sat", ",", ".", "'s", "&quot;", "3.5", "1-2", "x" + NBSP + "y", "Big"]


def test_tercom_preprocess_applies_tercoms_rules_in_tercoms_order():
    # -N: lowercase, then <skipped> deleted (so <SKIPPED> too), &quot; decoded, punctuation split off
    # except a period between digits, possessive split, dash after a digit split; U+00A0 is no separator.
    text = f"He's here, at 3.5 &quot;X&quot; <SKIPPED>now{NBSP}too 1-2 end's"
    assert tercom_preprocess(text, True, False, False).split(" ") == [
        "he", "'s", "here", ",", "at", "3.5", '"', "x", '"', f"now{NBSP}too", "1", "-", "2", "end", "'s"]
    # without -N: case kept when asked, punctuation removed (3.5 loses its period, as in tercom)
    assert tercom_preprocess("He's here, at 3.5 \"X\"!", False, True, True) == "He's here at 35 X"
    tokens = tercom_preprocess(f"  a\tb{THIN}c \x1f d  ", False, False, False).split(" ")
    assert tokens == ["a", f"b{THIN}c", "\x1f", "d"]


def test_tercom_tokens_equal_sacrebleus_without_unicode_spaces():
    rng = random.Random(11)
    plain = [w for w in WORDS if NBSP not in w]
    hyps = [" ".join(rng.choice(plain) for _ in range(rng.randint(0, 25))) for _ in range(120)]
    refs = [" ".join(rng.choice(plain) for _ in range(rng.randint(1, 25))) for _ in range(120)]
    for params in ({}, {"normalized": True}, {"normalized": True, "no_punct": True, "case_sensitive": True}):
        np.testing.assert_array_equal(metrics.get("ter", tokenizer="tercom", **params).stats(hyps, [refs]),
                                      metrics.get("ter", **params).stats(hyps, [refs]))


def test_tercom_tokenizer_compiled_counts_equal_sacrebleus_and_differ_from_sacrebleus_tokens():
    rng = random.Random(5)
    hyps = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 25))) for _ in range(150)]
    refs1 = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 25))) for _ in range(150)]
    refs2 = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 25))) for _ in range(150)]
    refs2[3] = None
    compiled = metrics.get("ter", normalized=True, tokenizer="tercom")
    ours = compiled.stats(hyps, [refs1, refs2])
    reference = metrics.get("ter", normalized=True, tokenizer="tercom", backend="sacrebleu")
    np.testing.assert_array_equal(ours, reference.stats(hyps, [refs1, refs2]))
    # U+00A0 joins "x y" into one token for tercom, two for sacrebleu: different reference lengths
    sacrebleu_ter = metrics.get("ter", normalized=True)
    sacrebleu_tokens = sacrebleu_ter.stats(hyps, [refs1, refs2])
    assert ours[:, 1].sum() < sacrebleu_tokens[:, 1].sum()
    assert ours[:, 0].sum() > 1000
    # the signature says which tokenizer
    assert "|tok:tercom-0.7.25|norm:yes|" in compiled.signature()
    assert "|tok:tercom|norm:yes|" in sacrebleu_ter.signature()


def test_ter_tokenizer_errors():
    with pytest.raises(ConfigError, match="unknown tokenizer 'bogus'; known: sacrebleu, tercom"):
        metrics.get("ter", tokenizer="bogus")
    with pytest.raises(ConfigError, match=r"ter: parameters tokenizer=.tercom., asian_support=True: expected asian_"
                                          r"support false with tokenizer .tercom. \(tercom 0.7.25 has no Asian"):
        metrics.get("ter", tokenizer="tercom", asian_support=True)


def test_western_normalize_equals_sacrebleus_normalize_general_and_western():
    from sacrebleu.tokenizers.tokenizer_ter import _normalize_general_and_western

    from mtmeta.metrics.ter import western_normalize

    rng = np.random.default_rng(11)
    alphabet = list("ab 09.,-'s\n&;{}[]~`!\"#$%()*+/:<=>?@\\^_|\u00a0\u00e9")
    pieces = ["&quot;", "&amp;", "&lt;", "&gt;", "'s ", "\n-", "3-4", "1,000.5", "U.S.", "'s"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet + pieces, size=rng.integers(0, 30)))
        assert western_normalize(text) == _normalize_general_and_western(text), repr(text)
    for text in ["", "it's", "the cat's hat's", "a\n-b\nc", "x &amp;quot; y", "1990-2000, 3.5. end."]:
        assert western_normalize(text) == _normalize_general_and_western(text), repr(text)
