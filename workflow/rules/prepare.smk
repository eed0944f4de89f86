# Dataset preparation: tidy segment and comparison tables, human system scores, exclusion report.


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


rule collect_exclusions:
    input:
        reports=prepared("report.tsv"),
        summaries=prepared("summary.json"),
    output:
        report(
            "results/datasets/exclusions.tsv",
            caption="../report/exclusions.rst",
            category="Data",
        ),
    log:
        "results/logs/collect_exclusions.log",
    benchmark:
        "results/benchmarks/collect_exclusions.tsv"
    script:
        "../scripts/collect_exclusions.py"
