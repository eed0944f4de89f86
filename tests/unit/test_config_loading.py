"""How a config file is read before the schema sees it (mtmeta.app.config.read_yaml, load_config): string
keys only, finite numbers, merge keys flattened, libyaml's parser, and caps on size, nesting, aliases
and extends chains, each refused with the file, line and key in seconds."""

import time

import pytest
import yaml

from mtmeta.app import config as config_module
from mtmeta.app.config import DEFAULT_CONFIG, load_config, read_yaml, validate_config
from mtmeta.errors import ConfigError


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def _study(tmp_path, text):
    """A short study over the repository's one-pair example, with ``text`` appended."""
    return _write(tmp_path / "study.yaml", f"extends: {DEFAULT_CONFIG.parent / 'examples' / 'one-pair.yaml'}\n{text}")


def test_the_loader_is_libyamls():
    assert yaml.CSafeLoader in config_module._StrictLoader.__mro__


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("datasets:\n  2024: {kind: mtme}\n",
         r"study.yaml:3: datasets: the key 2024 is read as an integer, not a string; expected string keys only "
         r"\(quote it: '2024'\)"),
        ("datasets:\n  no: {kind: mtme}\n",
         r"study.yaml:3: datasets: the key no is read as a boolean, not a string; expected string keys only "
         r"\(quote it: 'no'\)"),
        ("metric_settings:\n  bleu-x:\n    params: {1.5: x}\n",
         r"study.yaml:4: metric_settings.bleu-x.params: the key 1.5 is read as a number, not a string"),
        ("? [a, b]\n: 1\n", r"study.yaml:2: the top level: a key is read as a list, not a string"),
        ("~: 1\n", r"study.yaml:2: the top level: the key ~ is read as null, not a string"),
    ],
)
def test_keys_are_strings(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        load_config(_study(tmp_path, text), checksums=False)


def test_quoted_keys_are_strings_and_load(tmp_path):
    loaded = read_yaml(_write(tmp_path / "q.yaml", "'2024': 1\n'no': 2\n"))
    assert loaded == {"2024": 1, "no": 2}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("significance_level: .nan\n", r"study.yaml:2: significance_level: .nan is not a finite number; expected a "
                                       r"finite number"),
        ("significance_level: -.inf\n", r"study.yaml:2: significance_level: -.inf is not a finite number"),
        ("bootstrap: {draws: 1.0e+999}\n", r"study.yaml:2: bootstrap.draws: 1.0e\+999 is not a finite number"),
        ("sweeps:\n  s:\n    grid: {alpha: {start: 0, stop: .nan, step: 0.1}}\n",
         r"study.yaml:4: sweeps.s.grid.alpha.stop: .nan is not a finite number"),
        ("paper: {parmesan: {fractions: [0.5, .NaN]}}\n",
         r"study.yaml:2: paper.parmesan.fractions\[1\]: .NaN is not a finite number"),
        (f"bootstrap: {{draws: {'9' * 5000}}}\n",
         r"study.yaml:2: bootstrap.draws: an integer of 5,000 characters; expected a number of at most 4,300 digits"),
    ],
)
def test_numbers_are_finite(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        load_config(_study(tmp_path, text), checksums=False)


def test_values_from_the_command_line_are_checked_too(tmp_path):
    """snakemake --config gives values no file holds: the same rules, naming the key."""
    with pytest.raises(ConfigError, match=r"^significance_level: nan is not a finite number"):
        load_config(DEFAULT_CONFIG.parent / "examples" / "one-pair.yaml", {"significance_level": float("nan")},
                    checksums=False)
    with pytest.raises(ConfigError, match=r"^bootstrap.draws: inf is not a finite number"):
        load_config(DEFAULT_CONFIG.parent / "examples" / "one-pair.yaml", {"bootstrap": {"draws": ".inf"}},
                    checksums=False)
    config = load_config(checksums=False)
    config["datasets"][2024] = config["datasets"].pop("wmt12")
    with pytest.raises(ConfigError, match=r"^datasets: the key 2024 is int, not a string; expected string keys only"):
        validate_config(config)


def test_merge_keys_are_flattened_and_own_keys_win(tmp_path):
    study = _study(tmp_path, "_defaults: &draws {draws: 20, seed: 3}\nbootstrap:\n  <<: *draws\n  seed: 4\n")
    text = study.read_text()
    assert read_yaml(_write(tmp_path / "plain.yaml", text.split("\n", 1)[1]))["bootstrap"] == {"draws": 20, "seed": 4}
    # A list of mappings merges too; a key given twice beside a merge key is still an error.
    merged = read_yaml(_write(tmp_path / "list.yaml", "a: &a {x: 1}\nb: &b {y: 2}\nc: {<<: [*a, *b], z: 3}\n"))
    assert merged["c"] == {"x": 1, "y": 2, "z": 3}
    with pytest.raises(ConfigError, match=r"twice.yaml:5: key 'seed' is given twice \(first on line 4\)"):
        read_yaml(_write(tmp_path / "twice.yaml", "a: &a {draws: 10}\nbootstrap:\n  <<: *a\n  seed: 4\n  seed: 5\n"))
    with pytest.raises(ConfigError, match=r"bad.yaml:2: bootstrap: the merge key << is given an integer; expected a "
                                          r"mapping to merge \(<<: \*name\) or a list of them"):
        read_yaml(_write(tmp_path / "bad.yaml", "a: 1\nbootstrap: {<<: 3}\n"))
    with pytest.raises(ConfigError, match=r"list.yaml:2: b: the merge key << is given a list; expected a mapping"):
        read_yaml(_write(tmp_path / "list.yaml", "a: &a [1]\nb: {<<: [*a]}\n"))


def test_a_large_config_file_is_refused_unread(tmp_path):
    big = tmp_path / "big.yaml"
    with big.open("w") as stream:
        stream.write("metrics:\n")
        for _ in range(6_500_000):  # 52 MB
            stream.write("  - bleu\n")
    start = time.perf_counter()
    with pytest.raises(ConfigError, match=r"big.yaml: 58,500,009 bytes; expected a config file of at most 500,000 "
                                          r"bytes"):
        load_config(big)
    assert time.perf_counter() - start < 1


def test_a_config_file_under_the_cap_is_read_in_seconds(tmp_path):
    """480 KB and 38,500 values with one unknown key: libyaml parses it, the schema refuses the key (pure Python
    YAML took a minute per 10 MB)."""
    lines = ["metrics: [bleu]", "metric_settings:"]
    lines += [f"  bleu-{i}-{'x' * 32}: {{metric: bleu, params: {{tokenize: intl}}}}" for i in range(5_500)]
    lines += ["datasets: {}", "sources: {}", "unknown_key: 1"]
    path = _write(tmp_path / "wide.yaml", "\n".join(lines) + "\n")
    assert 400_000 < path.stat().st_size < 500_000
    start = time.perf_counter()
    with pytest.raises(ConfigError, match="Additional properties are not allowed \\('unknown_key' was unexpected\\)"):
        load_config(path, checksums=False)
    assert time.perf_counter() - start < 20


def test_nested_aliases_are_refused_before_they_expand(tmp_path):
    """Nine levels of nine aliases: 593 bytes that stand for 387 million values."""
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 10):
        previous, current = chr(ord("a") + level - 1), chr(ord("a") + level)
        lines.append(f"{current}: &{current} [" + ", ".join([f"*{previous}"] * 9) + "]")
    path = _write(tmp_path / "lol.yaml", "\n".join(lines) + "\n")
    assert len(path.read_bytes()) < 600
    start = time.perf_counter()
    with pytest.raises(ConfigError, match=r"lol.yaml:5: e: holds more than 50,000 values \(keys included, an alias "
                                          r"\*name counted as all its anchor holds: nested aliases multiply\); "
                                          r"expected a config file of at most that many"):
        load_config(path)
    assert time.perf_counter() - start < 2
    # An alias inside what it names never ends.
    with pytest.raises(ConfigError, match=r"rec.yaml:1: a\[1\]: an alias refers to a mapping or list that holds it"):
        read_yaml(_write(tmp_path / "rec.yaml", "a: &a [1, *a]\n"))
    # The repository's own anchors load as before.
    assert load_config(checksums=False)["sweeps"]["meteor-stem-alpha-gamma"]["fixed"] == {"beta": 3.0}


def test_deep_nesting_is_refused(tmp_path):
    path = _write(tmp_path / "deep.yaml", "a: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError, match=r"deep.yaml:1: a(\[0\]){39}...: nested more than 40 levels deep; expected "
                                          r"at most 40"):
        load_config(path)


def test_an_extends_chain_is_capped(tmp_path):
    for i in range(1500):
        _write(tmp_path / f"c{i}.yaml", f"extends: c{i + 1}.yaml\n" if i < 1499 else "metrics: [bleu]\n")
    with pytest.raises(ConfigError, match=r"c19.yaml: extends: c20.yaml makes the chain of files that starts at "
                                          r".*c0.yaml longer than 20; expected a chain of at most 20 files"):
        load_config(tmp_path / "c0.yaml")
    # A chain of 20 files is read (then refused by the schema: it declares no datasets).
    with pytest.raises(ConfigError, match="'datasets' is a required property"):
        load_config(tmp_path / "c1480.yaml", checksums=False)


def test_messages_do_not_echo_huge_values(tmp_path):
    path = _study(tmp_path, f"significance_level: '{'x' * 400_000}'\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path, checksums=False)
    message = str(caught.value)
    assert "significance_level: 'xxxxx" in message and "x' (400,000 characters) is not of type 'number'" in message
    assert len(message) < 500
    with pytest.raises(ConfigError) as caught:
        load_config(_study(tmp_path, f"? {'y' * 400_000}\n: 1\n"), checksums=False)
    assert "Additional properties are not allowed ('yyy" in str(caught.value)
    assert "... (399,7" in str(caught.value) and len(str(caught.value)) < 500
    with pytest.raises(ConfigError, match=r"^.*twice.yaml:3: key 'zzzz.*zzz' \(200,000 characters\) is given twice"):
        read_yaml(_write(tmp_path / "twice.yaml", f"? {'z' * 200_000}\n: 1\n? {'z' * 200_000}\n: 2\n"))
