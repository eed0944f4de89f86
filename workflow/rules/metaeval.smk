# Meta-evaluation: system-level correlations and their figures, segment-level agreement, bootstrap
# intervals, significance between metrics, and parameter sweeps. What depends on one metric is one job
# per metric (evaluate_metric, plot_system_scatter), so that rescoring a metric reruns its pieces
# only; the study-wide tables are cheap joins of the pieces (collect_*); what compares metrics with
# each other (test_significance) is one job for all pairs: a job's start-up is about a second, each
# pair's work milliseconds.


if RESAMPLED_LPS:  # a rule needs an output: none without judgments (an MQM-only study)

    rule resample_human_scores:
        # The human scores' bootstrap draws of every pair with pairwise judgments: the same for every
        # metric, so computed once here, not in each metric's evaluate_metric job (one job for all pairs:
        # each pair takes about 0.2 s, a job's start-up about a second).
        input:
            comparisons=prepared("comparisons.parquet", RESAMPLED_LPS),
            human_scores=prepared("human_scores.tsv", RESAMPLED_LPS),
            segments=prepared("segments.parquet", RESAMPLED_LPS),
        output:
            [HUMAN_DRAWS.format(dataset=d, lp=lp) for d, lp in RESAMPLED_LPS],
        params:
            bootstrap=config["bootstrap"],
        log:
            "results/logs/resample_human_scores.log",
        benchmark:
            "results/benchmarks/resample_human_scores.tsv"
        resources:
            mem_mb=2000,
            runtime=10,
        script:
            "../scripts/resample_human_scores.py"


rule evaluate_metric:
    # One job per metric: rescoring a metric reruns its piece only; the study-wide tables join them.
    input:
        unpack(evaluation_inputs),
    output:
        system_level="results/metaeval/{metric}/system_level.tsv",
        segment_level="results/metaeval/{metric}/segment_level.tsv",
        system_bootstrap="results/metaeval/{metric}/system_bootstrap.tsv",
        protocols="results/metaeval/{metric}/protocols.tsv",
        categories="results/metaeval/{metric}/categories.tsv",
    params:
        metric=lambda wildcards: metric_entry(wildcards.metric),
        pairs=lambda wildcards: evaluation_pairs(wildcards.metric),
        bootstrap=config["bootstrap"],
        chance_draws=config["chance"]["draws"],
    log:
        "results/logs/evaluate_metric/{metric}.log",
    benchmark:
        "results/benchmarks/evaluate_metric/{metric}.tsv"
    resources:
        mem_mb=3000,
        runtime=20,
    script:
        "../scripts/evaluate_metric.py"


rule collect_system_level:
    input:
        metric_pieces("system_level", metrics_with(SYSTEM_LEVEL_LPS)),
    output:
        tsv="results/correlations/system_level.tsv",
        markdown="results/correlations/system_level.md",
    params:
        order=study_order(SYSTEM_LEVEL_LPS),
        summary=True,
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


rule collect_protocols:
    input:
        metric_pieces("protocols", metrics_with(SYSTEM_LEVEL_LPS)),
    output:
        tsv="results/correlations/protocols.tsv",
    params:
        order=study_order(SYSTEM_LEVEL_LPS),
    log:
        "results/logs/collect_protocols.log",
    benchmark:
        "results/benchmarks/collect_protocols.tsv"
    localrule: True
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/collect_tables.py"


rule collect_categories:
    input:
        metric_pieces("categories", metrics_with(CATEGORY_LPS)),
    output:
        tsv="results/correlations/mqm_categories.tsv",
    params:
        order=study_order(CATEGORY_LPS),
    log:
        "results/logs/collect_categories.log",
    benchmark:
        "results/benchmarks/collect_categories.tsv"
    localrule: True
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/collect_tables.py"


rule collect_system_bootstrap:
    input:
        metric_pieces("system_bootstrap", metrics_with(SYSTEM_LEVEL_LPS)),
    output:
        tsv="results/correlations/system_bootstrap.tsv",
    params:
        order=study_order(SYSTEM_LEVEL_LPS),
    log:
        "results/logs/collect_system_bootstrap.log",
    benchmark:
        "results/benchmarks/collect_system_bootstrap.tsv"
    localrule: True
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/collect_tables.py"


rule plot_system_scatter:
    # Reads the scores, not evaluate_metric's table: each panel's r comes from the same routine on the
    # same files, so a rescored metric's figure and its correlations are made side by side.
    input:
        unpack(scatter_inputs),
    output:
        png="results/figures/system_scatter.{metric}.png",
        pdf="results/figures/system_scatter.{metric}.pdf",
    params:
        metric=lambda wildcards: metric_entry(wildcards.metric),
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


# One metric's own results as a target (rule metric_<id>, named by mtmeta.app.config.results_rule_name):
# its scores, its pieces in results/metaeval/<id>/ and its scatter figure, and nothing that compares it
# with other metrics, which the next `snakemake` brings up to date. `snakemake metric_bleu -R score_bleu`
# (`make metric METRIC=bleu`) rescores BLEU and remakes these only, where `-R score_bleu` alone also
# reruns every cross-metric table and the official task sets' significance tests (docs/benchmarks.md).
for _metric_id in ALL_METRICS:

    rule:
        name:
            results_rule_name(_metric_id)
        localrule: True
        input:
            expand(list(rules.evaluate_metric.output), metric=_metric_id),
            expand(list(rules.plot_system_scatter.output), metric=_metric_id) if _metric_id in FIGURE_METRICS else [],


rule collect_segment_level:
    input:
        metric_pieces("segment_level", metrics_with(JUDGED_LPS)),
    output:
        tsv="results/correlations/segment_level.tsv",
        markdown="results/correlations/segment_level.md",
    params:
        order=study_order(JUDGED_LPS),
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


if ANNOTATED_LPS:

    rule judgment_levels:
        # The WMT12-14 segment-level table between chance and a second annotator: each pair's judgments
        # of one comparison by different annotators scored against each other under the Kendall
        # variants, each metric's value and chance level beside them (mtmeta.metaeval.annotators).
        # One job for every pair: the agreement is counts, not pairs, and costs little.
        input:
            segment_level=rules.collect_segment_level.output.tsv,
            comparisons=prepared("comparisons.parquet", ANNOTATED_LPS),
            sources=[item for pair in annotated_pairs() for item in source_inputs(pair["source"])],
            segments=[path for pair in annotated_pairs() for path in pair["segments"]],
        output:
            tsv="results/correlations/segment_levels.tsv",
            markdown="results/correlations/segment_levels.md",
        params:
            pairs=annotated_pairs(),
            bootstrap=config["bootstrap"],
        log:
            "results/logs/judgment_levels.log",
        benchmark:
            "results/benchmarks/judgment_levels.tsv"
        resources:
            mem_mb=2000,
            runtime=10,
        script:
            "../scripts/judgment_levels.py"


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


rule rank_metrics:
    # mt-metrics-eval's permutation tests between every two metrics (beside Williams'), on every pair
    # (system-level Pearson and pairwise accuracy; on an MQM set also segment-level tie-calibrated
    # acc_eq), and the global pairwise accuracy over the MQM sets: one job, as test_significance.
    input:
        unpack(ranking_inputs),
    output:
        pairs=[f"results/significance/{d}/{lp}/clusters.tsv" for d, lp in SYSTEM_LEVEL_LPS],
        pooled="results/significance/global_accuracy.tsv",
    params:
        pairs=ranking_pairs(SYSTEM_LEVEL_LPS),
        pooled=[SYSTEM_LEVEL_LPS.index(pair) for pair in MTME_LPS],
        draws=config["permutation"]["draws"],
        seed=config["permutation"]["seed"],
        level=config["significance_level"],
    log:
        "results/logs/rank_metrics.log",
    benchmark:
        "results/benchmarks/rank_metrics.tsv"
    resources:
        mem_mb=3000,
        runtime=30,
    script:
        "../scripts/rank_metrics.py"


rule export_metric_scores:
    # The study's scores of an mt-metrics-eval set in its own layout, ready for mt-metrics-eval.
    input:
        summary="results/datasets/{dataset}/{lp}/summary.json",
        segments=lambda wildcards: [f"results/scores/{wildcards.dataset}/{wildcards.lp}/{m}.seg.parquet"
                                    for m in exportable(wildcards)],
        systems=lambda wildcards: [f"results/scores/{wildcards.dataset}/{wildcards.lp}/{m}.sys.tsv"
                                   for m in exportable(wildcards)],
    output:
        directory("results/mtme/{dataset}/metric-scores/{lp}"),
    params:
        metrics=lambda wildcards: [metric_entry(m) for m in exportable(wildcards)],
    log:
        "results/logs/export_metric_scores/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/export_metric_scores/{dataset}/{lp}.tsv"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/export_metric_scores.py"


rule collect_clusters:
    input:
        [f"results/significance/{d}/{lp}/clusters.tsv" for d, lp in SYSTEM_LEVEL_LPS],
    output:
        tsv="results/significance/clusters.tsv",
    log:
        "results/logs/collect_clusters.log",
    benchmark:
        "results/benchmarks/collect_clusters.tsv"
    localrule: True
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/collect_tables.py"


rule sweep_parameters:
    input:
        unpack(sweep_inputs),
    output:
        table="results/sweeps/{sweep}.tsv",
        best="results/sweeps/{sweep}.best.tsv",
        png="results/sweeps/{sweep}.png",
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


if RATER_LPS:

    rule ceiling_levels:
        # Where several raters rated the same outputs: one rater against the mean of the other two
        # (seeded held-out rule, three rotations), every metric against the same two-rater means, and
        # each metric's chance level there (mtmeta.metaeval.ceiling_levels); for the MQM protocol table.
        input:
            evalsets=lambda wildcards: f"results/evalsets/{DATASETS[wildcards.dataset]['evalset']['assemble']}",
            segments=lambda wildcards: [f"results/scores/{wildcards.dataset}/{wildcards.lp}/{m}.seg.parquet"
                                        for m in METRICS_FOR[(wildcards.dataset, wildcards.lp)]],
            systems=lambda wildcards: [f"results/scores/{wildcards.dataset}/{wildcards.lp}/{m}.sys.tsv"
                                       for m in METRICS_FOR[(wildcards.dataset, wildcards.lp)]],
        output:
            "results/metaeval/ceiling/{dataset}/{lp}.tsv",
        params:
            testset=lambda wildcards: DATASETS[wildcards.dataset]["testset"],
            metrics=lambda wildcards: [metric_entry(m) for m in METRICS_FOR[(wildcards.dataset, wildcards.lp)]],
            draws=config["chance"]["draws"],
            seed=config["bootstrap"]["seed"],
            bootstrap=config["bootstrap"]["draws"],
        log:
            "results/logs/ceiling_levels/{dataset}/{lp}.log",
        benchmark:
            "results/benchmarks/ceiling_levels/{dataset}/{lp}.tsv"
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/ceiling_levels.py"


if CROWD_LPS:

    rule crowd_levels:
        # Where a set has both WMT's crowd DA and MQM: each DA variant scored as a metric against MQM,
        # every metric on the same systems and segments, and the chance level of each
        # (mtmeta.metaeval.crowd); for the MQM protocol table.
        input:
            summary="results/datasets/{dataset}/{lp}/summary.json",
            human_scores="results/datasets/{dataset}/{lp}/human_scores.tsv",
            human_segments="results/datasets/{dataset}/{lp}/human_segments.parquet",
            segments=lambda wildcards: [f"results/scores/{wildcards.dataset}/{wildcards.lp}/{m}.seg.parquet"
                                        for m in METRICS_FOR[(wildcards.dataset, wildcards.lp)]],
            systems=lambda wildcards: [f"results/scores/{wildcards.dataset}/{wildcards.lp}/{m}.sys.tsv"
                                       for m in METRICS_FOR[(wildcards.dataset, wildcards.lp)]],
        output:
            "results/metaeval/crowd/{dataset}/{lp}.tsv",
        params:
            metrics=lambda wildcards: [metric_entry(m) for m in METRICS_FOR[(wildcards.dataset, wildcards.lp)]],
            draws=config["chance"]["draws"],
            seed=config["bootstrap"]["seed"],
            bootstrap=config["bootstrap"]["draws"],
        log:
            "results/logs/crowd_levels/{dataset}/{lp}.log",
        benchmark:
            "results/benchmarks/crowd_levels/{dataset}/{lp}.tsv"
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/crowd_levels.py"


rule tables:
    localrule: True
    input:
        rules.collect_system_level.output.tsv,
        rules.collect_segment_level.output.tsv if JUDGED_LPS else [],
        rules.judgment_levels.output if ANNOTATED_LPS else [],
        rules.collect_system_bootstrap.output.tsv,
        rules.collect_protocols.output.tsv,
        rules.test_significance.output,
        rules.collect_clusters.output.tsv,
        rules.collect_categories.output.tsv if CATEGORY_LPS else [],
        rules.rank_metrics.output.pooled,
        [f"results/mtme/{d}/metric-scores/{lp}" for d, lp in MTME_LPS],
        rules.collect_exclusions.output[0],
        expand("results/figures/system_scatter.{metric}.{ext}", metric=FIGURE_METRICS, ext=["png", "pdf"]),
