"""The Porter stemmer exactly as NLTK's ``PorterStemmer().stem`` (mode NLTK_EXTENSIONS), several times faster.

NLTK's stemmer tries every rule of a step in turn (``endswith`` per rule, a lambda per condition) and
rebuilds the consonant/vowel pattern of a stem for every measure it takes. Here:

- the consonant/vowel pattern of the lower-cased word is built once, with one ``str.translate``
  (``c``/``v`` per character; ``y`` resolved by its left neighbour), and kept in step with the word:
  the Porter measure of a prefix is then ``pattern.count("vc", 0, n)``. Keeping it in step is exact
  because a letter's class depends only on the letters before it and no replacement contains ``y``
  (the only letter whose class depends on its neighbour), so the pattern of ``stem + replacement`` is
  the pattern of ``stem`` followed by a fixed pattern of ``replacement``;
- each step looks its rules up by the word's last two letters, so a word is compared with the one or
  few suffixes it can end with, in NLTK's order (the first suffix that matches decides, even when its
  condition fails);
- everything runs inside one function, without a Python call per rule.

NLTK's quirks are kept: the irregular forms, lengths 1-2 (of the word as given, before lower-casing)
returned lower-cased, ``ies``/``ied`` of four-letter words, ``alli`` handled first in step 2 (then step
2 again), ``logi``'s condition on the stem with its ``l``, the ``ll`` rule measuring the word less one
letter, and step 1b's ``*d`` marker, which NLTK also compares as a literal suffix (``"ax*ded"`` ->
``"axd"``). A test compares every output with NLTK's on generated and real words.
"""

from __future__ import annotations

__all__ = ["stem"]

# NLTK's irregular forms (PorterStemmer.pool): looked up on the lower-cased word before any step.
_POOL = {"sky": "sky", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "news": "news",
         "innings": "inning", "inning": "inning", "outings": "outing", "outing": "outing",
         "cannings": "canning", "canning": "canning", "howe": "howe", "proceed": "proceed",
         "exceed": "exceed", "succeed": "succeed"}


class _Classes(dict):
    """str.translate table: a, e, i, o, u -> v; y -> y (resolved afterwards); any other character -> c.
    ASCII and Latin are filled in; other characters are added on first sight (translate calls
    ``__missing__`` through the mapping protocol)."""

    def __missing__(self, code: int) -> str:
        self[code] = "c"
        return "c"


_CLASSES = _Classes({code: "c" for code in range(0x250)})
_CLASSES.update({ord(vowel): "v" for vowel in "aeiou"})
_CLASSES[ord("y")] = "y"


def _resolve_y(pattern: str) -> str:
    """The pattern with each ``y`` made a consonant at the start or after a vowel, a vowel after a
    consonant (NLTK's ``_is_consonant``; a run of y's alternates)."""
    out = []
    previous = "v"  # a word-initial y is a consonant, as after a vowel
    for kind in pattern:
        if kind == "y":
            kind = "v" if previous == "c" else "c"
        out.append(kind)
        previous = kind
    return "".join(out)


def _pattern(text: str) -> str:
    """Class pattern of a replacement (no y, so independent of its context)."""
    return text.translate(_CLASSES)


def _rules(rules: list[tuple[str, str]]) -> dict[str, tuple[tuple[str, int, str, str], ...]]:
    """(suffix, replacement) rules in NLTK's order, grouped by the suffix's last two letters:
    {ending: ((suffix, len(suffix), replacement, replacement's pattern), ...)}."""
    table: dict[str, list] = {}
    for suffix, replacement in rules:
        table.setdefault(suffix[-2:], []).append((suffix, len(suffix), replacement, _pattern(replacement)))
    return {ending: tuple(group) for ending, group in table.items()}


# Step 2 (measure > 0). "logi" is special-cased below (its condition includes the l); "alli" is also
# tried first (NLTK_EXTENSIONS), this entry only decides when that one's condition failed.
_STEP2 = _rules([("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
                 ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
                 ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
                 ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
                 ("fulli", "ful"), ("logi", "log")])
# Step 3 (measure > 0): no two suffixes share their last two letters.
_STEP3 = {suffix[-2:]: (suffix, len(suffix), replacement, _pattern(replacement)) for suffix, replacement in
          [("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
           ("ness", "")]}
# Step 4 (measure > 1; "ion" also needs s or t before it): suffixes removed, lengths grouped by ending.
_STEP4: dict[str, tuple[tuple[str, int], ...]] = {}
for _suffix in ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
                "ism", "ate", "iti", "ous", "ive", "ize"]:
    _STEP4[_suffix[-2:]] = (*_STEP4.get(_suffix[-2:], ()), (_suffix, len(_suffix)))
del _suffix


def stem(word: str) -> str:
    """``nltk.stem.porter.PorterStemmer().stem(word)``, the same string for every input."""
    w = word.lower()
    irregular = _POOL.get(w)
    if irregular is not None:
        return irregular
    if len(word) <= 2:  # NLTK tests the word as given (lower-casing can lengthen it: "İ" -> "i̇")
        return w
    cv = w.translate(_CLASSES)
    if "y" in cv:
        cv = _resolve_y(cv)

    # Step 1a: sses -> ss, ies -> i (ie in a four-letter word), ss -> ss, s -> "".
    if w[-1] == "s":
        if w.endswith("ies"):
            cut = 1 if len(w) == 4 else 2
            w, cv = w[:-cut], cv[:-cut]
        elif w.endswith("sses"):
            w, cv = w[:-2], cv[:-2]
        elif not w.endswith("ss"):
            w, cv = w[:-1], cv[:-1]

    # Step 1b: ied -> i (ie in a four-letter word); (m>0) eed -> ee; (*v*) ed, ing -> "" and then tidy up.
    last = w[-1]
    removed = 0
    if last == "d":
        if w.endswith("ied"):
            cut = 1 if len(w) == 4 else 2
            w, cv = w[:-cut], cv[:-cut]
        elif w.endswith("eed"):
            if cv.count("vc", 0, len(w) - 3):
                w, cv = w[:-1], cv[:-1]
        elif w.endswith("ed") and cv.find("v", 0, len(w) - 2) >= 0:
            removed = 2
    elif last == "g" and w.endswith("ing") and cv.find("v", 0, len(w) - 3) >= 0:
        removed = 3
    if removed:
        w, cv = w[:-removed], cv[:-removed]
        if w.endswith(("at", "bl", "iz")):
            w, cv = w + "e", cv + "v"
        elif len(w) >= 2 and w[-1] == w[-2] and cv[-1] == "c":  # a double consonant
            if w[-1] not in "lsz":
                w, cv = w[:-1], cv[:-1]
        elif w.endswith("*d"):  # NLTK's "*d" rule also matches those two characters literally
            w, cv = w[:-2] + "d", cv[:-2] + "c"
        elif cv.count("vc") == 1 and ((len(w) >= 3 and cv.endswith("cvc") and w[-1] not in "wxy") or cv == "vc"):
            w, cv = w + "e", cv + "v"

    # Step 1c: y -> i after a consonant that is not the first letter.
    if w[-1] == "y" and len(w) > 2 and cv[-2] == "c":
        w, cv = w[:-1] + "i", cv[:-1] + "v"

    # Step 2 (m>0): NLTK first turns alli into al and runs step 2 again (which then can only match
    # ational or tional).
    if w.endswith("alli") and cv.count("vc", 0, len(w) - 4):
        w, cv = w[:-2], cv[:-2]
    rules = _STEP2.get(w[-2:])
    if rules is not None:
        for suffix, size, replacement, replaced in rules:
            if w.endswith(suffix):
                n = len(w) - size
                if suffix == "logi":  # the condition measures the stem with its l
                    if cv.count("vc", 0, n + 1):
                        w, cv = w[:-1], cv[:-1]
                elif cv.count("vc", 0, n):
                    w, cv = w[:n] + replacement, cv[:n] + replaced
                break

    # Step 3 (m>0).
    rule = _STEP3.get(w[-2:])
    if rule is not None:
        suffix, size, replacement, replaced = rule
        if w.endswith(suffix):
            n = len(w) - size
            if cv.count("vc", 0, n):
                w, cv = w[:n] + replacement, cv[:n] + replaced

    # Step 4 (m>1): the first suffix the word ends with decides (ement before ment before ent).
    group = _STEP4.get(w[-2:])
    if group is not None:
        for suffix, size in group:
            if w.endswith(suffix):
                n = len(w) - size
                if cv.count("vc", 0, n) > 1 and (suffix != "ion" or w[n - 1] in "st"):
                    w, cv = w[:n], cv[:n]
                break

    # Step 5a: (m>1) e -> ""; (m=1 and not *o) e -> "".
    if w[-1] == "e":
        n = len(w) - 1
        m = cv.count("vc", 0, n)
        if m > 1 or (m == 1 and not ((n >= 3 and cv.startswith("cvc", n - 3) and w[n - 1] not in "wxy")
                                     or (n == 2 and cv.startswith("vc")))):
            w, cv = w[:n], cv[:n]

    # Step 5b: ll -> l when the word less one letter has m>1.
    if w.endswith("ll") and cv.count("vc", 0, len(w) - 1) > 1:
        w = w[:-1]
    return w
