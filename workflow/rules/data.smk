# Data: copy from the local mirror or download from upstream, verify, extract; then tidy segment and
# comparison tables, human system scores, the exclusion report and the test sets' tokenisations.


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


rule assemble_wmt21:
    # The WMT21 MQM eval sets, from their three public repositories, in mt-metrics-eval's layout
    # (mtmeta.data.wmt21): what an `mtme` dataset with `evalset: {assemble: wmt21}` reads. Beside
    # them, the en-ru neural metrics' scores as "bring your own scores" files (for external_scores).
    priority: 20
    input:
        unpack(assembly_inputs),
    output:
        evalsets=directory("results/evalsets/wmt21"),
        external=expand("results/external/wmt21/{metric}.seg.tsv", metric=NEURAL_METRICS),
    params:
        datasets=ASSEMBLED.get("wmt21", {}),
    log:
        "results/logs/assemble_wmt21.log",
    benchmark:
        "results/benchmarks/assemble_wmt21.tsv"
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/assemble_wmt21.py"


if "wmt23" in ASSEMBLED:

    rule assemble_wmt23:
        # WMT23 side-by-side MQM en-de and zh-en, three raters per segment (mtmeta.data.wmt23), in
        # mt-metrics-eval's layout with the gold `mqm` (the three raters' mean); every single rating in
        # wmt23.sxs/<lp>.raters.tsv beside it, for the human ceiling (rule ceiling_levels).
        priority: 20
        input:
            unpack(wmt23_inputs),
        output:
            evalsets=directory("results/evalsets/wmt23"),
        log:
            "results/logs/assemble_wmt23.log",
        benchmark:
            "results/benchmarks/assemble_wmt23.tsv"
        resources:
            mem_mb=2000,
            runtime=10,
        script:
            "../scripts/assemble_wmt23.py"


rule prepare_dataset:
    # Cheap, and every long job (alignment, embeddings, scoring) waits for it: run these first.
    priority: 20
    input:
        prepare_inputs,
    output:
        segments="results/datasets/{dataset}/{lp}/segments.parquet",
        comparisons="results/datasets/{dataset}/{lp}/comparisons.parquet",
        human_scores="results/datasets/{dataset}/{lp}/human_scores.tsv",
        report="results/datasets/{dataset}/{lp}/report.tsv",
        summary="results/datasets/{dataset}/{lp}/summary.json",
        human_segments="results/datasets/{dataset}/{lp}/human_segments.parquet",
        human_translations="results/datasets/{dataset}/{lp}/human_translations.tsv",
    params:
        dataset=dataset_config,
    log:
        "results/logs/prepare_dataset/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/prepare_dataset/{dataset}/{lp}.tsv"
    message:
        "Preparing {wildcards.dataset} {wildcards.lp}"
    resources:
        mem_mb=3000,
        runtime=20,
    script:
        "../scripts/prepare_dataset.py"


rule categorise_mqm_errors:
    # Where metrics go blind: each segment's MQM counting one kind of error only (a top-level category,
    # or Major or Minor errors), from an eval set's full error annotation (the TED sets' Google MQM).
    input:
        evalset=prepare_inputs,
        segments="results/datasets/{dataset}/{lp}/segments.parquet",
    output:
        scores="results/datasets/{dataset}/{lp}/human_categories.parquet",
        counts="results/datasets/{dataset}/{lp}/mqm_error_counts.tsv",
    params:
        dataset=dataset_config,
    log:
        "results/logs/categorise_mqm_errors/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/categorise_mqm_errors/{dataset}/{lp}.tsv"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/categorise_mqm_errors.py"


rule collect_exclusions:
    input:
        reports=prepared("report.tsv"),
        summaries=prepared("summary.json"),
    output:
        "results/datasets/exclusions.tsv",
    log:
        "results/logs/collect_exclusions.log",
    benchmark:
        "results/benchmarks/collect_exclusions.tsv"
    localrule: True
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/collect_exclusions.py"


rule tokenize_segments:
    # Every word-level metric of a test set tokenises the same texts: once here, read by each scoring job.
    priority: 20
    input:
        segments=rules.prepare_dataset.output.segments,
    output:
        tokens="results/datasets/{dataset}/{lp}/tokens.parquet",
    params:
        tokenizers=list(SEGMENT_TOKENIZERS),
    log:
        "results/logs/tokenize_segments/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/tokenize_segments/{dataset}/{lp}.tsv"
    message:
        "Tokenising {wildcards.dataset} {wildcards.lp}"
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/tokenize_segments.py"
