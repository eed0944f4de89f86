# Targeted paraphrasing of references (seed 002, "Parmesan"): word alignment of references and
# system outputs, new references per setting, their scores and correlations, and the appendix
# experiment that keeps only the best-ranked share of the lexicon. The config section (PARMESAN*)
# and the input functions are in common.smk.


wildcard_constraints:
    setting="|".join(map(re.escape, PARMESAN["settings"])) or "NONE",


rule align_outputs:
    # Long jobs on the critical path of the seed-000/002 artefacts: start them first.
    priority: 10
    input:
        segments="results/datasets/{dataset}/{lp}/segments.parquet",
    output:
        "results/parmesan/{dataset}/{lp}/alignment.parquet",
    params:
        tokenize=PARMESAN["tokenize"],
        seed=PARMESAN["alignment"]["seed"],
        lowercase=PARMESAN["alignment"]["lowercase"],
        samplers=PARMESAN["alignment"]["samplers"],
    log:
        "results/logs/align_outputs/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/align_outputs/{dataset}/{lp}.tsv"
    resources:
        mem_mb=8000,
        runtime=120,
    script:
        "../scripts/align_outputs.py"


rule paraphrase_references:
    # One job per target for all settings: they share the lexicon's parse, simplemma's dictionary and
    # its lemma cache, which were half of each setting's time.
    input:
        unpack(paraphrase_inputs),
    output:
        segments=setting_outputs("segments.parquet"),
        references=[directory(path) for path in setting_outputs("references")],
        substitutions=setting_outputs("substitutions.tsv.gz"),
        samples=setting_outputs("samples.tsv"),
        summary=setting_outputs("summary.json"),
    params:
        settings=PARMESAN["settings"],
        lexicon=parmesan_lexicon,
        tokenize=PARMESAN["tokenize"],
        samples=PARMESAN["samples"],
        sample_seed=PARMESAN["sample_seed"],
    log:
        "results/logs/paraphrase_references/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/paraphrase_references/{dataset}/{lp}.tsv"
    resources:
        mem_mb=4000,
        runtime=60,
    script:
        "../scripts/paraphrase_references.py"


# One job per metric for all its runs (targets x settings), as in score.smk: the runs are short
# next to a scoring process's start-up and its resources' loading.
PARAPHRASED_METRICS = list(dict.fromkeys(m for d, lp in PARMESAN_TARGETS for _, m in parmesan_runs(d, lp)))

for _metric_id in PARAPHRASED_METRICS:
    _runs = paraphrased_runs(_metric_id)

    rule:
        name:
            paraphrased_rule_name(_metric_id)
        input:
            segments=[f"results/parmesan/{d}/{lp}/{s}/segments.parquet" for d, lp, s in _runs],
            tokens=[f"results/datasets/{d}/{lp}/tokens.parquet" for d, lp, _ in _runs],
            code=metric_code_files(_metric_id),
            resources=metric_resource_files(_metric_id, [target_language(lp) for _, lp, _ in _runs]),
            kernels=ancient(KERNEL_CACHE),
        output:
            segments=[f"results/parmesan/{d}/{lp}/{s}/scores/{_metric_id}.seg.parquet" for d, lp, s in _runs],
            systems=[f"results/parmesan/{d}/{lp}/{s}/scores/{_metric_id}.sys.tsv" for d, lp, s in _runs],
        params:
            metric=metric_entry(_metric_id),
            runs=[{"dataset": d, "lp": lp, "setting": s} for d, lp, s in _runs],
            own_references=True,
        log:
            f"results/logs/score_paraphrased/{_metric_id}.log",
        benchmark:
            f"results/benchmarks/score_paraphrased/{_metric_id}.tsv"
        message:
            f"Scoring {len(_runs)} paraphrased-reference runs with {_metric_id}"
        threads: SCORE_THREADS
        resources:
            mem_mb=4000,
            runtime=120,
        script:
            "../scripts/score_segments.py"


rule correlate_paraphrased:
    input:
        unpack(parmesan_scores),
    output:
        table="results/parmesan/{dataset}/{lp}/correlations.tsv",
    params:
        settings=PARMESAN["settings"],
        runs=lambda wildcards: parmesan_runs(wildcards.dataset, wildcards.lp),
    log:
        "results/logs/correlate_paraphrased/{dataset}/{lp}.log",
    benchmark:
        "results/benchmarks/correlate_paraphrased/{dataset}/{lp}.tsv"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/correlate_paraphrased.py"


rule sweep_paraphrase_share:
    # One ~10-minute job (30 paraphrasings and scorings): start it as soon as it can, not as the tail.
    priority: 10
    input:
        unpack(appendix_inputs),
    output:
        table="results/parmesan/appendix.tsv",
        rankings="results/parmesan/appendix_rankings.tsv.gz",
        png="results/parmesan/appendix.png",
        pdf="results/parmesan/appendix.pdf",
    params:
        appendix=PARMESAN_APPENDIX,
        setting=lambda wildcards: PARMESAN["settings"][PARMESAN_APPENDIX["setting"]],
        lexicon=lambda wildcards: PARMESAN["lexicons"][target_language(target_pair(PARMESAN_APPENDIX["target"])[1])],
        metric=lambda wildcards: metric_entry(PARMESAN_APPENDIX["metric"]),
        tokenize=PARMESAN["tokenize"],
    log:
        "results/logs/sweep_paraphrase_share.log",
    benchmark:
        "results/benchmarks/sweep_paraphrase_share.tsv"
    resources:
        mem_mb=6000,
        runtime=60,
    script:
        "../scripts/sweep_paraphrase_share.py"
