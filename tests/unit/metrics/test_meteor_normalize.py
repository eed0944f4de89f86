"""Meteor 1.5's -norm normaliser and word split (mtmeta.metrics.meteor.normalize).

Expected lines are the jar's own output (``java -cp meteor-1.5.jar edu.cmu.meteor.util.Normalizer
<lang> true``, pycocoevalcap's jar); the committed jar fixtures check whole test sets
(tests/realdata/test_meteor_jar_fixtures.py).
"""

import importlib.util
from pathlib import Path

import pytest

from mtmeta import metrics
from mtmeta.errors import ConfigError
from mtmeta.metrics.meteor.aligner import java_hash
from mtmeta.metrics.meteor.normalize import jar_prefixes, normalize, read_prefixes, split_words

JAR = Path(list(importlib.util.find_spec("pycocoevalcap").submodule_search_locations)[0]) / "meteor" / "meteor-1.5.jar"

CASES = [
    ("en", "The U.S.-based firm's CEO, Mr. Smith, said: \"don't\".",
     "The US based firm 's CEO , Mr. Smith , said : \" don 't \" ."),
    ("en", "Wait... what?? No. 5 is here. No. Way.", "Wait ... what ? ? No. 5 is here . No . Way ."),
    ("en", "He paid 1,000 dollars, i.e. a lot,really.", "He paid 1,000 dollars , ie a lot , really ."),
    ("en", "\u201cQuoted\u201d \u2018single\u2019 \u2013 dash -- double well-known",
     "\" Quoted \" ' single ' - dash - double well known"),
    ("en", "It was the 1990's, etc. and so on", "It was the 1990 's , etc. and so on"),
    ("fr", "L'homme qu'il a vu aujourd'hui.", "L' homme qu' il a vu aujourd' hui ."),
    ("cs", "100\u00a0000 K\u010d, tj. 5 %.", "100 000 K\u010d , tj . 5 % ."),
]


@pytest.mark.parametrize(("lang", "line", "expected"), CASES)
def test_normalize_gives_the_jars_line(lang, line, expected):
    assert normalize(line, lang, jar_prefixes(str(JAR), lang)) == expected


def test_prefix_lists_read_kinds_and_skip_comments():
    prefixes = read_prefixes("# comment\nMr\nNo #NUMERIC_ONLY#\n\n")
    assert prefixes == {"Mr": 1, "No": 2}
    assert jar_prefixes(str(JAR), "cs") == {}  # the jar has none for Czech ("Nothing for Czech yet")
    assert jar_prefixes(str(JAR), "en")["No"] == 2 and jar_prefixes(str(JAR), "en")["Mr"] == 1


def test_split_words_splits_at_ascii_whitespace_only():
    # Java's StringTokenizer: a no-break space stays inside the word (the jar's -lower and no-option modes).
    assert split_words(" a\tb\u00a0c\r\nd\fe  ") == ["a", "b\u00a0c", "d", "e"]


def test_java_hash_is_string_hashcode():
    assert java_hash("") == 0 and java_hash("a") == 97
    assert java_hash("daně") == java_hash("data")  # the collision the jar's exact module matches
    assert java_hash("polygenelubricants") == -2147483648  # Integer.MIN_VALUE, a known Java value


def test_meteor_norm_rejects_languages_without_a_normaliser():
    with pytest.raises(ConfigError, match="tokenize=meteor-norm"):
        metrics.get("meteor", lang="hi", tokenize="meteor-norm")
    with pytest.raises(ConfigError, match="exact_equality"):
        metrics.get("meteor", lang="en", exact_equality="hash")


def test_required_sources_add_the_jar_for_meteor_norm():
    assert "meteor_jar" in metrics.required_sources("meteor", "cs", tokenize="meteor-norm")
    assert "meteor_jar" not in metrics.required_sources("meteor", "cs", tokenize="whitespace")


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_java_hash_equality_matches_colliding_words_in_both_aligners(backend):
    params = dict(lang="cs", modules=["exact"], weights=[1.0], function_words="none", tokenize="whitespace",
                  backend=backend)
    as_jar = metrics.get("meteor", exact_equality="java-hash", **params)
    plain = metrics.get("meteor", **params)
    hyps, refs = ["daně jsou vysoké"], ["data jsou vysoké"]
    assert as_jar.stats(hyps, [refs])[0, -1] == 3 and plain.stats(hyps, [refs])[0, -1] == 2
    assert "exact:java-hash" in as_jar.signature() and "exact:" not in plain.signature()
