"""check-config builds what the workflow builds: every metric in every target language it is scored
in, sweep targets it can compute, paper tables whose inputs the data has, ids that do not shadow a
registered metric; and the command line's numbers have the config's bounds (one range table)."""

import pytest

from mtmeta.app.cli import main
from mtmeta.app.config import DEFAULT_CONFIG, load_config
from mtmeta.errors import ConfigError

EXAMPLES = DEFAULT_CONFIG.parent / "examples"


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def _run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own errors
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_a_setting_id_never_shadows_another_registered_metric(tmp_path, capsys, monkeypatch):
    study = _write(tmp_path / "study.yaml", f"extends: {EXAMPLES / 'one-pair.yaml'}\n"
                                            "metric_settings: {ter: {metric: bleu}}\n")
    message = ("metric_settings.ter: the id 'ter' is the registered metric ter, but it is set to metric 'bleu'; "
               "expected metric: ter (its parameters changed), or another id for a variant of bleu (e.g. bleu-ter)")
    with pytest.raises(ConfigError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        load_config(study, checksums=False)
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "hyp.txt", "a b c\n")
    _write(tmp_path / "ref.txt", "a b d\n")
    code, out, err = _run(capsys, "score", "ter", "--ref", "ref.txt", "--hyp", "hyp.txt", "--config", str(study))
    assert (code, out) == (2, "") and message in err
    # The same id reading its own metric with other parameters is a variant of that metric.
    own = _write(tmp_path / "own.yaml", f"extends: {EXAMPLES / 'one-pair.yaml'}\n"
                                        "metric_settings: {bleu: {metric: bleu, params: {tokenize: intl}}}\n")
    assert load_config(own, checksums=False)["metric_settings"]["bleu"]["params"] == {"tokenize": "intl"}


def _mtme_study(tmp_path, text):
    return _write(tmp_path / "study.yaml", f"extends: {EXAMPLES / 'mtme-directory.yaml'}\n{text}")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("datasets: {wmt21ted: {language_pairs: [en-de, en-ja]}}\n",
         r"^metric 'bleu' on wmt21ted en-ja \(target language ja\) cannot be built: bleu: tokenize='ja-mecab' "
         r"\(sacrebleu's default for target language ja\): sacrebleu's ja-mecab tokeniser needs the Python packages "
         r"MeCab and ipadic, which are not installed \(pip install sacrebleu\[ja\]\); expected a tokeniser that runs "
         r"here: install it, or set tokenize \(e.g. char, or none for text tokenised already\)$"),
        ("datasets: {wmt21ted: {language_pairs: [en-ko]}}\n",
         r"^metric 'bleu' on wmt21ted en-ko \(target language ko\) cannot be built: bleu: tokenize='ko-mecab' "),
        ("metrics: [chrf, bleu-spm]\nmetric_settings: {bleu-spm: {metric: bleu, params: {tokenize: spm}}}\n",
         r"^metric 'bleu-spm' on wmt21ted en-de \(target language de\) cannot be built: bleu: tokenize='spm': "
         r"sacrebleu's spm tokeniser needs the Python package sentencepiece, which is not installed \(pip install "
         r"sentencepiece; sacrebleu then downloads its model on first use\)"),
        ("metrics: [nist-ja]\nmetric_settings: {nist-ja: {metric: nist, params: {tokenize: ja-mecab}}}\n",
         r"^metric 'nist-ja' on wmt21ted en-de \(target language de\) cannot be built: tokenize='ja-mecab': "
         r"sacrebleu's ja-mecab tokeniser needs"),
    ],
)
def test_check_config_builds_every_metric_in_every_target_language(tmp_path, capsys, text, message):
    import importlib.util

    if importlib.util.find_spec("MeCab") or importlib.util.find_spec("sentencepiece"):
        pytest.skip("MeCab or sentencepiece is installed here: these tokenisers run")
    study = _mtme_study(tmp_path, text)
    with pytest.raises(ConfigError, match=message):
        load_config(study, checksums=False)
    code, out, err = _run(capsys, "check-config", str(study))
    assert (code, out) == (2, "") and "cannot be built" in err
    # chrF and TER need no tokeniser package: the same pairs pass with them alone.
    fine = _mtme_study(tmp_path, "metrics: [chrf, ter]\ndatasets: {wmt21ted: {language_pairs: [en-ja, en-ko]}}\n")
    assert load_config(fine, checksums=False)["datasets"]["wmt21ted"]["language_pairs"] == ["en-ja", "en-ko"]


@pytest.mark.parametrize(
    "argv",
    [["bleu", "--ref", "ref.txt", "--hyp", "hyp.txt", "--set", "tokenize=spm"],
     ["ref.txt", "-i", "hyp.txt", "-tok", "spm"],
     ["ref.txt", "-i", "hyp.txt", "-tok", "flores200"],
     ["ref.txt", "-i", "hyp.txt", "-l", "en-ja"],
     ["bleu", "--ref", "ref.txt", "--hyp", "hyp.txt", "-l", "en-ko"]],
)
def test_score_names_a_tokeniser_that_cannot_run(tmp_path, capsys, monkeypatch, argv):
    import importlib.util

    if importlib.util.find_spec("MeCab") or importlib.util.find_spec("sentencepiece"):
        pytest.skip("MeCab or sentencepiece is installed here: these tokenisers run")
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "hyp.txt", "a b c\n")
    _write(tmp_path / "ref.txt", "a b d\n")
    code, out, err = _run(capsys, "score", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("mtmeta score: error: bleu: tokenize='") and "tokeniser needs the Python package" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("draws", "message"),
    [("1000000000", "argument --draws: '1000000000' is out of range; expected an integer from 10 to 1,000,000 (as "
                    "config's bootstrap.draws)"),
     ("5", "argument --draws: '5' is out of range; expected an integer from 10 to 1,000,000"),
     ("many", "argument --draws: 'many' is not an integer; expected an integer from 10 to 1,000,000")],
)
def test_evaluate_draws_have_the_configs_bound(tmp_path, capsys, draws, message):
    """One range table: the schema's bootstrap.draws bounds --draws (a billion draws was a 37 GiB
    allocation), and the config refuses the same value."""
    from mtmeta.app.config import schema_range

    assert schema_range("bootstrap", "draws") == (10, 1_000_000)
    code, out, err = _run(capsys, "evaluate", "--segment", str(tmp_path / "x.tsv"), "--draws", draws)
    assert (code, out) == (2, "") and message in err
    if draws == "1000000000":
        with pytest.raises(ConfigError, match=r"bootstrap/draws: 1000000000 is greater than the maximum of 1000000"):
            load_config(EXAMPLES / "one-pair.yaml", {"bootstrap": {"draws": 1_000_000_000}}, checksums=False)


def test_a_sweep_targets_only_datasets_with_comparisons(tmp_path):
    """A sweep on an mt-metrics-eval set passed check-config, then the workflow's sweep job found no
    comparisons to read (zip() argument 2 is longer)."""
    study = _mtme_study(tmp_path, "metrics: [meteor]\nsweeps:\n  alpha:\n    metric: meteor\n"
                                  "    grid: {alpha: [0.5, 0.9]}\n"
                                  "    targets: [{statistic: pearson, human_score: gt_others, datasets: [wmt21ted]}]\n")
    with pytest.raises(ConfigError, match=r"^sweeps.alpha targets dataset 'wmt21ted' \(kind mtme\), which has no "
                                          r"pairwise human comparisons; expected a dataset with them \(kind evaluator, "
                                          r"or wmt with judgments\): every sweep statistic is computed from them$"):
        load_config(study, checksums=False)


def test_a_librarys_own_refusal_to_build_is_named_too(tmp_path, monkeypatch):
    from mtmeta.metrics.spec import MetricSpec

    build = MetricSpec.build

    def refuse_russian(self, lang, *args, **kwargs):
        if self.name == "ter" and lang == "ru":
            raise RuntimeError("\nRussian needs extra dependencies.\n    pip install something\n")
        return build(self, lang, *args, **kwargs)

    monkeypatch.setattr(MetricSpec, "build", refuse_russian)
    with pytest.raises(ConfigError, match=r"^metric 'ter' on wmt21ted en-ru \(target language ru\) cannot be built: "
                                          r"RuntimeError: Russian needs extra dependencies. pip install something$"):
        load_config(EXAMPLES / "mtme-directory.yaml", checksums=False)


def test_evaluate_checks_draws_and_seed_against_the_same_table(tmp_path, capsys):
    from mtmeta.app.evaluate import evaluate
    from mtmeta.errors import MtmetaError

    config = load_config(EXAMPLES / "one-pair.yaml", checksums=False)
    with pytest.raises(MtmetaError, match=r"^bootstrap draws 1000000000: expected an integer from 10 to 1,000,000 "
                                          r"\(as config's bootstrap.draws\)$"):
        evaluate(config, tmp_path, "mine", True, segment_file=tmp_path / "x.tsv", draws=10**9)
    code, out, err = _run(capsys, "evaluate", "--segment", str(tmp_path / "x.tsv"), "--seed", str(2**40),
                          "--results", str(tmp_path), "--config", str(EXAMPLES / "one-pair.yaml"))
    assert (code, out) == (2, "")
    # the command line's one seed type refuses it first, with the config's bound (2^32 - 1)
    assert "argument --seed: '1099511627776' is not a seed; expected an integer from 0 to 4294967295" in err
