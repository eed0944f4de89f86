"""The accelerated 13a/zh tokenisers against sacrebleu's own, and the spacing rule over all of Unicode."""

import re

import numpy as np
import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from mtmeta import metrics
from mtmeta.data.tokenize import CONTEXT_RULES, SPACING_RULE, _RegexpPass, accelerated, tokenizer


def test_the_rules_replaced_are_sacrebleus():
    rules = [(pattern.pattern, template) for pattern, template in Tokenizer13a()._post_tokenizer._re]
    assert rules == [(SPACING_RULE, r" \1 "), *CONTEXT_RULES]


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


def test_preload_later_reads_a_name_only_when_a_tokeniser_of_it_first_misses(clean_preloads):
    tokenize = clean_preloads
    asked = []

    def load(name):
        asked.append(name)
        return (["Mixed CASE, text."], ["MARK"]) if name == "13a" else ([], [])

    tokenize.preload_later(load)
    assert asked == []  # nothing read until a tokeniser needs it
    assert tokenizer("13a")("Mixed CASE, text.") == ["MARK"]
    assert tokenizer("13a", True)("Mixed CASE, text.") == ["mixed", "case", ",", "text", "."]  # not preloaded
    assert tokenizer("intl")("Other text.") == ["Other", "text", "."]
    assert asked == ["13a", "intl"]  # each name read once, on its first miss
    # forget() drops the source with what it gave: the line is tokenised again, nothing read.
    tokenize.forget()
    assert tokenizer("13a")("Mixed CASE, text.") == ["Mixed", "CASE", ",", "text", "."]
    assert asked == ["13a", "intl"]


def test_context_rules_give_sacrebleus_text_where_points_touch_and_where_they_do_not():
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    rng = np.random.default_rng(3)
    alphabet = list(".,-0123456789 a'\t")  # dense in what the rules look at
    lines = ["".join(rng.choice(alphabet, size=rng.integers(0, 30))) for _ in range(20000)]
    sacrebleu_rules = TokenizerRegexp.__call__.__wrapped__  # without its cache
    regexp = TokenizerRegexp()
    ours = _RegexpPass(regexp)
    assert [ours(line) for line in lines] == [sacrebleu_rules(regexp, line) for line in lines]
    touching = sum(bool(re.search(r"[.,][.,]", line)) for line in lines)
    assert 2000 < touching < 18000  # both ways through context_rules are exercised


@pytest.mark.parametrize("lowercase", [False, True])
def test_tokenizer_gives_sacrebleus_tokens_of_13a_without_the_line_round_trip(lowercase):
    """``tokenizer("13a")`` takes its tokens straight from the post-pass (Shared.words); they are
    sacrebleu's 13a tokens of the right-stripped (and lowercased) line."""
    split, theirs = tokenizer("13a", lowercase), Tokenizer13a()
    lines = random_lines(5)
    assert [split(line) for line in lines] == [theirs((line.lower() if lowercase else line).rstrip()).split()
                                              for line in lines]
