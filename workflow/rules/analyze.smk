# Meta-evaluation per dataset x language pair across all metrics: segment-level agreement,
# bootstrap intervals of the system-level correlations, and significance between metrics.


rule correlate_segment_level:
    input:
        summary="results/datasets/{dataset}/{lp}/summary.json",
        comparisons="results/datasets/{dataset}/{lp}/comparisons.parquet",
        segments=lp_scores("seg.parquet"),
    output:
        "results/correlations/{dataset}/{lp}/segment_level.tsv",
    params:
        metrics=lp_metric_specs,
    log:
        "results/logs/correlate_segment_level/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/correlate_segment_level/{dataset}/{lp}.tsv"
    resources:
        mem_mb=3000,
        runtime=10,
    script:
        "../scripts/correlate_segment_level.py"


rule collect_segment_level:
    input:
        prepared_files=[f"results/correlations/{d}/{lp}/segment_level.tsv" for d, lp in DATASET_LPS],
    output:
        tsv=report(
            "results/correlations/segment_level.tsv",
            caption="../report/segment_level.rst",
            category="Correlations",
        ),
        markdown="results/correlations/segment_level.md",
    log:
        "results/logs/collect_segment_level.log",
    benchmark:
        "results/benchmarks/collect_segment_level.tsv"
    script:
        "../scripts/collect_tables.py"


rule bootstrap_system_level:
    input:
        summary="results/datasets/{dataset}/{lp}/summary.json",
        comparisons="results/datasets/{dataset}/{lp}/comparisons.parquet",
        human_scores="results/datasets/{dataset}/{lp}/human_scores.tsv",
        segments=lp_scores("seg.parquet"),
    output:
        "results/correlations/{dataset}/{lp}/system_bootstrap.tsv",
    params:
        metrics=lp_metric_specs,
        bootstrap=config["bootstrap"],
        tokenized=dataset_tokenized,
    log:
        "results/logs/bootstrap_system_level/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/bootstrap_system_level/{dataset}/{lp}.tsv"
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "../scripts/bootstrap_system_level.py"


rule test_significance:
    input:
        summary="results/datasets/{dataset}/{lp}/summary.json",
        human_scores="results/datasets/{dataset}/{lp}/human_scores.tsv",
        systems=lp_scores("sys.tsv"),
    output:
        pairs="results/significance/{dataset}/{lp}/williams.tsv",
        ranks="results/significance/{dataset}/{lp}/ranks.tsv",
    params:
        metrics=lp_metric_specs,
        level=config["significance_level"],
    log:
        "results/logs/test_significance/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/test_significance/{dataset}/{lp}.tsv"
    script:
        "../scripts/test_significance.py"


rule sweep_parameters:
    input:
        unpack(sweep_inputs),
    output:
        table="results/sweeps/{sweep}.tsv",
        best="results/sweeps/{sweep}.best.tsv",
        png=report("results/sweeps/{sweep}.png", caption="../report/sweep.rst", category="Sweeps"),
        pdf="results/sweeps/{sweep}.pdf",
    params:
        sweep=sweep_config,
        metric=sweep_metric,
    log:
        "results/logs/sweep_parameters/{sweep}.log",
    benchmark:
        "results/benchmarks/sweep_parameters/{sweep}.tsv"
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "../scripts/sweep_parameters.py"
