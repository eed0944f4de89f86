"""The accelerated 13a/zh tokenisers against sacrebleu's own, and the spacing rule over all of Unicode."""

import re

import numpy as np
import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from mtmeta import metrics
from mtmeta.data.tokenize import SPACING_RULE, _RegexpPass, accelerated, spacing_table, tokenizer


def test_the_spacing_rule_is_sacrebleus_and_matches_only_its_ascii_characters():
    assert Tokenizer13a()._post_tokenizer._re[0][0].pattern == SPACING_RULE
    rule = re.compile(SPACING_RULE)
    matched = [c for c in range(0x110000) if rule.fullmatch(chr(c))]
    assert matched == sorted(spacing_table())
    assert len(matched) == 29 and ord(" ") in matched and ord(".") not in matched and ord("-") not in matched


# Periods and commas next to digits and to each other (the context rules), dashes after digits,
# entities and <skipped> (13a's own replacements), non-ASCII letters and Unicode spaces, CJK for zh.
PIECES = ["a", "B", "7", "42", ".", ",", "..", "-", "--", "'", '"', "(", ")", "[x]", "{", "~", "`", "@", "#",
          "&quot;", "&amp;", "&lt;", "&gt;", "&", "<skipped>", "\n", "-\n", "ü", "Ω", "\u00a0", "\t", "3.5", "1,000",
          "e.g.", "x-y", "2-3", "猫", "。", "，", "!?", "$", "%", "^", "_", "|", "\\", "/", ":", ";", "<", "=", ">"]


def random_lines(seed, n=3000):
    rng = np.random.default_rng(seed)
    return ["".join(rng.choice(PIECES, size=rng.integers(0, 25)) if rng.random() < 0.5
                    else " ".join(rng.choice(PIECES, size=rng.integers(0, 25)))) for _ in range(n)]


@pytest.mark.parametrize("make", [Tokenizer13a, TokenizerZh])
def test_same_tokens_as_sacrebleu(make):
    ours, theirs = accelerated(make()), make()
    assert isinstance(ours._post_tokenizer, _RegexpPass)
    lines = random_lines(1)
    assert [ours(line) for line in lines] == [theirs(line) for line in lines]
    assert ours.signature() == theirs.signature()


def test_other_tokenisers_are_left_alone():
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

    intl = TokenizerV14International()
    assert accelerated(intl) is intl and not hasattr(intl, "_post_tokenizer")
    odd = Tokenizer13a()
    odd._post_tokenizer._re = [(re.compile(r"([a-z])"), r" \1 ")]  # not the spacing rule: kept as it is
    assert type(accelerated(odd)._post_tokenizer).__name__ == "TokenizerRegexp"


def test_metrics_use_the_accelerated_tokeniser():
    split = tokenizer("13a")
    assert split('He said: "3.5, not 4."') == ["He", "said", ":", '"', "3.5", ",", "not", "4", ".", '"']
    assert isinstance(metrics.get("bleu")._metric.tokenizer._post_tokenizer, _RegexpPass)


@pytest.fixture
def clean_preloads():
    from mtmeta.data import tokenize

    before = {name: dict(known) for name, known in tokenize._KNOWN.items()}
    yield tokenize
    for name, known in tokenize._KNOWN.items():
        known.clear()
        known.update(before.get(name, {}))


def test_preloaded_tokenisations_are_the_tokenisers_own_and_shared_by_every_metric(clean_preloads):
    tokenize = clean_preloads
    texts = [line + "  " for line in random_lines(5, 300)] + ["Mixed CASE, text.", "Mixed CASE, text."]
    (lines, tokenised), = tokenize.tokenisations(texts).values()
    sacrebleu_13a = Tokenizer13a()
    assert len(lines) == len(set(lines)) and "mixed case, text." in lines and "Mixed CASE, text." in lines
    assert tokenised == [sacrebleu_13a(line) for line in lines]
    bleu = metrics.get("bleu", lang="en")
    meteor_tokens = tokenizer("13a", True)
    before = bleu.stats(texts, [texts[::-1]]), [meteor_tokens(t) for t in texts]
    # A preloaded line is taken as given (here a marked one, to see that both tokenisers read it) ...
    assert tokenize.preload("13a", ["Mixed CASE, text."], ["MARK"]) == 1
    assert metrics.get("bleu", lang="en").preprocess("Mixed CASE, text.  ") == "MARK"
    assert tokenizer("13a")("Mixed CASE, text.") == ["MARK"]
    # ... so with the tokenisations of rule tokenize_segments nothing changes.
    tokenize.preload("13a", lines, tokenised)
    assert (metrics.get("bleu", lang="en").stats(texts, [texts[::-1]]) == before[0]).all()
    assert [meteor_tokens(t) for t in texts] == before[1]
    with pytest.raises(ValueError, match="2 lines but 1"):
        tokenize.preload("13a", ["a", "b"], ["a"])
    # forget() (a scoring process moving on to the next test set) drops them, also for the tokenisers
    # made before: the marked line is tokenised again.
    tokenize.preload("13a", ["Mixed CASE, text."], ["MARK"])
    tokenize.forget()
    assert tokenizer("13a")("Mixed CASE, text.") == ["Mixed", "CASE", ",", "text", "."]
    assert bleu.preprocess("Mixed CASE, text.") == "Mixed CASE , text ."
