"""Word tokenisation shared by the metrics mtmeta implements itself.

The tokenisers are sacrebleu's (selected by the same names: ``13a``, ``intl``, ``none``,
``char``, ``zh`` ...), applied as sacrebleu applies them: optional lowercasing first, then
the tokeniser, then whitespace splitting.

``13a`` and ``zh`` end with sacrebleu's regular-expression pass (``TokenizerRegexp``), whose first
rule puts spaces around each character of a class, every space included. On Python 3.11 each match
of a substitution template costs a Python call, about 25 per sentence for that rule alone; here
that rule is one ``str.translate`` (``accelerated``), which gives the same text, and the other rules
are sacrebleu's own. ``tests/unit/data/test_tokenize.py`` and the real-data parity tests compare the
output with sacrebleu's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from sacrebleu.metrics.bleu import _TOKENIZERS, _get_tokenizer
from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

from mtmeta.errors import ConfigError

TOKENIZERS = tuple(_TOKENIZERS)


# Tokenisations computed earlier (rule tokenize_segments), by tokeniser name: {line: tokenised line}.
# Every tokeniser object of a name looks a line up here first: each job of a test set then reuses
# one tokenisation of its texts instead of tokenising them again per metric.
_KNOWN: dict[str, dict[str, str]] = {}


class Shared:
    """A sacrebleu tokeniser object (called on a line, giving the tokenised line) that first looks
    the line up among the tokenisations :func:`preload` gave for its name."""

    def __init__(self, name: str, tokenizer):
        self.name, self._tokenizer = name, tokenizer
        self._known = _KNOWN.setdefault(name, {})

    def __call__(self, line: str) -> str:
        found = self._known.get(line)
        return self._tokenizer(line) if found is None else found

    def __getattr__(self, attribute):  # signature() and the rest: the tokeniser's own
        return getattr(self._tokenizer, attribute)


def shared(name: str, tokenizer) -> Shared:
    """``tokenizer`` (a sacrebleu tokeniser object of that name), accelerated and sharing preloaded lines."""
    return Shared(name, accelerated(tokenizer))


def tokenisations(texts, names: Sequence[str] = ("13a",)) -> dict[str, tuple[list[str], list[str]]]:
    """For each tokeniser name: the lines its users pass for these texts (each text right-stripped,
    as is and lower-cased) and their tokenisations, for :func:`preload`."""
    distinct = dict.fromkeys(texts)
    lines = list(dict.fromkeys(line for text in distinct for line in (text.rstrip(), text.lower().rstrip())))
    out = {}
    for name in names:
        split = accelerated(_get_tokenizer(name)())
        out[name] = (lines, [split(line) for line in lines])
    return out


def preload(name: str, lines: Sequence[str], tokenised: Sequence[str]) -> int:
    """Make ``tokenised[k]`` the tokenisation of ``lines[k]`` for every tokeniser of this name; the
    number of lines. The values must be the tokeniser's own (:func:`tokenisations`): they are used as is."""
    if len(lines) != len(tokenised):
        raise ValueError(f"{len(lines)} lines but {len(tokenised)} tokenisations")
    _KNOWN.setdefault(name, {}).update(zip(lines, tokenised, strict=True))
    return len(lines)


def forget() -> None:
    """Drop every preloaded tokenisation (a process moving on to another test set), emptying the
    tables in place: the tokenisers made so far keep theirs."""
    for known in _KNOWN.values():
        known.clear()


@cache
def tokenizer(name: str = "13a", lowercase: bool = False) -> Callable[[str], list[str]]:
    """A function from a segment to its list of tokens."""
    if name not in _TOKENIZERS:
        raise ConfigError(f"unknown tokenizer {name!r}; known: {', '.join(TOKENIZERS)}")
    split = shared(name, _get_tokenizer(name)())

    if lowercase:
        return lambda text: split(text.lower().rstrip()).split()
    return lambda text: split(text.rstrip()).split()


def template_function(template: str):
    """A function giving what ``template`` (literal text and ``\\N`` group references) expands to for
    a match, without the template engine's per-match cost on Python 3.11; other templates unchanged."""
    parts = re.split(r"\\(\d)", template)
    literals, groups = parts[0::2], [int(g) for g in parts[1::2]]
    if any("\\" in literal for literal in literals):
        return template
    tail = list(zip(groups, literals[1:], strict=True))

    def replace(match: re.Match) -> str:
        out = literals[0]
        for group, literal in tail:
            out += (match.group(group) or "") + literal
        return out

    return replace


class _RegexpPass:
    """sacrebleu's ``TokenizerRegexp`` with its first rule (a one-character class, each match put
    between spaces) applied by ``str.translate``; the remaining rules are its own, in its order, their
    templates expanded by plain functions."""

    def __init__(self, regexp: TokenizerRegexp, table: dict[int, str]):
        self._table = table
        self._rules = [(pattern, template_function(template)) for pattern, template in regexp._re[1:]]

    def __call__(self, line: str) -> str:
        line = line.translate(self._table)
        for pattern, replacement in self._rules:
            line = pattern.sub(replacement, line)
        return " ".join(line.split())


# sacrebleu's (2.x) first TokenizerRegexp rule: every character of this ASCII class, the space
# included, is put between spaces. Only this exact rule is replaced; any other is left to sacrebleu.
SPACING_RULE = r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"


@cache
def spacing_table() -> dict[int, str]:
    """The characters the spacing rule matches, each mapped to itself between spaces. A class of
    ASCII ranges matches no other character (``tests/unit/data/test_tokenize.py`` checks all of Unicode)."""
    rule = re.compile(SPACING_RULE)
    return {c: f" {chr(c)} " for c in range(128) if rule.fullmatch(chr(c))}


def accelerated(tokenizer):
    """``tokenizer`` (a sacrebleu tokeniser object), with a ``TokenizerRegexp`` post-pass replaced by
    its faster equivalent when its first rule is the spacing rule; any other tokeniser unchanged."""
    post = getattr(tokenizer, "_post_tokenizer", None)
    if type(post) is TokenizerRegexp and post._re:
        first, replacement = post._re[0]
        if first.pattern == SPACING_RULE and replacement == r" \1 ":
            tokenizer._post_tokenizer = _RegexpPass(post, spacing_table())
    return tokenizer
