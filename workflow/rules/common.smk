# Shared set-up: validate the config (filling schema defaults), resolve the data mirror,
# plan every fetch, and derive the targets and wildcard constraints from config.
import os
import re
from pathlib import Path

from mtmeta import metrics as metric_registry
from mtmeta.config import metric_spec, metrics_of, validate_config
from mtmeta.data.corpus import target_language
from mtmeta.data.prepare import judgment_source
from mtmeta.data.fetch import plan_fetch, resolve_mirror

validate_config(config)

MIRROR = resolve_mirror(config["data_mirror"], [Path(workflow.basedir), Path.cwd()])
PLANS = {name: plan_fetch(name, spec, MIRROR) for name, spec in config["sources"].items()}
DATASETS = config["datasets"]
METRICS = config["metrics"]
# Metric ids scored on each dataset x language pair: the study-wide list plus extra ones.
METRICS_FOR = {(name, lp): metrics_of(config, name, lp) for name, ds in DATASETS.items() for lp in ds["language_pairs"]}
ALL_METRICS = list(dict.fromkeys(m for ids in METRICS_FOR.values() for m in ids))

# (dataset, lp) pairs in config order; the system-level ones have WMT-style system judgments.
DATASET_LPS = [(name, lp) for name, ds in DATASETS.items() for lp in ds["language_pairs"]]
SYSTEM_LEVEL_LPS = [(name, lp) for name, lp in DATASET_LPS if DATASETS[name]["kind"] == "wmt"]
# Pairs with segment-level judgments (a WMT pair may have official system scores only).
JUDGED_LPS = [(name, lp) for name, lp in DATASET_LPS
              if DATASETS[name]["kind"] == "evaluator" or judgment_source(DATASETS[name], lp) is not None]


wildcard_constraints:
    source="|".join(map(re.escape, config["sources"])),
    dataset="|".join(map(re.escape, DATASETS)),
    lp=r"[a-z]{2,3}-[a-z]{2,3}",
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
    official = [ds["official_scores"]["source"]] if "official_scores" in ds else []
    return [s for s in [ds["corpus"], judgment_source(ds, lp), *official] if s is not None]


def prepare_inputs(wildcards):
    return [item for source in dataset_sources(wildcards.dataset, wildcards.lp) for item in source_inputs(source)]


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


def dataset_config(wildcards):
    return DATASETS[wildcards.dataset]


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
