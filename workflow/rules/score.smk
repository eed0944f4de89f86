# Per-metric scoring: sufficient statistics per segment, segment scores and system scores.


rule score_segments:
    input:
        segments="results/datasets/{dataset}/{lp}/segments.parquet",
        tokens=rules.tokenize_segments.output.tokens,
        code=metric_code,
        resources=metric_resources,
    output:
        segments="results/scores/{dataset}/{lp}/{metric}.seg.parquet",
        systems="results/scores/{dataset}/{lp}/{metric}.sys.tsv",
    params:
        metric=metric_params,
        tokenized=dataset_tokenized,
    log:
        "results/logs/score_segments/{dataset}/{lp}/{metric}.log",
    benchmark:
        "results/benchmarks/score_segments/{dataset}/{lp}/{metric}.tsv"
    message:
        "Scoring {wildcards.dataset} {wildcards.lp} with {wildcards.metric}"
    resources:
        mem_mb=3000,
        runtime=60,
    script:
        "../scripts/score_segments.py"
