"""The ``mtmeta`` command line: the same code paths the workflow scripts use.

Run ``mtmeta --help`` or ``mtmeta <command> --help``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from mtmeta import __version__
from mtmeta.app import options
from mtmeta.app.score_cli import add_arguments as add_score_arguments
from mtmeta.app.score_cli import cmd_score
from mtmeta.app.tasks_cli import add_tasks_command
from mtmeta.errors import InputError, MtmetaError, OutputError, stage, stage_of

if TYPE_CHECKING:
    import pandas as pd

log = logging.getLogger("mtmeta")


def _config(args):
    """The study's config for a command: a command that fetches nothing (sources lists them) does not
    need every source's sha256; fetch checks each one it fetches, check-config all of them."""
    from mtmeta.app.config import load_config

    return load_config(args.config, checksums=False)


def _mirror(config, args):
    from mtmeta.app.config_file import REPO_ROOT
    from mtmeta.data.fetch import resolve_mirror

    setting = args.mirror if getattr(args, "mirror", None) else config["data_mirror"]
    return resolve_mirror(setting, [Path.cwd(), REPO_ROOT])


def cmd_sources(args) -> int:
    from mtmeta.data.fetch import checksum_key, plan_fetch

    config = _config(args)
    mirror = _mirror(config, args)
    print(f"# data mirror: {mirror or 'none (upstream URLs)'}")
    print("source\torigin\tformat\tlocation\tsha256")
    for name, spec in config["sources"].items():
        plan = plan_fetch(name, spec, mirror)
        sha256 = plan.sha256 or f"(none: fetch refuses it until {checksum_key(plan)} is set)"
        print(f"{name}\t{plan.origin}\t{plan.format or '-'}\t{plan.location}\t{sha256}")
    return 0


def cmd_fetch(args) -> int:
    from mtmeta.data.archive import safe_extract
    from mtmeta.data.fetch import fetch, plan_fetch

    config = _config(args)
    mirror = _mirror(config, args)
    for name in args.source:
        if name not in config["sources"]:
            raise MtmetaError(f"unknown source {name!r}; known: {', '.join(config['sources'])}")
        folder = Path(args.resources) / name
        manifest = fetch(plan_fetch(name, config["sources"][name], mirror), folder)
        if manifest["archive"]:
            members = safe_extract(folder / manifest["file"], folder / "extracted", manifest.get("extract_prefix"),
                                   manifest.get("extract_members"))
            log.info("%s: extracted %d files to %s", name, len(members), folder / "extracted")
        print(f"{name}: {manifest['origin']} {manifest['location']} -> {folder} (sha256 {manifest['sha256']})")
    return 0


def cmd_prepare(args) -> int:
    from mtmeta.data.prepare import prepare, write_prepared

    config = _config(args)
    if args.dataset not in config["datasets"]:
        raise MtmetaError(f"unknown dataset {args.dataset!r}; known: {', '.join(config['datasets'])}")
    prepared = prepare(args.dataset, config["datasets"][args.dataset], args.lp, args.resources)
    out = Path(args.out or f"results/datasets/{args.dataset}/{args.lp}")
    write_prepared(prepared, out)
    print(json.dumps(prepared.summary, indent=2))
    excluded = prepared.report.to_frame()
    if not excluded.empty:
        print(excluded.to_string(index=False), file=sys.stderr)
    return 0


def cmd_metrics(args) -> int:
    from mtmeta import metrics
    from mtmeta.metrics.params import INTERNAL, declared_params

    for name, target in sorted(metrics.METRICS.items()):
        print(f"{name}\t{target}")
        if args.list_params:
            for param in declared_params(metrics.metric_class(name)).values():
                if param.name not in INTERNAL:
                    print(f"    {param.describe()}")
    for metric_id, setting in sorted(_config(args)["metric_settings"].items()):
        print(f"{metric_id}\t{setting['metric']} {setting.get('params', {})}")
    return 0


def cmd_human_scores(args) -> int:
    from mtmeta.data.judgments import read_comparisons
    from mtmeta.stats.human import system_scores

    comparisons = read_comparisons(args.comparisons)
    is_self = comparisons["sys_a"] == comparisons["sys_b"]
    if is_self.any():
        # As the workflow's default (self_comparisons: exclude): a system cannot win or lose against itself.
        counts = comparisons.loc[is_self, "sys_a"].value_counts().sort_index()
        print(f"mtmeta human-scores: excluded {int(is_self.sum())} comparison(s) of a system with itself: "
              + ", ".join(f"{name} ({count})" for name, count in counts.items()), file=sys.stderr)
        comparisons = comparisons.loc[~is_self]
        if comparisons.empty:
            raise InputError(args.comparisons, "every comparison is of a system with itself",
                             expected="comparisons of two different systems")
    table = system_scores(comparisons).sort_values(args.sort, ascending=False)
    table.to_csv(sys.stdout, sep="\t", index=False, float_format="%.6f")
    return 0


MIN_SYSTEMS = 3  # with two systems every correlation is +-1 or undefined, and its p-value undefined


def cmd_correlate(args) -> int:
    from mtmeta.data.tables import read_system_score_file
    from mtmeta.stats.correlation import UNDEFINED, correlations

    scores = read_system_score_file(args.metric_scores, "score", "metric system scores (columns system and score)")
    human = read_system_score_file(args.human_scores, args.human_score,
                                   f"human system scores (columns system and {args.human_score})")
    joined = scores.drop(columns="line").merge(human.drop(columns="line"), on="system", how="outer", indicator=True)
    excluded = {
        "not in the human scores": joined.loc[joined["_merge"] == "left_only", "system"],
        "not in the metric scores": joined.loc[joined["_merge"] == "right_only", "system"],
        f"no {args.human_score} (unjudged)": joined.loc[(joined["_merge"] == "both")
                                                        & joined[args.human_score].isna(), "system"],
        "no metric score": joined.loc[(joined["_merge"] == "both") & joined["score"].isna(), "system"],
    }
    for reason, systems in excluded.items():
        if len(systems):
            print(f"mtmeta correlate: excluded {len(systems)} system(s), {reason}: {', '.join(sorted(systems))}",
                  file=sys.stderr)
    joined = joined[(joined["_merge"] == "both")].dropna(subset=["score", args.human_score])
    if len(joined) < MIN_SYSTEMS:
        raise MtmetaError(f"{len(joined)} system(s) have both a metric score ({args.metric_scores}) and a "
                          f"{args.human_score} ({args.human_scores}): {', '.join(sorted(joined['system'])) or 'none'}; "
                          f"expected at least {MIN_SYSTEMS} (with fewer, a correlation is +-1 or undefined)")
    for column, path, what in (("score", args.metric_scores, "metric score"),
                               (args.human_score, args.human_scores, args.human_score)):
        if joined[column].nunique() == 1:
            raise MtmetaError(f"{path}: every one of the {len(joined)} systems has the same {what} "
                              f"({float(joined[column].iloc[0]):g}); expected scores that differ (a correlation with a "
                              "constant is undefined)")
    result = correlations(joined["score"].to_numpy(), joined[args.human_score].to_numpy())
    if result["p_method"].startswith(UNDEFINED):  # a value or a stated reason, never a printed nan
        raise MtmetaError(f"{args.metric_scores} and {args.human_scores}: the correlation is "
                          f"{result['p_method']}; expected finite scores that differ")
    for key, value in result.items():
        print(f"{key}\t{value}")
    return 0


def cmd_evaluate(args) -> int:
    import pandas as pd

    from mtmeta.app.evaluate import TABLES, check_name, check_output_directory, evaluate, write_tables
    from mtmeta.app.evaluate_inputs import default_cores, workflow_builder

    if args.system is None and args.segment is None:
        raise MtmetaError("give --system FILE, --segment FILE or both")
    if args.name is not None:
        name = check_name(args.name)
    else:
        name = check_name(Path(args.system or args.segment).name.split(".")[0], "the name from the file name")
    out = Path(args.out or Path(args.results) / "evaluate" / name)
    check_output_directory(out)  # before the work, not after it
    config = _config(args)
    # A pair the results lack is built by the study's workflow, when run in the study's directory.
    prepare = workflow_builder(Path(args.results), args.config, args.cores or default_cores())
    evaluations = evaluate(config, Path(args.results), name, not args.lower_is_better, args.system,
                           args.segment, args.draws, args.seed, args.confidence, args.against, prepare, args.config)
    written = write_tables(evaluations, out)
    if args.format == "json":
        print(json.dumps({f"{d} {lp}": {"notes": e.notes, **{kind: _records(e.tables[kind])
                                                              for kind in TABLES if kind in e.tables}}
                          for (d, lp), e in evaluations.items()}, indent=1))
    elif args.format == "tsv":
        frames = [e.tables["system_level"] for e in evaluations.values() if "system_level" in e.tables]
        for (dataset, lp), evaluation in evaluations.items():
            if "system_level" not in evaluation.tables:
                print(f"mtmeta evaluate: {dataset} {lp} has no system-level table (items, not systems); its "
                      f"segment-level agreement is in {out / 'segment_level.tsv'}", file=sys.stderr)
        if frames:
            pd.concat(frames, ignore_index=True).to_csv(sys.stdout, sep="\t", index=False,
                                                        float_format=f"%.{args.width}f")
    else:
        for (dataset, lp), evaluation in evaluations.items():
            print(_evaluation_text(dataset, lp, name, evaluation, args.width))
    print(f"mtmeta evaluate: wrote {', '.join(str(p) for p in written)}", file=sys.stderr)
    return 0


def _records(table: pd.DataFrame) -> list[dict]:
    """A table's rows for JSON at full precision (Python floats), with null for NaN (JSON has no NaN)."""
    import pandas as pd

    return [{key: None if pd.isna(value) else value.item() if hasattr(value, "item") else value
             for key, value in row.items()} for row in table.to_dict(orient="records")]


def _levels_text(levels, name: str, f) -> list[str]:
    """Per human level the pair has: each statistic's human level (with its interval), the metric, its
    chance level and the share of the headroom it closes (levels.tsv has every row and interval)."""
    import pandas as pd

    lines = []
    for against, group in levels.groupby("against", sort=False):
        lines.append(f"  between chance and a human ({against}; levels.tsv):")
        for statistic, rows in group.groupby("statistic", sort=False):
            human = rows[rows["level"] == "human"].iloc[0]
            mine = rows[(rows["level"] == "metric") & (rows["who"] == name)]
            level = rows[(rows["level"] == "chance") & (rows["who"] == f"permuted {name}")]
            if not len(mine):
                continue
            interval = "" if pd.isna(human["low"]) else f" [{f(human['low'])}, {f(human['high'])}]"
            share = mine["share"].iloc[0]
            lines.append(f"    {statistic:<16} human ({human['who']}) {f(human['value'])}{interval}  yours "
                         f"{f(mine['value'].iloc[0])}  chance {f(level['value'].iloc[0]) if len(level) else 'n/a'}  "
                         f"share {'n/a' if pd.isna(share) else f'{share:.0%}'}")
    return lines


def _evaluation_text(dataset: str, lp: str, name: str, evaluation, width: int) -> str:
    """A reader's summary of one pair: correlations with intervals, segment-level agreement, the
    metric among the built-in ones (WMT-style ranks) and its significant wins and losses."""
    import pandas as pd

    f = lambda value: "n/a" if pd.isna(value) else f"{value:.{width}f}"  # noqa: E731
    tables = evaluation.tables
    if "system_level" not in tables:  # an evaluator-kind pair: items of two hypotheses, no systems
        seg = tables["segment_level"].iloc[0]
        return "\n".join([f"{dataset} {lp}: {name}, {seg['n_comparisons']} items",
                          f"  three-way accuracy {f(seg['three_way_accuracy'])}  acc_eq {f(seg['acc_eq'])}  "
                          f"tau_b {f(seg['tau_b'])}", *(f"  note: {note}" for note in evaluation.notes)])
    system = tables["system_level"]
    lines = [f"{dataset} {lp}: {name}, {int(system['n_systems'].iloc[0])} systems"]
    boot = tables.get("bootstrap", pd.DataFrame(columns=["human_score"])).set_index("human_score")
    for row in system.itertuples():
        interval = ""
        if row.human_score in boot.index:
            b = boot.loc[row.human_score]
            interval = (f" [{f(b['pearson_low'])}, {f(b['pearson_high'])}] {b['interval_method']} "
                        f"{b['confidence']:.0%}")
            if f(b["pearson"]) != f(row.pearson):  # the interval is of the segment means' Pearson: shown beside it
                interval = f" (segment means: pearson {f(b['pearson'])}{interval})"
        lines.append(f"  system level vs {row.human_score}: pearson {f(row.pearson)}{interval}  spearman "
                     f"{f(row.spearman)}  kendall {f(row.kendall)}")
    if "segment_level" in tables:
        seg = tables["segment_level"].iloc[0]
        lines.append(f"  segment level ({seg['n_comparisons']} comparisons): tau_wmt12 {f(seg['tau_wmt12'])}  "
                     f"tau_wmt14 {f(seg['tau_wmt14'])}  tau_b {f(seg['tau_b'])}  acc_eq {f(seg['acc_eq'])}")
    if "levels" in tables:
        lines += _levels_text(tables["levels"], name, f)
    ranks, pairs = tables["ranks"], tables["williams"]
    lines.append(f"  ranks by Pearson with {ranks['human_score'].iloc[0]} ({ranks['test'].iloc[0]}):")
    for row in ranks.itertuples():
        mark = "  <- yours" if row.metric == name else ""
        rank = "-" if pd.isna(row.rank) else row.rank  # not ranked: the note says why
        note = f"  ({row.note})" if isinstance(getattr(row, "note", ""), str) and row.note else ""
        lines.append(f"    {rank:>2}  {row.metric:<28} {f(row.pearson)}{mark}{note}")
    level = float(ranks["test"].iloc[0].rsplit(":", 1)[1])
    beats = pairs[(pairs["metric_1"] == name) & (pairs["p_one_sided"] <= level)]["metric_2"].tolist()
    beaten = pairs[(pairs["metric_2"] == name) & (pairs["p_one_sided"] <= level)]["metric_1"].tolist()
    lines.append(f"  Williams: significantly better than {len(beats)} ({', '.join(beats) or '-'}), worse than "
                 f"{len(beaten)} ({', '.join(beaten) or '-'})")
    if "clusters" in tables:
        # mt-metrics-eval's view: the metric's value and significance cluster among the built-in metrics.
        for (statistic, level_name), group in tables["clusters"].groupby(["statistic", "level"], sort=False):
            mine = group[group["metric"] == name]
            if len(mine):
                rank = mine["rank"].iloc[0]  # none where the value is undefined
                cluster = "no cluster (undefined)" if pd.isna(rank) else f"cluster {int(rank)}"
                clusters = int(group["rank"].max()) if group["rank"].notna().any() else 0
                lines.append(f"  {level_name} {statistic} (mt-metrics-eval, permutation clusters): "
                             f"{f(mine['value'].iloc[0])}, {cluster} of {clusters} among {len(group)} metrics")
    lines += [f"  note: {note}" for note in evaluation.notes]
    return "\n".join(lines)


def cmd_export_scores(args) -> int:
    """A finished study's metric scores of an mt-metrics-eval pair, in its layout."""
    import pandas as pd

    from mtmeta.app.config import metric_spec, metrics_of
    from mtmeta.io import read_json, read_tsv
    from mtmeta.metaeval.export import export_metric
    from mtmeta.metrics.spec import MetricSpec

    config = _config(args)
    ds = config["datasets"].get(args.dataset)
    if ds is None or ds["kind"] != "mtme" or args.lp not in ds["language_pairs"]:
        known = [f"{d} {lp}" for d, spec in config["datasets"].items() if spec["kind"] == "mtme"
                 for lp in spec["language_pairs"]]
        raise MtmetaError(f"{args.dataset} {args.lp}: not an mt-metrics-eval (mtme) pair of the study; expected one "
                          f"of: {', '.join(known) or 'none configured'}")
    results = Path(args.results)
    summary_path = results / "datasets" / args.dataset / args.lp / "summary.json"
    if not summary_path.is_file():
        raise MtmetaError(f"{summary_path} not found: export-scores reads a finished study (run `make study`), or "
                          "pass --results DIR")
    summary = read_json(summary_path)
    wanted = args.metrics or [m for m in metrics_of(config, args.dataset, args.lp)
                              if m not in config["external_scores"]]
    written = []
    for metric_id in wanted:
        scores = results / "scores" / args.dataset / args.lp
        if not (scores / f"{metric_id}.sys.tsv").is_file():
            raise MtmetaError(f"{scores / f'{metric_id}.sys.tsv'} not found: {metric_id} is not scored on "
                              f"{args.dataset} {args.lp} in {results}")
        spec = MetricSpec(metric_id, *metric_spec(config, metric_id))
        written += export_metric(args.out, summary, metric_id, spec.higher_is_better,
                                 pd.read_parquet(scores / f"{metric_id}.seg.parquet"),
                                 read_tsv(scores / f"{metric_id}.sys.tsv"))
    for path in written:
        print(path)
    return 0


def cmd_check_config(args) -> int:
    from mtmeta.app.config import load_config

    if args.file and args.config:
        raise MtmetaError("check-config: give the config file once (FILE or --config FILE)")
    files = args.file or ([args.config] if args.config else None)
    config = load_config(files)
    shown = " + ".join(files) if files else "config/config.yaml"
    print(f"{shown}: valid; {len(config['sources'])} sources, {len(config['datasets'])} datasets, "
          f"metrics {config['metrics']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mtmeta",
        description="mtmeta: how well does an MT metric agree with human judgments? "
        "Data preparation, metric scoring and correlation (the Snakemake workflow runs the same code).",
    )
    parser.add_argument("--version", action="version", version=f"mtmeta {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name, handler, help_text):
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        return p

    def with_config(p):
        p.add_argument("--config", help="config file (default: the repository's config/config.yaml)")
        return p

    add_tasks_command(add)

    p = with_config(add("sources", cmd_sources, "List every declared source and where it would be fetched from."))
    p.add_argument("--mirror", help="override data_mirror (auto, none, or a directory)")

    p = with_config(add("fetch", cmd_fetch, "Fetch sources (mirror or upstream), verify sha256, extract archives."))
    p.add_argument("source", nargs="+", help="source ids from config (see `mtmeta sources`)")
    p.add_argument("--resources", default="resources", help="download directory (default: resources)")
    p.add_argument("--mirror", help="override data_mirror (auto, none, or a directory)")

    p = with_config(add("prepare", cmd_prepare,
                        "Build the segment, comparison and human-score tables of one dataset and language pair."))
    p.add_argument("dataset", help="dataset id from config, e.g. wmt12")
    p.add_argument("lp", help="language pair, e.g. en-cs")
    p.add_argument("--resources", default="resources", help="where fetched sources are (default: resources)")
    p.add_argument("--out", help="output directory (default: results/datasets/DATASET/LP)")

    p = add("score", cmd_score,
            "Score system outputs against references with any metric: mtmeta's form (mtmeta score METRIC... --ref "
            "REF --hyp FILE) or sacrebleu's command line (mtmeta score REF... -i FILE -m METRIC...).")
    add_score_arguments(p)

    p = with_config(add("metrics", cmd_metrics,
                        "List the registered metrics (with -v, their parameters) and the ids config defines."))
    p.add_argument("-v", "--params", dest="list_params", action="store_true",
                   help="list each parameter with its type, default and allowed values")

    p = add("human-scores", cmd_human_scores,
            "Compute > others, >= others and expected wins from a comparisons table (.parquet or .tsv).")
    p.add_argument("comparisons", help="table with sys_a, sys_b, outcome columns")
    p.add_argument("--sort", default="gt_others", choices=["gt_others", "ge_others", "expected_wins"])

    p = add("correlate", cmd_correlate, "Pearson, Spearman and Kendall of metric system scores vs a human score.")
    p.add_argument("metric_scores", help="TSV with system and score columns (a *.sys.tsv file)")
    p.add_argument("human_scores", help="TSV from prepare (human_scores.tsv)")
    p.add_argument("--human-score", default="gt_others",
                   choices=["gt_others", "ge_others", "expected_wins", "official"],
                   help="official: the official score a dataset reads (WMT14's TrueSkill)")

    p = with_config(add("evaluate", cmd_evaluate,
                        "Meta-evaluate your own metric's scores on the study's datasets, beside the built-in "
                        "metrics: correlations with bootstrap intervals, segment-level agreement, Williams, Meng "
                        "and WMT-style ranks (reads the study's results; run in the study's directory, it builds a "
                        "pair they lack with the workflow and scores the built-in metrics that need nothing else)."))
    p.add_argument("--system", help="system scores: TSV with dataset, lp, system, score")
    p.add_argument("--segment", help="segment scores: TSV with dataset, lp, system, seg_id, score (needed for the "
                                     "bootstrap and segment-level agreement; system scores default to their means)")
    p.add_argument("--name", help="your metric's name in the tables (default: the file name up to its first dot)")
    p.add_argument("--lower-is-better", action="store_true", help="lower scores are better (as TER)")
    p.add_argument("--results", default="results", help="the study's results directory (default: results)")
    p.add_argument("--against", nargs="+", metavar="METRIC",
                   help="compare with these built-in metric ids only (default: every metric the study scores on "
                        "the pair)")
    p.add_argument("--out", help="where the tables go (default: RESULTS/evaluate/NAME)")
    p.add_argument("--cores", type=options.positive_int,
                   help="cores of the workflow run that prepares a pair the results lack (default: every core)")
    p.add_argument("--draws", type=options.config_int("bootstrap", "draws"),
                   help="bootstrap draws, as config's bootstrap.draws allows (default: its value)")
    p.add_argument("--seed", type=options.seed,
                   help=f"bootstrap seed, 0 to {options.MAX_SEED} (default: config's bootstrap.seed)")
    p.add_argument("--confidence", type=options.probability, default=0.95, help="interval level (default 0.95)")
    p.add_argument("--format", choices=["text", "tsv", "json"], default="text",
                   help="text: a summary per pair; tsv: the system-level correlations; json: every table")
    p.add_argument("--width", type=options.width, default=4, metavar=options.WIDTH_METAVAR,
                   help="decimals printed (default 4; the written tables keep full precision)")

    p = with_config(add("export-scores", cmd_export_scores,
                        "Write a finished study's metric scores of an mt-metrics-eval pair in mt-metrics-eval's layout "
                        "(OUT/metric-scores/LP/NAME-REF.{sys,seg}.score; lower-is-better metrics negated, as "
                        "mt-metrics-eval reads every score as higher-is-better)."))
    p.add_argument("dataset", help="an mtme dataset id of the config, e.g. wmt21news")
    p.add_argument("lp", help="language pair, e.g. en-de")
    p.add_argument("--out", required=True, help="the test set's directory to write under (e.g. your mt-metrics-eval "
                                                "data's wmt21.news)")
    p.add_argument("--results", default="results", help="the study's results directory (default: results)")
    p.add_argument("--metrics", nargs="+", metavar="METRIC", help="these metric ids only (default: every built-in "
                                                                  "metric the study scores on the pair)")

    p = with_config(add("check-config", cmd_check_config,
                        "Validate a study's config as the workflow does (schema, ids, sources, grids, rule names)."))
    p.add_argument("file", nargs="*", metavar="FILE",
                   help="config file(s), merged in order as `snakemake --configfile FILE ...` reads them "
                        "(default: config/config.yaml)")
    return parser


class _UnusableStdin:
    """Standard input when it is closed (``<&-``): reading it is an error that says so, not an
    AttributeError or an empty text."""

    closed = True  # what a reader that checks first (score_cli) sees

    def __init__(self, problem: str):
        self.problem = problem

    def _fail(self, *_args, **_kwargs):
        raise InputError("<stdin>", self.problem, expected="text on standard input, or a file named on the command "
                                                         "line")

    read = readline = readlines = __iter__ = _fail

    @property
    def buffer(self):
        self._fail()


def _check_standard_streams() -> str | None:
    """Replace a closed standard input by one whose reads fail with a message; a problem with
    standard output (closed: every print would vanish) is returned, to be reported."""
    if sys.stdin is None:
        sys.stdin = _UnusableStdin("standard input is closed")
    if sys.stdout is None:
        return "standard output is closed; expected a terminal, a file or a pipe to write to"
    return None


class _CheckedStdout:
    """Standard output that turns a failed write (a full disk, /dev/full, an I/O error) into an
    OutputError naming it; a reader that closed the pipe stays a BrokenPipeError (a quiet stop)."""

    def __init__(self, stream):
        self._stream = stream

    def _checked(self, call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError("standard output", exc.strerror or str(exc)) from None

    def write(self, text):
        return self._checked(self._stream.write, text)

    def writelines(self, lines):
        return self._checked(self._stream.writelines, lines)

    def flush(self):
        return self._checked(self._stream.flush)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail (and print) again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    """Run one command. A failure ends in one line on standard error: ``mtmeta COMMAND: error: ...``
    naming the file, line or option and what was expected, status 2, for a problem with the input,
    the options or a file (an MtmetaError, a ValueError of a reader, an operating-system error); for
    any other exception, a bug, ``mtmeta COMMAND: internal error while STAGE FILE: ...``, status 1.
    ``-v`` prints the traceback before that line. A reader that closed the pipe: 141, quietly.

    The BLAS kernels and the one BLAS thread are the workflow's jobs' (:func:`mtmeta.reproducibility.blas_settings`,
    set before NumPy loads), so that a command gives the study's jobs' numbers to the last bit."""
    import os

    from mtmeta.logsetup import configure
    from mtmeta.reproducibility import blas_settings

    os.environ.update(blas_settings())
    args = build_parser().parse_args(argv)
    configure(level=logging.DEBUG if args.verbose else logging.INFO)
    problem = _check_standard_streams()
    if problem:
        print(f"mtmeta {args.command}: error: {problem}", file=sys.stderr)
        return 2
    stdout = sys.stdout
    sys.stdout = _CheckedStdout(stdout)
    try:
        with stage(*_command_stage(args)):  # what an internal error names, unless a finer stage does
            status = args.handler(args)
        sys.stdout.flush()  # here, not at exit: a full disk or closed pipe on stdout is reported as any error
        return status
    except BrokenPipeError:
        # The reader closed the pipe (`mtmeta score ... | head`): stop quietly, as a Unix tool does.
        _silence_stdout()
        return 141  # 128 + SIGPIPE, the status a shell reports for a tool its pipe stopped
    except KeyboardInterrupt:
        print(f"mtmeta {args.command}: interrupted", file=sys.stderr)
        return 130
    except (MtmetaError, ValueError, OSError) as exc:  # the user's input, options or files
        if args.verbose:
            traceback.print_exc()
        if isinstance(exc, OSError) and not isinstance(exc, MtmetaError):
            message = _os_error_message(exc)
        else:
            message = str(exc)
        if isinstance(exc, OutputError) and exc.path == "standard output":
            _silence_stdout()
        print(f"mtmeta {args.command}: error: {message}", file=sys.stderr)
        return USER_ERROR
    except Exception as exc:  # noqa: BLE001 -- the boundary: nothing above expected it, so it is a bug
        if args.verbose:
            traceback.print_exc()
        print(_internal_error_message(args.command, exc, args.verbose), file=sys.stderr)
        return INTERNAL_ERROR
    finally:
        sys.stdout = stdout


def _command_stage(args) -> tuple[str, str | None]:
    """What a command works on, as an internal error names it: (what it does, the file or folder)."""
    config = getattr(args, "config", None) or "config/config.yaml"
    stages = {
        "sources": lambda: ("listing the sources of", config),
        "fetch": lambda: (f"fetching {' '.join(args.source)} into", args.resources),
        "prepare": lambda: (f"preparing {args.dataset} {args.lp} from", args.resources),
        "metrics": lambda: ("listing the metrics of", config),
        "human-scores": lambda: ("computing human scores from", args.comparisons),
        "correlate": lambda: ("correlating", f"{args.metric_scores} with {args.human_scores}"),
        "evaluate": lambda: ("evaluating", args.segment or args.system),
        "export-scores": lambda: (f"exporting the scores of {args.dataset} {args.lp} from", args.results),
        "check-config": lambda: ("checking", " + ".join(args.file) if args.file else config),
    }
    return stages[args.command]() if args.command in stages else (f"running {args.command}", None)


USER_ERROR = 2  # the input, an option or a file: the message says what to change
INTERNAL_ERROR = 1  # a bug in mtmeta (Python's own status for an uncaught exception)
_MESSAGE_CHARS = 300  # an exception's text can echo a whole input; the line shows its start


def _internal_error_message(command: str, exc: Exception, verbose: bool) -> str:
    """One line for an exception nobody expected: the command, what it was doing and on which file
    (:func:`mtmeta.errors.stage`), the exception's type and the first line of its text."""
    where = stage_of(exc)
    doing = f" while {where[0]}" + (f" {where[1]}" if where[1] else "") if where else ""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if len(text) > _MESSAGE_CHARS:
        text = text[:_MESSAGE_CHARS] + f"... ({len(text):,} characters)"
    detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    advice = "the traceback is above" if verbose else "rerun with -v for the traceback"
    return (f"mtmeta {command}: internal error{doing}: {detail}; this is a bug in mtmeta, not a problem with the "
            f"input: {advice}, and please report it")


def _os_error_message(exc: OSError) -> str:
    """An operating-system error the commands did not turn into a message of their own (mtmeta.io and
    the readers do for the files they write and read): the file it concerns and the system's reason."""
    reason = exc.strerror or str(exc)
    return reason if exc.filename is None else f"{exc.filename}: {reason}"
