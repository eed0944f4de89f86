"""``mtmeta score``: metric scores of system outputs, with mtmeta's command line and sacrebleu's.

Two forms, told apart by how the metrics are named:

- mtmeta's: ``mtmeta score METRIC... --ref REF [--hyp FILE...]`` (metrics first, references with
  ``--ref``, or ``-t``/``-l``); it prints mtmeta's forms (``score<TAB>signature``, TSV, JSON records).
- sacrebleu's: ``mtmeta score REF... [-i FILE...] [-m METRIC...]`` (references first, metrics with
  ``-m``, BLEU by default), with sacrebleu 2.6.0's options and meaning; it prints sacrebleu's forms
  (JSON by default, ``-f text`` lines, ``-f latex`` tables, one decimal by default).

Both score every registered metric and every id of config's ``metric_settings`` with the code the
workflow runs. ``-t``/``-l`` take the study's own test sets (config's datasets), read from the
fetched corpus under ``--resources``, fetched first from the mirror or upstream when missing: there
is no download of sacrebleu's test sets. benchmarks/results/cli-vs-sacrebleu.md sets sacrebleu's outputs beside
mtmeta's.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from mtmeta.app import options
from mtmeta.app import score_output as output
from mtmeta.errors import ConfigError, InputError, MtmetaError, stage

if TYPE_CHECKING:
    import pandas as pd

log = logging.getLogger("mtmeta")

STDIN = "-"
FORMATS = ("json", "text", "latex", "tsv")

# sacrebleu's metric options: (flags, registry names they apply to, parameter, argparse keywords).
# As in sacrebleu, each one sets one metric's parameter (-lc lowercases BLEU, not chrF); --set sets any.
_BLEU, _CHRF, _TER = ("bleu",), ("chrf", "chrf++"), ("ter",)
METRIC_OPTIONS = [
    (("-tok", "--tokenize"), _BLEU, "tokenize", {"metavar": "TOKENIZER", "help": "BLEU's tokeniser (13a, intl, "
                                                  "zh, char, none, ...; default 13a, or zh/ja-mecab/ko-mecab by -l)"}),
    (("-lc", "--lowercase"), _BLEU, "lowercase", {"flag": True, "help": "lowercase for BLEU"}),
    (("-s", "--smooth-method"), _BLEU, "smooth_method",
     {"metavar": "METHOD", "help": "BLEU's smoothing: exp (default), floor, add-k, none"}),
    (("-sv", "--smooth-value"), _BLEU, "smooth_value", {"type": float, "metavar": "VALUE",
                                                         "help": "BLEU's floor or add-k value"}),
    (("-cc", "--chrf-char-order"), _CHRF, "char_order", {"type": int, "metavar": "N", "help": "chrF's character "
                                                          "n-gram order (6)"}),
    (("-cw", "--chrf-word-order"), _CHRF, "word_order", {"type": int, "metavar": "N", "help": "chrF's word n-gram "
                                                          "order (0; 2 is chrF++)"}),
    (("--chrf-beta",), _CHRF, "beta", {"type": int, "metavar": "BETA", "help": "chrF's recall weight (2)"}),
    (("--chrf-whitespace",), _CHRF, "whitespace", {"flag": True, "help": "chrF: count whitespace in character "
                                                    "n-grams"}),
    (("--chrf-lowercase",), _CHRF, "lowercase", {"flag": True, "help": "lowercase for chrF"}),
    (("--chrf-eps-smoothing",), _CHRF, "eps_smoothing", {"flag": True, "help": "chrF with epsilon smoothing "
                                                          "(chrF++.py, Moses, NLTK)"}),
    (("--ter-case-sensitive",), _TER, "case_sensitive", {"flag": True, "help": "TER keeps case"}),
    (("--ter-asian-support",), _TER, "asian_support", {"flag": True, "help": "TER splits Asian characters"}),
    (("--ter-no-punct",), _TER, "no_punct", {"flag": True, "help": "TER removes punctuation"}),
    (("--ter-normalized",), _TER, "normalized", {"flag": True, "help": "TER's tercom -N normalisation"}),
]


def _dest(flags: tuple[str, ...]) -> str:
    return "metric_option_" + flags[-1].lstrip("-").replace("-", "_")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("words", nargs="*", metavar="METRIC|REF",
                   help="mtmeta's form: metrics (registered names or ids of config's metric_settings; "
                        "`mtmeta metrics`), with --ref or -t. sacrebleu's form: reference files, metrics with -m")
    p.add_argument("-m", "--metrics", nargs="+", metavar="METRIC",
                   help="metrics to score (sacrebleu's form; default bleu): any registered metric or config id")
    # extend: a repeated --hyp adds systems (with store, the last one silently replaced the others)
    p.add_argument("-i", "--input", "--hyp", dest="input", nargs="+", action="extend", metavar="FILE",
                   help="hypothesis file(s), one segment per line (UTF-8, or gzipped); several: one system each (the "
                        "first is the baseline of a paired test). None: standard input, whose tab-separated columns "
                        "are systems as in sacrebleu; - reads standard input as one file")
    p.add_argument("--ref", action="append", default=[], metavar="FILE",
                   help="reference file (mtmeta's form); repeat for several references")
    p.add_argument("-nr", "--num-refs", type=options.positive_int, default=1, metavar="N",
                   help="one reference file holding N tab-separated references per line (as sacrebleu)")
    p.add_argument("-t", "--test-set", metavar="DATASET",
                   help="references of one of the study's test sets (config's datasets, e.g. wmt12), read from "
                        "the local mirror or the fetched corpus under --resources (fetched on first use; there is "
                        "no download of sacrebleu's test sets)")
    p.add_argument("-l", "--language-pair", dest="langpair", metavar="SRC-TRG",
                   help="language pair of -t; its target language selects tokeniser and METEOR defaults (as --lang)")
    p.add_argument("--echo", nargs="+", metavar="FIELD",
                   help="print these fields of -t/-l, tab-separated, and stop: src, ref, a system's name, or all")
    p.add_argument("--lang", help="target language code (tokeniser and METEOR defaults); default: -l's target")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter of every metric named (YAML value: --set tokenize=intl --set lowercase=true; "
                        "booleans are true or false, or 1 or 0); overrides the options below")
    p.add_argument("--level", choices=["corpus", "segment"], default="corpus", help="corpus score or one per line")
    p.add_argument("-sl", "--sentence-level", action="store_true", help="one score per line (as --level segment)")
    p.add_argument("-f", "--format", choices=FORMATS,
                   help="json, text or latex as in sacrebleu (sacrebleu's form: default json, or $SACREBLEU_FORMAT); "
                        "mtmeta's form: default text (score and signature per metric), tsv, json records")
    p.add_argument("-w", "--width", type=options.width, metavar=options.WIDTH_METAVAR,
                   help="decimals printed (default: 1 in sacrebleu's form, 6 in mtmeta's; mtmeta's JSON has them all)")
    p.add_argument("-b", "--score-only", action="store_true", help="print the scores only")
    p.add_argument("-sh", "--short", action="store_true", help="short signatures (sacrebleu's abbreviations)")
    p.add_argument("-nc", "--no-color", action="store_true", help="accepted for sacrebleu's sake: mtmeta never colours")
    p.add_argument("--resources", default="resources",
                   help="where `mtmeta fetch` puts sources: METEOR's lexical resources, -t's corpora")
    p.add_argument("--config", help="config file whose metric_settings and datasets apply (default: the repository's "
                                    "config/config.yaml)")
    p.add_argument("-ci", "--confidence", action="store_true",
                   help="bootstrap mean and 95%% half-width of each corpus score (sacrebleu's estimate)")
    p.add_argument("-cin", "--confidence-n", type=options.positive_int, default=1000, help="bootstrap resamples (1000)")
    paired_test = p.add_mutually_exclusive_group()
    paired_test.add_argument("-pbs", "--paired-bs", action="store_true",
                             help="paired bootstrap resampling of each system against the first (sacrebleu's)")
    paired_test.add_argument("-par", "--paired-ar", action="store_true",
                             help="paired approximate randomisation of each system against the first (sacrebleu's)")
    p.add_argument("-pbsn", "--paired-bs-n", type=options.positive_int, default=1000,
                   help="paired bootstrap resamples (1000)")
    p.add_argument("-parn", "--paired-ar-n", type=options.positive_int, default=10000,
                   help="approximate randomisation trials (10000)")
    p.add_argument("--seed", type=options.seed, default=12345,
                   help=f"seed of the resampling, 0 to {options.MAX_SEED} (12345, sacrebleu's default)")
    group = p.add_argument_group("sacrebleu's metric options (each sets one metric's parameter, as in sacrebleu)")
    for flags, _, _, keywords in METRIC_OPTIONS:
        keywords = dict(keywords)
        if keywords.pop("flag", False):
            keywords.update(action="store_const", const=True)
        group.add_argument(*flags, dest=_dest(flags), default=None, **keywords)
    group.add_argument("--force", action="store_true", help="accepted for sacrebleu's sake: mtmeta never warns about "
                                                            "tokenised input")


# ------------------------------------------------------------------ the request
UNIT_SCALE_WIDTH = 4  # sacrebleu's form's default width when a metric scores on the unit interval


@dataclass
class Request:
    """The command line read: which metrics, references and systems, and how to print."""

    metric_ids: list[str]
    sacrebleu_form: bool
    fmt: str
    width: int
    segment_level: bool
    test: str | None  # "bs", "ar" or None


def read_request(args) -> Request:
    metrics_first = bool(args.words) and not args.metrics and bool(args.ref or args.test_set)
    if metrics_first:
        metric_ids = list(args.words)
    else:
        metric_ids = list(args.metrics or ["bleu"])
        args.ref = [*args.words, *args.ref]
    sacrebleu_form = not metrics_first
    fmt = args.format
    if fmt is None:
        environment = os.environ.get("SACREBLEU_FORMAT", "").lower()
        fmt = (environment if environment in ("json", "text", "latex") else "json") if sacrebleu_form else "text"
    width = args.width if args.width is not None else (1 if sacrebleu_form else 6)
    test = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    return Request(metric_ids, sacrebleu_form, fmt, width, args.sentence_level or args.level == "segment", test)


def _shown(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def read_segments(path: str, role: str) -> list[str]:
    """A file's lines (UTF-8, gzip read transparently), or standard input's for ``-``; a directory,
    a missing or an empty file is an error naming it."""
    with stage(f"reading {role}", _shown(path)):
        return _read_segments(path, role)


def _read_segments(path: str, role: str) -> list[str]:
    from mtmeta.data.textio import decode_utf8, read_lines, split_lines

    if path == STDIN:
        lines = split_lines(decode_utf8(_stdin_bytes(), "<stdin>"), "<stdin>")
    elif os.path.isdir(path):
        raise InputError(path, f"is a directory, given as {role}", expected="a text file with one segment per line")
    elif os.path.exists(path) and not os.path.isfile(path):  # a pipe, e.g. the shell's <(...)
        with open(path, "rb") as stream:
            lines = split_lines(decode_utf8(stream.read(), path), path)
    else:
        lines = read_lines(path)
    if not lines:
        raise InputError(_shown(path), f"file is empty ({role})", line=1, expected="one segment per line")
    return lines


def _stdin_bytes() -> bytes:
    if sys.stdin is None or sys.stdin.closed:
        raise InputError("<stdin>", "standard input is closed", expected="hypotheses on standard input, or -i FILE")
    return sys.stdin.buffer.read()


def read_systems(args, request: Request) -> list[tuple[str, list[str]]]:
    """(name, hypotheses) per system. Files are named by their paths (a path given twice is an error,
    except sacrebleu's case of the baseline repeated in a paired test, which is dropped with a note);
    standard input's tab-separated columns are sacrebleu's "System 1", "System 2" ..."""
    if args.input is None:
        columns = _stdin_columns()
        if len(columns) == 1:
            return [(STDIN, columns[0])]
        return [(f"System {k + 1}", column) for k, column in enumerate(columns)]
    if args.input.count(STDIN) > 1:
        raise MtmetaError("-i/--hyp: standard input (-) can be read once")
    systems: list[tuple[str, list[str]]] = []
    for position, path in enumerate(args.input, 1):
        if path in (name for name, _ in systems):
            if request.test and path == systems[0][0]:
                print(f"mtmeta score: ignoring {path!r} at position {position} of -i: it is the baseline",
                      file=sys.stderr)
                continue
            first = args.input.index(path) + 1
            raise MtmetaError(f"-i/--hyp: {path} is given twice (positions {first} and {position}); a system is "
                              "named by its path, so give each system once")
        systems.append((path, read_segments(path, "a hypothesis file")))
    return systems


def _stdin_columns() -> list[list[str]]:
    lines = read_segments(STDIN, "hypotheses")
    width = lines[0].count("\t") + 1
    if width == 1:
        return [lines]
    columns: list[list[str]] = [[] for _ in range(width)]
    for number, line in enumerate(lines, 1):
        fields = line.split("\t")
        if len(fields) != width:
            raise InputError("<stdin>", f"{len(fields)} tab-separated fields but line 1 has {width}", line=number,
                             expected="one column per system on every line (as sacrebleu reads standard input)")
        for column, text in zip(columns, fields, strict=True):
            column.append(text)
    return columns


def read_references(args, config: dict | None) -> list[list[str]]:
    """The reference streams: files (mtmeta's --ref or sacrebleu's positional references, with -nr
    tab-separated references per line), or those of a study test set (-t/-l)."""
    if args.test_set:
        if args.ref:
            raise MtmetaError("give either reference files or a test set (-t), not both (as in sacrebleu)")
        return [read_segments(str(test_set_fields(args, config)["ref"]), "the test set's reference")]
    if not args.ref:
        raise MtmetaError("no references: give reference files (mtmeta score REF -i HYP, or mtmeta score METRIC --ref "
                          "REF) or a test set (-t DATASET -l SRC-TRG)")
    if args.num_refs > 1:
        if len(args.ref) != 1:
            raise MtmetaError(f"-nr {args.num_refs} reads tab-separated references from one file, not {len(args.ref)}")
        lines = read_segments(args.ref[0], "the references")
        streams: list[list[str]] = [[] for _ in range(args.num_refs)]
        for number, line in enumerate(lines, 1):
            fields = line.split("\t", args.num_refs - 1)
            if len(fields) != args.num_refs:
                raise InputError(args.ref[0], f"{len(fields)} tab-separated references", line=number,
                                 expected=f"{args.num_refs} (-nr {args.num_refs})")
            for stream, text in zip(streams, fields, strict=True):
                stream.append(text)
        return streams
    return [read_segments(path, "a reference file") for path in args.ref]


def _missing_file_hint(path: str) -> str | None:
    """A positional word that is no file but a metric: say how to name metrics."""
    from mtmeta import metrics

    if not os.path.exists(path) and path != STDIN and (path in metrics.METRICS or path.lower() in metrics.METRICS):
        return (f"{path!r} is read as a reference file (sacrebleu's form, because neither --ref nor -t is given); "
                f"name metrics with -m {path} REF..., or use mtmeta's form: mtmeta score {path} --ref REF")
    return None


# ------------------------------------------------------------------ test sets
def test_set_fields(args, config: dict) -> dict[str, Path]:
    """The files of a study test set and language pair: src, ref and each system's output."""
    from mtmeta.data.corpus import Layout, discover_systems, template_fields
    from mtmeta.data.prepare import source_file
    from mtmeta.errors import FetchError
    from mtmeta.metrics.params import did_you_mean

    test_sets = {name: ds for name, ds in config["datasets"].items() if ds.get("kind") == "wmt"}
    if args.test_set not in test_sets:
        raise ConfigError(f"-t {args.test_set}: not a test set of the study{did_you_mean(args.test_set, test_sets)} "
                          f"(test sets: {', '.join(sorted(test_sets))}; config's datasets of kind wmt)")
    dataset = test_sets[args.test_set]
    if not args.langpair:
        raise ConfigError(f"-t {args.test_set} needs a language pair (-l); it has "
                          f"{', '.join(dataset['language_pairs'])}")
    if args.langpair not in dataset["language_pairs"]:
        raise ConfigError(f"-l {args.langpair}: {args.test_set} has no such language pair; it has "
                          f"{', '.join(dataset['language_pairs'])}")
    try:
        root, _ = source_file(args.resources, dataset["corpus"])
    except FetchError:
        root = _fetch(config, dataset["corpus"], Path(args.resources))
    layout = Layout.from_config(dataset["layout"])
    fields = template_fields(args.langpair)
    files = {"src": root / layout.source.format(**fields), "ref": root / layout.reference.format(**fields)}
    systems = discover_systems(root, layout, args.langpair, tuple(dataset.get("exclude_files", ())))
    return {**files, **{name: path for name, path in systems.items() if name not in files}}


def _fetch(config: dict, source_id: str, resources: Path) -> Path:
    """A corpus fetched (mirror or upstream, sha256-checked) and extracted, as ``mtmeta fetch`` does."""
    from mtmeta.app.config_file import REPO_ROOT
    from mtmeta.data.archive import safe_extract
    from mtmeta.data.fetch import fetch, plan_fetch, resolve_mirror
    from mtmeta.data.prepare import source_file

    mirror = resolve_mirror(config["data_mirror"], [Path.cwd(), REPO_ROOT])
    log.info("-t: fetching %s into %s (%s)", source_id, resources / source_id, mirror or "upstream")
    folder = resources / source_id
    manifest = fetch(plan_fetch(source_id, config["sources"][source_id], mirror), folder)
    if manifest["archive"]:
        safe_extract(folder / manifest["file"], folder / "extracted", manifest.get("extract_prefix"),
                     manifest.get("extract_members"))
    return source_file(resources, source_id)[0]


def echo(args, config: dict) -> int:
    """sacrebleu's --echo: the requested fields of the test set, tab-separated, one segment per line."""
    if not args.test_set:
        raise MtmetaError("--echo prints fields of a test set: give -t DATASET -l SRC-TRG")
    files = test_set_fields(args, config)
    requested = list(files) if args.echo == ["all"] else args.echo
    unknown = [name for name in requested if name not in files]
    if unknown:
        raise ConfigError(f"--echo {' '.join(unknown)}: no such field of {args.test_set} {args.langpair} (fields: "
                          f"{', '.join(files)}, or all)")
    columns = [read_segments(str(files[name]), f"{args.test_set} {args.langpair} {name}") for name in requested]
    for values in zip(*columns, strict=True):
        print("\t".join(values))
    return 0


# ------------------------------------------------------------------ metrics
def _parse_settings(pairs: list[str]) -> dict:
    """--set KEY=VALUE pairs, each value read as YAML (numbers, lists, strings), booleans written
    true or false only: YAML 1.1's yes/no/on/off stay strings, which a boolean parameter refuses."""
    if not pairs:
        return {}
    import yaml

    settings = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {pair!r}: expected KEY=VALUE, e.g. --set tokenize=intl")
        try:
            settings[key.strip()] = yaml.load(text, Loader=_setting_loader())  # noqa: S506 (a SafeLoader)
        except yaml.YAMLError as exc:
            problem = str(exc).splitlines()[0]
            raise ConfigError(f"--set {pair!r}: the value {text!r} is not valid YAML ({problem}); expected a number, "
                              "a word, true/false or a list such as [1.0, 0.6]") from None
    return settings


@cache
def _setting_loader():
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                 list("tTfF"))
    return Loader



def _option_params(args, registry_name: str) -> dict:
    return {param: getattr(args, _dest(flags)) for flags, names, param, _ in METRIC_OPTIONS
            if registry_name in names and getattr(args, _dest(flags)) is not None}


def _check_options_apply(args, names: list[str]) -> None:
    for flags, applies_to, param, _ in METRIC_OPTIONS:
        if getattr(args, _dest(flags)) is not None and not set(applies_to) & set(names):
            metric = {"bleu": "BLEU", "chrf": "chrF", "ter": "TER"}[applies_to[0]]
            raise ConfigError(f"{'/'.join(flags)} sets {metric}'s {param} (as in sacrebleu), but no {metric} is "
                              f"scored here (metrics: {', '.join(names)}); set other metrics' parameters with "
                              f"--set {param}=...")


def resolve_metrics(args, request: Request, ids: dict | None, where: str | None) -> list[tuple[str, str, dict]]:
    """(id, registry name, parameters) per metric named: the definition of the id in ``ids`` (a config
    mapping with its ``metric_settings``, read from the file ``where``), then sacrebleu's options,
    then --set; checked before any file is read."""
    from mtmeta import metrics

    settings = _parse_settings(args.set)
    resolved = []
    for metric_id in request.metric_ids:
        try:
            resolved.append((metric_id, *metrics.resolve(metric_id, ids, where=where)))
        except metrics.UnknownMetricError as error:
            if os.path.isfile(metric_id) and args.metrics:
                raise ConfigError(f"{error}. -m takes every word after it, and {metric_id} is a file: put reference "
                                  "files first (mtmeta score REF... -i HYP... -m METRIC...)") from None
            if os.path.isfile(metric_id):
                raise ConfigError(f"{error}. {metric_id} is a file, but with --ref or -t the first words name metrics "
                                  "(mtmeta's form): give references either as files or as a test set (-t), not "
                                  "both") from None
            raise
    _check_options_apply(args, [name for _, name, _ in resolved])
    return [(metric_id, name, {**params, **_option_params(args, name), **settings})
            for metric_id, name, params in resolved]


def build_metrics(args, resolved: list[tuple[str, str, dict]], config: dict | None) -> list[tuple[str, object]]:
    """(id, metric) per metric named, each built (its parameters checked) before any is scored."""
    from mtmeta import metrics

    lang = args.lang or (args.langpair.split("-")[-1] if args.langpair else None)
    # a test set's text as the workflow scores it (whitespace tokens where config says it is tokenised)
    tokenized = bool(args.test_set and config and config["datasets"][args.test_set].get("tokenized", False))
    built = []
    for metric_id, name, params in resolved:
        with stage(f"building {metric_id}"):
            built.append((metric_id, metrics.get_for_dataset(name, lang, params, tokenized=tokenized,
                                                             resources=args.resources)))
    return built


# ------------------------------------------------------------------ the command
def cmd_score(args) -> int:
    from mtmeta.metrics.kernels import preferring_plain

    with preferring_plain():  # one command, a file or a few: the compiled kernels would not repay their load
        return _score(args)


def _score(args) -> int:
    from mtmeta.app.config_file import DEFAULT_CONFIG, read_metric_settings  # without loading the schema

    request = read_request(args)
    # Ids resolve through the config's metric_settings (its definition first, as in the workflow). A
    # --config file is validated whole (a missing one is an error); the study's own file is read for
    # its ids only (check-config and CI validate it), unless -t needs its datasets.
    config_file = args.config or (str(DEFAULT_CONFIG) if DEFAULT_CONFIG.is_file() else None)
    config = None
    if config_file and (args.config or args.test_set or args.echo):
        from mtmeta.app.config import load_config

        config = load_config(config_file, checksums=False)
    if (args.test_set or args.echo) and config is None:
        raise ConfigError("-t and --echo read the study's datasets: give --config FILE")
    if args.echo:
        return echo(args, config)
    _check_modes(args, request)
    # a loaded config's ids are its own and those of the files it extends, as the workflow reads them
    ids = config if config is not None else read_metric_settings(config_file) if config_file else None
    resolved = resolve_metrics(args, request, ids, config_file)
    try:
        refs = read_references(args, config)
    except InputError as error:
        hint = _missing_file_hint(error.path)
        if hint:
            raise MtmetaError(f"{error}. {hint}") from None
        raise
    systems = read_systems(args, request)
    _check_lengths(systems, refs, args)
    if request.test and len(systems) < 2:
        raise MtmetaError(f"--paired-{request.test} compares systems with the first (the baseline): give two or "
                          "more hypothesis files (-i)")
    if request.segment_level and (len(systems) > 1 or request.test or args.confidence):
        raise MtmetaError("--level segment scores one --hyp file, without --confidence or paired tests (as "
                          "sacrebleu's -sl)")
    built = build_metrics(args, resolved, config)
    if request.sacrebleu_form and args.width is None and any(metric.score_scale <= 1 for _, metric in built):
        # sacrebleu's one decimal is for scores out of 100; a METEOR of 0.4 would say nothing
        request = replace(request, width=UNIT_SCALE_WIDTH)
    if request.segment_level:
        return _segment_level(args, request, built, systems[0], refs)
    if not request.test and not args.confidence and len(systems) == 1:
        return _single_system(args, request, built, systems[0], refs)
    return _several_systems(args, request, built, systems, refs)


def _check_modes(args, request: Request) -> None:
    if request.sacrebleu_form and request.segment_level and len(request.metric_ids) > 1:
        raise MtmetaError("sacrebleu's form prints one metric at segment level (-sl); for a column per metric, name "
                          f"them first: mtmeta score {' '.join(request.metric_ids)} --ref REF --level segment")


def _check_lengths(systems, refs, args) -> None:
    first, n = systems[0][0], len(systems[0][1])
    named = [(path, stream) for path, stream in zip(args.ref or [f"{args.test_set} {args.langpair} ref"] * len(refs),
                                                    refs, strict=False)]
    for path, stream in (*named, *systems[1:]):
        if len(stream) != n:
            raise MtmetaError(f"{_shown(path)}: {len(stream)} lines but {_shown(first)} has {n}; expected one line per "
                              "segment in every hypothesis and reference file")


def _result(system: str, metric_id: str, metric, stats, score: float | None = None, **extra) -> output.Result:
    from mtmeta.metrics.base import short_signature

    signature = extra.pop("signature", None) or metric.signature()
    return output.Result(system=system, metric=metric_id, label=metric.score_label(),
                         score=float(metric.corpus_score(stats)) if score is None else float(score),
                         signature=signature,
                         short_signature=short_signature(signature, metric.signature_abbreviations()), **extra)


def _ordered(request: Request, built: list) -> list:
    """sacrebleu prints single-system and multi-system scores in the order of its metric names (sorted),
    and a paired test's in the order given."""
    if request.sacrebleu_form and not request.test:
        return sorted(built, key=lambda item: item[0].upper())
    return built


def _segment_level(args, request: Request, built, system, refs) -> int:
    from mtmeta.metrics.base import short_signature

    name, hyps = system
    columns, signatures, lines = {}, [], []
    for metric_id, metric in built:
        with stage(f"scoring {metric_id} of", _shown(name)):
            stats = metric.stats(hyps, refs)
            scores = metric.segment_scores(stats)
        columns[metric_id] = scores.tolist()
        signature = metric.segment_signature()
        signatures.append(short_signature(signature, metric.signature_abbreviations()) if args.short else signature)
        if request.sacrebleu_form:
            lines += [_result("", metric_id, metric, row, score, signature=signature,
                              details=metric.segment_details(row)) for row, score in zip(stats, scores, strict=True)]
    if request.sacrebleu_form:
        print(output.segment_lines(lines, request.width, args.short, args.score_only))
        return 0
    out, err = output.mtmeta_segments(columns, signatures, request.fmt, request.width)
    print(out)
    if err:
        print(err, file=sys.stderr)
    return 0


def _single_system(args, request: Request, built, system, refs) -> int:
    name, hyps = system
    results = []
    for metric_id, metric in _ordered(request, built):
        with stage(f"scoring {metric_id} of", _shown(name)):
            stats = metric.stats(hyps, refs)
            score = metric.corpus_result(stats)
        results.append(_result(_shown(STDIN), metric_id, metric, stats, score.score, details=score.details))
    if request.sacrebleu_form:
        print(output.single_system(results, request.fmt, request.width, args.short, args.score_only))
    else:
        print(output.mtmeta_corpus(results, request.fmt, request.width, args.short, args.score_only))
    return 0


def _several_systems(args, request: Request, built, systems, refs) -> int:
    """Several systems, or intervals, or a paired test (sacrebleu's definitions): the first system is
    the baseline of a paired test."""
    import pandas as pd

    from mtmeta.metaeval.system_comparison import compare_systems

    test = request.test
    n_samples = args.paired_bs_n if test == "bs" else args.paired_ar_n if test == "ar" else 0
    confidence_n = args.confidence_n if (args.confidence or test == "bs") else 0
    extra = [f"bs:{confidence_n}"] if confidence_n and test != "bs" else []
    extra += [f"{test}:{n_samples}"] if test else []
    results, tables = [], []
    for metric_id, metric in _ordered(request, built):
        stats = {}
        for name, hyps in systems:
            with stage(f"scoring {metric_id} of", _shown(name)):
                stats[name] = metric.stats(hyps, refs)
        with stage(f"comparing the systems by {metric_id}:", ", ".join(_shown(name) for name, _ in systems)):
            table = compare_systems(metric, stats, test, n_samples, confidence_n, args.seed)
        signature = "|".join([metric.signature(), *extra, f"seed:{args.seed}"]) if extra else metric.signature()
        for row in table.itertuples():
            results.append(_result(row.system, metric_id, metric, stats[row.system], row.score, signature=signature,
                                   mean=None if pd.isna(row.mean) else float(row.mean),
                                   ci=None if pd.isna(row.ci) else float(row.ci),
                                   p_value=None if pd.isna(row.p_value) else float(row.p_value),
                                   details=metric.corpus_details(stats[row.system])))
        table.insert(1, "metric", metric_id)
        table["signature"] = results[-1].short_signature if args.short else signature
        tables.append(table)
    names = [name for name, _ in systems]
    if request.sacrebleu_form and len(systems) == 1 and request.fmt != "tsv":  # -ci of one system: its lines
        print(output.single_system(results, request.fmt, request.width, args.short, args.score_only))
        return 0
    if request.sacrebleu_form:
        print(output.systems_table(results, _row_names(names, test, args.input is None), _columns(results), request.fmt,
                                   request.width, args.short, test, n_samples)
              if request.fmt != "tsv" else _tsv(tables, request.width))
        return 0
    table = pd.concat(tables, ignore_index=True)
    table["system"] = table["system"].replace(STDIN, "<stdin>")
    signatures = dict(zip(table["metric"], table["signature"], strict=True))
    print(output.mtmeta_systems(table, request.fmt, request.width, test, signatures))
    return 0


def _row_names(names: list[str], test: str | None, stdin_columns: bool) -> list[tuple[str, str]]:
    """(system, name shown): sacrebleu's "Baseline: NAME" for the baseline of a paired test, and its
    "Baseline", "System 1", ... for standard input's columns."""
    if test and stdin_columns:
        shown = ["Baseline", *(f"System {k}" for k in range(1, len(names)))]
    else:
        shown = [_shown(name) for name in names]
        shown[0] = f"Baseline: {shown[0]}" if test else shown[0]
    return list(zip(names, shown, strict=True))


def _columns(results: list[output.Result]) -> list[tuple[str, str]]:
    """(metric id, column title): sacrebleu's score name, or the id where two metrics share a name."""
    labels = {r.metric: r.label for r in results}
    count = Counter(labels.values())
    return [(metric_id, label if count[label] == 1 else metric_id) for metric_id, label in labels.items()]


def _tsv(tables: list[pd.DataFrame], width: int) -> str:
    import pandas as pd

    table = pd.concat(tables, ignore_index=True)
    return table.to_csv(sep="\t", index=False, float_format=f"%.{width}f", na_rep="").rstrip("\n")
