import copy

import pytest
import yaml

from mtmeta.app.config import DEFAULT_CONFIG, load_config, merge, metric_spec, metrics_of, validate_config
from mtmeta.errors import ConfigError


@pytest.fixture
def raw():
    """The repository's config over its data catalogue, as the Snakefile merges them."""
    catalogue = yaml.safe_load((DEFAULT_CONFIG.parent / "sources.yaml").read_text())
    return merge(catalogue, yaml.safe_load(DEFAULT_CONFIG.read_text()))


def test_repository_config_is_valid_and_defaults_are_filled(raw):
    config = validate_config(copy.deepcopy(raw))
    wmt12 = config["datasets"]["wmt12"]
    assert wmt12["unmatched_ids"] == "exclude" and wmt12["self_comparisons"] == "exclude"
    assert wmt12["exclude_files"] == [".*", "*~", "*.bak", "*.orig"]
    assert config["datasets"]["evaluator"]["max_items"] == 10000
    assert set(config["datasets"]) == {"wmt12", "wmt13", "wmt13dev", "wmt14", "evaluator",
                                      "wmt21news", "wmt21ted", "wmt23sxs"}
    assert len(wmt12["language_pairs"]) == 8
    assert metric_spec(config, "bleu") == ("bleu", {})


def test_every_mirror_checksum_matches_the_mirror_listing(raw, mirror):
    listed = {}
    for line in (mirror / "SHA256SUMS").read_text().splitlines():
        digest, path = line.split(maxsplit=1)
        listed[path.removeprefix("./")] = digest
    mirrored = {name: source["mirror"] for name, source in raw["sources"].items() if "mirror" in source}
    # Meteor's English paraphrase table and the Meteor jar come from PyPI only (pycocoevalcap's wheel).
    assert sorted(set(raw["sources"]) - set(mirrored)) == ["meteor_jar", "meteor_paraphrase_en"]
    for name, spec in mirrored.items():
        if "files" in raw["sources"][name]:  # a repository's files: one sha256 per file under its folder
            for path, digest in raw["sources"][name]["files"].items():
                assert listed[f"{spec['path']}/{path}"] == digest, (name, path)
        else:
            assert listed[spec["path"]] == spec["sha256"], name


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda c: c.update(unknown_key=1), "Additional properties"),
        (lambda c: c["datasets"]["wmt12"].update(corpus="nope"), "names source 'nope'"),
        (lambda c: c.update(metrics=["bleu", "no-such-metric"]), "neither a registered metric"),
        (lambda c: c["datasets"]["wmt12"].update(language_pairs=["english-czech"]), "does not match"),
        (lambda c: c["datasets"]["wmt13dev"].update(judgments={"en-cs": "wmt13_dev_en_cs"}), "no source for"),
        (lambda c: c["sources"]["wmt12_data"]["mirror"].update(sha256="abc"), "does not match"),
        (lambda c: c["datasets"]["wmt12"].update(unmatched_ids="ignore"), "is not one of"),
        # A pair without judgments is allowed only beside official scores, which must be system scores.
        (lambda c: c["datasets"]["wmt14"].pop("official_scores"),
         r"datasets.wmt14.judgments has no source for language pair en-cs \(a pair without judgments needs"),
        (lambda c: c["datasets"]["wmt14"]["official_scores"].update(source="wmt14_judgments"),
         "datasets.wmt14.official_scores.source 'wmt14_judgments' \\(upstream\\) needs format wmt_system_scores"),
        (lambda c: c["datasets"]["wmt14"]["judgments"].update({"en-cs": "wmt14_official_scores"}),
         r"source 'wmt14_official_scores' \(upstream\) needs a judgment format \(found 'wmt_system_scores'\)"),
        (lambda c: c["datasets"]["wmt14"]["official_scores"].update(name=None), "is not of type 'string'"),
        (lambda c: c["paper"]["wmt_baselines"]["human_scores"]["wmt14"].update(human_score="gt_others"),
         "paper.wmt_baselines.human_scores.wmt14: some pairs of wmt14 have no judgments"),
        (lambda c: c["paper"]["wmt_baselines"]["human_scores"]["wmt12"].update(human_score="official"),
         "paper.wmt_baselines.human_scores.wmt12.human_score is official, but datasets.wmt12 has no official_scores"),
        (lambda c: c["paper"]["wmt_baselines"]["human_scores"].update(evaluator={"human_score": "gt_others",
                                                                                 "official": "accuracy"}),
         "paper.wmt_baselines.human_scores names 'evaluator', which is not a configured WMT dataset"),
        (lambda c: c["paper"]["wmt_baselines"]["human_scores"]["wmt14"].update(human_score="trueskill"),
         "is not one of"),
        (lambda c: c["paper"]["sensitivity"].update(rescored=["ter"]),
         r"paper.sensitivity.rescored names \['ter'\], which are not among paper.sensitivity.metrics"),
        (lambda c: c["paper"]["sensitivity"].update(targets=["wmt12/de-en"]),
         "paper.sensitivity.metrics uses 'meteor-cs-no-paraphrases', which is not scored on wmt12/de-en"),
        (lambda c: c["paper"]["sensitivity"].update(targets=["wmt12"]), "does not match"),
        (lambda c: c["paper"]["wmt_baselines"]["metrics"].append("ter-tercom"), "paper.wmt_baselines.metrics"),
        (lambda c: c["sweeps"]["meteor-alpha-gamma"]["grid"].update(alpha={"start": 1, "stop": 0, "step": 0.1}),
         r"sweeps.meteor-alpha-gamma.grid: grid axis 'alpha' is empty: stop 0 < start 1"),
    ],
)
def test_invalid_configs_are_rejected_with_the_path(raw, edit, message):
    config = copy.deepcopy(raw)
    edit(config)
    with pytest.raises(ConfigError, match=message):
        validate_config(config)


def test_load_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("datasets: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(bad)


def test_metric_settings(raw):
    config = copy.deepcopy(raw)
    config["metric_settings"]["bleu-intl"] = {"metric": "bleu", "params": {"tokenize": "intl"}}
    config["metrics"] = [*config["metrics"], "bleu-intl"]
    validate_config(config)
    assert metric_spec(config, "bleu-intl") == ("bleu", {"tokenize": "intl"})
    assert metric_spec(config, "meteor-basic") == ("meteor", {"preset": "basic", "lowercase": False})
    assert metrics_of(config, "evaluator")[-3:] == ["meteor-stem", "meteor-syn", "meteor-stem-syn"]
    assert "meteor-syn" not in metrics_of(config, "wmt12")
    bad = copy.deepcopy(config)
    bad["sweeps"]["meteor-syn-alpha-gamma"]["targets"][0]["datasets"] = ["wmt12"]
    with pytest.raises(ConfigError, match="not scored on wmt12"):
        validate_config(bad)


def test_config_is_merged_over_the_catalogue_beside_it(tmp_path):
    (tmp_path / "sources.yaml").write_text(yaml.safe_dump({"sources": {
        "a": {"upstream": {"url": "http://example.invalid/a"}},
        "b": {"upstream": {"url": "http://example.invalid/b"}}}}))
    raw = yaml.safe_load(DEFAULT_CONFIG.read_text())
    dataset = {"description": "tiny", "kind": "evaluator", "data": "b", "labels": "b", "language_pairs": ["xx-en"]}
    study = {"sources": {"b": {"upstream": {"url": "http://example.invalid/b2"}}}, "metrics": ["bleu"],
             "datasets": {"tiny": dataset}}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(study))
    config = load_config(tmp_path / "config.yaml", checksums=False)  # b has no sha256: not this test's subject
    assert config["sources"]["a"]["upstream"]["url"] == "http://example.invalid/a"
    assert config["sources"]["b"]["upstream"]["url"] == "http://example.invalid/b2"  # the config wins
    assert "sources" not in raw and len(load_config()["sources"]) > 20  # the repository's catalogue
    (tmp_path / "sources.yaml").unlink()
    # Without a catalogue beside it, the repository's is found on its own, under the config's own sources.
    sources = load_config(tmp_path / "config.yaml", checksums=False)["sources"]
    assert sources["b"]["upstream"]["url"] == "http://example.invalid/b2" and "wmt12_data" in sources
    assert "a" not in sources


def test_external_scores_register_a_users_metric_on_the_pairs_its_file_has(raw, tmp_path):
    scores = tmp_path / "mine.seg.tsv"
    scores.write_text("dataset\tlp\tsystem\tseg_id\tscore\nwmt12\ten-cs\tx\t1\t0.5\nwmt13\tde-en\tx\t1\t0.5\n")
    raw["external_scores"] = {"mine": {"segment": str(scores), "higher_is_better": False}}
    config = validate_config(copy.deepcopy(raw))
    assert "mine" in metrics_of(config, "wmt12", "en-cs") and "mine" in metrics_of(config, "wmt13", "de-en")
    assert "mine" not in metrics_of(config, "wmt12", "de-en") and "mine" not in metrics_of(config, "wmt14")
    assert metric_spec(config, "mine") == ("external", {"higher_is_better": False})


@pytest.mark.parametrize(("entry", "content", "message"), [
    ({"segment": "{dir}/absent.tsv"}, None, r"external_scores.mine.segment: file .*absent.tsv not found"),
    ({"segment": "{file}", "system": "{dir}/none.tsv"}, "wmt12\ten-cs", r"external_scores.mine.system: file"),
    ({"segment": "{file}"}, "wmt12\txx-yy", r"has scores for wmt12 xx-yy, which is not a configured dataset"),
    ({"segment": "{file}"}, "wmt99\ten-cs", r"has scores for wmt99 en-cs"),
    ({"segment": "{file}", "higher_is_better": "yes"}, "wmt12\ten-cs", r"external_scores/mine/higher_is_better"),
    ({"system": "{file}"}, "wmt12\ten-cs", r"external_scores/mine: 'segment' is a required property"),
])
def test_external_scores_errors_name_the_key(raw, tmp_path, entry, content, message):
    path = tmp_path / "mine.seg.tsv"
    if content is not None:
        path.write_text(f"dataset\tlp\tsystem\tseg_id\tscore\n{content}\tx\t1\t0.5\n")
    raw["external_scores"] = {"mine": {k: v.format(dir=tmp_path, file=path) if isinstance(v, str) else v
                                       for k, v in entry.items()}}
    with pytest.raises(ConfigError, match=message):
        validate_config(raw)


def test_an_external_id_must_be_new(raw, tmp_path):
    path = tmp_path / "bleu.seg.tsv"
    path.write_text("dataset\tlp\tsystem\tseg_id\tscore\nwmt12\ten-cs\tx\t1\t0.5\n")
    raw["external_scores"] = {"bleu": {"segment": str(path)}}
    with pytest.raises(ConfigError, match=r"external_scores.bleu: 'bleu' is already a metric id of the study"):
        validate_config(raw)


def _write(path, text):
    path.write_text(text)
    return path


def test_a_short_config_stands_alone_and_extends_composes(tmp_path):
    examples = DEFAULT_CONFIG.parent / "examples"
    small = load_config(examples / "one-pair.yaml")
    assert small["metrics"] == ["bleu", "chrf"] and list(small["datasets"]) == ["wmt12"]
    assert small["sweeps"] == {} and small["paper"] == {} and small["bootstrap"] == {"draws": 1000, "seed": 12345}
    assert small["sources"]["wmt12_data"]["mirror"]["path"] == "wmt12/wmt12-data.tar.gz"  # the catalogue
    strict = load_config(examples / "strict-significance.yaml")
    full = load_config()
    assert strict["significance_level"] == 0.01 and strict["bootstrap"] == {"draws": 2000, "seed": 12345}
    assert {k: v for k, v in strict.items() if k not in ("significance_level", "bootstrap")} == {
        k: v for k, v in full.items() if k not in ("significance_level", "bootstrap")}
    # Several files merge in order (as snakemake --configfile A B), then overrides (--config k=v).
    over = _write(tmp_path / "over.yaml", "metrics: [chrf]\n")
    both = load_config([examples / "one-pair.yaml", over], {"significance_level": 0.2})
    assert both["metrics"] == ["chrf"] and both["significance_level"] == 0.2
    # extends is read relative to the file, follows chains and refuses cycles.
    _write(tmp_path / "a.yaml", "extends: b.yaml\n")
    _write(tmp_path / "b.yaml", "extends: a.yaml\n")
    with pytest.raises(ConfigError, match=r"b.yaml: extends forms a cycle \(.*a.yaml -> .*b.yaml -> .*a.yaml\)"):
        load_config(tmp_path / "a.yaml")
    with pytest.raises(ConfigError, match=r"c.yaml: extends: nowhere.yaml not found \(read relative to"):
        load_config(_write(tmp_path / "c.yaml", "extends: nowhere.yaml\n"))


def test_a_key_given_twice_is_an_error_naming_file_and_line(tmp_path):
    path = _write(tmp_path / "twice.yaml", "metrics: [bleu]\nsignificance_level: 0.1\nmetrics: [chrf]\n")
    with pytest.raises(ConfigError, match=r"twice.yaml:3: key 'metrics' is given twice \(first on line 1\)"):
        load_config(path)
    nested = _write(tmp_path / "nested.yaml", "bootstrap:\n  draws: 10\n  draws: 20\n")
    with pytest.raises(ConfigError, match=r"nested.yaml:3: key 'draws' is given twice"):
        load_config(nested)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        # Ids that give one rule name, and an id that gives a built-in rule's name.
        (lambda c: c["metric_settings"].update({"bleu-x": {"metric": "bleu"}, "bleu.x": {"metric": "bleu"}})
         or c["metrics"].extend(["bleu-x", "bleu.x"]),
         r"two ids give the workflow rule name score_bleu_x \(one scores metric 'bleu-x' and one scores metric "
         r"'bleu.x'\)"),
        (lambda c: c["metric_settings"].update({"paraphrased-bleu": {"metric": "bleu"}})
         or c["metrics"].append("paraphrased-bleu"),
         r"rule name score_paraphrased_bleu \(one scores metric 'paraphrased-bleu' and one scores metric 'bleu' "
         r"against paraphrased references\)"),
        # Ids are lower case (config/README.md).
        (lambda c: c["metrics"].append("BLEU"), r"metrics/13: 'BLEU' does not match"),
        (lambda c: c["metric_settings"].update({"Bleu-x": {"metric": "bleu"}}), r"metric_settings: 'Bleu-x' does not"),
        # Seeds are numpy seeds.
        (lambda c: c["bootstrap"].update(seed=-1), r"bootstrap/seed: -1 is less than the minimum of 0"),
        (lambda c: c["parmesan"]["alignment"].update(seed=-2), r"parmesan/alignment/seed: -2 is less than"),
        # Sweep grids: bounded, in the metric's ranges, of parameters it can re-score.
        (lambda c: c["sweeps"]["meteor-alpha-gamma"]["grid"].update(alpha={"start": 0, "stop": 1, "step": 1e-9}),
         r"sweeps.meteor-alpha-gamma.grid: grid axis 'alpha' has 1,000,000,000 values .*expected at most 100,000"),
        (lambda c: c["sweeps"]["meteor-alpha-gamma"]["grid"].update(beta={"start": 0, "stop": 10, "step": 0.02}),
         r"the grid has 220,941 settings \(21 alpha x 21 gamma x 501 beta\); expected at most 100,000"),
        (lambda c: c["sweeps"]["meteor-alpha-gamma"].update(grid={"alpha": [0.0, 2.0]}),
         r"sweeps.meteor-alpha-gamma.grid: parameter alpha=2.0 is out of range; expected >= 0 and <= 1"),
        (lambda c: c["sweeps"]["meteor-alpha-gamma"].update(grid={"alhpa": [0.5]}),
         r"sweeps.meteor-alpha-gamma.grid.alhpa: meteor cannot re-score 'alhpa'; did you mean 'alpha'\?"),
        (lambda c: c["sweeps"]["meteor-alpha-gamma"].update(fixed={"beta": -3}),
         r"sweeps.meteor-alpha-gamma.fixed: parameter beta=-3 is out of range"),
        (lambda c: c["sweeps"]["meteor-alpha-gamma"].update(fixed={"tokenize": "intl"}),
         r"sweeps.meteor-alpha-gamma.fixed.tokenize: meteor cannot re-score 'tokenize'"),
        # mt-metrics-eval datasets and what they feed.
        (lambda c: c["datasets"]["wmt21ted"].update(evalset={"path": "x", "assemble": "wmt21"}),
         r"datasets/wmt21ted/evalset: .* is valid under each of|is not valid under any"),
        (lambda c: c["datasets"]["wmt21news"]["references"].update({"de-en": "refA"}),
         r"datasets.wmt21news.references names de-en, not one of its language_pairs"),
        (lambda c: c["paper"]["mqm"].update(categories=["wmt12/en-cs"]),
         r"paper.mqm.categories names wmt12/en-cs, which is not an mt-metrics-eval \(mtme\) dataset"),
        (lambda c: c["external_scores"]["bleurt-20"].update(pairs=["wmt21news/de-en"]),
         r"external_scores.bleurt-20.pairs names wmt21news de-en, which is not a configured dataset x language pair"),
        (lambda c: c["sweeps"]["meteor-alpha-gamma"].update(metric="bleu"),
         r"sweeps.meteor-alpha-gamma.metric: 'bleu' \(bleu\) cannot be re-scored from its statistics; expected "
         r"a metric of: meteor"),
        # An id that is a registered metric's name is that metric (its parameters may change), never another.
        (lambda c: c["metric_settings"].update(ter={"metric": "bleu"}),
         r"^metric_settings.ter: the id 'ter' is the registered metric ter, but it is set to metric 'bleu'; expected "
         r"metric: ter \(its parameters changed\), or another id for a variant of bleu \(e.g. bleu-ter\)$"),
    ],
)
def test_what_the_workflow_would_reject_check_config_rejects_first(raw, edit, message):
    config = copy.deepcopy(raw)
    edit(config)
    with pytest.raises(ConfigError, match=message):
        validate_config(config)


def test_every_source_the_study_fetches_needs_a_sha256_of_its_origin(tmp_path):
    from mtmeta.app.config import used_sources

    config = load_config()
    used = used_sources(config)
    assert {"wmt12_data", "wmt21_en_ru_mqm", "thesaurus_ru", "meteor_jar", "evaluator_labels"} <= set(used)
    assert set(used) <= set(config["sources"])
    # Without a mirror, the catalogue's upstream origins mostly lack sha256s (unknown here): the config
    # loads, and fetch refuses such a download later, naming the sha256 it got (docs/data.md).
    no_mirror = _write(tmp_path / "none.yaml", f"extends: {DEFAULT_CONFIG}\ndata_mirror: none\n")
    assert load_config(no_mirror)["data_mirror"] == "none"
    # From the mirror, a source the study uses without a sha256 for its origin is named at load time.
    catalogue = yaml.safe_load((DEFAULT_CONFIG.parent / "sources.yaml").read_text())
    del catalogue["sources"]["wordnet"]["mirror"]
    (tmp_path / "sources.yaml").write_text(yaml.safe_dump(catalogue))
    (tmp_path / "config.yaml").write_text(DEFAULT_CONFIG.read_text())
    with pytest.raises(ConfigError, match=r"1 source\(s\) have no sha256 .*the mirror .*: "
                                          r"sources.wordnet.upstream.sha256;"):
        load_config(tmp_path / "config.yaml")
    # The mirror's copy must have its sha256 (a repository-files source has one per file instead).
    raw = yaml.safe_load((DEFAULT_CONFIG.parent / "sources.yaml").read_text())
    del raw["sources"]["wmt12_data"]["mirror"]["sha256"]
    with pytest.raises(ConfigError, match=r"sources/wmt12_data/mirror: 'sha256' is a required property"):
        validate_config(merge(raw, yaml.safe_load(DEFAULT_CONFIG.read_text())))


def test_nested_command_line_values_are_typed_as_in_a_config_file():
    """snakemake --config bootstrap={draws: 100} gives {'draws': '100'} (YAML's base loader): the
    schema must see the integer, and a value of the wrong type is still refused."""
    from snakemake.cli import parse_config

    config = load_config(overrides=parse_config(["bootstrap={draws: 100, seed: 7}"]), checksums=False)
    assert config["bootstrap"]["draws"] == 100 and config["bootstrap"]["seed"] == 7
    with pytest.raises(ConfigError, match=r"bootstrap/draws: 'many' is not of type 'integer'"):
        load_config(overrides=parse_config(["bootstrap={draws: many}"]), checksums=False)


def test_the_wmt23_assembler_reads_its_two_catalogue_sources():
    from mtmeta.app.config import evalset_sources

    assert evalset_sources({"evalset": {"assemble": "wmt23"}}) == ["wmt23_mqm_human_evaluation", "wmt23_news_systems"]
