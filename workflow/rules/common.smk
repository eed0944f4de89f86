# Shared set-up (the config is loaded and validated, defaults filled, by the Snakefile): resolve the
# data mirror, plan every fetch, and derive the targets and wildcard constraints from config.
import functools
import os
import re
from pathlib import Path
from types import SimpleNamespace

from mtmeta import metrics as metric_registry
from mtmeta.app.config import (evalset_sources, metric_spec, metrics_of, paraphrased_rule_name, results_rule_name,
                               score_rule_name)
from mtmeta.data.corpus import LANGUAGE_PAIR, target_language
from mtmeta.data.evalset import update_manifest
from mtmeta.data.prepare import (
    ANNOTATED_FORMATS,
    SEGMENT_TOKENIZERS,
    error_annotated_pairs,
    evalset_root,
    judgment_source,
)
from mtmeta.data.fetch import plan_fetch, resolve_mirror
from mtmeta.data.neural_scores import METRICS as NEURAL_METRICS
from mtmeta.data.wmt21 import SOURCES as WMT21_SOURCES
from mtmeta.data.wmt23 import SOURCES as WMT23_SOURCES

MIRROR = resolve_mirror(config["data_mirror"], [Path(workflow.basedir), Path.cwd()])
PLANS = {name: plan_fetch(name, spec, MIRROR) for name, spec in config["sources"].items()}
DATASETS = config["datasets"]
METRICS = config["metrics"]
# Metric ids scored on each dataset x language pair: the study-wide list plus extra ones.
METRICS_FOR = {(name, lp): metrics_of(config, name, lp) for name, ds in DATASETS.items() for lp in ds["language_pairs"]}
ALL_METRICS = list(dict.fromkeys(m for ids in METRICS_FOR.values() for m in ids))
# A user's own metrics (config's external_scores): their scores are read from files, not computed.
EXTERNAL = config["external_scores"]
# The metrics with a system-scatter figure: the study-wide ones and the user's.
FIGURE_METRICS = list(dict.fromkeys([*METRICS, *EXTERNAL]))

# (dataset, lp) pairs in config order; the system-level ones have WMT-style system judgments.
DATASET_LPS = [(name, lp) for name, ds in DATASETS.items() for lp in ds["language_pairs"]]
SYSTEM_LEVEL_LPS = [(name, lp) for name, lp in DATASET_LPS if DATASETS[name]["kind"] in ("wmt", "mtme")]
# Pairs with pairwise segment-level judgments (a WMT pair may have official system scores only; an
# mt-metrics-eval set has segment scores, which its own protocols use: MTME_LPS).
JUDGED_LPS = [(name, lp) for name, lp in DATASET_LPS if DATASETS[name]["kind"] == "evaluator"
              or (DATASETS[name]["kind"] == "wmt" and judgment_source(DATASETS[name], lp) is not None)]
MTME_LPS = [(name, lp) for name, lp in DATASET_LPS if DATASETS[name]["kind"] == "mtme"]
# Pairs whose system-level bootstrap resamples pairwise judgments: their human scores' draws are the
# same for every metric, computed once (rule resample_human_scores).
RESAMPLED_LPS = [pair for pair in SYSTEM_LEVEL_LPS if pair in JUDGED_LPS]
HUMAN_DRAWS = "results/metaeval/human_draws/{dataset}/{lp}.parquet"
# The eval sets the workflow assembles (evalset: {assemble: NAME}), each with the dataset id of each
# of its test sets.
ASSEMBLED = {}
for _name, _ds in DATASETS.items():
    if _ds["kind"] == "mtme" and "assemble" in _ds["evalset"]:
        ASSEMBLED.setdefault(_ds["evalset"]["assemble"], {})[_ds["testset"]] = _name


wildcard_constraints:
    source="|".join(map(re.escape, config["sources"])),
    dataset="|".join(map(re.escape, DATASETS)),
    lp=LANGUAGE_PAIR,
    metric="|".join(map(re.escape, ALL_METRICS)),
    sweep="|".join(map(re.escape, config["sweeps"])) or "NONE",


def source_inputs(source):
    """What a consumer of `source` needs: its manifest, and its extracted tree if it is an archive.

    Both are wrapped in ancient(): downloads are never considered stale because of timestamps.
    """
    inputs = [ancient(f"resources/{source}/manifest.json")]
    if PLANS[source].archive:
        inputs.append(ancient(f"resources/{source}/extracted"))
    return inputs


def dataset_sources(dataset, lp):
    ds = DATASETS[dataset]
    if ds["kind"] == "evaluator":
        return [ds["data"], ds["labels"]]
    if ds["kind"] == "mtme":
        return [] if "assemble" in ds["evalset"] else evalset_sources(ds)
    official = [ds["official_scores"]["source"]] if "official_scores" in ds else []
    return [s for s in [ds["corpus"], judgment_source(ds, lp), *official] if s is not None]


def assembly_inputs(wildcards):
    """The repositories the WMT21 eval sets are assembled from (mtmeta.data.wmt21.SOURCES, by role)."""
    return {role: f"resources/{source}/manifest.json" for role, source in WMT21_SOURCES.items()}


def wmt23_inputs(wildcards):
    """The repositories the WMT23 side-by-side MQM sets are assembled from (mtmeta.data.wmt23.SOURCES)."""
    return {role: f"resources/{source}/manifest.json" for role, source in WMT23_SOURCES.items()}


def prepare_inputs(wildcards):
    inputs = [item for source in dataset_sources(wildcards.dataset, wildcards.lp) for item in source_inputs(source)]
    evalset = DATASETS[wildcards.dataset].get("evalset", {})
    if "assemble" in evalset:
        inputs.append(f"results/evalsets/{evalset['assemble']}")
    elif "path" in evalset:
        inputs.append(evalset_manifest(wildcards.dataset, wildcards.lp))
    return inputs


@functools.cache
def evalset_manifest(dataset, lp):
    """A user's mt-metrics-eval data (evalset: {path: DIR}): the manifest of the pair's files (path,
    size, SHA-256; mtmeta.data.evalset.manifest), rewritten when it changes, as the pair's input. A
    directory's time does not change when a file in it is edited: the manifest's does, so that
    editing, adding or removing a file of the pair reruns it (and only it)."""
    ds = DATASETS[dataset]
    target = f"results/evalsets/manifests/{dataset}/{lp}.tsv"
    update_manifest(target, Path(ds["evalset"]["path"]).expanduser(), ds["testset"], lp)
    return target


def fetch_plan(wildcards):
    # Unset fields are left out, so that adding an optional field does not re-trigger every download.
    return {key: value for key, value in vars(PLANS[wildcards.source]).items() if value is not None}


def metric_entry(metric_id):
    name, params = metric_spec(config, metric_id)
    return {"id": metric_id, "name": name, "params": params}


def repo_file(path):
    """A file of the repository (not of the working directory), as a path relative to the latter."""
    return os.path.relpath(Path(workflow.basedir) / path, Path.cwd())


def metric_code_files(metric_id):
    """The metric's code (its module and the mtmeta.metrics modules it imports): as inputs of its
    scoring rules, editing one of them reruns the scores of the metrics that use it, and only those."""
    name, _ = metric_spec(config, metric_id)
    return [repo_file(Path("src") / path) for path in metric_registry.code_files(name)]


def study_kernel_modules():
    """The compiled-kernel modules the study runs, which compile_kernels compiles: its metrics' (from
    their code files), the meta-evaluation's Kendall counts and, with Parmesan targets, its PPMI ranking."""
    from mtmeta.precompile import kernel_modules

    files = {path for metric_id in ALL_METRICS if metric_id not in EXTERNAL
             for path in metric_registry.code_files(metric_spec(config, metric_id)[0])}
    files.add("mtmeta/stats/kendall_counts.py")
    if config["parmesan"]["targets"]:
        files.add("mtmeta/parmesan/distributional_kernel.py")
    return kernel_modules(sorted(files))


# Computed once: both the rule's params and its code inputs read it.
KERNEL_MODULES = study_kernel_modules()


def kernel_code_files():
    """The source files of the kernels rule compile_kernels compiles (numba's cache is theirs)."""
    return [repo_file(Path("src", *module.split(".")).with_suffix(".py")) for module in KERNEL_MODULES]


def metric_resource_files(metric_id, languages):
    """What the metric reads for these target languages: lexical sources (e.g. METEOR's WordNet)
    and workflow products (e.g. trained word vectors)."""
    name, params = metric_spec(config, metric_id)
    files = []
    for trg in dict.fromkeys(languages):
        sources = metric_registry.required_sources(name, trg, **params)
        missing = [s for s in sources if s not in config["sources"]]
        if missing:
            raise ValueError(f"metric {metric_id} needs sources {missing}, which config does not declare")
        files += [item for source in sources for item in source_inputs(source)]
        files += metric_registry.required_files(name, trg, **params)
    return list(dict.fromkeys(files))


def prepared(kind, pairs=None):
    return [f"results/datasets/{d}/{lp}/{kind}" for d, lp in (pairs or DATASET_LPS)]


def all_segment_scores():
    return [f"results/scores/{d}/{lp}/{m}.seg.parquet" for d, lp in DATASET_LPS for m in METRICS_FOR[(d, lp)]]


def pair_scores(pairs, kind):
    """Per (dataset, lp): its metrics' specs and score files, for a rule that handles many pairs in one
    job (the files are its inputs too, flattened: see all_pair_scores)."""
    return [
        {"dataset": d, "lp": lp, "metrics": [metric_entry(m) for m in METRICS_FOR[(d, lp)]],
         "files": [f"results/scores/{d}/{lp}/{m}.{kind}" for m in METRICS_FOR[(d, lp)]]}
        for d, lp in pairs
    ]


def all_pair_scores(pairs, kind):
    return [path for pair in pair_scores(pairs, kind) for path in pair["files"]]


def target_pair(target):
    """A config target "dataset/lp" (parmesan, paper) as (dataset, lp)."""
    dataset, lp = target.split("/")
    return dataset, lp


# Meta-evaluation (metaeval.smk): one job per metric, joined into the study-wide tables.
# The pairs whose MQM error annotation the category analysis reads (config paper.mqm.categories).
# Without the key, every pair of an mt-metrics-eval dataset whose eval set has an error table.
CATEGORY_LPS = ([target_pair(t) for t in config["paper"]["mqm"]["categories"]]
                if "categories" in config["paper"].get("mqm", {})
                else error_annotated_pairs(DATASETS, Path("resources")) if "mqm" in config["paper"] else [])
# The pairs with several human ratings of the same outputs (WMT23 side-by-side MQM, three raters per
# segment): the human ceiling beside the metrics (rule ceiling_levels).
RATER_LPS = [(d, lp) for d, lp in MTME_LPS if DATASETS[d]["evalset"].get("assemble") == "wmt23"]
# The WMT12-14 pairs whose judgments come from WMT's own files (the 5-way ranking CSV, with annotator
# ids, or the mirror's pairwise preferences): a second annotator as the human level of the
# segment-level table (rule judgment_levels). The WMT13 dev subset's ranks (a course's derivation)
# and the evaluator set's labels (one per item) have no repeated WMT judgments.
ANNOTATED_LPS = [(d, lp) for d, lp in JUDGED_LPS if DATASETS[d]["kind"] == "wmt"
                 and PLANS[judgment_source(DATASETS[d], lp)].format in ANNOTATED_FORMATS]


def annotated_pairs():
    """Per annotated pair: its judgment source and format, its metrics and their segment score files."""
    return [{"dataset": d, "lp": lp, "source": judgment_source(DATASETS[d], lp),
             "format": PLANS[judgment_source(DATASETS[d], lp)].format,
             "metrics": [metric_entry(m) for m in METRICS_FOR[(d, lp)]],
             "segments": [f"results/scores/{d}/{lp}/{m}.seg.parquet" for m in METRICS_FOR[(d, lp)]]}
            for d, lp in ANNOTATED_LPS]


# The pairs with both crowd DA and MQM (config paper.mqm.crowd): DA scored as a metric against MQM
# beside the metrics (rule crowd_levels).
CROWD_LPS = [target_pair(t) for t in config["paper"].get("mqm", {}).get("crowd", [])]


def evaluation_pairs(metric_id):
    """The pairs a metric is meta-evaluated on, and what each has (system-level human scores,
    pairwise segment judgments, MQM restricted to error categories)."""
    return [{"dataset": d, "lp": lp, "system_level": (d, lp) in SYSTEM_LEVEL_LPS, "judged": (d, lp) in JUDGED_LPS,
             "tokenized": DATASETS[d].get("tokenized", False), "categories": (d, lp) in CATEGORY_LPS,
             "human_draws": (d, lp) in RESAMPLED_LPS}
            for d, lp in metric_pairs(metric_id)]


def evaluation_inputs(wildcards):
    metric_id, pairs = wildcards.metric, metric_pairs(wildcards.metric)
    return {"summaries": prepared("summary.json", pairs), "human_scores": prepared("human_scores.tsv", pairs),
            "comparisons": prepared("comparisons.parquet", pairs),
            "human_segments": prepared("human_segments.parquet", pairs),
            "human_translations": prepared("human_translations.tsv", pairs),
            "segments": [f"results/scores/{d}/{lp}/{metric_id}.seg.parquet" for d, lp in pairs],
            "systems": [f"results/scores/{d}/{lp}/{metric_id}.sys.tsv" for d, lp in pairs],
            "categories": [f"results/datasets/{d}/{lp}/human_categories.parquet" for d, lp in pairs
                           if (d, lp) in CATEGORY_LPS],
            "human_draws": [HUMAN_DRAWS.format(dataset=d, lp=lp) for d, lp in pairs if (d, lp) in RESAMPLED_LPS]}


def metrics_with(pairs):
    """The metric ids scored on at least one of ``pairs``, in the study's order."""
    return list(dict.fromkeys(m for pair in pairs for m in METRICS_FOR[pair]))


def metric_pieces(table, metric_ids):
    """Each metric's piece of a study-wide table (``table``: system_level, segment_level, system_bootstrap)."""
    return [f"results/metaeval/{m}/{table}.tsv" for m in metric_ids]


def study_order(pairs):
    """(dataset, lp, metric) keys in the study's order: the joins sort the pieces' rows by it."""
    return [[d, lp, m] for d, lp in pairs for m in METRICS_FOR[(d, lp)]]


def ranking_pairs(pairs):
    """Per pair, its metrics and their score files, for rank_metrics (segment scores only where an MQM
    set's segment-level protocol needs them)."""
    return [{"dataset": d, "lp": lp, "metrics": [metric_entry(m) for m in METRICS_FOR[(d, lp)]],
             "systems": [f"results/scores/{d}/{lp}/{m}.sys.tsv" for m in METRICS_FOR[(d, lp)]],
             "segments": [f"results/scores/{d}/{lp}/{m}.seg.parquet" for m in METRICS_FOR[(d, lp)]]
             if (d, lp) in MTME_LPS else []} for d, lp in pairs]


def ranking_inputs(wildcards):
    pairs = ranking_pairs(SYSTEM_LEVEL_LPS)
    return {"summaries": prepared("summary.json", SYSTEM_LEVEL_LPS),
            "human_scores": prepared("human_scores.tsv", SYSTEM_LEVEL_LPS),
            "human_segments": prepared("human_segments.parquet", SYSTEM_LEVEL_LPS),
            "scores": [path for pair in pairs for path in (*pair["systems"], *pair["segments"])]}


def exportable(wildcards):
    """The metrics of an mt-metrics-eval pair whose scores go back into its layout: the study's own
    (a user's metric came from the user's files; mt-metrics-eval needs every system scored, and a
    user's may lack the human translations)."""
    return [m for m in METRICS_FOR[(wildcards.dataset, wildcards.lp)] if m not in EXTERNAL]


def sweep_config(wildcards):
    return config["sweeps"][wildcards.sweep]


def sweep_metric(wildcards):
    return metric_entry(config["sweeps"][wildcards.sweep]["metric"])


def sweep_inputs(wildcards):
    sweep = config["sweeps"][wildcards.sweep]
    pairs = [(d, lp) for target in sweep["targets"] for d in target["datasets"] for lp in DATASETS[d]["language_pairs"]
             if (d, lp) in JUDGED_LPS]
    pairs = list(dict.fromkeys(pairs))
    return {
        "segments": [f"results/scores/{d}/{lp}/{sweep['metric']}.seg.parquet" for d, lp in pairs],
        "comparisons": prepared("comparisons.parquet", pairs),
        "summaries": prepared("summary.json", pairs),
    }


# Keys of a dataset that say what scores it, not how it is prepared: left out of the preparing rules'
# params, so that adding a metric to a pair (the extended study adds meteor-wmt12 to WMT12's) does not
# prepare the pair again and, through its new files, rescore every metric.
SCORING_KEYS = ("extra_metrics",)


def dataset_config(wildcards):
    """The dataset's config as the rules that prepare its pairs take it (without SCORING_KEYS)."""
    return {key: value for key, value in DATASETS[wildcards.dataset].items() if key not in SCORING_KEYS}


# The input functions and helpers of the later stages live here too, with the config sections they
# read, so that the other .smk files hold rules only (snakemake --lint asks not to mix the two).

# Embeddings (embeddings.smk).
EMBEDDINGS = config["embeddings"]


def corpus_inputs(wildcards):
    """The extracted WMT test sets, the evaluator set's segments (English), and extra corpora."""
    spec = EMBEDDINGS[wildcards.model]
    inputs = []
    for entry in spec["corpus"]:
        if entry != "study":
            inputs += source_inputs(entry)
            continue
        for name, ds in DATASETS.items():
            if ds["kind"] == "wmt":
                inputs += source_inputs(ds["corpus"])
            elif ds["kind"] == "evaluator" and any(target_language(lp) == wildcards.lang for lp in ds["language_pairs"]):
                inputs += [f"results/datasets/{name}/{lp}/segments.parquet" for lp in ds["language_pairs"]]
    return list(dict.fromkeys(inputs))


def corpus_plan(wildcards):
    """What tokenize_corpus reads, in order: WMT test sets (deduplicated), evaluator sets, extra sources."""
    spec = EMBEDDINGS[wildcards.model]
    plan = []
    for entry in spec["corpus"]:
        if entry != "study":
            plan.append({"kind": "source", "source": entry})
            continue
        seen = set()
        for name, ds in DATASETS.items():
            if ds["kind"] == "wmt":
                key = (ds["corpus"], ds["layout"]["system"])
                if key not in seen:
                    seen.add(key)
                    plan.append({"kind": "wmt", "dataset": name, "source": ds["corpus"], "layout": ds["layout"],
                                 "exclude_files": ds["exclude_files"]})
            elif ds["kind"] == "evaluator" and any(target_language(lp) == wildcards.lang for lp in ds["language_pairs"]):
                plan.append({"kind": "segments", "dataset": name, "tokenized": ds.get("tokenized", False),
                             "files": [f"results/datasets/{name}/{lp}/segments.parquet" for lp in ds["language_pairs"]]})
    return plan


def vectors_inputs(wildcards):
    pretrained = EMBEDDINGS[wildcards.model]["pretrained"].get(wildcards.lang)
    if pretrained:
        return source_inputs(pretrained["source"])
    return [f"results/embeddings/{wildcards.model}/{wildcards.lang}/corpus.txt"]


def neighbour_jobs(wildcards):
    """Every (softbleu metric id, dataset, lp) that needs nearest neighbours from this model in this language."""
    jobs = []
    for metric_id, setting in config["metric_settings"].items():
        params = setting.get("params", {})
        if setting["metric"] != "softbleu" or params.get("embeddings", "study-w2v") != wildcards.model:
            continue
        if params.get("vectors") or not (params.get("method") == "generation" or params.get("phrase")):
            continue
        for d, lp in DATASET_LPS:
            if target_language(lp) == wildcards.lang and metric_id in METRICS_FOR[(d, lp)]:
                jobs.append({"metric": metric_entry(metric_id), "segments": prepared("segments.parquet", [(d, lp)])[0],
                             "tokenized": DATASETS[d].get("tokenized", False)})
    return jobs


# Scoring (score.smk; parmesan.smk's scoring with paraphrased references). Rule names derived from
# ids come from mtmeta.app.config (score_rule_name, paraphrased_rule_name), whose check refuses two ids
# that give one name.
def metric_pairs(metric_id):
    """The (dataset, lp) pairs a metric is scored on, in config order."""
    return [pair for pair in DATASET_LPS if metric_id in METRICS_FOR[pair]]


def scatter_pairs(metric_id):
    """The system-level pairs a metric's scatter figure shows: those it is scored on."""
    return [pair for pair in SYSTEM_LEVEL_LPS if metric_id in METRICS_FOR[pair]]


def scatter_inputs(wildcards):
    pairs = scatter_pairs(wildcards.metric)
    return {"systems": [f"results/scores/{d}/{lp}/{wildcards.metric}.sys.tsv" for d, lp in pairs],
            "human_scores": prepared("human_scores.tsv", pairs),
            "summaries": prepared("summary.json", pairs)}


# Targeted paraphrasing (parmesan.smk).
PARMESAN = config["parmesan"]
PARMESAN_TARGETS = [target_pair(target) for target in PARMESAN["targets"]]
PARMESAN_METEOR = PARMESAN.get("meteor_references", {})
PARMESAN_APPENDIX = PARMESAN.get("appendix", {})


def parmesan_runs(dataset, lp):
    """(setting, metric) pairs scored with paraphrased references on one target."""
    runs = [(s, m) for s in PARMESAN["settings"] for m in PARMESAN["metrics"]]
    if PARMESAN_METEOR:
        runs += [(PARMESAN_METEOR["setting"], m) for m in PARMESAN_METEOR["metrics"]]
    return list(dict.fromkeys(runs))


def parmesan_lexicon(wildcards):
    return PARMESAN["lexicons"][target_language(wildcards.lp)]


def paraphrase_inputs(wildcards):
    inputs = {
        "segments": f"results/datasets/{wildcards.dataset}/{wildcards.lp}/segments.parquet",
        "tokens": f"results/datasets/{wildcards.dataset}/{wildcards.lp}/tokens.parquet",
        "lexicon": source_inputs(parmesan_lexicon(wildcards)["source"]),
    }
    if any(setting["selection"] == "alignment" for setting in PARMESAN["settings"].values()):
        inputs["alignment"] = f"results/parmesan/{wildcards.dataset}/{wildcards.lp}/alignment.parquet"
    return inputs


def setting_outputs(name):
    """One output path per Parmesan setting, in config order."""
    return [f"results/parmesan/{{dataset}}/{{lp}}/{setting}/{name}" for setting in PARMESAN["settings"]]


def parmesan_scores(wildcards):
    d, lp = wildcards.dataset, wildcards.lp
    runs = parmesan_runs(d, lp)
    originals = list(dict.fromkeys(m for _, m in runs))
    return {
        "paraphrased": [f"results/parmesan/{d}/{lp}/{s}/scores/{m}.sys.tsv" for s, m in runs],
        "original": [f"results/scores/{d}/{lp}/{m}.sys.tsv" for m in originals],
        "summaries": [f"results/parmesan/{d}/{lp}/{s}/summary.json" for s in PARMESAN["settings"]],
        "human_scores": f"results/datasets/{d}/{lp}/human_scores.tsv",
        "summary": f"results/datasets/{d}/{lp}/summary.json",
    }


def paraphrased_runs(metric_id):
    """The (dataset, lp, setting) runs that score a metric against paraphrased references."""
    return [(d, lp, s) for d, lp in PARMESAN_TARGETS for s, m in parmesan_runs(d, lp) if m == metric_id]


def appendix_inputs(wildcards):
    dataset, lp = target_pair(PARMESAN_APPENDIX["target"])
    lang = target_language(lp)
    return {
        "segments": f"results/datasets/{dataset}/{lp}/segments.parquet",
        "tokens": f"results/datasets/{dataset}/{lp}/tokens.parquet",
        "lexicon": source_inputs(PARMESAN["lexicons"][lang]["source"]),
        "corpus": f"results/embeddings/{next(iter(EMBEDDINGS))}/{lang}/corpus.txt",
        "human_scores": f"results/datasets/{dataset}/{lp}/human_scores.tsv",
        "code": metric_code_files(PARMESAN_APPENDIX["metric"]),
    }


# Paper tables (paper.smk).
def settings_name(target):
    """The settings table's rule and file name of a target "dataset/lp" (slashes and dashes as '_')."""
    return f"parmesan_settings_{re.sub('[/-]', '_', target)}"


def sensitivity_text_inputs(wildcards):
    """A sensitivity piece's text inputs: for a metric whose text factors are all measured, the target's
    pre-processed texts and the metric's resources (Meteor's input modes also read the jar's
    non-breaking prefixes); every metric re-scores with case flipped, so it reads its resources."""
    rescored = wildcards.metric in SENSITIVITY["rescored"]
    preprocessed = ([f"results/paper/sensitivity/{wildcards.dataset}/{wildcards.lp}/text.{kind}.parquet"
                     for kind in ("moses", "lemmas")] if rescored else [])
    jar = source_inputs("meteor_jar") if rescored and metric_spec(config, wildcards.metric)[0] == "meteor" else []
    return {"preprocessed": preprocessed,
            "resources": metric_resource_files(wildcards.metric, [target_language(wildcards.lp)]) + jar}


def sensitivity_pieces(wildcards):
    return [f"results/paper/sensitivity/{wildcards.dataset}/{wildcards.lp}/{m}.tsv" for m in SENSITIVITY["metrics"]]


def official_tasks_spec(name):
    """The arguments of one official_tasks table (config paper.official_tasks.sets.<name>), what
    mtmeta.app.study_tasks.tasks_argv turns into the `mtmeta tasks` command."""
    section = config["paper"]["official_tasks"]
    spec = section["sets"][name]
    dataset = spec["dataset"]
    ds = DATASETS[dataset]
    pairs = list(spec.get("pairs", ds["language_pairs"]))
    external = {}
    for metric_id in EXTERNAL:
        lps = [lp for lp in pairs if metric_id in METRICS_FOR[(dataset, lp)]]
        if lps:
            external[metric_id] = {"higher_is_better": EXTERNAL[metric_id].get("higher_is_better", True), "pairs": lps,
                                   "segments": [f"results/scores/{dataset}/{lp}/{metric_id}.seg.parquet" for lp in lps],
                                   "systems": [f"results/scores/{dataset}/{lp}/{metric_id}.sys.tsv" for lp in lps]}
    return {"name": name, "design": spec["design"], "dataset": dataset,
            "root": str(evalset_root(ds, Path("resources"))), "testset": ds["testset"], "pairs": pairs,
            "gold": ds["human_score"], "std_refs": {lp: ref for lp, ref in ds.get("references", {}).items() if lp in pairs},
            "metric_scores": [f"results/mtme/{dataset}/metric-scores"], "external": external,
            "notes": spec.get("notes", []), "k": section["k"], "seed": section["seed"]}


def official_tasks_inputs(wildcards):
    """The eval set's files (as prepare_dataset reads them), the study's exported scores and the user's."""
    spec = official_tasks_spec(wildcards.name)
    dataset = spec["dataset"]
    evalset = [path for lp in spec["pairs"] for path in prepare_inputs(SimpleNamespace(dataset=dataset, lp=lp))]
    return {"evalset": list(dict.fromkeys(evalset)),
            "metric_scores": [f"results/mtme/{dataset}/metric-scores/{lp}" for lp in spec["pairs"]],
            "segments": [path for m in spec["external"].values() for path in m["segments"]],
            "systems": [path for m in spec["external"].values() for path in m["systems"]]}


def official_tasks_outputs():
    """Every table and figure of config paper.official_tasks (none without it)."""
    sets = config["paper"].get("official_tasks", {}).get("sets", {})
    return [path for name in sets for path in (f"results/paper/official_tasks_{name}.tsv",
                                               f"results/paper/official_tasks_{name}.md",
                                               f"results/figures/official_tasks_{name}.png")]


def paper_outputs(rule_name, wanted):
    """A paper rule's outputs, or none when config does not ask for its table (the rule is not defined)."""
    return getattr(rules, rule_name).output if wanted else []



# The report (report.smk): Snakemake's report shows a PNG shrunk to its panel and a TSV or Markdown
# file only as a download, so each reported table or figure gets an HTML page beside it
# (results/report/<its path under results/>.html, written by mtmeta.paper.report_page), and the pages
# are what the report shows. Category names carry no colon: Snakemake turns each category into a
# reStructuredText link target in every caption, and "Paper: overview" would be a target "Paper" with
# the rest as its URL, repeated once per paper category (docutils' "Duplicate explicit target name").
REPORT_KINDS = {".tsv": "TSV", ".md": "Markdown", ".png": "figure"}
REPORT_PAGES = {}  # page (the source's path under results/) -> caption, category, subcategory, labels


def file_labels(path):
    """A page's labels in the report's list: the file's name and its format."""
    name = Path(path).name
    return {"name": name[: -len(Path(name).suffix)], "format": REPORT_KINDS[Path(name).suffix]}


def add_report_pages(caption, files, category, subcategory=None, labels=file_labels):
    """Show in the report, with this caption (workflow/report/<caption>.rst) and place, the tables and
    figures among ``files`` (a rule's outputs: its .tsv, .md and .png files; .pdf, .gz and the rest are
    left out)."""
    for path in files:
        if Path(path).suffix not in REPORT_KINDS:
            continue
        page = Path(path).relative_to("results").as_posix()
        if page in REPORT_PAGES:
            raise ValueError(f"{path} is marked for the report twice")
        REPORT_PAGES[page] = {"caption": caption, "category": category, "subcategory": subcategory,
                              "labels": labels(path)}


def report_page(wildcards):
    return REPORT_PAGES[wildcards.page]


def trained_embeddings(rules_):
    """Every (model, language) whose word vectors some rule reads (the softened metrics' scoring, the
    softened-BLEU paper table): the trainings whose nearest neighbours the report shows."""
    found = re.compile(r"results/embeddings/([^/{}]+)/([^/{}]+)/(?:vectors\.bin|training\.json)")
    pairs = {}
    for rule_ in rules_:
        for path in rule_.input:
            match = found.fullmatch(path) if isinstance(path, str) else None
            if match:
                pairs[match.groups()] = True
    return sorted(pairs)

onstart:
    # Snakemake 9's job-rate limiter (--max-jobs-per-timespan, default 100/1s) re-runs the job selection
    # once per timespan for every job finished so far: each finished job starts another chain of
    # re-evaluation timers, and each selection stats the inputs of every ready job. By the second half
    # of this ~550-job study that costs the main process a third of a core or more. A local run starts
    # at most --cores jobs at a time and needs no rate limit, so it is switched off there; a cluster
    # run (profiles/slurm) keeps it. (Snakemake is pinned in requirements.lock; the attribute is checked.)
    _scheduler = getattr(workflow, "scheduler", None)
    if workflow.local_exec and getattr(_scheduler, "job_rate_limiter", None) is not None:
        _scheduler.job_rate_limiter = None
