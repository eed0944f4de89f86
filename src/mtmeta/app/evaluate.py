"""``mtmeta evaluate``: a user's own metric scores through the study's meta-evaluation, beside the
built-in metrics, read from the study's ``results/`` (its prepared datasets and scores); what a pair
lacks there is built by the study's workflow or scored here (:mod:`mtmeta.app.evaluate_inputs`)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from mtmeta.data.user_scores import PairData, check_against, file_digest, read_score_file
from mtmeta.errors import InputError, MtmetaError
from mtmeta.io import check_replaceable_directory, read_json, read_tsv
from mtmeta.metaeval.user_metric_tables import Evaluation, evaluate_pair, segment_table, system_table
from mtmeta.metrics.spec import MetricSpec
from mtmeta.metrics.user_metric import ExternalScores

TABLES = ["system_level", "bootstrap", "segment_level", "williams", "meng", "ranks", "protocols", "clusters", "levels"]
# The levels table (where the eval set has a human level): per statistic, the human level, the user's
# metric, its chance level and the share of the headroom it closes (``against`` says which human).
LEVEL_COLUMNS = ["dataset", "lp", "against", "statistic", "level", "who", "value", "standard_error", "low", "high",
                 "share", "share_low", "share_high", "note"]


def signature_of(name: str, higher_is_better: bool, system_file, segment_file) -> str:
    """Every setting behind the user's numbers: the id, the direction and each file's sha256 (12 digits)."""
    parts = [f"external|id:{name}|higher_is_better:{str(higher_is_better).lower()}"]
    for level, path in (("system", system_file), ("segment", segment_file)):
        if path is not None:
            parts.append(f"{level}:{file_digest(path)[:12]}")
    return "|".join(parts)


def pair_data(path: str | Path) -> PairData:
    """The systems and segment ids of a prepared segment table (and, from the summary beside it, the
    human translations, whose scores a user's metric may lack)."""
    segments = pd.read_parquet(path, columns=["system", "seg_id"])
    summary = Path(path).with_name("summary.json")
    humans = read_json(summary).get("human_translations", []) if summary.is_file() else []
    return PairData(tuple(sorted(segments["system"].unique())),
                    tuple(int(s) for s in sorted(segments["seg_id"].unique())), tuple(humans))


def study_pairs(config: dict, results: Path, wanted, prepare=None,
                config_file: str | None = None) -> dict[tuple[str, str], PairData]:
    """The systems and segment ids of each wanted dataset x language pair of the study (from its
    prepared segment tables). A pair the config has but the results do not is built by ``prepare``
    (:func:`mtmeta.app.evaluate_inputs.workflow_builder`: the study's workflow), or, without it, an
    error saying what to run (``config_file``: the config the user gave)."""
    from mtmeta.app.evaluate_inputs import missing_pairs, not_prepared_message

    # A pair the config does not have: check_against names the row and the pairs there are.
    known = [(d, lp) for d, lp in wanted if d in config["datasets"] and lp in config["datasets"][d]["language_pairs"]]
    missing = missing_pairs(results, known)
    if missing:
        if prepare is None:
            raise MtmetaError(not_prepared_message(results, missing, config_file))
        prepare(missing)
    return {(d, lp): pair_data(results / "datasets" / d / lp / "segments.parquet") for d, lp in known}


def read_user_scores(config: dict, pairs: dict[tuple[str, str], PairData] | Path, system_file, segment_file,
                     prepare=None, config_file: str | None = None) -> dict:
    """(dataset, lp) -> {"system": rows | None, "segment": rows | None}, every row checked against the
    study's pairs (``pairs``, or those of a results directory: :func:`study_pairs`, with ``prepare``
    and ``config_file``)."""
    if system_file is None and segment_file is None:
        raise MtmetaError("give --system FILE, --segment FILE or both")
    read = {level: read_score_file(path, level) for level, path in (("system", system_file),
                                                                      ("segment", segment_file)) if path is not None}
    wanted = dict.fromkeys(pair for rows in read.values() for pair in zip(rows["dataset"], rows["lp"], strict=True))
    all_pairs = {(d, lp): None for d, ds in config["datasets"].items() for lp in ds["language_pairs"]}
    for level, rows in read.items():  # a pair the study does not have: named before any pair is prepared
        outside = [pair not in all_pairs for pair in zip(rows["dataset"], rows["lp"], strict=True)]
        if any(outside):
            check_against(rows[outside], system_file if level == "system" else segment_file, level, all_pairs)
    if isinstance(pairs, Path):
        pairs = study_pairs(config, pairs, wanted, prepare, config_file)
    for level, rows in read.items():
        check_against(rows, system_file if level == "system" else segment_file, level, {**all_pairs, **pairs})
    if len(read) == 2:
        in_system = set(zip(read["system"]["dataset"], read["system"]["lp"], strict=True))
        in_segment = set(zip(read["segment"]["dataset"], read["segment"]["lp"], strict=True))
        if in_system != in_segment:
            raise MtmetaError(f"{system_file} and {segment_file} cover different dataset x language pairs "
                              f"({sorted(in_system)} vs {sorted(in_segment)}); expected the same pairs in both")
    return {pair: {level: rows[(rows["dataset"] == pair[0]) & (rows["lp"] == pair[1])] if level in read else None
                   for level, rows in (("system", read.get("system")), ("segment", read.get("segment")))}
            for pair in wanted}


def builtin_scores(config: dict, results: Path, dataset: str, lp: str, against: list[str] | None = None,
                   notes: list[str] | None = None,
                   config_file: str | None = None) -> dict[str, tuple[pd.DataFrame, bool]]:
    """The system scores and direction of the built-in metrics the study scores on a pair (or of those
    of them named in ``against``): read from the study's score files; where a metric has none, scored
    here if it needs nothing but the prepared pair (:func:`mtmeta.app.evaluate_inputs.score_here`),
    else left out. What was scored here and what was left out (with the command that scores it) is
    said on standard error and appended to ``notes``."""
    from mtmeta.app.config import metric_spec, metrics_of, score_rule_name
    from mtmeta.app.evaluate_inputs import default_cores, metric_needs, say, score_here
    from mtmeta.data.corpus import target_language

    scored = metrics_of(config, dataset, lp)
    unknown = [m for m in against or [] if m not in scored]
    if unknown:
        raise MtmetaError(f"--against {' '.join(unknown)}: not scored on {dataset} {lp}; expected some of: "
                          f"{', '.join(scored)}")
    wanted = list(dict.fromkeys(against or scored))
    folder = results / "scores" / dataset / lp
    tables, here, left_out = {}, [], {}
    for metric_id in wanted:
        path = folder / f"{metric_id}.sys.tsv"
        if path.is_file():
            tables[metric_id] = _read_builtin(results, dataset, lp, path)
            continue
        needs = metric_needs(config, metric_id, target_language(lp))
        if needs:
            left_out[metric_id] = needs
        else:
            here.append(metric_id)
    notes = [] if notes is None else notes
    if here:
        say(f"{dataset} {lp}: scoring {', '.join(here)} here (no score files in {folder}), as the study's scoring "
            "rules do; nothing is written there")
        computed = score_here(config, results, dataset, lp, here)
        tables.update({metric_id: systems for metric_id, (_, systems) in computed.items()})
        notes.append(f"{', '.join(here)}: scored by evaluate (no score files in {folder}), with the study's scoring "
                     "code")
    if left_out:
        command = " ".join(["snakemake", "--cores", str(default_cores()), *(score_rule_name(m) for m in left_out),
                            *(["--configfile", config_file] if config_file else [])])
        needs = ", ".join(dict.fromkeys(what for whats in left_out.values() for what in whats))
        they, need, them = ("they", "need", "them") if len(left_out) > 1 else ("it", "needs", "it")
        line = (f"left out {', '.join(left_out)}: no score files in {folder}, and {they} {need} more than the "
                f"prepared pair ({needs}); the study scores {them}: `{command}` (a rule scores its metric on "
                "every pair it has), or `make study`")
        say(f"{dataset} {lp}: {line}")
        notes.append(line)
    found = {}
    for metric_id in wanted:
        if metric_id in tables:
            name, params = metric_spec(config, metric_id)
            found[metric_id] = (tables[metric_id], MetricSpec(metric_id, name, params).higher_is_better)
    return found


def _read_builtin(results: Path, dataset: str, lp: str, path: Path) -> pd.DataFrame:
    """A built-in metric's system scores from the study's file, with a score for every system of the pair."""
    table = read_tsv(path)
    segments = results / "datasets" / dataset / lp / "segments.parquet"
    if segments.is_file():  # a truncated score table would correlate over fewer systems than the others
        expected = pair_data(segments).systems
        missing = sorted(set(expected) - set(table.dropna(subset=["score"])["system"]))
        if missing:
            raise InputError(path, f"no score for {len(missing)} of the pair's {len(expected)} systems "
                             f"({', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''})",
                             expected=f"a score for every system of {segments}",
                             hint="A truncated or stale file: delete it and rerun its scoring")
    return table


# A metric's name in the tables and the default folder name of its outputs: a name, never a path.
NAME = re.compile(r"\w[\w.+-]*")


def check_name(name: str, option: str = "--name") -> str:
    """``name`` if it is a metric name (a letter, digit or ``_`` first, then those and ``. + -``);
    otherwise an error: a name with ``/`` or ``..`` would put the outputs elsewhere."""
    if not NAME.fullmatch(name or ""):
        raise MtmetaError(f"{option} {name!r}: expected a metric name (letters, digits, '_', then also '.', '+', "
                          "'-'), not a path or an empty name")
    return name


def _check_bootstrap(draws: int, seed: int) -> None:
    """The bootstrap's draws and seed within the ranges config's ``bootstrap`` has (the schema's: one
    range table for the config, ``mtmeta evaluate`` and this function)."""
    from mtmeta.app.config import schema_range

    for key, value in (("draws", draws), ("seed", seed)):
        low, high = schema_range("bootstrap", key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise MtmetaError(f"bootstrap {key} {value!r}: expected an integer from {low:,} to {high:,} (as config's "
                              f"bootstrap.{key})")


def evaluate(config: dict, results: Path, name: str, higher_is_better: bool, system_file=None, segment_file=None,
             draws: int | None = None, seed: int | None = None, confidence: float = 0.95,
             against: list[str] | None = None, prepare=None,
             config_file: str | None = None) -> dict[tuple[str, str], Evaluation]:
    """Each dataset x language pair of the user's files, evaluated (:func:`evaluate_pair`). An
    evaluator-kind pair (two hypotheses per item, no systems) has segment-level agreement only. A pair
    not prepared in ``results`` is built by ``prepare`` (:func:`study_pairs`); a built-in metric without
    score files is scored here or left out (:func:`builtin_scores`); ``config_file``: the config the
    user gave, for the commands evaluate names."""
    check_name(name)
    draws = config["bootstrap"]["draws"] if draws is None else draws
    seed = config["bootstrap"]["seed"] if seed is None else seed
    _check_bootstrap(draws, seed)
    user_scores = read_user_scores(config, results, system_file, segment_file, prepare, config_file)
    metric = ExternalScores(name, higher_is_better, signature_of(name, higher_is_better, system_file, segment_file))
    evaluations = {}
    for (dataset, lp), rows in user_scores.items():
        pair_dir = results / "datasets" / dataset / lp
        summary = read_json(pair_dir / "summary.json")
        system_level = summary.get("system_level", True)
        if not system_level and rows["segment"] is None:
            raise MtmetaError(f"{dataset} {lp}: its items are pairs of hypotheses (hyp1, hyp2), not systems, so it has "
                              f"no system-level human scores; expected segment scores (--segment) for it, or leave "
                              f"it out of {system_file}")
        segments = segment_table(rows["segment"], metric) if rows["segment"] is not None else None
        systems = system_table(metric, rows["system"], segments)
        comparisons_path = pair_dir / "comparisons.parquet"
        comparisons = pd.read_parquet(comparisons_path) if comparisons_path.is_file() else pd.DataFrame()
        notes: list[str] = []
        builtins = builtin_scores(config, results, dataset, lp, against, notes, config_file) if system_level else {}
        # An mt-metrics-eval set's segment-level human scores and human translations (older studies'
        # results have neither file).
        human_segments = (pd.read_parquet(pair_dir / "human_segments.parquet")
                          if (pair_dir / "human_segments.parquet").is_file() else None)
        translations = (read_tsv(pair_dir / "human_translations.tsv")
                        if (pair_dir / "human_translations.tsv").is_file() else None)
        human = read_tsv(pair_dir / "human_scores.tsv")
        evaluation = evaluate_pair(
            summary, human, comparisons, metric, systems, segments, builtins,
            draws=draws, seed=seed, alpha=1 - confidence, level=config["significance_level"],
            human_segments=human_segments, human_translations=translations,
            permutations=config["permutation"]["draws"], permutation_seed=config["permutation"]["seed"],
            chance_draws=config["chance"]["draws"])
        levels = user_levels(config, results, dataset, lp, name, higher_is_better, systems, segments, evaluation,
                             human, human_segments, draws=draws, seed=seed, alpha=1 - confidence)
        if levels is not None:
            evaluation.tables["levels"] = levels
        if segments is not None and _annotated(config, dataset, lp) and not (results / SEGMENT_LEVELS).is_file():
            notes.append(f"no human level (the second annotator) in levels.tsv: it is read from the study's "
                         f"{results / SEGMENT_LEVELS} (rule judgment_levels, after every metric's segment-level "
                         "table: `make study`), which is not there")
        evaluation.notes += notes
        evaluations[(dataset, lp)] = evaluation
    return evaluations


def user_levels(config: dict, results: Path, dataset: str, lp: str, name: str, higher_is_better: bool,
                systems: pd.DataFrame, segments: pd.DataFrame | None, evaluation, human: pd.DataFrame,
                human_segments: pd.DataFrame | None, *, draws: int, seed: int, alpha: float) -> pd.DataFrame | None:
    """The human level beside the user's metric, where the pair has one (None otherwise): on a WMT12-14
    pair, the second annotator of the study's results/correlations/segment_levels.tsv beside the
    metric's segment-level values and chance levels; on a three-rater set, one rater against the mean of
    the other two with the metric against the same means (mtmeta.metaeval.ceiling_levels.rater_levels); on a
    pair of config paper.mqm.crowd, WMT's DA scored as a metric against MQM
    (mtmeta.metaeval.crowd.crowd_levels). Needs the metric's segment scores; the intervals of the last
    two resample the segments with the metric's system scores held fixed (its statistics are not known)."""
    if segments is None:
        return None
    frames = []
    if "segment_level" in evaluation.tables:
        frames.append(_second_annotator(results, dataset, lp, name, evaluation.tables["segment_level"].iloc[0]))
    sign = 1.0 if higher_is_better else -1.0
    corpus = systems.set_index("system")["score"] * sign
    grid = segments.pivot(index="system", columns="seg_id", values="score") * sign
    ds = config["datasets"][dataset]
    if ds["kind"] == "mtme" and "assemble" in ds["evalset"]:
        from mtmeta.data.prepare import evalset_root

        root = evalset_root(ds, results.parent / "resources", results / "evalsets")
        raters = root / ds["testset"] / f"{lp}.raters.tsv"
        if raters.is_file():
            frames.append(_three_raters(config, raters, lp, name, corpus, grid, draws, seed, alpha))
    if f"{dataset}/{lp}" in config["paper"].get("mqm", {}).get("crowd", []) and human_segments is not None:
        frames.append(_crowd(config, lp, name, corpus, grid, human, human_segments, draws, seed, alpha))
    frames = [frame for frame in frames if frame is not None and len(frame)]
    if not frames:
        return None
    table = pd.concat(frames, ignore_index=True)
    table["dataset"], table["lp"] = dataset, lp
    return table.reindex(columns=LEVEL_COLUMNS)


# The study's segment-level table with the second annotator's levels (rule judgment_levels).
SEGMENT_LEVELS = Path("correlations") / "segment_levels.tsv"


def _annotated(config: dict, dataset: str, lp: str) -> bool:
    """Whether the study gives the pair a second annotator's level (rule judgment_levels' pairs, the
    workflow's ANNOTATED_LPS)."""
    from mtmeta.data.fetch import plan_fetch
    from mtmeta.data.prepare import ANNOTATED_FORMATS, judgment_source

    ds = config["datasets"][dataset]
    source = judgment_source(ds, lp) if ds["kind"] == "wmt" else None
    return source is not None and plan_fetch(source, config["sources"][source], None).format in ANNOTATED_FORMATS


def _second_annotator(results: Path, dataset: str, lp: str, name: str, row: pd.Series) -> pd.DataFrame | None:
    """The study's second annotator on a WMT12-14 pair beside the user's segment-level values and their
    chance levels (from its segment_level row), with the share of the headroom."""
    from mtmeta.metaeval.annotators import HUMAN, TABLE_STATISTICS
    from mtmeta.stats.ceiling import headroom_share

    path = results / SEGMENT_LEVELS
    if not path.is_file():
        return None
    study = read_tsv(path)
    human = study[(study["dataset"] == dataset) & (study["lp"] == lp) & (study["level"] == "human")]
    if not len(human):
        return None
    human = human.set_index("statistic")
    first = human.iloc[0]
    note = (f"{int(first['judgment_pairs'])} pairs of judgments of {int(first['repeated_comparisons'])} comparisons "
            f"judged more than once; annotators {first['annotators']}; ties {first['ties']}")
    rows = []
    for statistic in TABLE_STATISTICS:
        level = float(row.get(f"chance_{statistic}", float("nan")))
        se = float(row.get(f"chance_{statistic}_se", 0.0)) if f"chance_{statistic}_se" in row else 0.0
        rows += [{"against": HUMAN, "statistic": statistic, "level": "human", "who": HUMAN,
                  "value": human.at[statistic, "value"], "low": human.at[statistic, "low"],
                  "high": human.at[statistic, "high"], "note": note},
                 {"against": HUMAN, "statistic": statistic, "level": "metric", "who": name,
                  "value": float(row[statistic]),
                  "share": headroom_share(float(row[statistic]), level, float(human.at[statistic, "value"]))},
                 {"against": HUMAN, "statistic": statistic, "level": "chance", "who": f"permuted {name}",
                  "value": level, "standard_error": se}]
    return pd.DataFrame(rows)


def _with_shares(table: pd.DataFrame, human_who: str, against: str) -> pd.DataFrame:
    """A levels table (ceiling or crowd rows) with each metric row's share of the headroom up to
    ``human_who``'s level, and ``against``."""
    from mtmeta.stats.ceiling import headroom_share

    table = table.copy()
    table["against"] = against
    value = table.set_index(["statistic", "who"])["value"]
    shares = []
    for _, row in table.iterrows():
        if row["level"] != "metric":
            shares.append(float("nan"))
            continue
        chance = value.get((row["statistic"], f"permuted {row['who']}"), float("nan"))
        shares.append(headroom_share(row["value"], chance, value.get((row["statistic"], human_who), float("nan"))))
    table["share"] = shares
    if "left_out" in table:
        table["note"] = [f"left out: {v}" if isinstance(v, str) and v else "" for v in table["left_out"]]
    return table


def _three_raters(config: dict, raters_path: Path, lp: str, name: str, corpus: pd.Series, grid: pd.DataFrame,
                  draws: int, seed: int, alpha: float) -> pd.DataFrame:
    from mtmeta.metaeval.ceiling_levels import ALL_STATISTICS, rater_levels

    raters = read_tsv(raters_path)
    systems = sorted(set(raters["system"]) & set(corpus.dropna().index))
    seg_ids = sorted(raters["seg_id"].unique())
    table = rater_levels(lp, raters, systems, seg_ids, {name: (corpus, grid)}, seed=seed,
                         draws=max(2, config["chance"]["draws"] // 3), statistics=ALL_STATISTICS, bootstrap=draws,
                         alpha=alpha)
    return _with_shares(table, "one rater vs mean of two", "one rater held out: mean of the other two")


def _crowd(config: dict, lp: str, name: str, corpus: pd.Series, grid: pd.DataFrame, human: pd.DataFrame,
           human_segments: pd.DataFrame, draws: int, seed: int, alpha: float) -> pd.DataFrame:
    from mtmeta.metaeval.crowd import CROWD, crowd_levels

    table = crowd_levels(lp, human, human_segments, {name: (corpus, grid)}, seed=seed, draws=config["chance"]["draws"],
                         bootstrap=draws, alpha=alpha)
    return _with_shares(table, CROWD[0], "mqm, DA scored as a metric (crowd against experts)")


def import_scores(config: dict, metric_id: str, segment_files: dict[tuple[str, str], str | Path]) -> dict:
    """An ``external_scores`` id's files as the study's score tables: (dataset, lp) -> (segment table,
    system table), every row checked against the prepared segment tables ``segment_files``."""
    spec = config["external_scores"][metric_id]
    higher = spec.get("higher_is_better", True)
    metric = ExternalScores(metric_id, higher, signature_of(metric_id, higher, spec.get("system"), spec["segment"]))
    pairs = {pair: pair_data(path) for pair, path in segment_files.items()}
    tables = {}
    for pair, rows in read_user_scores(config, pairs, spec.get("system"), spec["segment"]).items():
        segments = segment_table(rows["segment"], metric)
        systems = system_table(metric, rows["system"], segments)
        tables[pair] = (segments, systems)
    return tables


OUTPUTS = frozenset([*(f"{kind}.tsv" for kind in TABLES), "notes.txt"])


def check_output_directory(out: Path) -> None:
    """``out`` may receive evaluate's tables if it is new, empty, or holds only files evaluate writes
    (an earlier run's, which :func:`write_tables` replaces as a whole, so no table of that run is left
    beside the new ones); anything else there is refused, never deleted, and so is the current
    directory or one above it."""
    check_replaceable_directory(out)
    if not out.exists():
        return
    if not out.is_dir():
        raise MtmetaError(f"--out {out}: exists and is not a directory; expected a directory for the tables")
    foreign = sorted(entry.name + ("/" if entry.is_dir() else "") for entry in out.iterdir()
                     if entry.name not in OUTPUTS or not entry.is_file())
    if foreign:
        shown = ", ".join(foreign[:5]) + (" ..." if len(foreign) > 5 else "")
        raise MtmetaError(f"--out {out}: holds {len(foreign)} entr{'y' if len(foreign) == 1 else 'ies'} mtmeta "
                          f"evaluate does not write ({shown}); expected a new or empty directory, or one an earlier "
                          "`mtmeta evaluate` wrote (its tables are replaced)")


def write_tables(evaluations: dict[tuple[str, str], Evaluation], out: Path) -> list[Path]:
    """One TSV per table kind (every pair's rows), and notes.txt; the paths written. The directory is
    replaced as a whole (:func:`mtmeta.io.atomic_directory`): a failure leaves the previous one."""
    from mtmeta.io import FLOAT_FORMAT, atomic_directory

    check_output_directory(out)
    contents = {}
    for kind in TABLES:
        frames = [e.tables[kind] for e in evaluations.values() if kind in e.tables]
        if frames:
            contents[f"{kind}.tsv"] = pd.concat(frames, ignore_index=True).to_csv(sep="\t", index=False,
                                                                                 float_format=FLOAT_FORMAT)
    notes = [f"{d} {lp}: {note}" for (d, lp), e in evaluations.items() for note in e.notes]
    contents["notes.txt"] = "".join(f"{note}\n" for note in notes)
    with atomic_directory(out) as staging:
        for name, text in contents.items():
            try:
                with open(staging / name, "w", encoding="utf-8") as handle:
                    handle.write(text)
            except OSError as exc:  # say which file (a failed write() names none)
                raise OSError(exc.errno, exc.strerror, str(staging / name)) from None
    return [out / name for name in contents]
