# Word embeddings for the embedding-softened metrics (seed 000): the study's text in one language,
# tokenised as for scoring, then word2vec (or pre-trained vectors) per model and language.
# EMBEDDINGS and the input functions are in common.smk.


wildcard_constraints:
    model="|".join(map(re.escape, EMBEDDINGS)) or "NONE",
    lang=r"[a-z]{2,3}",


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
        neighbours="results/embeddings/{model}/{lang}/neighbours.tsv",
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
