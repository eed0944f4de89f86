# Word embeddings for the embedding-softened metrics (seed 000): the study's text in one language,
# tokenised as for scoring, then word2vec (or pre-trained vectors) per model and language.

EMBEDDINGS = config["embeddings"]


wildcard_constraints:
    model="|".join(map(re.escape, EMBEDDINGS)) or "NONE",
    lang=r"[a-z]{2,3}",


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
            elif any(target_language(lp) == wildcards.lang for lp in ds["language_pairs"]):
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
            elif any(target_language(lp) == wildcards.lang for lp in ds["language_pairs"]):
                plan.append({"kind": "segments", "dataset": name, "tokenized": ds.get("tokenized", False),
                             "files": [f"results/datasets/{name}/{lp}/segments.parquet" for lp in ds["language_pairs"]]})
    return plan


def vectors_inputs(wildcards):
    pretrained = EMBEDDINGS[wildcards.model]["pretrained"].get(wildcards.lang)
    if pretrained:
        return source_inputs(pretrained["source"])
    return [f"results/embeddings/{wildcards.model}/{wildcards.lang}/corpus.txt"]


rule tokenize_corpus:
    # Long jobs on the critical path of the seed-000/002 artefacts: start them first.
    priority: 10
    input:
        corpus_inputs,
    output:
        corpus="results/embeddings/{model}/{lang}/corpus.txt",
        summary="results/embeddings/{model}/{lang}/corpus.json",
    params:
        plan=corpus_plan,
        tokenize=lambda wildcards: EMBEDDINGS[wildcards.model]["tokenize"],
        lowercase=lambda wildcards: EMBEDDINGS[wildcards.model]["lowercase"],
    log:
        "results/logs/tokenize_corpus/{model}/{lang}.log",
    benchmark:
        "results/benchmarks/tokenize_corpus/{model}/{lang}.tsv"
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "../scripts/tokenize_corpus.py"


rule train_embeddings:
    # Long jobs on the critical path of the seed-000/002 artefacts: start them first.
    priority: 10
    input:
        vectors_inputs,
    output:
        vectors="results/embeddings/{model}/{lang}/vectors.bin",
        summary="results/embeddings/{model}/{lang}/training.json",
        neighbours=report(
            "results/embeddings/{model}/{lang}/neighbours.tsv",
            caption="../report/embeddings.rst",
            category="Embeddings",
        ),
    params:
        spec=lambda wildcards: EMBEDDINGS[wildcards.model],
        probes=lambda wildcards: config["embedding_probes"].get(wildcards.lang, []),
    log:
        "results/logs/train_embeddings/{model}/{lang}.log",
    benchmark:
        "results/benchmarks/train_embeddings/{model}/{lang}.tsv"
    resources:
        mem_mb=6000,
        runtime=120,
    script:
        "../scripts/train_embeddings.py"


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


rule find_neighbours:
    # The nearest neighbours of every reference word, for the softened BLEU variants that use them
    # (one matrix product per block of words, once, instead of once per scoring job).
    priority: 10
    input:
        vectors="results/embeddings/{model}/{lang}/vectors.bin",
        segments=lambda wildcards: sorted({job["segments"] for job in neighbour_jobs(wildcards)}),
    output:
        "results/embeddings/{model}/{lang}/neighbours.cache.json.gz",
    params:
        jobs=neighbour_jobs,
    log:
        "results/logs/find_neighbours/{model}/{lang}.log",
    benchmark:
        "results/benchmarks/find_neighbours/{model}/{lang}.tsv"
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "../scripts/find_neighbours.py"
