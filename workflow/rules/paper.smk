# The paper tables and figures under results/paper/, with the seeds' reported numbers
# (config/reported/*.yaml) beside ours, and the ledger of every reported number. Which tables are
# built, and with which metric and sweep ids, is config's `paper` section (validated). The helpers
# (settings_name, paper_outputs, target_pair) are in common.smk.
PAPER = config["paper"]
# Each WMT year's own segment-level Kendall variant.
TAU_VARIANT = {"wmt12": "wmt12", "wmt13": "wmt13", "wmt13dev": "wmt13", "wmt14": "wmt14"}

TUNING = PAPER.get("meteor_tuning")
PARMESAN_PAPER = PAPER.get("parmesan")
# target "dataset/lp" -> the seed's column label; the settings table reads each target's directory.
SETTINGS_TARGETS = PARMESAN_PAPER["targets"] if PARMESAN_PAPER else {}
SETTINGS_METRICS = (
    list(
        dict.fromkeys(
            [PARMESAN_PAPER["baseline"], *PARMESAN_PAPER["meteor_settings"].values(), PARMESAN_PAPER["exact_meteor"]]
        )
    )
    if PARMESAN_PAPER
    else []
)
# The tables on the paraphrased references: the Parmesan targets the settings table also has.
PARAPHRASED_LABELS = {t: label for t, label in SETTINGS_TARGETS.items() if target_pair(t) in PARMESAN_TARGETS}
PARAPHRASED_TABLES = ["parmesan_substitution", "parmesan_replaced"] + (["parmesan_meteor"] if PARMESAN_METEOR else [])
SOFTBLEU = PAPER.get("softbleu")
SOFTBLEU_METRICS = [SOFTBLEU["baseline"], *SOFTBLEU["metrics"]] if SOFTBLEU else []
WMT_BASELINES = PAPER.get("wmt_baselines")
SENSITIVITY = PAPER.get("sensitivity")
# The official WMT12 record (config/reported/wmt12.yaml) beside the study's metrics.
OFFICIAL = PAPER.get("official_wmt12")
OFFICIAL_LPS = [(OFFICIAL["dataset"], lp) for lp in DATASETS[OFFICIAL["dataset"]]["language_pairs"]] if OFFICIAL else []
OFFICIAL_METRICS = list(dict.fromkeys([*OFFICIAL["defaults"].values(), *OFFICIAL["as_run"].values()])) if OFFICIAL else []
SENSITIVITY_TARGETS = [target_pair(t) for t in SENSITIVITY["targets"]] if SENSITIVITY else []
# mt-metrics-eval's task sets on the study's MQM sets (`mtmeta tasks`): name -> design, dataset, pairs.
OFFICIAL_TASKS = PAPER.get("official_tasks")
OFFICIAL_TASK_SETS = OFFICIAL_TASKS["sets"] if OFFICIAL_TASKS else {}


if TUNING:
    _dataset, _lp = target_pair(TUNING["target"])

    rule paper_meteor_tuning:
        input:
            sweep=f"results/sweeps/{TUNING['sweep']}.tsv",
            module_bests=[f"results/sweeps/{s}.best.tsv" for s in TUNING["module_sweeps"].values()],
            baseline=f"results/metaeval/{TUNING['baseline']}/segment_level.tsv",
            segments=f"results/scores/{_dataset}/{_lp}/{TUNING['metric']}.seg.parquet",
            comparisons=f"results/datasets/{_dataset}/{_lp}/comparisons.parquet",
            reported=repo_file("config/reported/seed001.yaml"),
        output:
            alpha="results/paper/meteor_tuning_alpha.tsv",
            alpha_md="results/paper/meteor_tuning_alpha.md",
            gamma="results/paper/meteor_tuning_gamma.tsv",
            gamma_md="results/paper/meteor_tuning_gamma.md",
            modules="results/paper/meteor_tuning_modules.tsv",
            modules_md="results/paper/meteor_tuning_modules.md",
            png="results/paper/meteor_tuning.png",
            pdf="results/paper/meteor_tuning.pdf",
        params:
            metric=metric_entry(TUNING["metric"]),
            baseline=TUNING["baseline"],
            module_labels=list(TUNING["module_sweeps"]),
            dataset=_dataset,
            lp=_lp,
            lang=target_language(_lp),
            tokenized=DATASETS[_dataset].get("tokenized", False),
        log:
            "results/logs/paper_meteor_tuning.log",
        benchmark:
            "results/benchmarks/paper_meteor_tuning.tsv"
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/paper_meteor_tuning.py"


for _target, _label in SETTINGS_TARGETS.items():
    _dataset, _lp = target_pair(_target)

    rule:
        name:
            settings_name(_target)
        input:
            summary=f"results/datasets/{_dataset}/{_lp}/summary.json",
            human_scores=f"results/datasets/{_dataset}/{_lp}/human_scores.tsv",
            systems=[f"results/scores/{_dataset}/{_lp}/{m}.sys.tsv" for m in SETTINGS_METRICS],
            reported=repo_file("config/reported/seed002.yaml"),
        output:
            tsv=f"results/paper/{settings_name(_target)}.tsv",
            markdown=f"results/paper/{settings_name(_target)}.md",
        params:
            label=_label,
            metrics=SETTINGS_METRICS,
            baseline=PARMESAN_PAPER["baseline"],
            exact_meteor=PARMESAN_PAPER["exact_meteor"],
            meteor_settings=PARMESAN_PAPER["meteor_settings"],
        log:
            f"results/logs/paper_parmesan_settings/{_dataset}/{_lp}.log",
        benchmark:
            f"results/benchmarks/paper_parmesan_settings/{_dataset}/{_lp}.tsv"
        localrule: True
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/paper_parmesan_settings.py"


if "overview" in PAPER:

    rule paper_overview:
        input:
            system_level=rules.collect_system_level.output.tsv,
            segment_level=rules.collect_segment_level.output.tsv,
            bootstrap=rules.collect_system_bootstrap.output.tsv,
            ranks=rules.test_significance.output.ranks,
        output:
            tsv="results/paper/overview.tsv",
            markdown="results/paper/overview.md",
            png="results/paper/overview.png",
            pdf="results/paper/overview.pdf",
        params:
            tau_variant=TAU_VARIANT,
        log:
            "results/logs/paper_overview.log",
        benchmark:
            "results/benchmarks/paper_overview.tsv"
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/paper_overview.py"


if PARAPHRASED_LABELS:

    rule paper_parmesan:
        input:
            correlations=[f"results/parmesan/{target}/correlations.tsv" for target in PARAPHRASED_LABELS],
            reported=repo_file("config/reported/seed002.yaml"),
        output:
            tsv=[f"results/paper/{name}.tsv" for name in PARAPHRASED_TABLES],
            markdown=[f"results/paper/{name}.md" for name in PARAPHRASED_TABLES],
            variants="results/paper/parmesan_variants.md",
        params:
            labels=list(PARAPHRASED_LABELS.values()),
            settings=PARMESAN["settings"],
            meteor_setting=PARMESAN_METEOR.get("setting"),
            meteor_settings=PARMESAN_PAPER["meteor_settings"],
            baseline=PARMESAN_PAPER["baseline"],
            names=PARAPHRASED_TABLES,
        log:
            "results/logs/paper_parmesan.log",
        benchmark:
            "results/benchmarks/paper_parmesan.tsv"
        localrule: True
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/paper_parmesan.py"


if SOFTBLEU:

    rule paper_softbleu:
        input:
            # Only its metrics' pieces, so that rescoring another metric leaves this table alone; the
            # Williams tests of each variant against BLEU are computed here from the system scores.
            system_level=metric_pieces("system_level", SOFTBLEU_METRICS),
            segment_level=metric_pieces("segment_level", SOFTBLEU_METRICS),
            bootstrap=metric_pieces("system_bootstrap", SOFTBLEU_METRICS),  # the figure's intervals
            summaries=prepared("summary.json", SYSTEM_LEVEL_LPS),
            human_scores=prepared("human_scores.tsv", SYSTEM_LEVEL_LPS),
            systems=[f"results/scores/{d}/{lp}/{m}.sys.tsv" for d, lp in SYSTEM_LEVEL_LPS for m in SOFTBLEU_METRICS],
            embeddings=expand(
                "results/embeddings/{model}/{lang}/training.json",
                model=list(EMBEDDINGS)[:1],
                lang=sorted({target_language(lp) for _, lp in DATASET_LPS}),
            ),
        output:
            tsv="results/paper/softbleu.tsv",
            markdown="results/paper/softbleu.md",
            embeddings="results/paper/softbleu_embeddings.md",
            png="results/paper/softbleu.png",
            pdf="results/paper/softbleu.pdf",
        params:
            metrics=[metric_entry(m) for m in SOFTBLEU_METRICS],
            baseline=SOFTBLEU["baseline"],
            tau_variant=TAU_VARIANT,
        log:
            "results/logs/paper_softbleu.log",
        benchmark:
            "results/benchmarks/paper_softbleu.tsv"
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/paper_softbleu.py"


if WMT_BASELINES:

    rule paper_wmt_baselines:
        input:
            system_level=metric_pieces("system_level", WMT_BASELINES["metrics"]),
            bootstrap=metric_pieces("system_bootstrap", WMT_BASELINES["metrics"]),
            record=repo_file("config/reported/wmt12.yaml") if OFFICIAL else [],
        output:
            tsv="results/paper/wmt_baselines.tsv",
            markdown="results/paper/wmt_baselines.md",
            official="results/paper/wmt_baselines_official_vs_pairwise.tsv",
        params:
            metrics=WMT_BASELINES["metrics"],
            human_scores=WMT_BASELINES["human_scores"],
            # The study ids each official metric of the record is compared with.
            official_ids={k: list(dict.fromkeys([OFFICIAL["defaults"][k], OFFICIAL["as_run"][k]])) for k in
                          OFFICIAL["defaults"]} if OFFICIAL else {},
        log:
            "results/logs/paper_wmt_baselines.log",
        benchmark:
            "results/benchmarks/paper_wmt_baselines.tsv"
        localrule: True
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/paper_wmt_baselines.py"


if SENSITIVITY:

    rule preprocess_sensitivity_text:
        # Both sides Moses-tokenised, and lemmatised, once per target for every re-scored metric.
        input:
            segments="results/datasets/{dataset}/{lp}/segments.parquet",
        output:
            moses="results/paper/sensitivity/{dataset}/{lp}/text.moses.parquet",
            lemmas="results/paper/sensitivity/{dataset}/{lp}/text.lemmas.parquet",
        log:
            "results/logs/preprocess_sensitivity_text/{dataset}/{lp}.log",
        benchmark:
            "results/benchmarks/preprocess_sensitivity_text/{dataset}/{lp}.tsv"
        resources:
            mem_mb=2000,
            runtime=10,
        script:
            "../scripts/preprocess_sensitivity_text.py"

    rule sensitivity_metric:
        # One job per target and metric, so that rescoring a metric reruns its rows only. Text factors
        # re-score the metric (about 10 s for WMT12 en-cs); the rest re-aggregates its statistics.
        input:
            unpack(sensitivity_text_inputs),
            segments="results/datasets/{dataset}/{lp}/segments.parquet",
            comparisons="results/datasets/{dataset}/{lp}/comparisons.parquet",
            scores="results/scores/{dataset}/{lp}/{metric}.seg.parquet",
            bootstrap="results/metaeval/{metric}/system_bootstrap.tsv",
        output:
            "results/paper/sensitivity/{dataset}/{lp}/{metric}.tsv",
        params:
            metric=lambda w: metric_entry(w.metric),
            rescored=lambda w: w.metric in SENSITIVITY["rescored"],
        log:
            "results/logs/sensitivity_metric/{dataset}/{lp}/{metric}.log",
        benchmark:
            "results/benchmarks/sensitivity_metric/{dataset}/{lp}/{metric}.tsv"
        resources:
            mem_mb=3000,
            runtime=20,
        script:
            "../scripts/sensitivity_metric.py"

    rule paper_sensitivity:
        input:
            sensitivity_pieces,
        output:
            tsv="results/paper/sensitivity_{dataset}_{lp}.tsv",
            markdown="results/paper/sensitivity_{dataset}_{lp}.md",
            png="results/paper/sensitivity_{dataset}_{lp}.png",
        params:
            rescored=SENSITIVITY["rescored"],
        log:
            "results/logs/paper_sensitivity/{dataset}/{lp}.log",
        benchmark:
            "results/benchmarks/paper_sensitivity/{dataset}/{lp}.tsv"
        localrule: True
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/paper_sensitivity.py"


if "mqm" in PAPER and MTME_LPS:
    # The error-category table is always written: the analysis where some pair has an MQM error
    # annotation (paper.mqm.categories, or every pair whose eval set has an error table), else a stated
    # absence (a table without rows, and a Markdown page saying why); its figure only with data.
    MQM_CATEGORY_FIGURES = {
        "categories_png": "results/paper/mqm_categories.png",
        "categories_pdf": "results/paper/mqm_categories.pdf",
    } if CATEGORY_LPS else {}

    rule paper_mqm:
        input:
            protocols=rules.collect_protocols.output.tsv,
            clusters=rules.collect_clusters.output.tsv,
            global_accuracy=rules.rank_metrics.output.pooled,
            summaries=prepared("summary.json", MTME_LPS),
            categories=rules.collect_categories.output.tsv if CATEGORY_LPS else [],
            counts=[f"results/datasets/{d}/{lp}/mqm_error_counts.tsv" for d, lp in CATEGORY_LPS],
            system_level=rules.collect_system_level.output.tsv,
            ranks=rules.test_significance.output.ranks,
            ceilings=[f"results/metaeval/ceiling/{d}/{lp}.tsv" for d, lp in RATER_LPS],
            crowds=[f"results/metaeval/crowd/{d}/{lp}.tsv" for d, lp in CROWD_LPS],
        output:
            protocols="results/paper/mqm_protocols.tsv",
            protocols_md="results/paper/mqm_protocols.md",
            ranking_png="results/paper/mqm_ranking.png",
            ranking_pdf="results/paper/mqm_ranking.pdf",
            translations="results/paper/mqm_human_translations.tsv",
            translations_md="results/paper/mqm_human_translations.md",
            translations_png="results/paper/mqm_human_translations.png",
            translations_pdf="results/paper/mqm_human_translations.pdf",
            eras="results/paper/eras.tsv",
            categories="results/paper/mqm_categories.tsv",
            categories_md="results/paper/mqm_categories.md",
            **MQM_CATEGORY_FIGURES,
            eras_md="results/paper/eras.md",
        log:
            "results/logs/paper_mqm.log",
        benchmark:
            "results/benchmarks/paper_mqm.tsv"
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/paper_mqm.py"


if ANNOTATED_LPS and "mqm" in PAPER and MTME_LPS:

    rule paper_levels:
        # Between chance and a human, per era: the metrics indistinguishable from chance at segment
        # level, the best metric's distance from a human level, one figure per era (mtmeta.paper.levels).
        input:
            segment_levels=rules.judgment_levels.output.tsv,
            protocols=rules.collect_protocols.output.tsv,
            ceilings=[f"results/metaeval/ceiling/{d}/{lp}.tsv" for d, lp in RATER_LPS],
            crowds=[f"results/metaeval/crowd/{d}/{lp}.tsv" for d, lp in CROWD_LPS],
        output:
            chance="results/paper/levels_chance.tsv",
            headroom="results/paper/levels_headroom.tsv",
            markdown="results/paper/levels.md",
            rankings_png="results/paper/levels_rankings.png",
            rankings_pdf="results/paper/levels_rankings.pdf",
            mqm_png="results/paper/levels_mqm.png",
            mqm_pdf="results/paper/levels_mqm.pdf",
        log:
            "results/logs/paper_levels.log",
        benchmark:
            "results/benchmarks/paper_levels.tsv"
        resources:
            mem_mb=1000,
            runtime=10,
        script:
            "../scripts/paper_levels.py"


if OFFICIAL:

    rule rescore_official_wmt12:
        # BLEU and METEOR re-scored with one factor changed (about a minute alone: METEOR without
        # paraphrases on four pairs). Only the text, the resources and the two metrics' code: a rerun of
        # one metric's scores (e.g. -R score_bleu) does not redo it.
        input:
            segments=prepared("segments.parquet", OFFICIAL_LPS),
            resources=metric_resource_files(OFFICIAL["as_run"]["meteor"], [target_language(lp) for _, lp in OFFICIAL_LPS])
            + source_inputs("meteor_jar"),
            code=metric_code_files(OFFICIAL["defaults"]["bleu"]) + metric_code_files(OFFICIAL["as_run"]["meteor"]),
        output:
            "results/official/wmt12_rescored.tsv",
        params:
            lps=[lp for _, lp in OFFICIAL_LPS],
            bleu=metric_entry(OFFICIAL["defaults"]["bleu"]),
            meteor=metric_entry(OFFICIAL["as_run"]["meteor"]),
        log:
            "results/logs/rescore_official_wmt12.log",
        benchmark:
            "results/benchmarks/rescore_official_wmt12.tsv"
        resources:
            mem_mb=3000,
            runtime=20,
        script:
            "../scripts/rescore_official_wmt12.py"

    rule paper_official_wmt12:
        # The WMT12 metrics task's published correlations beside the study's, with the re-scored factors.
        input:
            record=repo_file("config/reported/wmt12.yaml"),
            human_scores=prepared("human_scores.tsv", OFFICIAL_LPS),
            systems=[f"results/scores/{d}/{lp}/{m}.sys.tsv" for d, lp in OFFICIAL_LPS for m in OFFICIAL_METRICS],
            variants=rules.rescore_official_wmt12.output[0],
        output:
            tsv="results/paper/official_wmt12.tsv",
            markdown="results/paper/official_wmt12.md",
            factors="results/paper/official_wmt12_factors.tsv",
        params:
            dataset=OFFICIAL["dataset"],
            lps=[lp for _, lp in OFFICIAL_LPS],
            metrics=[metric_entry(m) for m in OFFICIAL_METRICS],
            defaults=OFFICIAL["defaults"],
            as_run=OFFICIAL["as_run"],
        log:
            "results/logs/paper_official_wmt12.log",
        benchmark:
            "results/benchmarks/paper_official_wmt12.tsv"
        resources:
            mem_mb=1000,
            runtime=5,
        script:
            "../scripts/paper_official_wmt12.py"


if OFFICIAL_TASK_SETS:

    rule official_tasks:
        # One task set (the WMT23 or WMT24 design) on one MQM set, with every study metric (as exported
        # for mt-metrics-eval) and the user's (external_scores): `mtmeta tasks` run by its own code on the
        # arguments the outputs record, its --out files in the directory, two of them under results/paper/.
        input:
            unpack(official_tasks_inputs),
        output:
            tsv="results/paper/official_tasks_{name}.tsv",
            markdown="results/paper/official_tasks_{name}.md",
            png="results/figures/official_tasks_{name}.png",
            pdf="results/figures/official_tasks_{name}.pdf",
            out=directory("results/paper/official_tasks_{name}"),
        params:
            spec=lambda wildcards: official_tasks_spec(wildcards.name),
        wildcard_constraints:
            name="|".join(re.escape(name) for name in OFFICIAL_TASK_SETS),
        log:
            "results/logs/official_tasks/{name}.log",
        benchmark:
            "results/benchmarks/official_tasks/{name}.tsv"
        resources:
            mem_mb=2000,
            runtime=20,
        script:
            "../scripts/official_tasks.py"


SENSITIVITY_TABLES = [f"results/paper/sensitivity_{d}_{lp}.tsv" for d, lp in SENSITIVITY_TARGETS]
SETTINGS_TABLES = [f"results/paper/{settings_name(t)}.tsv" for t in SETTINGS_TARGETS]


rule paper_ledger:
    input:
        meteor_tuning=(
            [rules.paper_meteor_tuning.output.alpha, rules.paper_meteor_tuning.output.gamma,
             rules.paper_meteor_tuning.output.modules]
            if TUNING
            else []
        ),
        parmesan_settings=SETTINGS_TABLES,
        parmesan=[f"results/paper/{name}.tsv" for name in PARAPHRASED_TABLES] if PARAPHRASED_LABELS else [],
        sensitivity=SENSITIVITY_TABLES,
        official=[rules.paper_official_wmt12.output.tsv] if OFFICIAL else [],
    output:
        tsv="results/paper/ledger.tsv",
        markdown="results/paper/ledger.md",
    log:
        "results/logs/paper_ledger.log",
    benchmark:
        "results/benchmarks/paper_ledger.tsv"
    localrule: True
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/paper_ledger.py"


rule paper:
    localrule: True
    input:
        paper_outputs("paper_meteor_tuning", TUNING),
        [f"results/paper/{settings_name(t)}.{ext}" for t in SETTINGS_TARGETS for ext in ("tsv", "md")],
        paper_outputs("paper_overview", "overview" in PAPER),
        paper_outputs("paper_parmesan", PARAPHRASED_LABELS),
        [f"results/parmesan/{d}/{lp}/correlations.tsv" for d, lp in PARMESAN_TARGETS],
        "results/parmesan/appendix.tsv" if PARMESAN_APPENDIX else [],
        paper_outputs("paper_softbleu", SOFTBLEU),
        paper_outputs("paper_wmt_baselines", WMT_BASELINES),
        paper_outputs("paper_mqm", "mqm" in PAPER and MTME_LPS),
        paper_outputs("paper_levels", ANNOTATED_LPS and "mqm" in PAPER and MTME_LPS),
        paper_outputs("paper_official_wmt12", OFFICIAL),
        official_tasks_outputs(),
        [f"results/paper/sensitivity_{d}_{lp}.{ext}" for d, lp in SENSITIVITY_TARGETS for ext in ("tsv", "md", "png")],
        rules.paper_ledger.output,
        expand("results/sweeps/{sweep}.{ext}", sweep=config["sweeps"], ext=["tsv", "best.tsv", "png", "pdf"]),
        rules.collect_segment_level.output.tsv,
