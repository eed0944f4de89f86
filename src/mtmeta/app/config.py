"""Load and validate the study configuration (one schema for the workflow and the CLI)."""

from __future__ import annotations

import copy
from importlib import resources
from pathlib import Path

import jsonschema
import yaml

from mtmeta import metrics
from mtmeta.app.config_file import DEFAULT_CONFIG, REPO_ROOT
from mtmeta.data.corpus import target_language
from mtmeta.errors import ConfigError, clip, shown
from mtmeta.metrics.user_metric import ExternalScores

CATALOGUE = "sources.yaml"  # the data catalogue, beside the config file
EXTERNAL = ExternalScores.name  # the "registry name" of every external_scores id


def schema_path() -> Path:
    """The schema in ``workflow/schemas`` (repository checkout), else the copy a wheel carries."""
    in_repo = REPO_ROOT / "workflow" / "schemas" / "config.schema.yaml"
    if in_repo.is_file():
        return in_repo
    return Path(str(resources.files("mtmeta") / "schemas" / "config.schema.yaml"))


def schema_range(*keys: str) -> tuple[float | None, float | None]:
    """The inclusive bounds (None: none) the schema gives the config key ``keys`` (e.g. ``"bootstrap",
    "draws"``): the one range table of the config and the command-line options that set the same
    value (:mod:`mtmeta.app.options`)."""
    schema = yaml.load(schema_path().read_text(), Loader=_StrictLoader)
    node = schema
    for key in keys:
        node = node["properties"][key]
        while "$ref" in node:
            node = schema["$defs"][node["$ref"].removeprefix("#/$defs/")]
    return node.get("minimum"), node.get("maximum")


def _with_defaults(validator_class):
    """A validator that fills in ``default`` values of absent properties (Snakemake does the same)."""
    validate_properties = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, subschema in properties.items():
                if isinstance(subschema, dict) and "default" in subschema and name not in instance:
                    instance[name] = copy.deepcopy(subschema["default"])
        yield from validate_properties(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


def _check_values(config: dict) -> None:
    """The merged config, wherever its values came from (files, ``snakemake --config``, a caller's
    dict): string keys and finite numbers, as the schema cannot check them (JSON has neither other
    keys nor NaN). A file's own values were checked with their lines as it was read (:func:`read_yaml`)."""
    import math

    stack: list[tuple[object, tuple]] = [(config, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise ConfigError(f"{_key_path(path[:MAX_DEPTH])}...: nested more than {MAX_DEPTH} levels deep; expected "
                              f"at most {MAX_DEPTH}")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise ConfigError(f"{_key_path(path)}: the key {shown(key)} is {type(key).__name__}, not a "
                                      f"string; expected string keys only (in YAML, quote it: '{clip(str(key))}')")
                stack.append((item, (*path, key)))
        elif isinstance(value, list | tuple):
            stack.extend((item, (*path, f"[{i}]")) for i, item in enumerate(value))
        elif isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"{_key_path(path)}: {value} is not a finite number; expected a finite number")


def _schema_message(error) -> str:
    """jsonschema's message with the value it quotes shortened (:func:`shown`), at most 300 characters."""
    message = error.message
    if isinstance(error.instance, str | int | float | list | dict) and len(message) > 300:
        message = message.replace(repr(error.instance), shown(error.instance), 1)
    return clip(message, 300)


def validate_config(config: dict) -> dict:
    """Validate ``config`` in place (filling defaults) and check cross-references; return it."""
    _check_values(config)
    schema = yaml.load(schema_path().read_text(), Loader=_StrictLoader)
    validator = _with_defaults(jsonschema.Draft202012Validator)(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"  {'/'.join(map(str, e.absolute_path)) or '<top>'}: {_schema_message(e)}" for e in errors[:10]]
        raise ConfigError("invalid configuration (schema " + str(schema_path()) + "):\n" + "\n".join(lines))
    _check_references(config)
    return config


def _check_external(config: dict) -> None:
    """An external id is new (no registry name, metric_settings key or metrics entry), its files exist,
    and its segment file has scores of configured dataset x language pairs only."""
    from mtmeta.data.user_scores import pairs_in

    for metric_id, spec in config.get("external_scores", {}).items():
        where = f"external_scores.{metric_id}"
        if metric_id in metrics.METRICS or metric_id in config["metric_settings"] or metric_id in config["metrics"]:
            raise ConfigError(f"{where}: {metric_id!r} is already a metric id of the study; give your metric another")
        declared = "pairs" in spec
        for level in ("segment", "system"):
            if level in spec and not declared and not Path(spec[level]).is_file():
                raise ConfigError(f"{where}.{level}: file {spec[level]} not found (relative paths are read from "
                                  "the working directory; a file the workflow writes needs the pairs listed under "
                                  f"{where}.pairs)")
        for dataset, lp in (_declared_pairs(spec) if declared else pairs_in(spec["segment"])):
            if dataset not in config["datasets"] or lp not in config["datasets"][dataset]["language_pairs"]:
                what = f"{where}.pairs names" if declared else f"{where}.segment: {spec['segment']} has scores for"
                raise ConfigError(f"{what} {dataset} {lp}, which is not a configured dataset x language pair")


def evalset_sources(ds: dict) -> list[str]:
    """The catalogue sources an ``mtme`` dataset reads: its archive, or those its assembler reads."""
    spec = ds["evalset"]
    if "source" in spec:
        return [spec["source"]]
    if spec.get("assemble") == "wmt21":
        from mtmeta.data.wmt21 import SOURCES

        return list(SOURCES.values())
    if spec.get("assemble") == "wmt23":
        from mtmeta.data.wmt23 import SOURCES as WMT23

        return list(WMT23.values())
    return []


def _format(spec: dict, origin: str) -> str | None:
    """A source's format for one origin (the mirror may be repacked; else the upstream's applies)."""
    return spec[origin].get("format") or spec["upstream"].get("format")


def _check_references(config: dict) -> None:
    sources = config["sources"]

    def need(source_id: str, where: str) -> dict:
        if source_id not in sources:
            raise ConfigError(f"{where} names source {source_id!r}, which is not declared under sources")
        return sources[source_id]

    for name, ds in config["datasets"].items():
        lps = ds["language_pairs"]
        if ds["kind"] == "evaluator":
            need(ds["data"], f"datasets.{name}.data")
            need(ds["labels"], f"datasets.{name}.labels")
            continue
        if ds["kind"] == "mtme":
            for source in evalset_sources(ds):
                need(source, f"datasets.{name}.evalset")
            for lp in ds["references"]:
                if lp not in lps:
                    raise ConfigError(f"datasets.{name}.references names {lp}, not one of its language_pairs {lps}")
            continue
        need(ds["corpus"], f"datasets.{name}.corpus")
        judgments = ds["judgments"]
        mapping = judgments if isinstance(judgments, dict) else {lp: judgments for lp in lps}
        official = ds.get("official_scores")
        if official is not None:
            spec = need(official["source"], f"datasets.{name}.official_scores.source")
            for origin in ("upstream", "mirror"):
                if origin in spec and _format(spec, origin) != "wmt_system_scores":
                    raise ConfigError(f"datasets.{name}.official_scores.source {official['source']!r} ({origin}) "
                                      f"needs format wmt_system_scores, not {_format(spec, origin)!r}")
        for lp in lps:
            if lp not in mapping:
                if official is None:
                    raise ConfigError(f"datasets.{name}.judgments has no source for language pair {lp} "
                                      f"(a pair without judgments needs official_scores)")
                continue
            spec = need(mapping[lp], f"datasets.{name}.judgments[{lp}]")
            for origin in ("upstream", "mirror"):
                if origin in spec and _format(spec, origin) in (None, "wmt_system_scores"):
                    raise ConfigError(f"source {mapping[lp]!r} ({origin}) needs a judgment format "
                                      f"(found {_format(spec, origin)!r})")
        for lp in ds.get("aliases", {}):
            if lp not in lps:
                raise ConfigError(f"datasets.{name}.aliases names {lp}, not one of its language_pairs {lps}")

    def check_metric(metric_id: str, where: str) -> None:
        if metric_id in config.get("external_scores", {}):
            return
        registry_name = config["metric_settings"].get(metric_id, {}).get("metric", metric_id)
        if registry_name not in metrics.METRICS:
            raise ConfigError(
                f"{where} lists {metric_id!r}, which is neither a registered metric "
                f"({', '.join(sorted(metrics.METRICS))}) nor a key of metric_settings"
            )

    _check_external(config)
    for metric_id in config["metrics"]:
        check_metric(metric_id, "metrics")
    for name, ds in config["datasets"].items():
        extra = ds.get("extra_metrics", [])
        if isinstance(extra, dict):
            for lp in extra:
                if lp not in ds["language_pairs"]:
                    raise ConfigError(f"datasets.{name}.extra_metrics names {lp}, not one of its language pairs")
        for metric_id in metrics_of(config, name):
            check_metric(metric_id, f"datasets.{name}.extra_metrics")
    for model, spec in config.get("embeddings", {}).items():
        for entry in spec["corpus"]:
            if entry != "study":
                need(entry, f"embeddings.{model}.corpus")
        for lang, pretrained in spec["pretrained"].items():
            need(pretrained["source"], f"embeddings.{model}.pretrained.{lang}")
    from mtmeta.metrics.params import check_params

    for metric_id, setting in config["metric_settings"].items():
        metrics.check_setting_id(metric_id, setting["metric"], f"metric_settings.{metric_id}")
        if setting["metric"] in metrics.METRICS:  # an unknown name is reported where the id is used
            check_params(metrics.metric_class(setting["metric"]), setting.get("params", {}),
                         where=f"metric_settings.{metric_id}.params")
        model = setting.get("params", {}).get("embeddings")
        if model is not None and model not in config.get("embeddings", {}):
            raise ConfigError(f"metric_settings.{metric_id} uses embeddings {model!r}, which is not declared "
                              f"under embeddings (declared: {', '.join(config.get('embeddings', {})) or 'none'})")
    parmesan = config.get("parmesan", {})
    for target in parmesan.get("targets", []):
        dataset, lp = target.split("/")
        if dataset not in config["datasets"] or lp not in config["datasets"][dataset]["language_pairs"]:
            raise ConfigError(f"parmesan.targets names {target}, which is not a configured dataset/lp")
        lang = target_language(lp)
        if lang not in parmesan["lexicons"]:
            raise ConfigError(f"parmesan.targets names {target}, but parmesan.lexicons has nothing for {lang!r}")
    for lang, lexicon in parmesan.get("lexicons", {}).items():
        need(lexicon["source"], f"parmesan.lexicons.{lang}")
    for metric_id in parmesan.get("metrics", []) + parmesan.get("meteor_references", {}).get("metrics", []):
        check_metric(metric_id, "parmesan")
    for part in ("meteor_references", "appendix"):
        setting = parmesan.get(part, {}).get("setting")
        if setting is not None and setting not in parmesan["settings"]:
            raise ConfigError(f"parmesan.{part}.setting {setting!r} is not one of parmesan.settings")
    appendix_target = parmesan.get("appendix", {}).get("target")
    if appendix_target is not None and appendix_target not in parmesan["targets"]:
        raise ConfigError(f"parmesan.appendix.target {appendix_target!r} is not one of parmesan.targets")
    if appendix_target is not None:
        dataset, lp = appendix_target.split("/")
        if parmesan["appendix"]["metric"] not in metrics_of(config, dataset, lp):
            raise ConfigError(f"parmesan.appendix.metric {parmesan['appendix']['metric']!r} is not scored on "
                              f"{appendix_target} (add it to metrics or the dataset's extra_metrics)")
    for name, sweep in config.get("sweeps", {}).items():
        check_metric(sweep["metric"], f"sweeps.{name}.metric")
        _check_sweep(config, name, sweep)
        for target in sweep["targets"]:
            for dataset in target["datasets"]:
                if dataset not in config["datasets"]:
                    raise ConfigError(f"sweeps.{name} targets dataset {dataset!r}, which is not configured")
                if not judged_pairs(config, dataset):
                    kind = config["datasets"][dataset]["kind"]
                    raise ConfigError(f"sweeps.{name} targets dataset {dataset!r} (kind {kind}), which has no pairwise "
                                      "human comparisons; expected a dataset with them (kind evaluator, or wmt with "
                                      "judgments): every sweep statistic is computed from them")
                if any(sweep["metric"] not in metrics_of(config, dataset, lp)
                       for lp in config["datasets"][dataset]["language_pairs"]):
                    raise ConfigError(f"sweeps.{name} re-scores {sweep['metric']!r}, which is not scored on {dataset}")
    check_paper(config, check_metric)
    _check_rule_names(config)
    _check_builds(config)


def _check_builds(config: dict) -> None:
    """Every metric id builds as the scoring jobs build it, for each target language it is scored in
    (a tokeniser whose package is not installed: BLEU's default for Japanese and Korean, SentencePiece),
    named with the id and the pair. Each distinct metric x language x parameters is built once (all of
    the repository's study in well under a second); nothing is read or scored."""
    import json

    from mtmeta.metrics.spec import MetricSpec

    built: dict[tuple, str | None] = {}
    for dataset, ds in config["datasets"].items():
        tokenized = bool(ds.get("tokenized", False))
        for lp in ds["language_pairs"]:
            lang = target_language(lp)
            for metric_id in metrics_of(config, dataset, lp):
                registry_name, params = metric_spec(config, metric_id)
                if registry_name == EXTERNAL:
                    continue
                key = (registry_name, lang, json.dumps(params, sort_keys=True, default=str), tokenized)
                if key not in built:
                    try:
                        MetricSpec(metric_id, registry_name, params).build(lang, tokenized=tokenized)
                        built[key] = None
                    except ConfigError as exc:
                        built[key] = str(exc)
                    except (ImportError, RuntimeError, ValueError, OSError) as exc:  # a library's own refusal
                        built[key] = f"{type(exc).__name__}: {clip(' '.join(str(exc).split()), 300)}"
                if built[key] is not None:
                    raise ConfigError(f"metric {metric_id!r} on {dataset} {lp} (target language {lang}) cannot be "
                                      f"built: {built[key]}")


def _check_sweep(config: dict, name: str, sweep: dict) -> None:
    """A sweep's grid and fixed parameters: ones its metric can re-score from statistics, each value in
    the metric's range (as ``--set`` checks it), and a grid of bounded size."""
    import difflib

    from mtmeta.metaeval.sweeps import expand_grid  # here: metaeval's imports are heavy for the Snakefile
    from mtmeta.metrics.params import check_params

    where = f"sweeps.{name}"
    registry_name, params = metric_spec(config, sweep["metric"])
    if registry_name == EXTERNAL:
        raise ConfigError(f"{where}.metric: {sweep['metric']!r} is a user's scores (external_scores); a sweep "
                          "re-scores a metric's statistics")
    cls = metrics.metric_class(registry_name)
    rescored = getattr(cls, "RESCORED_PARAMS", ())
    if not rescored:
        able = sorted(n for n in metrics.METRICS if getattr(metrics.metric_class(n), "RESCORED_PARAMS", ()))
        raise ConfigError(f"{where}.metric: {sweep['metric']!r} ({registry_name}) cannot be re-scored from its "
                          f"statistics; expected a metric of: {', '.join(able)}")
    for part in ("grid", "fixed"):
        for key, values in sweep.get(part, {}).items():
            if key not in rescored:
                close = difflib.get_close_matches(key, rescored, n=1, cutoff=0.5)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise ConfigError(f"{where}.{part}.{key}: {registry_name} cannot re-score {key!r}{hint} (it "
                                  f"re-scores {', '.join(rescored)})")
            if part == "fixed":
                check_params(cls, {key: values}, where=f"{where}.fixed")
    try:
        settings = expand_grid(sweep["grid"])
    except ConfigError as exc:
        raise ConfigError(f"{where}.grid: {exc}") from None
    for key in sweep["grid"]:
        for value in dict.fromkeys(setting[key] if not isinstance(setting[key], list) else tuple(setting[key])
                                   for setting in settings):
            check_params(cls, {key: list(value) if isinstance(value, tuple) else value}, where=f"{where}.grid")


def score_rule_name(metric_id: str) -> str:
    """The name of a metric id's scoring rule: ``score_`` and the id with '+' as 'p' and '-' or '.' as
    '_' (Snakemake rule names take letters, digits and underscores)."""
    return f"score_{metric_id.replace('+', 'p').replace('-', '_').replace('.', '_')}"


def results_rule_name(metric_id: str) -> str:
    """The name of the target rule that brings a metric id's own results up to date (its scores, its
    pieces in results/metaeval/<id>/, its scatter figure): ``metric_`` and its scoring rule's suffix."""
    return "metric_" + score_rule_name(metric_id).removeprefix("score_")


def scored_metric_ids(config: dict) -> list[str]:
    """Every metric id the study scores on some dataset x language pair, in config order."""
    return list(dict.fromkeys(m for d in config["datasets"] for m in metrics_of(config, d)))


def paraphrased_rule_name(metric_id: str) -> str:
    """The name of the rule scoring a metric id against Parmesan's paraphrased references."""
    return f"score_paraphrased_{score_rule_name(metric_id).removeprefix('score_')}"


def generated_rule_names(config: dict) -> dict[str, str]:
    """Every rule name the workflow derives from an id, with what it does: the same name twice would
    be two rules of one name, which Snakemake refuses long after this check (:func:`_check_rule_names`)."""
    names: dict[str, list[str]] = {}
    for metric_id in scored_metric_ids(config):
        names.setdefault(score_rule_name(metric_id), []).append(f"scores metric {metric_id!r}")
        names.setdefault(results_rule_name(metric_id), []).append(f"makes metric {metric_id!r}'s own results")
    parmesan = config.get("parmesan", {})
    for metric_id in dict.fromkeys(parmesan.get("metrics", []) + parmesan.get("meteor_references", {}).get(
            "metrics", [])):
        names.setdefault(paraphrased_rule_name(metric_id), []).append(
            f"scores metric {metric_id!r} against paraphrased references")
    return names


def _check_rule_names(config: dict) -> None:
    for name, uses in generated_rule_names(config).items():
        if len(uses) > 1:
            raise ConfigError(f"two ids give the workflow rule name {name} (one {' and one '.join(uses)}): ids differ "
                              "after '+' becomes 'p' and '-' or '.' becomes '_'; rename one of them")


def check_paper(config: dict, check_metric) -> None:
    """Every id a paper table uses is configured and scored where the table needs it."""
    paper, sweeps = config.get("paper", {}), config.get("sweeps", {})

    def target_of(value: str, where: str) -> tuple[str, str]:
        dataset, _, lp = value.partition("/")
        if dataset not in config["datasets"] or lp not in config["datasets"][dataset]["language_pairs"]:
            raise ConfigError(f"{where} names {value}, which is not a configured dataset/lp")
        return dataset, lp

    def scored(metric_id: str, dataset: str, lp: str, where: str) -> None:
        check_metric(metric_id, where)
        if metric_id not in metrics_of(config, dataset, lp):
            raise ConfigError(f"{where} uses {metric_id!r}, which is not scored on {dataset}/{lp} (add it to "
                              "metrics or the dataset's extra_metrics)")

    if "meteor_tuning" in paper:
        tuning, where = paper["meteor_tuning"], "paper.meteor_tuning"
        dataset, lp = target_of(tuning["target"], f"{where}.target")
        scored(tuning["metric"], dataset, lp, f"{where}.metric")
        scored(tuning["baseline"], dataset, lp, f"{where}.baseline")
        named = {"sweep": tuning["sweep"], **{f"module_sweeps.{k}": v for k, v in tuning["module_sweeps"].items()}}
        for key, name in named.items():
            if name not in sweeps:
                raise ConfigError(f"{where}.{key} names sweep {name!r}, which is not under sweeps "
                                  f"(configured: {', '.join(sweeps) or 'none'})")
            if not any(dataset in target["datasets"] for target in sweeps[name]["targets"]):
                raise ConfigError(f"{where}.{key}: sweep {name!r} has no target on {dataset}")
    if "parmesan" in paper:
        tables, where = paper["parmesan"], "paper.parmesan"
        for target in tables["targets"]:
            dataset, lp = target_of(target, f"{where}.targets")
            for key in ("baseline", "exact_meteor"):
                scored(tables[key], dataset, lp, f"{where}.{key}")
            for setting, metric_id in tables["meteor_settings"].items():
                scored(metric_id, dataset, lp, f"{where}.meteor_settings.{setting}")
    if "softbleu" in paper:
        where = "paper.softbleu"
        for metric_id in [paper["softbleu"]["baseline"], *paper["softbleu"]["metrics"]]:
            for dataset, ds in config["datasets"].items():
                for lp in ds["language_pairs"]:
                    scored(metric_id, dataset, lp, where)
    if "wmt_baselines" in paper:
        where = "paper.wmt_baselines"
        for dataset in paper["wmt_baselines"]["human_scores"]:
            if config["datasets"].get(dataset, {}).get("kind") != "wmt":
                raise ConfigError(f"{where}.human_scores names {dataset!r}, which is not a configured WMT dataset")
            uses_official = paper["wmt_baselines"]["human_scores"][dataset]["human_score"] == "official"
            if uses_official and "official_scores" not in config["datasets"][dataset]:
                raise ConfigError(f"{where}.human_scores.{dataset}.human_score is official, but datasets.{dataset} "
                                  f"has no official_scores")
            if not uses_official and isinstance(config["datasets"][dataset]["judgments"], dict) and any(
                    lp not in config["datasets"][dataset]["judgments"]
                    for lp in config["datasets"][dataset]["language_pairs"]):
                raise ConfigError(f"{where}.human_scores.{dataset}: some pairs of {dataset} have no judgments, "
                                  f"so only human_score: official covers them all")
            for lp in config["datasets"][dataset]["language_pairs"]:
                for metric_id in paper["wmt_baselines"]["metrics"]:
                    scored(metric_id, dataset, lp, f"{where}.metrics")
    if "official_wmt12" in paper:
        section, where = paper["official_wmt12"], "paper.official_wmt12"
        dataset = section["dataset"]
        if config["datasets"].get(dataset, {}).get("kind") != "wmt":
            raise ConfigError(f"{where}.dataset names {dataset!r}, which is not a configured WMT dataset")
        for part in ("defaults", "as_run"):
            for official, metric_id in section[part].items():
                for lp in config["datasets"][dataset]["language_pairs"]:
                    scored(metric_id, dataset, lp, f"{where}.{part}.{official}")
    if "mqm" in paper:
        for target in paper["mqm"].get("categories", []):
            dataset, _ = target_of(target, "paper.mqm.categories")
            if config["datasets"][dataset]["kind"] != "mtme":
                raise ConfigError(f"paper.mqm.categories names {target}, which is not an mt-metrics-eval (mtme) "
                                  "dataset with an MQM error annotation")
        for target in paper["mqm"].get("crowd", []):
            dataset, _ = target_of(target, "paper.mqm.crowd")
            if config["datasets"][dataset]["kind"] != "mtme":
                raise ConfigError(f"paper.mqm.crowd names {target}, which is not an mt-metrics-eval (mtme) "
                                  "dataset with MQM and WMT's DA (human scores wmt-z and wmt-raw)")
    for name, spec in paper.get("official_tasks", {}).get("sets", {}).items():
        where = f"paper.official_tasks.sets.{name}"
        ds = config["datasets"].get(spec["dataset"])
        if ds is None or ds["kind"] != "mtme":
            raise ConfigError(f"{where}.dataset names {spec['dataset']!r}, which is not a configured mt-metrics-eval "
                              "(mtme) dataset")
        unknown = sorted(set(spec.get("pairs", [])) - set(ds["language_pairs"]))
        if unknown:
            raise ConfigError(f"{where}.pairs names {unknown}, which are not among {spec['dataset']}'s language "
                              f"pairs {ds['language_pairs']}")
    if "sensitivity" in paper:
        where = "paper.sensitivity"
        section = paper["sensitivity"]
        unknown = sorted(set(section["rescored"]) - set(section["metrics"]))
        if unknown:
            raise ConfigError(f"{where}.rescored names {unknown}, which are not among {where}.metrics")
        for target in section["targets"]:
            dataset, lp = target_of(target, f"{where}.targets")
            for metric_id in section["metrics"]:
                scored(metric_id, dataset, lp, f"{where}.metrics")


def judged_pairs(config: dict, dataset: str) -> list[str]:
    """The language pairs of a dataset with pairwise human comparisons (what sweeps read): every pair
    of an evaluator set, a WMT set's pairs with judgments, none of an mt-metrics-eval set (its human
    scores are MQM or DA scores, not comparisons)."""
    ds = config["datasets"][dataset]
    if ds["kind"] == "evaluator":
        return list(ds["language_pairs"])
    if ds["kind"] == "wmt":
        judgments = ds["judgments"]
        return [lp for lp in ds["language_pairs"] if not isinstance(judgments, dict) or lp in judgments]
    return []


def metrics_of(config: dict, dataset: str, lp: str | None = None) -> list[str]:
    """Metric ids scored on a dataset (x language pair): the study-wide list, the extra ones, and the
    external ones (``external_scores``) whose files have scores for it.

    Without ``lp``, the metrics scored on at least one of the dataset's language pairs.
    """
    extra = config["datasets"][dataset].get("extra_metrics", [])
    if isinstance(extra, dict):
        extra = extra.get(lp, []) if lp else [m for ids in extra.values() for m in ids]
    external = [metric_id for metric_id, pairs in external_pairs(config).items()
                if any(d == dataset and (lp is None or p == lp) for d, p in pairs)]
    return list(dict.fromkeys([*config["metrics"], *extra, *external]))


def external_pairs(config: dict) -> dict[str, list[tuple[str, str]]]:
    """The dataset x language pairs each ``external_scores`` id has scores for (read from its segment
    file's dataset and lp columns)."""
    from mtmeta.data.user_scores import pairs_in

    return {metric_id: _declared_pairs(spec) if "pairs" in spec else pairs_in(spec["segment"])
            for metric_id, spec in config.get("external_scores", {}).items()}


def _declared_pairs(spec: dict) -> list[tuple[str, str]]:
    return [tuple(pair.split("/")) for pair in spec["pairs"]]


# What a config file may hold (config/README.md, 'How a config file is read'): the repository's config
# and catalogue have 17,000 and 38,000 bytes, 1,000 and 850 values (keys included); a config file
# larger than these caps is refused before it is parsed, or as soon as a mapping is seen to exceed them.
MAX_FILE_BYTES = 500_000
MAX_VALUES = 50_000  # keys, scalars, lists and mappings, each alias (*name) counted as what it repeats
MAX_DEPTH = 40
MAX_EXTENDS = 20

_TAG = "tag:yaml.org,2002:"
_KINDS = {"int": "an integer", "float": "a number", "bool": "a boolean", "null": "null", "timestamp": "a date",
          "map": "a mapping", "seq": "a list", "binary": "binary data", "set": "a set"}


class _StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """YAML's safe loader (libyaml's parser where installed), refusing a key given twice in one
    mapping (plain YAML keeps the last one silently, so a second `metrics:` would quietly replace the
    first). Merge keys (``<<: *anchor``) are flattened as YAML 1.1 defines them: the mapping's own
    keys win over the merged ones."""

    name = "<config>"


def _mapping_without_duplicates(loader, node, deep=False):
    seen = {}
    for key_node, _ in node.value:
        if key_node.tag == _TAG + "merge":
            continue
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise ConfigError(f"{loader.name}:{key_node.start_mark.line + 1}: key {shown(key)} is given twice (first "
                              f"on line {seen[key] + 1}); expected each key once per mapping")
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_without_duplicates)


def _key_path(path: tuple) -> str:
    """``datasets.wmt12.language_pairs[0]``: the keys and list positions leading to a value."""
    text = "".join(part if part.startswith("[") else f".{clip(part, 40)}" for part in map(str, path))
    return text.removeprefix(".") or "the top level"


def _kind(node) -> str:
    tag = node.tag.removeprefix(_TAG)
    return _KINDS.get(tag, f"of tag {node.tag}")


def _check_nodes(root, loader: _StrictLoader) -> None:
    """A composed document before it becomes Python values: string keys (or a merge key), finite
    numbers, at most :data:`MAX_DEPTH` levels and :data:`MAX_VALUES` values once aliases are expanded
    (a few lines of nested aliases can stand for billions of values). Each node is checked once, and
    the expanded count is summed per node (an alias is a second reference to the same node)."""
    name = loader.name
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple] = [(root, (), False)]
    while stack:
        node, path, done = stack.pop()
        line = node.start_mark.line + 1
        if done:
            open_nodes.discard(id(node))
            if isinstance(node, yaml.MappingNode):
                children = [child for pair in node.value for child in pair]
            else:
                children = node.value
            sizes[id(node)] = min(1 + sum(sizes[id(child)] for child in children), MAX_VALUES + 1)
            if sizes[id(node)] > MAX_VALUES:
                raise ConfigError(f"{name}:{line}: {_key_path(path)}: holds more than {MAX_VALUES:,} values (keys "
                                  "included, an alias *name counted as all its anchor holds: nested aliases "
                                  "multiply); expected a config file of at most that many")
            continue
        if id(node) in sizes:
            continue
        if id(node) in open_nodes:
            raise ConfigError(f"{name}:{line}: {_key_path(path)}: an alias refers to a mapping or list that holds "
                              "it; expected values that end")
        if len(path) > MAX_DEPTH:
            raise ConfigError(f"{name}:{line}: {_key_path(path[:MAX_DEPTH])}...: nested more than {MAX_DEPTH} levels "
                              f"deep; expected at most {MAX_DEPTH}")
        if isinstance(node, yaml.ScalarNode):
            _check_scalar(node, path, loader)
            sizes[id(node)] = 1
            continue
        open_nodes.add(id(node))
        stack.append((node, path, True))
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, (*path, f"[{i}]"), False) for i, child in reversed(list(enumerate(node.value))))
            continue
        for key, value in reversed(node.value):
            if key.tag == _TAG + "merge":
                merged = value.value if isinstance(value, yaml.SequenceNode) else [value]
                if not all(isinstance(item, yaml.MappingNode) for item in merged):
                    raise ConfigError(f"{name}:{key.start_mark.line + 1}: {_key_path(path)}: the merge key << is "
                                      f"given {_kind(value)}; expected a mapping to merge (<<: *name) or a list of "
                                      "them")
                stack.extend([(key, path, False), (value, (*path, "<<"), False)])
                continue
            if not isinstance(key, yaml.ScalarNode) or key.tag != _TAG + "str":
                text = clip(key.value) if isinstance(key, yaml.ScalarNode) and key.value else None
                what, quote = (f"the key {text}", f" (quote it: '{text}')") if text else ("a key", "")
                raise ConfigError(f"{name}:{key.start_mark.line + 1}: {_key_path(path)}: {what} is read as "
                                  f"{_kind(key)}, not a string; expected string keys only{quote}")
            stack.extend([(key, path, False), (value, (*path, key.value), False)])


def _check_scalar(node, path: tuple, loader: _StrictLoader) -> None:
    """A number YAML reads is finite (``.nan``, ``.inf`` and ``1e999`` are not) and fits in Python."""
    import math

    where = f"{loader.name}:{node.start_mark.line + 1}: {_key_path(path)}"
    if node.tag == _TAG + "float" and not math.isfinite(loader.construct_yaml_float(node)):
        raise ConfigError(f"{where}: {clip(node.value)} is not a finite number; expected a finite number")
    if node.tag == _TAG + "int":
        try:
            loader.construct_yaml_int(node)
        except ValueError:
            raise ConfigError(f"{where}: an integer of {len(node.value):,} characters; expected a number "
                              "of at most 4,300 digits") from None


def read_yaml(path: str | Path) -> object:
    """A YAML file, strictly: UTF-8, at most :data:`MAX_FILE_BYTES`, no duplicate keys, string keys,
    finite numbers, bounded nesting and aliases (:func:`_check_nodes`); errors name the file (and line)."""
    import io

    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file {path} not found")
    if not path.is_file():
        raise ConfigError(f"{path}: not a file; expected a YAML config file")
    with path.open("rb") as stream:
        data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ConfigError(f"{path}: {path.stat().st_size:,} bytes; expected a config file of at most "
                          f"{MAX_FILE_BYTES:,} bytes (the repository's config and catalogue have under 40,000 each)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    stream = io.StringIO(text)
    stream.name = str(path)  # libyaml's marks name the stream
    loader = _StrictLoader(stream)
    loader.name = str(path)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node, loader)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {clip(str(exc), 1000)}") from None
    finally:
        loader.dispose()


def _read_mapping(path: Path) -> dict:
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    return data


def merge(base: dict, over: dict) -> dict:
    """``over`` merged into a copy of ``base``, mappings key by key, as Snakemake merges config files."""
    out = copy.deepcopy(base)
    for key, value in over.items():
        out[key] = merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _with_bases(path: Path, seen: tuple[Path, ...] = ()) -> tuple[dict, list[Path]]:
    """A config file merged over the file its ``extends`` key names (relative to the file; a chain
    is followed), and the files read, most basic first."""
    path = path.resolve()
    if path in seen:
        chain = " -> ".join(str(p) for p in (*seen, path))
        raise ConfigError(f"{seen[-1]}: extends forms a cycle ({chain}); expected a chain that ends")
    config = _read_mapping(path)
    base = config.pop("extends", None)
    if base is None:
        return config, [path]
    if not isinstance(base, str) or not base:
        raise ConfigError(f"{path}: extends: expected the path of another config file, got {shown(base)}")
    base_path = path.parent / base
    if not base_path.is_file():
        raise ConfigError(f"{path}: extends: {clip(base)} not found (read relative to {path.parent})")
    if len(seen) + 1 >= MAX_EXTENDS:
        raise ConfigError(f"{path}: extends: {clip(base)} makes the chain of files that starts at {(*seen, path)[0]} "
                          f"longer than {MAX_EXTENDS}; expected a chain of at most {MAX_EXTENDS} files")
    base_config, files = _with_bases(base_path, (*seen, path))
    return merge(base_config, config), [*files, path]


def catalogue_of(files: list[Path]) -> Path | None:
    """The data catalogue a study's config files use: ``sources.yaml`` beside the most basic file that
    has one beside it, else the repository's own (so a short config elsewhere needs no sources)."""
    for path in files:
        if (path.parent / CATALOGUE).is_file():
            return path.parent / CATALOGUE
    repository = DEFAULT_CONFIG.parent / CATALOGUE
    return repository if repository.is_file() else None


def used_sources(config: dict) -> list[str]:
    """The catalogue sources a study fetches: its datasets' (corpus, judgments, official scores,
    evaluator files, an mt-metrics-eval archive or what an assembled set reads), its metrics'
    resources in every target language, its embeddings' extra corpora and pre-trained vectors,
    Parmesan's lexicons, and the Meteor jar where a Meteor input mode is scored."""
    used = []
    for name, ds in config["datasets"].items():
        if ds["kind"] == "evaluator":
            used += [ds["data"], ds["labels"]]
        elif ds["kind"] == "mtme":
            used += evalset_sources(ds)
        else:
            judgments = ds["judgments"]
            used += [ds["corpus"], *(judgments.values() if isinstance(judgments, dict) else [judgments])]
            used += [ds["official_scores"]["source"]] if "official_scores" in ds else []
        for lp in ds["language_pairs"]:
            for metric_id in metrics_of(config, name, lp):
                registry_name, params = metric_spec(config, metric_id)
                if registry_name != EXTERNAL:
                    used += metrics.required_sources(registry_name, target_language(lp), **params)
    for spec in config.get("embeddings", {}).values():
        used += [entry for entry in spec["corpus"] if entry != "study"]
        used += [pretrained["source"] for pretrained in spec["pretrained"].values()]
    used += [lexicon["source"] for lexicon in config.get("parmesan", {}).get("lexicons", {}).values()]
    if "meteor_jar" in config["sources"] and ("sensitivity" in config.get("paper", {})
                                              or "official_wmt12" in config.get("paper", {})):
        used.append("meteor_jar")
    return [source for source in dict.fromkeys(used) if source in config["sources"]]


def _check_checksums(config: dict) -> None:
    """Every source the study fetches from a mirror has the mirror's sha256 (fetch refuses it otherwise,
    later and one at a time): name every missing key at once. Upstream files are not checked here: most
    upstream sha256 values are not known yet, and fetch's refusal of such a download is how a user learns
    the value to pin (docs/data.md)."""
    from mtmeta.data.fetch import missing_checksums, resolve_mirror

    mirror = resolve_mirror(config["data_mirror"], [REPO_ROOT, Path.cwd()])
    if mirror is None:
        return
    missing = missing_checksums(config["sources"], mirror, used_sources(config))
    if missing:
        raise ConfigError(f"{len(missing)} source(s) have no sha256 for where they would come from "
                          f"(the mirror {mirror}): "
                          f"{', '.join(missing)}; expected a sha256 under each of these keys in the data catalogue "
                          "(config/sources.yaml). A download without one cannot be verified and is refused: fetch "
                          "the file once by hand, check it, and pin its sha256 there")


def _typed_overrides(value):
    """Snakemake parses ``--config key={a: 1}`` with YAML's base loader, which keeps every nested value
    a string ('1'); read such a string as YAML does in a config file (an integer, a float, a boolean),
    so that the schema checks the value the user meant. Top-level values Snakemake already types."""
    if isinstance(value, dict):
        return {key: _typed_overrides(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed_overrides(item) for item in value]
    if isinstance(value, str):
        try:
            typed = yaml.safe_load(value)
        except yaml.YAMLError:
            return value
        return typed if isinstance(typed, bool | int | float) else value
    return value


def load_config(paths: str | Path | list | tuple | None = None, overrides: dict | None = None,
                checksums: bool = True) -> dict:
    """The study's configuration, as the Snakefile and every ``mtmeta`` command read it: the config
    file(s) (default ``config/config.yaml``; several are merged in order, as ``snakemake --configfile
    A B``), each over the file it ``extends``; ``overrides`` (``snakemake --config key=value``) on top;
    all of it over the data catalogue (:func:`catalogue_of`); then validated, and (``checksums``: the
    workflow, check-config) every source it fetches checked for a sha256 of its origin."""
    if paths is None or paths == []:
        paths = [DEFAULT_CONFIG]
    elif isinstance(paths, str | Path):
        paths = [paths]
    config: dict = {}
    files: list[Path] = []
    for path in paths:
        loaded, read = _with_bases(Path(path))
        config = merge(config, loaded)
        files += read
    if overrides:
        config = merge(config, _typed_overrides(dict(overrides)))
    catalogue = catalogue_of(files)
    if catalogue is not None:
        base = _read_mapping(catalogue)
        # A source the config declares replaces the catalogue's entry of that id whole (a study's own
        # mirror and checksums must not inherit the catalogue's).
        own = config.get("sources", {})
        base["sources"] = {k: v for k, v in base.get("sources", {}).items() if k not in own}
        config = merge(base, config)
    config = validate_config(config)
    if checksums:
        _check_checksums(config)
    return config


def metric_spec(config: dict, metric_id: str) -> tuple[str, dict]:
    """Registry name and parameters of a configured metric id (``external`` and its direction for an
    id of ``external_scores``)."""
    external = config.get("external_scores", {}).get(metric_id)
    if external is not None:
        return EXTERNAL, {"higher_is_better": external.get("higher_is_better", True)}
    settings = config["metric_settings"].get(metric_id)
    if settings is None:
        return metric_id, {}
    return settings["metric"], dict(settings.get("params", {}))
