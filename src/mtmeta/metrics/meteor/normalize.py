"""Meteor 1.5's input handling: its ``-norm`` normaliser and its word split.

The Meteor 1.5 jar turns a line into words in three steps, each reproduced here so that mtmeta's
METEOR sees the jar's words on raw text:

1. with ``-norm``, its normaliser (``normalize``): a Moses-style tokeniser (Moses revision 3612,
   with Meteor's additions: quotes and dashes unified, dashes between words split, dots of mixed
   abbreviations dropped, U.S. -> US), using the language's non-breaking prefixes from the jar;
2. with ``-norm`` or ``-lower``, lowercasing (``str.lower``), after the normaliser, whose
   non-breaking-prefix rule looks at the case of the next word;
3. the split into words (``split_words``) at space, tab, newline, carriage return and form feed
   only (Java's ``StringTokenizer``): a no-break space (U+00A0) is part of a word unless ``-norm``
   turned it into a space.

The regular expressions follow the jar's (Java) classes exactly: ``\\p{Digit}`` and
``\\p{Lower}`` are ASCII there, as written here; the letter class is the jar's list of Latin and
Cyrillic ranges. ``tests/unit/metrics/test_meteor_normalize.py`` checks hand-made cases and the
committed jar fixtures check whole test sets (``tests/fixtures/meteor_jar``).
"""

from __future__ import annotations

import re
import zipfile
from functools import cache
from pathlib import Path

# The jar's letter and letter-or-digit classes (Western European and Cyrillic ranges).
ALPHA = "A-Za-z\u0160\u017d\u0161\u017e\u0178\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e" \
        "\u0400-\u04ff\u0500-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f"
ALNUM = "0-9" + ALPHA
DIGIT = "0-9"
# Spaces the normaliser folds into one ASCII space (the tab is not among them: the word split takes it).
SPACES = " \u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\u00a0"
WORD_DELIMITERS = " \t\n\r\f"  # Java's StringTokenizer default
_SPLIT = re.compile(f"[{WORD_DELIMITERS}]+")

# Languages whose -norm the jar supports with a Western tokeniser, by the language codes mtmeta
# uses, and the name of their non-breaking prefix list in the jar (nonbreaking/<name>.prefixes).
LANGUAGES = {"en": "english", "cs": "czech", "fr": "french", "de": "german", "es": "spanish", "ru": "russian"}

_MULTI_DOT = re.compile(r"\.(\.+)")
_MULTI_DOT2 = re.compile(r"DOTMULTI\.([^.])")
_COMMA = re.compile(f"([^{DIGIT}]),([^{DIGIT}])")
_COMMA2 = re.compile(f"([{DIGIT}]),([^{DIGIT}])")
_COMMA3 = re.compile(f"([^{DIGIT}]),([{DIGIT}])")
_SINGLE_QUOTES = re.compile("[`\u2018\u2019]")
_DOUBLE_QUOTES = re.compile("[\u201c\u201d]|''")
_DASH_BETWEEN = re.compile(f"([{ALNUM}.])-([{ALNUM}])")
_APOSTROPHE = {
    "en": [
        (re.compile(f"([^{ALPHA}])'([^{ALPHA}])"), r"\1 ' \2"),
        (re.compile(f"([^{ALPHA}{DIGIT}])'([{ALPHA}])"), r"\1 ' \2"),
        (re.compile(f"([{ALPHA}])'([^{ALPHA}])"), r"\1 ' \2"),
        (re.compile(f"([{ALPHA}])'([{ALPHA}])"), r"\1 '\2"),  # contractions split to the right: don 't
        (re.compile(f"([{DIGIT}])'(s)"), r"\1 '\2"),  # 1990's
    ],
    "fr": [
        (re.compile(f"([^{ALPHA}])'([^{ALPHA}])"), r"\1 ' \2"),
        (re.compile(f"([^{ALPHA}])'([{ALPHA}])"), r"\1 ' \2"),
        (re.compile(f"([{ALPHA}])'([^{ALPHA}])"), r"\1 ' \2"),
        (re.compile(f"([{ALPHA}])'([{ALPHA}])"), r"\1' \2"),  # to the left: l' homme
    ],
}
_HAS_LETTER = re.compile(f"[{ALPHA}]")
_STARTS_LOWER = re.compile("[a-z]")  # Java's \p{Lower}: ASCII
_STARTS_DIGIT = re.compile("[0-9]")
_SPACES = re.compile(f"[{SPACES}]+")
ANY, NUMERIC_ONLY = 1, 2  # kinds of non-breaking prefix


# Every other character goes between spaces. Java's \s in the class is ASCII whitespace, written out.
_SEPARATE_OTHER = re.compile(f"([^{ALNUM} \t\n\x0b\f\r.'`,\\-\u2018\u2019])")


def read_prefixes(text: str) -> dict[str, int]:
    """A non-breaking prefix list in Moses' format: one prefix per line, ``#NUMERIC_ONLY#`` after
    the prefix for those that only protect a dot before a number; ``#`` starts a comment line."""
    prefixes = {}
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        prefixes[fields[0]] = NUMERIC_ONLY if len(fields) > 1 and fields[1] == "#NUMERIC_ONLY#" else ANY
    return prefixes


@cache
def jar_prefixes(jar: str, lang: str) -> dict[str, int]:
    """The non-breaking prefixes of ``lang`` inside the Meteor 1.5 jar at ``jar``."""
    name = f"nonbreaking/{LANGUAGES[lang]}.prefixes"
    with zipfile.ZipFile(Path(jar)) as archive:
        return read_prefixes(archive.read(name).decode("utf-8"))


def normalize(line: str, lang: str, prefixes: dict[str, int]) -> str:
    """Meteor 1.5's ``-norm`` tokenisation of one line (punctuation kept, case unchanged)."""
    text = f" {line} "
    text = _SEPARATE_OTHER.sub(r" \1 ", text)
    text = _MULTI_DOT.sub(r" DOTMULTI\1", text)
    while "DOTMULTI." in text:
        text = _MULTI_DOT2.sub(r"DOTDOTMULTI \1", text)
        text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    for pattern in (_COMMA, _COMMA2, _COMMA3):
        text = pattern.sub(r"\1 , \2", text)
    text = _SINGLE_QUOTES.sub("'", text)
    text = _DOUBLE_QUOTES.sub(' " ', text)
    text = text.replace("\u2013", "-").replace("--", "-")
    text = _DASH_BETWEEN.sub(r"\1 \2", text)
    if lang in _APOSTROPHE:
        for pattern, template in _APOSTROPHE[lang]:
            text = pattern.sub(template, text)
    else:
        text = text.replace("'", " ' ")
    words = split_words(text)
    out = []
    for i, word in enumerate(words):
        if len(word) > 1 and word.endswith("."):
            prefix = word[:-1]
            kind = prefixes.get(prefix)
            following = words[i + 1] if i + 1 < len(words) else None
            if "." in prefix and _HAS_LETTER.search(prefix):
                word = word.replace(".", "")  # U.S. -> US
            elif kind == ANY or (following is not None and _STARTS_LOWER.match(following)):
                pass
            elif kind == NUMERIC_ONLY and following is not None and _STARTS_DIGIT.match(following):
                pass
            else:
                word = prefix + " ."
        out.append(word)
    text = " ".join(out) + " "
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    text = text.replace("DOTMULTI", ".")
    return _java_trim(_SPACES.sub(" ", text))


def _java_trim(text: str) -> str:
    """Java's ``String.trim``: strips every character up to U+0020 at both ends."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def split_words(line: str) -> list[str]:
    """The jar's words of a line: split at space, tab, newline, carriage return and form feed."""
    return [word for word in _SPLIT.split(line) if word]
