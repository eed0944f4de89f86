"""The Python API: get() takes config ids, Scores carry sacrebleu's details, and segment and corpus
signatures share one format. Expected values are sacrebleu 2.6.0's own objects on the same input."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import yaml
from sacrebleu.metrics.helpers import extract_all_char_ngrams

from mtmeta.app.config_file import DEFAULT_CONFIG, read_metric_settings, settings_cache_path
from mtmeta.errors import ConfigError
from mtmeta.metrics import get, resolve
from mtmeta.metrics.base import short_signature

# sacrebleu's README example (reference facts 2.1)
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
        ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]
STUDY = read_metric_settings(DEFAULT_CONFIG)  # the study's ids (ter-wmt ...), as the application hands them down


@pytest.mark.parametrize("params", [{}, {"smooth_method": "floor"}, {"smooth_method": "add-k", "smooth_value": 0.5},
                                    {"smooth_method": "none"}, {"max_ngram_order": 6}, {"tokenize": "intl"},
                                    {"effective_order": True}, {"lowercase": True}])
def test_bleu_score_carries_sacrebleus_details(params):
    ours = get("bleu", **params).corpus_score(HYPS, REFS)
    theirs = sacrebleu.BLEU(**params).corpus_score(HYPS, REFS)
    assert ours.score == theirs.score
    assert ours.counts == theirs.counts and ours.totals == theirs.totals
    assert ours.precisions == theirs.precisions and ours.bp == theirs.bp and ours.ratio == theirs.ratio
    assert (ours.sys_len, ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.sys_len, theirs.ref_len)
    assert ours.verbose == theirs._verbose and ours.label == theirs.name == "BLEU"


def test_readme_example_details_are_the_published_ones():
    score = get("bleu").corpus_score(HYPS, REFS)
    assert f"{score.score:.2f}" == "48.53"
    assert score.verbose == "82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)"
    with pytest.raises(AttributeError, match="has no 'nist_info' \\(details: counts, totals"):
        score.nist_info  # noqa: B018


def test_bleu_segment_details_are_sentence_bleus():
    metric = get("bleu")
    stats = metric.stats(HYPS, REFS)
    for row, hyp, refs in zip(stats, HYPS, zip(*REFS, strict=True), strict=True):
        theirs = sacrebleu.sentence_bleu(hyp, list(refs))
        details = metric.segment_details(row)
        assert details["precisions"] == theirs.precisions and details["bp"] == theirs.bp
        assert details["verbose"] == theirs._verbose


@pytest.mark.parametrize("name", ["chrf", "chrf++"])
def test_chrf_details_are_its_precision_and_recall(name):
    metric = get(name)
    score = metric.corpus_score(HYPS, REFS)
    word_order = 2 if name == "chrf++" else 0
    theirs = sacrebleu.CHRF(word_order=word_order).corpus_score(HYPS, REFS)
    assert score.score == pytest.approx(theirs.score, abs=1e-12)
    assert score.label == theirs.name == ("chrF2++" if word_order else "chrF2")
    assert (score.beta, score.char_order, score.word_order) == (theirs.beta, theirs.char_order, theirs.word_order)
    assert len(score.char_precision) == 6 and len(score.word_precision) == word_order
    # The F-score of the averaged precision and recall is the score (sacrebleu's formula, beta 2).
    p, r = score.precision / 100, score.recall / 100
    assert 100 * 5 * p * r / (4 * p + r) == pytest.approx(score.score, rel=1e-12)
    assert score.effective_order == 6 + word_order


def test_chrf_per_order_values_count_character_ngrams_by_hand():
    """One segment, counted with sacrebleu's own n-gram extraction: precision and recall per order."""
    hyp, ref = "the cat sat", "the cat sits"
    details = get("chrf").corpus_score([hyp], [[ref]]).details
    for n in range(1, 7):
        hyp_grams = extract_all_char_ngrams(hyp, 6)[n - 1]
        ref_grams = extract_all_char_ngrams(ref, 6)[n - 1]
        match = sum((hyp_grams & ref_grams).values())
        assert details["char_precision"][n - 1] == pytest.approx(100 * match / sum(hyp_grams.values()))
        assert details["char_recall"][n - 1] == pytest.approx(100 * match / sum(ref_grams.values()))
    assert details["char_precision"][0] == pytest.approx(100 * 8 / 9)  # "thecatsat": 8 of 9 letters in "thecatsits"


def test_chrf_precision_is_none_for_an_order_without_ngrams():
    details = get("chrf").corpus_score(["ab"], [["ab"]]).details
    assert details["char_precision"][:2] == [100.0, 100.0] and details["char_precision"][2:] == [None] * 4
    assert details["effective_order"] == 2


def test_ter_details_are_edits_and_reference_length():
    for name, theirs in (("ter", sacrebleu.TER()), ("ter-wmt", sacrebleu.TER(normalized=True))):
        ours = get(name, config=STUDY).corpus_score(HYPS, REFS)
        expected = theirs.corpus_score(HYPS, REFS)
        assert ours.score == pytest.approx(expected.score, abs=1e-12)
        assert (ours.num_edits, ours.ref_length) == (expected.num_edits, expected.ref_length)
        assert isinstance(ours.num_edits, int) and ours.label == "TER"


def test_get_takes_config_ids_with_the_studys_parameters():
    settings = yaml.safe_load(DEFAULT_CONFIG.read_text())["metric_settings"]["ter-wmt"]
    assert resolve("ter-wmt", STUDY) == (settings["metric"], settings["params"])
    configured, spelt_out = get("ter-wmt", config=STUDY), get("ter", normalized=True, tokenizer="tercom")
    assert configured.stats(HYPS, REFS).tolist() == spelt_out.stats(HYPS, REFS).tolist()
    assert configured.signature() == spelt_out.signature() and "tok:tercom-0.7.25|norm:yes" in configured.signature()
    assert "norm:no" in get("ter-wmt", config=STUDY, normalized=False).corpus_score(HYPS, REFS).signature  # override


def test_the_registry_reads_no_config_of_its_own():
    """The application hands the settings down; without them only registered names resolve."""
    assert resolve("ter") == ("ter", {})
    with pytest.raises(ConfigError, match="unknown metric 'ter-wmt'.*registered metrics: .*; no config given, so no "
                                          "configured ids"):
        get("ter-wmt")


def test_get_reads_a_given_configs_definition_first():
    config = {"metric_settings": {"bleu": {"metric": "bleu", "params": {"tokenize": "intl"}},
                                  "loud": {"metric": "bleu", "params": {"lowercase": True}}}}
    assert get("bleu", config=config).corpus_score(HYPS, REFS).score == pytest.approx(
        sacrebleu.corpus_bleu(HYPS, REFS, tokenize="intl").score, abs=1e-12)
    assert get("bleu").corpus_score(HYPS, REFS).score == pytest.approx(48.530827009929865, abs=1e-12)
    assert "case:lc" in get("loud", config=config).corpus_score(HYPS, REFS).signature
    with pytest.raises(KeyError, match="unknown metric 'ter-wmt'.*ids configured in the config: bleu, loud"):
        get("ter-wmt", config=config)  # that config does not define it
    with pytest.raises(ConfigError, match="unknown metric 'blue'; did you mean 'bleu'"):
        get("odd", config={"metric_settings": {"odd": {"metric": "blue"}}})


def test_a_config_files_settings_are_named_by_the_file(tmp_path):
    """mtmeta score reads a config file's metric_settings (app.config_file) and names the file in
    the registry's messages."""
    config = tmp_path / "mine.yaml"
    config.write_text("metric_settings:\n  bleu: {metric: bleu, params: {tokenize: intl}}\n"
                      "  loud: {metric: bleu, params: {lowercase: true}}\n")
    assert resolve("loud", read_metric_settings(config), where=str(config)) == ("bleu", {"lowercase": True})
    with pytest.raises(KeyError, match="unknown metric 'ter-wmt'.*ids configured in .*mine.yaml: bleu, loud"):
        resolve("ter-wmt", read_metric_settings(config), where=str(config))
    with pytest.raises(ConfigError, match="config file .*missing.yaml not found"):
        read_metric_settings(tmp_path / "missing.yaml")
    config.write_text("metric_settings:\n  odd: bleu\n")
    with pytest.raises(ConfigError, match="mine.yaml: metric_settings.odd: expected \\{metric: NAME"):
        resolve("odd", read_metric_settings(config), where=str(config))
    config.write_text("metric_settings: [bleu]\n")
    with pytest.raises(ConfigError, match="mine.yaml: metric_settings: expected a mapping of metric ids"):
        resolve("bleu", read_metric_settings(config), where=str(config))


def _read_in_fresh_interpreter(config: Path, cache_home: Path) -> tuple[dict, bool]:
    """read_metric_settings in a new interpreter: its result, and whether it imported yaml."""
    probe = ("import json, sys\nfrom mtmeta.app.config_file import read_metric_settings\n"
             f"print(json.dumps([read_metric_settings({str(config)!r}), 'yaml' in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          env={**os.environ, "XDG_CACHE_HOME": str(cache_home)})
    settings, parsed = json.loads(done.stdout)
    return settings, parsed


def test_a_config_file_read_before_is_not_parsed_again(tmp_path, monkeypatch):
    """mtmeta score keeps the ids it read, named by the file's bytes: the next run reads them without
    importing yaml; an edited file is parsed again, and so is one whose kept copy is damaged."""
    config, cache_home = tmp_path / "mine.yaml", tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_home))  # for settings_cache_path here
    config.write_text("metric_settings:\n  loud: {metric: bleu, params: {lowercase: true, max_ngram_order: 3}}\n")
    first = {"metric_settings": {"loud": {"metric": "bleu", "params": {"lowercase": True, "max_ngram_order": 3}}}}
    assert _read_in_fresh_interpreter(config, cache_home) == (first, True)
    assert _read_in_fresh_interpreter(config, cache_home) == (first, False)
    [kept] = (cache_home / "mtmeta" / "metric_settings").iterdir()
    assert kept == settings_cache_path(config.read_bytes())
    config.write_text("metric_settings:\n  zeta: {metric: chrf}\n  loud: {metric: bleu, params: {lowercase: false}}\n")
    edited = {"metric_settings": {"zeta": {"metric": "chrf"},
                                  "loud": {"metric": "bleu", "params": {"lowercase": False}}}}
    assert _read_in_fresh_interpreter(config, cache_home) == (edited, True)
    settings_cache_path(config.read_bytes()).write_text('{"metric_settings": ')
    assert _read_in_fresh_interpreter(config, cache_home) == (edited, True)
    kept, parsed = _read_in_fresh_interpreter(config, cache_home)
    assert (kept, parsed) == (edited, False)
    assert list(kept["metric_settings"]) == ["zeta", "loud"]  # the file's order (messages name the first)


def test_settings_that_json_would_change_are_parsed_every_time(tmp_path, monkeypatch):
    """YAML's integer keys would come back from JSON as strings: such a file is not kept, and each
    read gives YAML's values; a cache directory that cannot be written changes nothing either."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    config = tmp_path / "odd.yaml"
    config.write_text("metric_settings:\n  odd: {metric: bleu, params: {1: 2}}\n")
    for _ in range(2):
        assert read_metric_settings(config) == {"metric_settings": {"odd": {"metric": "bleu", "params": {1: 2}}}}
    assert not (tmp_path / "cache").exists()
    (tmp_path / "file").write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    config.write_text("metric_settings:\n  loud: {metric: bleu, params: {lowercase: true}}\n")
    for _ in range(2):
        assert read_metric_settings(config) == {
            "metric_settings": {"loud": {"metric": "bleu", "params": {"lowercase": True}}}}


def test_the_kept_ids_are_never_written_through_a_link(tmp_path, monkeypatch):
    """A symbolic link at the cache file's place is refused: the file it points to keeps its bytes,
    and the settings are read as they are."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    config = tmp_path / "mine.yaml"
    config.write_text("metric_settings:\n  loud: {metric: bleu, params: {lowercase: true}}\n")
    cache = settings_cache_path(config.read_bytes())
    cache.parent.mkdir(parents=True)
    target = tmp_path / "elsewhere.txt"
    target.write_text("not mtmeta's")
    cache.symlink_to(target)
    expected = {"metric_settings": {"loud": {"metric": "bleu", "params": {"lowercase": True}}}}
    assert read_metric_settings(config) == expected
    assert target.read_text() == "not mtmeta's" and cache.is_symlink()


def test_a_misspelt_metric_gets_a_suggestion():
    with pytest.raises(ConfigError, match="unknown metric 'blue'; did you mean 'bleu'") as info:
        get("blue")
    assert isinstance(info.value, KeyError) and not str(info.value).startswith('"')  # a message, not a repr
    with pytest.raises(KeyError, match="unknown metric 'ter-wnt'; did you mean 'ter-wmt'"):
        get("ter-wnt", config=STUDY)


@pytest.mark.parametrize("name", ["bleu", "chrf", "chrf++", "ter", "ter-wmt", "wer", "nist"])
def test_segment_and_corpus_signatures_share_one_format(name):
    metric = get(name, config=STUDY)
    metric.stats(HYPS, REFS)
    corpus, segment = metric.signature(), metric.segment_signature()
    # the same fields in the same order; only BLEU's effective order differs (sentence BLEU's)
    assert [field.split(":")[0] for field in corpus.split("|")] == [field.split(":")[0] for field in segment.split("|")]
    assert corpus.replace("eff:no", "eff:yes") == segment if name == "bleu" else corpus == segment


@pytest.mark.parametrize(("name", "theirs"), [("bleu", sacrebleu.BLEU()), ("chrf", sacrebleu.CHRF()),
                                              ("ter", sacrebleu.TER())])
def test_short_signatures_use_sacrebleus_abbreviations(name, theirs):
    metric = get(name)
    metric.stats(HYPS, REFS)
    theirs.corpus_score(HYPS, REFS)
    short = short_signature(metric.signature(), metric.signature_abbreviations())
    expected = theirs.get_signature().format(short=True).rsplit("|v:", 1)[0]  # all but the version
    assert short.split("|", 1)[1].startswith(expected)
    assert short_signature("X|nrefs:1|bs:1000|seed:7|other:a:b", {"nrefs": "#", "seed": "rs"}) == \
        "X|#:1|bs:1000|rs:7|other:a:b"


def test_a_score_of_statistics_is_a_float_and_of_texts_a_score():
    metric = get("bleu")
    stats = metric.stats(HYPS, REFS)
    assert isinstance(metric.corpus_score(stats), float)
    result = metric.corpus_result(stats)
    assert result.score == metric.corpus_score(stats) and not math.isnan(result.bp)
    assert np.array_equal(result.statistics, stats)
