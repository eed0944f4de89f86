# The seed documents' tables and figures, regenerated under results/paper/, with the reported
# numbers (config/reported/*.yaml) beside ours, and the ledger of every reported number.
from mtmeta.paper.parmesan import SEED002_VARIANTS

SEED002_METRICS = ["bleu", *SEED002_VARIANTS.values()]
# Study dataset -> the seed's column; only those whose English->Czech scores the config asks for.
SEED002_DATASETS = {
    dataset: label
    for dataset, label in {"wmt12": "WMT12", "wmt13dev": "WMT13"}.items()
    if set(SEED002_METRICS) <= set(METRICS_FOR.get((dataset, "en-cs"), []))
}
SEED001_MODULE_SWEEPS = ["meteor_stem", "meteor_syn", "meteor_stem_syn"]  # stems, synonyms, both
SEED001_READY = ("evaluator", "xx-en") in METRICS_FOR and {"meteor_alpha_gamma", *SEED001_MODULE_SWEEPS} <= set(
    config["sweeps"]
)
# Each WMT year's own segment-level Kendall variant, for the overview table.
TAU_VARIANT = {"wmt12": "wmt12", "wmt13": "wmt13", "wmt13dev": "wmt13", "wmt14": "wmt14"}


def seed002_specs(wildcards):
    return [metric_entry(m) for m in SEED002_METRICS]


rule table_seed001:
    input:
        sweep="results/sweeps/meteor_alpha_gamma.tsv",
        module_bests=expand("results/sweeps/{sweep}.best.tsv", sweep=SEED001_MODULE_SWEEPS),
        segment_level="results/correlations/evaluator/xx-en/segment_level.tsv",
        segments="results/scores/evaluator/xx-en/meteor-basic.seg.parquet",
        comparisons="results/datasets/evaluator/xx-en/comparisons.parquet",
        reported=repo_file("config/reported/seed001.yaml"),
    output:
        alpha="results/paper/seed001_alpha.tsv",
        alpha_md="results/paper/seed001_alpha.md",
        gamma="results/paper/seed001_gamma.tsv",
        gamma_md="results/paper/seed001_gamma.md",
        modules="results/paper/seed001_modules.tsv",
        modules_md="results/paper/seed001_modules.md",
        png=report("results/paper/seed001_sweeps.png", caption="../report/seed001.rst", category="Paper: seed 001"),
        pdf="results/paper/seed001_sweeps.pdf",
    params:
        metric=metric_entry("meteor-basic"),
    log:
        "results/logs/table_seed001.log",
    benchmark:
        "results/benchmarks/table_seed001.tsv"
    script:
        "../scripts/table_seed001.py"


rule table_seed002:
    input:
        summary="results/datasets/{dataset}/en-cs/summary.json",
        human_scores="results/datasets/{dataset}/en-cs/human_scores.tsv",
        systems=expand("results/scores/{{dataset}}/en-cs/{metric}.sys.tsv", metric=SEED002_METRICS),
        reported=repo_file("config/reported/seed002.yaml"),
    output:
        tsv=report("results/paper/seed002_{dataset}.tsv", caption="../report/seed002.rst", category="Paper: seed 002"),
        markdown="results/paper/seed002_{dataset}.md",
    params:
        label=lambda wildcards: SEED002_DATASETS[wildcards.dataset],
        metrics=seed002_specs,
    wildcard_constraints:
        dataset="|".join(SEED002_DATASETS),
    log:
        "results/logs/table_seed002/{dataset}.log",
    benchmark:
        "results/benchmarks/table_seed002/{dataset}.tsv"
    script:
        "../scripts/table_seed002.py"


rule table_seed002_wmt12:
    input:
        "results/paper/seed002_wmt12.tsv",
        "results/paper/seed002_wmt12.md",


rule table_seed002_wmt13dev:
    input:
        "results/paper/seed002_wmt13dev.tsv",
        "results/paper/seed002_wmt13dev.md",


rule table_seed003:
    input:
        system_level="results/correlations/system_level.tsv",
        segment_level="results/correlations/segment_level.tsv",
        bootstrap=[f"results/correlations/{d}/{lp}/system_bootstrap.tsv" for d, lp in SYSTEM_LEVEL_LPS],
        ranks=[f"results/significance/{d}/{lp}/ranks.tsv" for d, lp in SYSTEM_LEVEL_LPS],
    output:
        tsv=report("results/paper/seed003_overview.tsv", caption="../report/seed003.rst", category="Paper: seed 003"),
        markdown="results/paper/seed003_overview.md",
        png=report("results/paper/seed003_overview.png", caption="../report/seed003.rst", category="Paper: seed 003"),
        pdf="results/paper/seed003_overview.pdf",
    params:
        tau_variant=TAU_VARIANT,
    log:
        "results/logs/table_seed003.log",
    benchmark:
        "results/benchmarks/table_seed003.tsv"
    script:
        "../scripts/table_seed003.py"


# Seed 002's Parmesan tables: every configured target that seed 002 reports (WMT12 / WMT13 en-cs).
PARMESAN_LABELS = {f"{d}/{lp}": SEED002_DATASETS[d] for d, lp in PARMESAN_TARGETS if d in SEED002_DATASETS and lp == "en-cs"}
PARMESAN_TABLES = ["seed002_parmesan_substitution", "seed002_parmesan_replaced"] + (
    ["seed002_parmesan_meteor"] if PARMESAN_METEOR else []
)


rule table_seed002_parmesan:
    input:
        correlations=[f"results/parmesan/{target}/correlations.tsv" for target in PARMESAN_LABELS],
        reported=repo_file("config/reported/seed002.yaml"),
    output:
        tsv=[f"results/paper/{name}.tsv" for name in PARMESAN_TABLES],
        markdown=[f"results/paper/{name}.md" for name in PARMESAN_TABLES],
        variants=report(
            "results/paper/seed002_parmesan_variants.md",
            caption="../report/parmesan.rst",
            category="Paper: seed 002",
        ),
    params:
        labels=list(PARMESAN_LABELS.values()),
        settings=PARMESAN["settings"],
        meteor_setting=PARMESAN_METEOR.get("setting"),
        names=PARMESAN_TABLES,
    log:
        "results/logs/table_seed002_parmesan.log",
    benchmark:
        "results/benchmarks/table_seed002_parmesan.tsv"
    script:
        "../scripts/table_seed002_parmesan.py"


# Seed 000: BLEU against its embedding-softened variants (every metric_settings entry on softbleu).
SEED000_METRICS = ["bleu"] + [m for m, s in config["metric_settings"].items() if s["metric"] == "softbleu"]
SEED000_READY = len(SEED000_METRICS) > 1 and all(set(SEED000_METRICS) <= set(METRICS_FOR[p]) for p in DATASET_LPS)


rule table_seed000:
    input:
        system_level="results/correlations/system_level.tsv",
        segment_level="results/correlations/segment_level.tsv",
        williams=[f"results/significance/{d}/{lp}/williams.tsv" for d, lp in SYSTEM_LEVEL_LPS],
        embeddings=expand(
            "results/embeddings/{model}/{lang}/training.json",
            model=list(EMBEDDINGS)[:1],
            lang=sorted({lp.split("-")[1] for _, lp in DATASET_LPS}),
        ),
    output:
        tsv=report("results/paper/seed000.tsv", caption="../report/seed000.rst", category="Paper: seed 000"),
        markdown="results/paper/seed000.md",
        embeddings="results/paper/seed000_embeddings.md",
        png=report("results/paper/seed000.png", caption="../report/seed000.rst", category="Paper: seed 000"),
        pdf="results/paper/seed000.pdf",
    params:
        metrics=SEED000_METRICS,
        tau_variant=TAU_VARIANT,
    log:
        "results/logs/table_seed000.log",
    benchmark:
        "results/benchmarks/table_seed000.tsv"
    script:
        "../scripts/table_seed000.py"


rule build_ledger:
    input:
        seed001=[
            rules.table_seed001.output.alpha,
            rules.table_seed001.output.gamma,
            rules.table_seed001.output.modules,
        ]
        if SEED001_READY
        else [],
        seed002=expand("results/paper/seed002_{dataset}.tsv", dataset=SEED002_DATASETS),
        parmesan=[f"results/paper/{name}.tsv" for name in PARMESAN_TABLES] if PARMESAN_LABELS else [],
    output:
        tsv=report("results/paper/ledger.tsv", caption="../report/ledger.rst", category="Paper: ledger"),
        markdown="results/paper/ledger.md",
    log:
        "results/logs/build_ledger.log",
    benchmark:
        "results/benchmarks/build_ledger.tsv"
    script:
        "../scripts/build_ledger.py"


rule paper:
    input:
        rules.table_seed001.output if SEED001_READY else [],
        expand("results/paper/seed002_{dataset}.{ext}", dataset=SEED002_DATASETS, ext=["tsv", "md"]),
        rules.table_seed003.output,
        rules.table_seed002_parmesan.output if PARMESAN_LABELS else [],
        [f"results/parmesan/{d}/{lp}/correlations.tsv" for d, lp in PARMESAN_TARGETS],
        "results/parmesan/appendix.tsv" if PARMESAN_APPENDIX else [],
        rules.table_seed000.output if SEED000_READY else [],
        rules.build_ledger.output,
        expand("results/sweeps/{sweep}.{ext}", sweep=config["sweeps"], ext=["tsv", "best.tsv", "png", "pdf"]),
        "results/correlations/segment_level.tsv",
