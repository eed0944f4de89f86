# Data acquisition: copy from the local mirror or download from upstream, verify, extract.


rule download_source:
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
