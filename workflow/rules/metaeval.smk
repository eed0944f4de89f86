# Meta-evaluation: system-level correlations and their figures, segment-level agreement, bootstrap
# intervals, significance between metrics, and parameter sweeps. Each rule is one job for all pairs
# (one output per pair): a job's start-up (Python, pandas, scipy, numba) is seconds, and each pair's
# work is milliseconds to a few seconds.


rule correlate_system_level:
    # One job for every dataset x lp and all its metrics: the work is milliseconds, a job's start-up
    # (Python, pandas, scipy) is seconds.
    input:
        systems=all_pair_scores(SYSTEM_LEVEL_LPS, "sys.tsv"),
        human_scores=prepared("human_scores.tsv", SYSTEM_LEVEL_LPS),
        summaries=prepared("summary.json", SYSTEM_LEVEL_LPS),
    output:
        [f"results/correlations/{d}/{lp}/system_level.tsv" for d, lp in SYSTEM_LEVEL_LPS],
    params:
        pairs=pair_scores(SYSTEM_LEVEL_LPS, "sys.tsv"),
    log:
        "results/logs/correlate_system_level.log",
    benchmark:
        "results/benchmarks/correlate_system_level.tsv"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/correlate_system_level.py"


rule collect_system_level:
    input:
        [f"results/correlations/{d}/{lp}/system_level.tsv" for d, lp in SYSTEM_LEVEL_LPS],
    output:
        tsv=report(
            "results/correlations/system_level.tsv",
            caption="../report/system_level.rst",
            category="Correlations",
        ),
        markdown="results/correlations/system_level.md",
    log:
        "results/logs/collect_system_level.log",
    benchmark:
        "results/benchmarks/collect_system_level.tsv"
    localrule: True
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/collect_tables.py"


rule plot_system_scatter:
    input:
        unpack(scatter_inputs),
    output:
        png=report(
            "results/figures/system_scatter.{metric}.png",
            caption="../report/system_scatter.rst",
            category="Figures",
        ),
        pdf="results/figures/system_scatter.{metric}.pdf",
    params:
        human_score=config["figure_human_score"],
    log:
        "results/logs/plot_system_scatter/{metric}.log",
    benchmark:
        "results/benchmarks/plot_system_scatter/{metric}.tsv"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/plot_system_scatter.py"


rule tables:
    localrule: True
    input:
        rules.collect_system_level.output.tsv,
        rules.collect_exclusions.output[0],
        expand("results/figures/system_scatter.{metric}.{ext}", metric=FIGURE_METRICS, ext=["png", "pdf"]),


rule correlate_segment_level:
    input:
        summaries=prepared("summary.json", JUDGED_LPS),
        comparisons=prepared("comparisons.parquet", JUDGED_LPS),
        segments=all_pair_scores(JUDGED_LPS, "seg.parquet"),
    output:
        [f"results/correlations/{d}/{lp}/segment_level.tsv" for d, lp in JUDGED_LPS],
    params:
        pairs=pair_scores(JUDGED_LPS, "seg.parquet"),
    log:
        "results/logs/correlate_segment_level.log",
    benchmark:
        "results/benchmarks/correlate_segment_level.tsv"
    resources:
        mem_mb=3000,
        runtime=20,
    script:
        "../scripts/correlate_segment_level.py"


rule collect_segment_level:
    input:
        prepared_files=[f"results/correlations/{d}/{lp}/segment_level.tsv" for d, lp in JUDGED_LPS],
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
    localrule: True
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/collect_tables.py"


rule bootstrap_system_level:
    input:
        summaries=prepared("summary.json", SYSTEM_LEVEL_LPS),
        comparisons=prepared("comparisons.parquet", SYSTEM_LEVEL_LPS),
        human_scores=prepared("human_scores.tsv", SYSTEM_LEVEL_LPS),
        segments=all_pair_scores(SYSTEM_LEVEL_LPS, "seg.parquet"),
    output:
        [f"results/correlations/{d}/{lp}/system_bootstrap.tsv" for d, lp in SYSTEM_LEVEL_LPS],
    params:
        pairs=[dict(pair, tokenized=DATASETS[pair["dataset"]].get("tokenized", False))
               for pair in pair_scores(SYSTEM_LEVEL_LPS, "seg.parquet")],
        bootstrap=config["bootstrap"],
    log:
        "results/logs/bootstrap_system_level.log",
    benchmark:
        "results/benchmarks/bootstrap_system_level.tsv"
    resources:
        mem_mb=4000,
        runtime=60,
    script:
        "../scripts/bootstrap_system_level.py"


rule test_significance:
    input:
        summaries=prepared("summary.json", SYSTEM_LEVEL_LPS),
        human_scores=prepared("human_scores.tsv", SYSTEM_LEVEL_LPS),
        systems=all_pair_scores(SYSTEM_LEVEL_LPS, "sys.tsv"),
    output:
        pairs=[f"results/significance/{d}/{lp}/williams.tsv" for d, lp in SYSTEM_LEVEL_LPS],
        ranks=[f"results/significance/{d}/{lp}/ranks.tsv" for d, lp in SYSTEM_LEVEL_LPS],
    params:
        pairs=pair_scores(SYSTEM_LEVEL_LPS, "sys.tsv"),
        level=config["significance_level"],
    log:
        "results/logs/test_significance.log",
    benchmark:
        "results/benchmarks/test_significance.tsv"
    resources:
        mem_mb=2000,
        runtime=10,
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
