# Data acquisition: copy from the local mirror or download from upstream, verify, extract.


rule download_source:
    # Cheap, and everything waits for it: first.
    priority: 30
    output:
        "resources/{source}/manifest.json",
    params:
        plan=fetch_plan,
    log:
        "results/logs/download_source/{source}.log",
    benchmark:
        "results/benchmarks/download_source/{source}.tsv"
    message:
        "Fetching source {wildcards.source}"
    resources:
        mem_mb=500,
        runtime=60,
    script:
        "../scripts/download_source.py"


rule extract_archive:
    priority: 30
    input:
        ancient("resources/{source}/manifest.json"),
    output:
        directory("resources/{source}/extracted"),
    log:
        "results/logs/extract_archive/{source}.log",
    benchmark:
        "results/benchmarks/extract_archive/{source}.tsv"
    message:
        "Extracting {wildcards.source} (refusing unsafe members)"
    resources:
        mem_mb=500,
        runtime=30,
    script:
        "../scripts/extract_archive.py"


# Cached indexes of METEOR's large lexical resources (see mtmeta.metrics.meteor.indexes): built once,
# read by every METEOR job that needs them.
rule index_wordnet:
    priority: 20
    input:
        source_inputs("wordnet"),
    output:
        "resources/wordnet/synonym-index.json.gz",
    log:
        "results/logs/index_wordnet.log",
    benchmark:
        "results/benchmarks/index_wordnet.tsv"
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/index_wordnet.py"


rule index_paraphrase_table:
    priority: 20
    input:
        lambda wildcards: source_inputs(wildcards.source),
    output:
        directory("resources/{source}/paraphrase-arrays"),
    log:
        "results/logs/index_paraphrase_table/{source}.log",
    benchmark:
        "results/benchmarks/index_paraphrase_table/{source}.tsv"
    resources:
        mem_mb=2000,
        runtime=20,
    script:
        "../scripts/index_paraphrase_table.py"
