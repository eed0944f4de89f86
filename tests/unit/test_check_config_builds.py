"""check-config builds what the workflow builds: every metric in every target language it is scored
in, sweep targets it can compute, paper tables whose inputs the data has, ids that do not shadow a
registered metric; and the command line's numbers have the config's bounds (one range table)."""

import pytest

from mtmeta.cli import main
from mtmeta.config import DEFAULT_CONFIG, load_config
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
