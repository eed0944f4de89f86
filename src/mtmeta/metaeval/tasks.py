"""mt-metrics-eval's task sets: the WMT metrics task's official meta-evaluation as data.

A *task* (MTME's ``tasks.Task``) is one ranking of metrics: a test set and pair (several pairs for
pooled accuracy), a level, a correlation, its grouping, whether human translations are scored as
systems, the gold score, the reference, whether outlier systems stay, the primary-submission filter
and the significance test. A *task set* (``tasks.TaskSet``) is a list of tasks with weights; its
*average* (``TaskSetResults.AverageCorrs``) rescales each task's value by its correlation's range
(accuracies and soft pairwise accuracy lie in [0, 1], correlations in [-1, 1]: value -> (value - b) /
(e - b)) and sums value x weight over the tasks, for the metrics present in every task; its
significance is MTME's ``AverageCorrMatrix`` (:func:`mtmeta.stats.permutation.average_significance`).

The four official sets (``mt_metrics_eval/tasks.py``):

- ``wmt23`` (``WMT23``): pairs en-de, he-en, zh-en (sorted); task 1 pairwise accuracy at the system
  level pooled over the pairs (``corr_fcn='accuracy'``, MTME's ``CompareMetricsWithGlobalAccuracy``),
  weight = number of pairs; then per pair system-level Pearson, segment-level Pearson (no grouping)
  and segment-level tie-calibrated accuracy acc_eq (``KendallWithTiesOpt``, variant ``acc23``,
  ``avg_by='item'``, ``sample_rate=1.0``, ``perm_test='pairs'``), weight 1 each; weights normalised to
  sum 1. Human translations are scored only for the pairs with several references (en-he, he-en).
- ``wmt24-on-wmt23`` (``WMT24OnWMT23``): the WMT24 design on the WMT23 pairs: per pair soft pairwise
  accuracy (``corr_fcn='pce'``, 1 - PCE) and item-grouped acc_eq, equal weights.
- ``wmt24`` (``WMT24``): the same on wmt24 en-de, en-es, ja-zh; human translations for en-de.
- ``wmt25`` (``WMT25``): the same on wmt25's 16 pairs (``cs-de_DE`` ... ``ja-zh_CN``); no human
  translations.

Every task takes MTME's defaults (``Task``): k = 1000 draws (MTME's constructors default to k = 0),
blocks of 100 for early stopping, stop below p 0.02 or above 0.5, clusters at p <= 0.05, outliers left
out, primary submissions only, the standard reference and gold (``meta_info.py``,
:mod:`mtmeta.data.mtme_meta`). A design can be put on another test set (``test_set``, ``lps``): the
WMT23 design on WMT21 news is ``wmt23(["en-de", "en-ru", "zh-en"], test_set="wmt21.news")``; there,
human translations are scored where a pair has more than one reference (the rule MTME's constructors
spell out for their own pairs) unless ``human`` says otherwise.

Where mtmeta departs from MTME, on purpose:

- a metric without scores for some systems a task needs is left out of that task and counted in the
  notes (MTME's ``EvalSet(strict=False)`` fills the scores with zeros);
- soft pairwise accuracy uses the segments rated for every system of the task (MTME drops the
  unrated cells and reshapes, which misaligns systems rated on different segments); the segments
  left out are counted;
- significance draws come from ``numpy.random.default_rng(seed + task index)`` (MTME draws from the
  unseeded global generator), so every run is reproducible; the test statistics and early stopping
  are MTME's;
- ``KendallLike`` tasks get values but no significance test (clusters are then one metric each, as
  MTME's k = 0).

Beyond MTME, every task carries its reference levels (:mod:`mtmeta.metaeval.task_levels`): the chance
level, the all-tied floor of a tie-calibrated task and, where the root holds several raters' scores
(``<test set>/<lp>.raters.tsv``), the human level; they are averaged as the metrics are, never ranked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import yaml

from mtmeta.data.evalset import EvalSet, MetricScores, read_all_metric_scores, read_evalset
from mtmeta.data.mtme_meta import MetaInfo, meta_info
from mtmeta.errors import InputError
from mtmeta.metaeval.task_levels import (
    CHANCE,
    CHANCE_NOTE,
    FLOOR,
    FLOOR_NOTE,
    HUMAN,
    HUMAN_NOTE,
    LEVEL_DRAWS,
    NO_LEVEL,
    Level,
    average_level,
    chance_level,
    floor_level,
    human_level,
    read_raters,
)
from mtmeta.stats.kendall_like import grouped_kendall_like
from mtmeta.stats.permutation import (
    DEFAULT_SEED,
    EarlyStopping,
    MetricRanking,
    assign_ranks,
    average_significance,
    rank_metrics,
)
from mtmeta.stats.system_pairs import complete_segments

CORR_FUNCTIONS = ("pearson", "spearman", "kendall", "accuracy", "pce", "KendallWithTiesOpt", "KendallLike")
LEVELS = ("sys", "seg")
TASK_SETS = ("wmt23", "wmt24-on-wmt23", "wmt24", "wmt25")
WMT25_PAIRS = ("cs-de_DE", "cs-uk_UA", "en-ar_EG", "en-bho_IN", "en-cs_CZ", "en-et_EE", "en-is_IS", "en-it_IT",
               "en-ja_JP", "en-ko_KR", "en-mas_KE", "en-ru_RU", "en-sr_Cyrl_RS", "en-uk_UA", "en-zh_CN", "ja-zh_CN")
NICKNAMES = {"KendallWithTiesOpt": "acc-t", "pce": "soft-acc", "accuracy": "acc"}


@dataclass(frozen=True)
class Task:
    """MTME's ``tasks.Task`` (its attribute names). ``lang``: a pair, or pairs joined by ',' for
    ``accuracy``. ``human``: True, False or "auto" (True where the pair has several references).
    ``gold``/``refs``: None for the standard ones. ``weight``: the task's weight in its set."""

    test_set: str
    lang: str
    level: str = "sys"
    human: bool | str = True
    avg_by: str = "none"
    corr_fcn: str = "pearson"
    k: int = 1000
    gold: str | None = None
    refs: tuple | None = None
    close_refs: tuple = ()
    use_outliers: bool = False
    primary: bool = True
    pval: float = 0.05
    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.50
    replace_nans_with_zeros: bool = False
    perm_test: str = "scores"
    corr_fcn_args: tuple = ()  # sorted (key, value) pairs
    weight: float = 1.0

    def __post_init__(self):
        if self.corr_fcn not in CORR_FUNCTIONS:
            raise ValueError(f"corr_fcn {self.corr_fcn!r} is not one of {', '.join(CORR_FUNCTIONS)}")
        if self.level not in LEVELS:
            raise ValueError(f"level {self.level!r} is not one of {', '.join(LEVELS)}")
        if self.avg_by not in ("none", "sys", "item"):
            raise ValueError(f"avg_by {self.avg_by!r} is not none, sys or item")
        if self.perm_test not in ("scores", "pairs"):
            raise ValueError(f"perm_test {self.perm_test!r} is not scores or pairs")
        if "," in self.lang and self.corr_fcn != "accuracy":
            raise ValueError(f"several pairs ({self.lang}) need corr_fcn accuracy, not {self.corr_fcn}")
        if self.corr_fcn == "accuracy" and self.level != "sys":
            raise ValueError("pairwise accuracy is system level")
        if self.human not in (True, False, "auto"):
            raise ValueError(f"human must be true, false or auto, not {self.human!r}")

    @property
    def pairs(self) -> list[str]:
        return self.lang.split(",")

    @property
    def args(self) -> dict:
        return dict(self.corr_fcn_args)

    @property
    def range(self) -> tuple[float, float]:
        """MTME's ``TaskResults.range``: [0, 1] for accuracy, pce and acc23, else [-1, 1]."""
        if self.corr_fcn in ("accuracy", "pce"):
            return (0.0, 1.0)
        if self.corr_fcn == "KendallWithTiesOpt" and self.args.get("variant", "acc23") != "23":
            return (0.0, 1.0)
        return (-1.0, 1.0)

    @property
    def label(self) -> str:
        return f"{self.lang} {self.level} {NICKNAMES.get(self.corr_fcn, self.corr_fcn)}"


@dataclass(frozen=True)
class TaskSet:
    name: str
    tasks: tuple
    source: str  # what defines it: MTME's constructor or the YAML file
    notes: tuple = ()  # how it departs from its definition (a design put on other data)

    @property
    def weights(self) -> list[float]:
        total = sum(t.weight for t in self.tasks)
        return [t.weight / total for t in self.tasks]


def _args(**kw) -> tuple:
    return tuple(sorted(kw.items()))


MULTIPLE_REFS = {"wmt23": {"en-he", "he-en"}, "wmt24": {"en-de"}, "wmt25": set()}
DEFAULT_PAIRS = {"wmt23": ("en-de", "he-en", "zh-en"), "wmt24": ("en-de", "en-es", "ja-zh"), "wmt25": WMT25_PAIRS}


def _human(lp: str, design_set: str, test_set: str, human) -> bool | str:
    if human is not None:
        return human
    if test_set == design_set:
        return lp in MULTIPLE_REFS[design_set]
    return "auto"


def wmt23(lps: Sequence[str] | None = None, *, test_set: str = "wmt23", human=None, k: int = 1000,
          primary: bool = True) -> TaskSet:
    """MTME's ``tasks.WMT23``."""
    lps = sorted(lps or DEFAULT_PAIRS["wmt23"])
    humans = [_human(lp, "wmt23", test_set, human) for lp in lps]
    pooled = any(h is True for h in humans) or ("auto" if "auto" in humans else False)
    tasks = [Task(test_set, ",".join(lps), "sys", pooled, corr_fcn="accuracy", k=k, primary=primary,
                  weight=len(lps))]
    for lp, h in zip(lps, humans, strict=True):
        tasks += [Task(test_set, lp, "sys", h, corr_fcn="pearson", k=k, primary=primary),
                  Task(test_set, lp, "seg", h, corr_fcn="pearson", k=k, primary=primary),
                  Task(test_set, lp, "seg", h, avg_by="item", corr_fcn="KendallWithTiesOpt", k=k, primary=primary,
                       perm_test="pairs", corr_fcn_args=_args(sample_rate=1.0))]
    return TaskSet("wmt23", tuple(tasks), "mt_metrics_eval/tasks.py: WMT23")


def _wmt24_design(name: str, design_set: str, lps, test_set, human, k, primary, source) -> TaskSet:
    lps = sorted(lps or DEFAULT_PAIRS[design_set])
    tasks = []
    for lp in lps:
        h = _human(lp, design_set, test_set, human)
        tasks += [Task(test_set, lp, "sys", h, corr_fcn="pce", k=k, primary=primary),
                  Task(test_set, lp, "seg", h, avg_by="item", corr_fcn="KendallWithTiesOpt", k=k, primary=primary,
                       perm_test="pairs", corr_fcn_args=_args(sample_rate=1.0))]
    return TaskSet(name, tuple(tasks), source)


def wmt24_on_wmt23(lps=None, *, test_set: str = "wmt23", human=None, k: int = 1000, primary: bool = True) -> TaskSet:
    """MTME's ``tasks.WMT24OnWMT23``."""
    return _wmt24_design("wmt24-on-wmt23", "wmt23", lps, test_set, human, k, primary,
                         "mt_metrics_eval/tasks.py: WMT24OnWMT23")


def wmt24(lps=None, *, test_set: str = "wmt24", human=None, k: int = 1000, primary: bool = True) -> TaskSet:
    """MTME's ``tasks.WMT24``."""
    return _wmt24_design("wmt24", "wmt24", lps, test_set, human, k, primary, "mt_metrics_eval/tasks.py: WMT24")


def wmt25(lps=None, *, test_set: str = "wmt25", human=None, k: int = 1000, primary: bool = True) -> TaskSet:
    """MTME's ``tasks.WMT25``."""
    return _wmt24_design("wmt25", "wmt25", lps, test_set, human, k, primary, "mt_metrics_eval/tasks.py: WMT25")


DESIGNS = {"wmt23": wmt23, "wmt24-on-wmt23": wmt24_on_wmt23, "wmt24": wmt24, "wmt25": wmt25}
# Each design's own test set and pairs (what MTME's constructor runs it on).
DESIGN_DATA = {"wmt23": ("wmt23", DEFAULT_PAIRS["wmt23"]), "wmt24-on-wmt23": ("wmt23", DEFAULT_PAIRS["wmt23"]),
               "wmt24": ("wmt24", DEFAULT_PAIRS["wmt24"]), "wmt25": ("wmt25", DEFAULT_PAIRS["wmt25"])}


def official_task_set(name: str, *, lps=None, test_set: str | None = None, human=None, k: int = 1000,
                      primary: bool = True) -> TaskSet:
    if name not in DESIGNS:
        raise ValueError(f"unknown task set {name!r}; expected one of {', '.join(DESIGNS)} or a YAML file")
    kwargs = {"human": human, "k": k, "primary": primary}
    if test_set:
        kwargs["test_set"] = test_set
    task_set = DESIGNS[name](lps, **kwargs)
    own_set, own_pairs = DESIGN_DATA[name]
    pairs = sorted({lp for t in task_set.tasks for lp in t.pairs})
    if (task_set.tasks[0].test_set, pairs) != (own_set, sorted(own_pairs)):
        if human is not None:
            human_rule = f"human translations {'scored' if human else 'not scored'}"
        elif task_set.tasks[0].test_set == own_set:
            human_rule = "human translations scored as mt-metrics-eval's constructor scores them"
        else:
            human_rule = "human translations scored where a pair has several references"
        task_set = replace(task_set, notes=(
            f"the {name} design (mt-metrics-eval's on {own_set} {', '.join(own_pairs)}) put on "
            f"{task_set.tasks[0].test_set} {', '.join(pairs)}; {human_rule}",))
    return task_set


TASK_KEYS = set(Task.__dataclass_fields__)


def load_task_set(path: str | Path, *, k: int | None = None) -> TaskSet:
    """A user's task set from YAML: ``name`` and ``tasks``, a list of mappings with Task's attributes
    (``lang`` a pair or a list of pairs; ``corr_fcn_args`` a mapping; ``refs`` a list; ``weight``)."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(path, f"cannot read the task set: {exc}", expected="a YAML mapping") from None
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), list) or not data["tasks"]:
        raise InputError(path, "no list under 'tasks'", expected="name: ..., tasks: [{test_set: ..., lang: ...}, ...]")
    unknown = sorted(set(data) - {"name", "tasks"})
    if unknown:
        raise InputError(path, f"unknown key(s) {unknown}", expected="name and tasks")
    tasks = []
    for number, entry in enumerate(data["tasks"], start=1):
        where = f"tasks[{number}]"
        if not isinstance(entry, dict):
            raise InputError(path, f"{where} is not a mapping", expected="test_set, lang, level, corr_fcn ...")
        bad = sorted(set(entry) - TASK_KEYS)
        if bad:
            raise InputError(path, f"{where}: unknown key(s) {bad}",
                             expected="keys among " + ", ".join(sorted(TASK_KEYS)))
        if "test_set" not in entry or "lang" not in entry:
            raise InputError(path, f"{where} lacks test_set or lang", expected="test_set and lang in every task")
        entry = dict(entry)
        if isinstance(entry["lang"], list):
            entry["lang"] = ",".join(entry["lang"])
        if "corr_fcn_args" in entry:
            entry["corr_fcn_args"] = tuple(sorted((entry["corr_fcn_args"] or {}).items()))
        if "refs" in entry and entry["refs"] is not None:
            entry["refs"] = tuple(entry["refs"]) if isinstance(entry["refs"], list) else (entry["refs"],)
        if "close_refs" in entry:
            entry["close_refs"] = tuple(entry["close_refs"] or ())
        if k is not None:
            entry["k"] = k
        try:
            tasks.append(Task(**entry))
        except (TypeError, ValueError) as exc:
            raise InputError(path, f"{where}: {exc}", expected="a task as docs/tasks.md describes") from None
    return TaskSet(str(data.get("name") or path.stem), tuple(tasks), str(path))


# ------------------------------------------------------------------------------------------ running


@dataclass
class Pair:
    """One pair of a root: the EvalSet, its stored metric scores, the meta-info used."""

    evalset: EvalSet
    metrics: list[MetricScores]
    info: MetaInfo
    deviations: list = field(default_factory=list)
    raters: Path | None = None  # <test set>/<lp>.raters.tsv: several raters' scores of the same cells


@dataclass
class TaskResult:
    task: Task
    ranking: MetricRanking | None  # None when the task could not run (see notes)
    refs: tuple = ()
    gold: str = ""
    n_systems: int = 0
    n_items: int = 0
    human_used: bool = False
    notes: list = field(default_factory=list)
    chance: Level = NO_LEVEL  # a metric without information (mtmeta.metaeval.task_levels)
    floor: Level = NO_LEVEL  # every pair tied (tie-calibrated acc_eq only)
    human: Level = NO_LEVEL  # one rater against the others, where the pairs have raters

    def value(self, metric: str) -> float:
        return self.ranking.values[self.ranking.names.index(metric)]

    def rank(self, metric: str) -> int:
        return self.ranking.ranks[self.ranking.names.index(metric)]


@dataclass
class TaskSetResult:
    task_set: TaskSet
    tasks: list
    average: dict  # metric -> (value, cluster rank), best first
    p_values: np.ndarray
    seed: int
    k: int
    notes: list = field(default_factory=list)
    levels: dict = field(default_factory=dict)  # level name -> its average over the tasks (NaN if some task lacks it)


class PairNotFound(InputError):
    pass


def load_pair(root: str | Path, test_set: str, lp: str, *, std_ref: str | None = None,
              metric_dirs: Sequence[str | Path] = ()) -> Pair:
    """A pair of an MTME root with every stored metric score, and those of ``metric_dirs`` (folders
    holding ``<lp>/<NAME>-<REF>.<level>.score``, as the study's ``results/mtme/<dataset>/metric-scores``;
    MTME's ``EvalSet(path=[...])`` and ``AddMetricsFromDir``); the meta-info from MTME's table, or (for a
    test set MTME does not know) a standard reference that must be given."""
    base = Path(root) / test_set
    if not (base / "sources").is_dir():
        present = sorted(p.parent.name for p in Path(root).glob("*/sources") if p.is_dir())
        raise PairNotFound(base, "no such test set under the root",
                           expected=f"{root}/{test_set}/sources/..., or a design put on one of the root's test sets "
                                    f"({', '.join(present) or 'none'}) with --testset")
    if not any((base / "sources").glob(f"{lp}.*")):
        known = sorted(p.name.split(".")[0] for p in (base / "sources").glob("*.*"))
        raise PairNotFound(base / "sources", f"no source file of {lp}", expected=f"one of the pairs {known}")
    info = meta_info(test_set, lp)
    ref = std_ref or (info.std_ref if info else None)
    if ref and not std_ref and not any((base / "references").glob(f"{lp}.{ref}.*")):
        present = sorted(p.name.split(".")[1] for p in (base / "references").glob(f"{lp}.*"))
        raise InputError(base / "references", f"mt-metrics-eval's standard reference {ref} of {test_set} {lp} is "
                         f"not there (references: {', '.join(present) or 'none'})",
                         expected=f"references/{lp}.{ref}.txt, or another standard reference chosen with "
                                  f"--std-ref {lp}=REF (a deviation the table then states)")
    evalset = read_evalset(root, test_set, lp, std_ref=ref)
    deviations = []
    if info is None:
        info = MetaInfo(evalset.std_ref, {}, frozenset(), frozenset())
        deviations.append(f"{test_set} {lp}: unknown to mt-metrics-eval's meta_info.py; standard reference "
                          f"{evalset.std_ref} as given, no primary filter, no outliers")
    elif std_ref and std_ref != info.std_ref:
        deviations.append(f"{test_set} {lp}: standard reference {std_ref} instead of mt-metrics-eval's {info.std_ref}")
        info = replace(info, std_ref=std_ref)
    metrics = read_all_metric_scores(root, evalset)
    stored = {m.basename for m in metrics}
    for folder in metric_dirs:
        more = read_all_metric_scores(Path(folder), evalset, folder=Path(folder) / lp)
        clash = sorted({m.name + "." + m.level for m in metrics} & {m.name + "." + m.level for m in more})
        if clash:
            raise InputError(Path(folder) / lp, f"metric scores {clash} are also stored in the root",
                             expected="each metric once")
        metrics += more
    absent = sorted(info.primary_metrics - stored - {m.basename for m in metrics}, key=str.lower)
    if absent:
        deviations.append(f"{test_set} {lp}: {len(absent)} of mt-metrics-eval's {len(info.primary_metrics)} primary "
                          f"metrics have no scores here: {', '.join(absent)}")
    raters = base / f"{lp}.raters.tsv"
    return Pair(evalset, metrics, info, deviations, raters if raters.is_file() else None)


def display_name(metric: MetricScores, primaries: frozenset) -> str:
    """MTME's ``DisplayName(fmt='spreadsheet')``: '*' before a metric that is not a primary
    submission, '[noref]' after a reference-free one."""
    name = metric.basename if metric.basename in primaries else "*" + metric.basename
    return name + ("[noref]" if not metric.refs else "")


@dataclass
class _Prepared:
    gold: np.ndarray  # systems x items
    metrics: dict  # display name -> systems x items
    refs: tuple
    gold_name: str
    systems: list
    human_used: bool
    notes: list
    ratings: np.ndarray | None = None  # raters x systems x segments, where the pair has raters


def _prepare(task: Task, pair: Pair, level: str, extra: Mapping[str, Mapping[str, MetricScores]]) -> _Prepared:
    """MTME's ``GetCorrelations`` for one pair: the systems (all but the main and close references,
    the human translations unless scored, the outliers unless kept, those without any gold score),
    the gold matrix, and every metric at ``level`` that uses only the main references and passes the
    primary filter, plus the user's metrics."""
    evalset, info = pair.evalset, pair.info
    main_refs = set(task.refs) if task.refs else {info.std_ref}
    gold_name = task.gold or info.std_gold.get(level)
    notes = []
    if gold_name is None:
        raise InputError(Path(evalset.name) / "human-scores", f"MTME defines no standard {level}-level gold score "
                         f"for {evalset.name} {evalset.lp}", expected="gold: NAME in the task")
    if task.gold and info.std_gold.get(level) and task.gold != info.std_gold[level]:
        notes.append(f"{evalset.name} {evalset.lp}: {level}-level gold {task.gold} instead of mt-metrics-eval's "
                     f"{info.std_gold[level]}")
    elif task.gold and not info.std_gold.get(level):
        notes.append(f"{evalset.name} {evalset.lp}: {level}-level gold {task.gold} as given (mt-metrics-eval "
                     f"defines none)")
    human = task.human
    if human == "auto":
        human = len(evalset.reference_names) > 1
    systems = set(evalset.systems) - main_refs - set(task.close_refs)
    if not human:
        systems -= set(evalset.human_systems)
    if not task.use_outliers:
        systems -= set(info.outlier_systems)
    table = evalset.human[level]
    rows = table[table["name"] == gold_name]
    if rows.empty:
        raise InputError(Path(evalset.name) / "human-scores" / f"{evalset.lp}.{gold_name}.{level}.score",
                         "no such human score", expected=f"one of {evalset.human_score_names.get(level, [])}")
    if level == "seg":
        grid = rows.pivot(index="system", columns="seg_id", values="score").reindex(
            columns=range(1, evalset.n_segments + 1))
    else:
        grid = rows.set_index("system")[["score"]]
    rated = set(grid.index[grid.notna().any(axis=1)])
    unrated = sorted(systems - rated)
    if unrated:
        notes.append(f"{evalset.lp}: {len(unrated)} system(s) without {gold_name} scores left out: "
                     f"{', '.join(unrated)}")
    systems = sorted(systems & rated)
    human_used = bool(set(systems) & set(evalset.human_systems))
    gold = grid.reindex(systems).to_numpy(dtype=float)
    metrics = {}
    for metric in pair.metrics:
        if metric.level != level or not set(metric.refs) <= main_refs:
            continue
        if task.primary and info.primary_metrics and metric.basename not in info.primary_metrics:
            continue
        name = display_name(metric, info.primary_metrics)
        _add(metrics, name, metric, systems, notes, evalset.lp)
    absent = [name for name, by_pair in extra.items() if evalset.lp not in by_pair]
    if absent:
        notes.append(f"{evalset.lp}: no scores of {', '.join(absent)}; left out of its tasks")
    for name, by_pair in extra.items():
        if name in absent:
            continue
        metric = by_pair[evalset.lp].get(level)
        if metric is None:
            notes.append(f"{evalset.lp}: {name} has no {level}-level scores; left out")
            continue
        _add(metrics, name, metric, systems, notes, evalset.lp)
    ratings = None if pair.raters is None else read_raters(pair.raters, systems, evalset.n_segments)
    return _Prepared(gold, metrics, tuple(sorted(main_refs)), gold_name, systems, human_used, notes, ratings)


def _add(metrics: dict, name: str, metric: MetricScores, systems: list, notes: list, lp: str) -> None:
    index = {s: i for i, s in enumerate(metric.systems)}
    lacking = [s for s in systems if s not in index]
    if lacking:
        notes.append(f"{lp}: {name} lacks scores of {len(lacking)} system(s) ({', '.join(lacking[:3])}"
                     f"{' ...' if len(lacking) > 3 else ''}); left out of this task")
        return
    metrics[name] = metric.scores[[index[s] for s in systems]]


def run_task(task: Task, pairs: Mapping[str, Pair], *, seed: int, extra=None,
             level_seed: int | None = None) -> TaskResult:
    """One task's values, significance tests and clusters (MTME's ``Task.Run``), and its reference
    levels (:mod:`mtmeta.metaeval.task_levels`; ``level_seed``: the human level's held-out rule,
    ``seed`` by default)."""
    extra = extra or {}
    stopping = EarlyStopping(task.block_size, task.early_min, task.early_max)
    level = "seg" if task.corr_fcn == "pce" else task.level
    prepared = [_prepare(task, pairs[lp], level, extra) for lp in task.pairs]
    notes = [n for p in prepared for n in p.notes]
    result = TaskResult(task, None, tuple(r for p in prepared for r in p.refs), ",".join(p.gold_name for p in prepared),
                        sum(len(p.systems) for p in prepared), 0, any(p.human_used for p in prepared), notes)
    if task.corr_fcn == "accuracy":
        names = sorted(set.intersection(*(set(p.metrics) for p in prepared)))
        dropped = sorted(set.union(*(set(p.metrics) for p in prepared)) - set(names))
        if dropped:
            notes.append(f"left out of pooled accuracy (not on every pair): {', '.join(dropped)}")
        gold = np.concatenate([p.gold.ravel() for p in prepared])
        metrics = {n: np.concatenate([p.metrics[n].ravel() for p in prepared]) for n in names}
        sizes = [len(p.systems) for p in prepared]
        options = {"statistic": "accuracy", "set_sizes": sizes}
        result.n_items = 1
    else:
        p = prepared[0]
        gold, metrics = p.gold, p.metrics
        names = sorted(metrics)
        result.n_items = gold.shape[1]
        if task.corr_fcn == "pce":
            try:
                keep = complete_segments(gold)
            except ValueError:
                keep = np.flatnonzero(~np.isnan(gold).any(axis=0))
                notes.append(f"{task.lang}: soft pairwise accuracy on the {len(keep)} segments rated for every "
                             f"system ({int((~np.isnan(gold).all(axis=0)).sum()) - len(keep)} partly rated left out)")
            gold = gold[:, keep]
            metrics = {n: m[:, keep] for n, m in metrics.items()}
            result.n_items = len(keep)
            options = {"statistic": "spa"}
        elif task.corr_fcn == "KendallWithTiesOpt":
            variant = {"acc23": "acc_eq", "23": "tau_eq"}[task.args.get("variant", "acc23")]
            options = {"statistic": f"{variant}_calibrated", "average_by": task.avg_by,
                       "sample_rate": float(task.args.get("sample_rate", 1.0)), "calibration_seed": seed,
                       "running_sum": True}
        elif task.corr_fcn == "KendallLike":
            result = _kendall_like(result, gold, metrics, task)
            _add_levels(result, task, level, gold, prepared, seed, seed if level_seed is None else level_seed)
            return result
        else:
            options = {"statistic": task.corr_fcn, "average_by": task.avg_by,
                       "nan_as_zero": task.replace_nans_with_zeros}
    if not names:
        notes.append(f"{task.label}: no metric to rank")
        return result
    if len(result.refs) and not len(gold):
        notes.append(f"{task.label}: no system with gold scores")
        return result
    result.ranking = rank_metrics(gold, {n: metrics[n] for n in names}, k=task.k, stopping=stopping, seed=seed,
                                  threshold=task.pval, **options)
    _add_levels(result, task, level, gold, prepared, seed, seed if level_seed is None else level_seed)
    return result


def _add_levels(result: TaskResult, task: Task, level: str, gold, prepared: list, seed: int, level_seed: int) -> None:
    sizes = [len(p.systems) for p in prepared] if task.corr_fcn == "accuracy" else None
    result.chance = chance_level(task.corr_fcn, gold, avg_by=task.avg_by, args=task.args, set_sizes=sizes, seed=seed)
    result.floor = floor_level(task.corr_fcn, gold, avg_by=task.avg_by, args=task.args)
    if all(p.ratings is not None for p in prepared):
        result.human = human_level(task.corr_fcn, level, [p.ratings for p in prepared], avg_by=task.avg_by,
                                   args=task.args, seed=level_seed)


def _kendall_like(result: TaskResult, gold, metrics, task: Task) -> TaskResult:
    threshold = float(task.args.get("thresh", 25.0))
    values = {n: grouped_kendall_like(gold, m, average_by=task.avg_by, threshold=threshold).value
              for n, m in metrics.items()}
    order = sorted(values, key=lambda n: (-values[n], n))
    n = len(order)
    result.ranking = MetricRanking(order, [values[m] for m in order], np.zeros((n, n)),
                                   assign_ranks(np.zeros((n, n)), task.pval), np.zeros((n, n), dtype=np.int64),
                                   f"kendall-like|{task.avg_by}|thresh:{threshold}|no significance test")
    result.notes.append(f"{task.label}: KendallLike has no significance test here (one cluster per metric)")
    return result


def average_values(results: Sequence[TaskResult], weights: Sequence[float]) -> dict:
    """MTME's ``TaskSetResults.AverageCorrs``: per metric the sum over tasks of weight x (value - b) /
    (e - b), for the metrics in every task, best first (ties in the order the tasks met them)."""
    terms: dict[str, list] = {}
    for result, weight in zip(results, weights, strict=True):
        b, e = result.task.range
        for name, value in zip(result.ranking.names, result.ranking.values, strict=True):
            terms.setdefault(name, []).append((value - b) / (e - b) * weight)
    averages = {name: sum(t) for name, t in terms.items() if len(t) == len(results)}
    # An undefined value (a constant metric's correlation) makes the average undefined: last, not
    # wherever a NaN happens to sort.
    return dict(sorted(averages.items(), key=lambda item: (item[1] != item[1], -item[1] if item[1] == item[1] else 0)))


def run_task_set(task_set: TaskSet, root: str | Path, *, extra=None, seed: int = DEFAULT_SEED,
                 std_refs: Mapping | None = None, loaded: Mapping | None = None,
                 metric_dirs: Sequence[str | Path] = (), notes: Sequence[str] = ()) -> TaskSetResult:
    """Every task of ``task_set`` on the MTME root (task i draws with seed + i), the average and its
    significance clusters. ``extra``: the user's metrics, name -> lp -> level -> MetricScores;
    ``loaded``: pairs read already, (test set, lp) -> Pair; ``notes``: the user's statements about the
    data (e.g. systems it lacks), first among the notes."""
    pairs: dict[tuple, Pair] = dict(loaded or {})
    std_refs = std_refs or {}
    for task in task_set.tasks:
        for lp in task.pairs:
            if (task.test_set, lp) not in pairs:
                pairs[(task.test_set, lp)] = load_pair(root, task.test_set, lp,
                                                      std_ref=std_refs.get((task.test_set, lp)),
                                                      metric_dirs=metric_dirs)
    extra = _check_extra(extra or {}, pairs)
    results = []
    for index, task in enumerate(task_set.tasks):
        by_lp = {lp: pairs[(task.test_set, lp)] for lp in task.pairs}
        results.append(run_task(task, by_lp, seed=seed + index, extra=extra, level_seed=seed))
    deviations = [d for key in dict.fromkeys((t.test_set, lp) for t in task_set.tasks for lp in t.pairs)
                  for d in pairs[key].deviations]
    notes = list(dict.fromkeys([*notes, *task_set.notes, *deviations, *(n for r in results for n in r.notes)]))
    ran = [r for r in results if r.ranking is not None]
    if len(ran) < len(results):
        notes.append(f"{len(results) - len(ran)} task(s) did not run; the average is over none")
        return TaskSetResult(task_set, results, {}, np.zeros((0, 0)), seed, task_set.tasks[0].k, notes)
    weights = task_set.weights
    averages = average_values(results, weights)
    everywhere = set(averages)
    partial = sorted({n for r in results for n in r.ranking.names} - everywhere)
    if partial:
        notes.append(f"not in every task, so not averaged: {', '.join(partial)}")
    k = min(t.k for t in task_set.tasks)
    if k and averages:
        spans = [r.task.range[1] - r.task.range[0] for r in results]
        p_values, ranks = average_significance(averages, [r.ranking for r in results], weights, spans,
                                               task_set.tasks[0].pval)
    else:
        p_values = np.zeros((len(averages), len(averages)))
        ranks = assign_ranks(p_values, task_set.tasks[0].pval) if averages else []
    average = {name: (value, rank) for (name, value), rank in zip(averages.items(), ranks, strict=True)}
    ranges = [r.task.range for r in results]
    levels = {name: average_level([getattr(r, attribute) for r in results], ranges, weights)
              for name, attribute in ((CHANCE, "chance"), (FLOOR, "floor"), (HUMAN, "human"))}
    notes += _level_notes(results, pairs, task_set)
    return TaskSetResult(task_set, results, average, p_values, seed, k, notes, levels)


def _level_notes(results: list, pairs: Mapping, task_set: TaskSet) -> list[str]:
    notes = [CHANCE_NOTE.format(draws=LEVEL_DRAWS)]
    if any(not math.isnan(r.floor.value) for r in results):
        notes.append(FLOOR_NOTE)
    files = sorted({str(pairs[(t.test_set, lp)].raters.name) for t in task_set.tasks for lp in t.pairs
                    if pairs[(t.test_set, lp)].raters is not None})
    if any(not math.isnan(r.human.value) for r in results):
        notes.append(HUMAN_NOTE.format(files=", ".join(files)))
    return notes


def _check_extra(extra, pairs) -> dict:
    """The user's metrics must name pairs of the task set."""
    known = {lp for _, lp in pairs}
    for name, by_pair in extra.items():
        unknown = sorted(set(by_pair) - known)
        if unknown:
            raise InputError(Path(name), f"scores of pair(s) {unknown} that the task set does not use",
                             expected=f"pairs among {sorted(known)}")
    return extra

