# System-level correlation of each metric with each human system score, and its figure.


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
    script:
        "../scripts/collect_tables.py"


rule plot_system_scatter:
    input:
        systems=[f"results/scores/{d}/{lp}/{{metric}}.sys.tsv" for d, lp in SYSTEM_LEVEL_LPS],
        human_scores=prepared("human_scores.tsv", SYSTEM_LEVEL_LPS),
        correlations=[f"results/correlations/{d}/{lp}/system_level.tsv" for d, lp in SYSTEM_LEVEL_LPS],
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
    script:
        "../scripts/plot_system_scatter.py"


rule tables:
    input:
        "results/correlations/system_level.tsv",
        "results/datasets/exclusions.tsv",
        expand("results/figures/system_scatter.{metric}.{ext}", metric=METRICS, ext=["png", "pdf"]),
