"""Metric parameters are typed and range-checked before a metric is built: each case below was a
silently odd score before (the issue's findings), and is now an error naming the parameter."""

import copy
import re

import pytest
import yaml

from mtmeta.app.config import DEFAULT_CONFIG, merge, validate_config
from mtmeta.errors import ConfigError
from mtmeta.metrics import get, metric_class
from mtmeta.metrics.params import check_params, declared_params


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("bleu", {"lowercase": "maybe"},
         r"bleu: parameter lowercase='maybe' has the wrong type; expected lowercase: bool"),
        ("bleu", {"lowercase": "flase"}, "has the wrong type"),
        ("ter", {"normalized": "nope"}, r"ter: parameter normalized='nope' has the wrong type"),
        ("chrf", {"char_order": -3}, r"chrf: parameter char_order=-3 is out of range; expected >= 0"),
        ("chrf", {"beta": -2}, r"parameter beta=-2 is out of range; expected >= 0"),
        ("chrf", {"beta": 2.5}, r"beta=2.5 has the wrong type; expected beta: int"),
        ("bleu", {"max_ngram_order": 0}, r"max_ngram_order=0 is out of range; expected >= 1"),
        ("hlepor", {"alpha": -1}, r"hlepor: parameter alpha=-1 is out of range; expected > 0"),
        ("meteor", {"alpha": 7}, r"meteor: parameter alpha=7 is out of range; expected >= 0 and <= 1"),
        ("meteor", {"alpha": float("nan")}, r"alpha=nan has the wrong type"),
        ("meteor", {"weights": [1.0, -0.4]}, r"expected each value >= 0"),
        ("meteor", {"modules": "exact"}, r"modules='exact' has the wrong type; expected modules: list\[str\] \| None"),
        ("bleu", {"bogus": 1}, r"bleu: unknown parameter 'bogus' \(parameters: backend, effective_order, lowercase"),
        ("bleu", {"lowercas": True}, r"unknown parameter 'lowercas'; did you mean 'lowercase'\?"),
        ("bleu", {"tokenize": "bogus"}, r"tokenize='bogus' is not a known value; expected one of none, zh, 13a"),
        ("bleu", {"smooth_method": "bogus"},
         r"smooth_method='bogus' is not a known value; expected one of none, floor"),
        ("chrf++", {"beta": -1}, r"chrf\+\+: parameter beta=-1 is out of range"),  # parameters of its base class
        ("bleu", {"lowercase": None}, r"parameter lowercase cannot be null"),
    ],
)
def test_bad_parameters_are_errors_naming_them(name, params, message):
    with pytest.raises(ConfigError, match=message):
        get(name, lang="cs", **params)


def test_good_parameters_pass_and_booleans_accept_one_and_zero():
    assert check_params(metric_class("bleu"), {"lowercase": 1, "max_ngram_order": 2}) == {
        "lowercase": True, "max_ngram_order": 2}
    hyp, refs = ["The cat sat on the mat"], [["the cat sat on the mat"]]
    scores = {flag: get("bleu", lowercase=flag) for flag in (0, 1)}
    assert [m.corpus_score(m.stats(hyp, refs)) for m in scores.values()] == pytest.approx([75.98356856515926, 100.0])
    assert check_params(metric_class("meteor"), {"modules": ["exact"], "weights": [1, 0.4], "alpha": 1}) == {
        "modules": ["exact"], "weights": [1, 0.4], "alpha": 1}
    assert {"char_order", "beta", "lowercase"} <= set(declared_params(metric_class("chrf++")))
    assert declared_params(metric_class("chrf++"))["word_order"].default == 2  # its own default, not chrF's


def test_check_config_validates_metric_settings_naming_the_key():
    raw = _default_config()
    validate_config(copy.deepcopy(raw))  # the repository's own settings pass
    bad = copy.deepcopy(raw)
    bad["metric_settings"]["meteor-cs-thesaurus"]["params"]["weights"] = [1.0, -0.4]
    with pytest.raises(ConfigError, match=r"metric_settings.meteor-cs-thesaurus.params: parameter weights="):
        validate_config(bad)
    bad = copy.deepcopy(raw)
    bad["metric_settings"]["ter-wmt"]["params"]["normalised"] = True
    with pytest.raises(ConfigError, match=r"metric_settings.ter-wmt.params: unknown parameter 'normalised'; "
                                          r"did you mean 'normalized'\?"):
        validate_config(bad)


def test_signatures_name_every_setting_and_both_tools():
    """chrF's beta and BLEU's n-gram order change the score but are not in sacrebleu's signature."""

    def signature(name, **params):
        metric = get(name, lang="cs", **params)
        metric.stats(["a b c d"], [["a b c d"]])  # sacrebleu's signature needs the number of references
        return metric.signature()

    assert signature("chrf", beta=1).endswith("|beta:1|sacrebleu:2.6.0|mtmeta:0.1.0")
    assert signature("chrf") != signature("chrf", beta=3)
    assert "|order:2|" in signature("bleu", max_ngram_order=2)
    assert signature("nist").endswith("|mtmeta:0.1.0") and "version:" not in signature("nist")


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        # the issue: `chrf --set char_order=0 --set word_order=0` ended in "cannot reshape array of size 0"
        ("chrf", {"char_order": 0, "word_order": 0},
         r"^chrf: parameters char_order=0, word_order=0: expected char_order \+ word_order >= 1 \(chrF counts "
         r"character n-grams up to char_order and word n-grams up to word_order: with both 0 there is nothing"),
        ("chrf", {"char_order": 0}, r"^chrf: parameters char_order=0, word_order=0 \(default\): expected char_order"),
        ("chrf++", {"char_order": 0, "word_order": 0}, r"^chrf\+\+: parameters char_order=0, word_order=0: expected"),
        ("ter", {"tokenizer": "tercom", "asian_support": True},
         r"^ter: parameters tokenizer='tercom', asian_support=True: expected asian_support false with tokenizer"),
        ("bleu", {"tokenized": True, "tokenize": "13a"},
         r"^bleu: parameters tokenized=True, tokenize='13a': expected tokenize unset or 'none' with tokenized=true"),
        ("softbleu", {"tokenized": True, "tokenize": "intl"}, r"^softbleu: parameters tokenized=True, tokenize='intl'"),
    ],
)
def test_parameters_that_contradict_each_other_are_errors_naming_them(name, params, message):
    with pytest.raises(ConfigError, match=message):
        get(name, lang="en", **params)
    with pytest.raises(ConfigError, match=message):  # what check-config runs, without building the metric
        check_params(metric_class(name), params)
    with pytest.raises(ConfigError, match=rf"^{re.escape(name)}: parameters .*: expected"):  # built directly
        metric_class(name)(lang="en", **params)


def test_one_order_is_enough_and_scores_as_sacrebleu():
    import sacrebleu

    for params in ({"char_order": 0, "word_order": 2}, {"char_order": 1, "word_order": 0}):
        metric = get("chrf", **params)
        hyps, refs = ["the cat sat on a mat", "a b"], ["the cat sat on the mat", "a c"]
        ours = metric.corpus_score(metric.stats(hyps, [refs]))
        assert ours == pytest.approx(sacrebleu.CHRF(**params).corpus_score(hyps, [refs]).score, abs=1e-12)
        assert 0 < ours < 100


def _default_config() -> dict:
    """The default study's config as check-config reads it: the source catalogue, then config.yaml."""
    catalogue = yaml.safe_load((DEFAULT_CONFIG.parent / "sources.yaml").read_text())
    return merge(catalogue, yaml.safe_load(DEFAULT_CONFIG.read_text()))


def test_check_config_applies_the_rules_to_metric_settings():
    raw = _default_config()
    raw["metric_settings"]["chrf-none"] = {"metric": "chrf", "params": {"char_order": 0}}
    with pytest.raises(ConfigError, match=r"metric_settings.chrf-none.params: parameters char_order=0, "
                                          r"word_order=0 \(default\): expected char_order \+ word_order >= 1"):
        validate_config(raw)


def test_every_number_a_parameter_takes_has_an_upper_bound():
    """An unbounded order or beam is a hang, not a setting: NIST at max_ngram_order=10000 ran past a
    minute on 4 lines, BLEU at 1e6 took 7 s."""
    from mtmeta import metrics
    from mtmeta.metrics.params import INTERNAL

    unbounded = [f"{name}.{param.name}" for name in sorted(metrics.METRICS)
                 for param in declared_params(metric_class(name)).values()
                 if param.name not in INTERNAL and {"int", "float", "list[float]"} & set(param.kinds)
                 and (param.range is None or param.range.high is None)]
    assert unbounded == []


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("nist", {"max_ngram_order": 10_000},
         r"^nist: parameter max_ngram_order=10000 is out of range; expected >= 1 and <= 20$"),
        ("bleu", {"max_ngram_order": 1_000_000}, r"^bleu: parameter max_ngram_order=1000000 is out of range; "
                                                 r"expected >= 1 and <= 20$"),
        ("chrf", {"char_order": 21}, r"^chrf: parameter char_order=21 is out of range; expected >= 0 and <= 20$"),
        ("meteor", {"beam": 10**9}, r"^meteor: parameter beam=1000000000 is out of range; expected >= 1 and <= 1,000$"),
        ("meteor", {"max_words": 10_001}, r"max_words=10001 is out of range; expected >= 1 and <= 10,000$"),
        ("hlepor", {"window": 5001}, r"^hlepor: parameter window=5001 is out of range; expected >= 0 and <= 5,000$"),
        ("hlepor", {"alpha": 1e300}, r"alpha=1e\+300 is out of range; expected > 0 and <= 1,000$"),
        ("softbleu", {"k": 101}, r"^softbleu: parameter k=101 is out of range; expected >= 1 and <= 100$"),
    ],
)
def test_numbers_past_their_bound_are_refused_at_once(name, params, message):
    import time

    start = time.perf_counter()
    with pytest.raises(ConfigError, match=message):
        check_params(metric_class(name), params)
    with pytest.raises(ConfigError, match=message):
        get(name, lang="en", **params)
    assert time.perf_counter() - start < 1


def test_the_bounds_apply_to_config_and_score_set(tmp_path, capsys, monkeypatch):
    from mtmeta.app.cli import main

    raw = _default_config()
    raw["metric_settings"]["nist-long"] = {"metric": "nist", "params": {"max_ngram_order": 10_000}}
    with pytest.raises(ConfigError, match=r"^metric_settings.nist-long.params: parameter max_ngram_order=10000 is out "
                                          r"of range; expected >= 1 and <= 20$"):
        validate_config(raw)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hyp.txt").write_text("a b c\nd e\nf\ng h i j\n")
    (tmp_path / "ref.txt").write_text("a b c\nd e\nf\ng h i j\n")
    code = main(["score", "nist", "--ref", "ref.txt", "--hyp", "hyp.txt", "--set", "max_ngram_order=10000"])
    assert code == 2
    assert "nist: parameter max_ngram_order=10000 is out of range; expected >= 1 and <= 20" in capsys.readouterr().err


def test_messages_quote_a_long_value_briefly():
    with pytest.raises(ConfigError) as caught:
        check_params(metric_class("bleu"), {"tokenize": "x" * 1_000_000})
    assert str(caught.value).startswith("bleu: parameter tokenize='xxx")
    assert "x' (1,000,000 characters) is not a known value; expected one of none, zh, 13a" in str(caught.value)
    assert len(str(caught.value)) < 400
    with pytest.raises(ConfigError, match=r"weights=\[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, \.\.\.\] is out of range"):
        check_params(metric_class("meteor"), {"weights": [1.0] * 500_000 + [-1.0]})
