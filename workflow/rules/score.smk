# Per-metric scoring: sufficient statistics per segment, segment and system scores.
#
# One job per metric, scoring every dataset x language pair it is configured for, instead of one job
# per metric x pair: a scoring process spends 2-3 s starting (Python, pandas, numba's compiled
# kernels) and up to 5 s loading the metric's resources (word vectors, WordNet, paraphrases), and
# per pair that was a third of the scoring time. Each metric keeps a rule of its own (named by
# mtmeta.app.config.score_rule_name, e.g. score_bleu, score_chrfpp) so that editing a metric's code
# reruns that metric's scores only, and `snakemake -R score_bleu` reruns one metric.


SCORE_RULES = {metric_id: score_rule_name(metric_id) for metric_id in ALL_METRICS}  # distinct: config's check
# Processes per scoring job, each scoring a share of the runs (the same bytes for any number).
SCORE_THREADS = 2


# Every kernel compiled once into numba's on-disk cache (mtmeta.precompile), in a job of one core that
# starts with the study, so that the two processes of a scoring job load the machine code instead of
# both compiling it. Scoring rules take its output as ancient(): a new compile does not rerun them.
KERNEL_CACHE = "results/kernels/compiled.json"


rule compile_kernels:
    priority: 20
    input:
        code=[repo_file(Path("src") / "mtmeta" / "precompile.py"), *kernel_code_files()],
    output:
        KERNEL_CACHE,
    params:
        modules=KERNEL_MODULES,
    log:
        "results/logs/compile_kernels.log",
    benchmark:
        "results/benchmarks/compile_kernels.tsv"
    resources:
        mem_mb=1000,
        runtime=20,
    script:
        "../scripts/compile_kernels.py"


for _metric_id, _rule_name in SCORE_RULES.items():
    if _metric_id in EXTERNAL:
        continue  # read from the user's files (below)
    _pairs = metric_pairs(_metric_id)

    rule:
        name:
            _rule_name
        input:
            segments=prepared("segments.parquet", _pairs),
            tokens=prepared("tokens.parquet", _pairs),
            code=metric_code_files(_metric_id),
            resources=metric_resource_files(_metric_id, [target_language(lp) for _, lp in _pairs]),
            kernels=ancient(KERNEL_CACHE),
        output:
            segments=[f"results/scores/{d}/{lp}/{_metric_id}.seg.parquet" for d, lp in _pairs],
            systems=[f"results/scores/{d}/{lp}/{_metric_id}.sys.tsv" for d, lp in _pairs],
        params:
            metric=metric_entry(_metric_id),
            runs=[{"dataset": d, "lp": lp, "tokenized": DATASETS[d].get("tokenized", False)} for d, lp in _pairs],
            own_references=False,
        log:
            f"results/logs/score_segments/{_metric_id}.log",
        benchmark:
            f"results/benchmarks/score_segments/{_metric_id}.tsv"
        message:
            f"Scoring {len(_pairs)} dataset x language pairs with {_metric_id}"
        # Two processes share the runs (SCORE_THREADS): a rerun of one metric starts with its scoring
        # job alone, which would otherwise leave the second core idle.
        threads: SCORE_THREADS
        resources:
            mem_mb=4000,
            runtime=240,
        script:
            "../scripts/score_segments.py"


# A user's own metric (config's external_scores): its score files, checked against the prepared
# datasets, become the study's score tables, so it takes part in every table, figure and Williams
# group. Named like a scoring rule (`snakemake -R score_<id>` rereads the files).
for _metric_id, _spec in EXTERNAL.items():
    _pairs = metric_pairs(_metric_id)

    rule:
        name:
            SCORE_RULES[_metric_id]
        input:
            segments=prepared("segments.parquet", _pairs),
            scores=[_spec["segment"], *([_spec["system"]] if "system" in _spec else [])],
        output:
            segments=[f"results/scores/{d}/{lp}/{_metric_id}.seg.parquet" for d, lp in _pairs],
            systems=[f"results/scores/{d}/{lp}/{_metric_id}.sys.tsv" for d, lp in _pairs],
        params:
            metric_id=_metric_id,
            pairs=_pairs,
        log:
            f"results/logs/score_segments/{_metric_id}.log",
        benchmark:
            f"results/benchmarks/score_segments/{_metric_id}.tsv"
        message:
            f"Reading {_metric_id}'s scores of {len(_pairs)} dataset x language pairs"
        resources:
            mem_mb=2000,
            runtime=10,
        script:
            "../scripts/import_external_scores.py"


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
