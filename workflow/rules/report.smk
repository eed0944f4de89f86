# What `snakemake --report report.html` shows: one HTML page per table or figure, beside the file it
# shows (results/report/<path under results/>.html; mtmeta.paper.report_page), with the file's caption
# from workflow/report/. Snakemake's report (9.27) offers a TSV or Markdown file only as a download and
# shrinks a PNG to the width of its panel; a page shows a TSV as a table, Markdown rendered, a figure
# at its natural size (the helpers and the reasons are in common.smk). The files themselves are
# unchanged; the report marks the pages, not them.
#
# Each page is a job of its own, so that a rerun remakes the pages of what changed and nothing else; a
# page is a small job (its module imports neither pandas nor the rest of mtmeta), and
# the page rules are local rules (beside Snakemake, never a cluster job). One rule per caption file.
add_report_pages("exclusions", rules.collect_exclusions.output, "Data")
add_report_pages("system_level", rules.collect_system_level.output, "Correlations")
add_report_pages("segment_level", rules.collect_segment_level.output if JUDGED_LPS else [], "Correlations")
add_report_pages("segment_levels", rules.judgment_levels.output if ANNOTATED_LPS else [], "Correlations")
add_report_pages("system_scatter", expand("results/figures/system_scatter.{metric}.png", metric=FIGURE_METRICS),
                 "Figures", labels=lambda path: {"metric": Path(path).name[len("system_scatter."):-len(".png")]})
add_report_pages("sweep", expand("results/sweeps/{sweep}.{ext}", sweep=config["sweeps"], ext=["png", "best.tsv"]),
                 "Sweeps", labels=lambda path: {"sweep": Path(path).name.removesuffix(".png").removesuffix(".best.tsv"),
                                                "content": "figure" if path.endswith(".png") else "best settings"})
add_report_pages("embeddings", [f"results/embeddings/{model}/{lang}/neighbours.tsv"
                                for model, lang in trained_embeddings(workflow.rules)],
                 "Embeddings", labels=lambda path: dict(zip(["model", "language"], Path(path).parts[2:4])))
add_report_pages("overview", paper_outputs("paper_overview", "overview" in PAPER), "Paper", "Overview")
add_report_pages("meteor_tuning", paper_outputs("paper_meteor_tuning", TUNING), "Paper", "METEOR tuning")
add_report_pages("parmesan_settings", [f for t in SETTINGS_TARGETS for f in getattr(rules, settings_name(t)).output],
                 "Paper", "Targeted paraphrasing")
add_report_pages("parmesan", paper_outputs("paper_parmesan", PARAPHRASED_LABELS), "Paper", "Targeted paraphrasing")
add_report_pages("parmesan_appendix", rules.sweep_paraphrase_share.output if PARMESAN_APPENDIX else [],
                 "Paper", "Targeted paraphrasing")
add_report_pages("parmesan_samples", [f"results/parmesan/{d}/{lp}/{s}/samples.tsv" for d, lp in PARMESAN_TARGETS
                                      for s in PARMESAN["settings"]], "Paper", "Substitution samples",
                 labels=lambda path: {"data": " ".join(Path(path).parts[2:4]), "setting": Path(path).parts[4]})
add_report_pages("softbleu", paper_outputs("paper_softbleu", SOFTBLEU), "Paper", "Softened BLEU")
add_report_pages("wmt_baselines", paper_outputs("paper_wmt_baselines", WMT_BASELINES), "Paper", "WMT baselines")
add_report_pages("sensitivity", expand(rules.paper_sensitivity.output, zip, dataset=[d for d, _ in SENSITIVITY_TARGETS],
                                       lp=[lp for _, lp in SENSITIVITY_TARGETS]) if SENSITIVITY else [],
                 "Paper", "Sensitivity")
add_report_pages("mqm", paper_outputs("paper_mqm", "mqm" in PAPER and MTME_LPS), "Paper", "MQM")
add_report_pages("levels", paper_outputs("paper_levels", ANNOTATED_LPS and "mqm" in PAPER and MTME_LPS), "Paper",
                 "Between chance and a human")
add_report_pages("official", paper_outputs("paper_official_wmt12", OFFICIAL), "Paper", "Official WMT12 record")
add_report_pages("official_tasks", official_tasks_outputs(), "Paper", "Official task sets")
add_report_pages("ledger", rules.paper_ledger.output, "Paper", "Ledger")


for _caption in dict.fromkeys(spec["caption"] for spec in REPORT_PAGES.values()):

    rule:
        name:
            f"report_{_caption}"
        input:
            source="results/{page}",
            # The page's code: editing it remakes the pages (as a metric's code reruns its scores).
            code=repo_file("src/mtmeta/paper/report_page.py"),
        output:
            report(
                "results/report/{page}.html",
                caption=f"../report/{_caption}.rst",
                category=lambda wildcards: report_page(wildcards)["category"],
                subcategory=lambda wildcards: report_page(wildcards)["subcategory"],
                labels=lambda wildcards: report_page(wildcards)["labels"],
            ),
        wildcard_constraints:
            page="|".join(re.escape(page) for page, spec in REPORT_PAGES.items() if spec["caption"] == _caption),
        log:
            "results/logs/report/{page}.log",
        localrule: True
        resources:
            mem_mb=500,
            runtime=5,
        script:
            # A script, not a shell command naming the interpreter's path (which made a copied study
            # out of date) nor a run block (which Snakemake spawns as a whole Snakemake process per job).
            "../scripts/report_page.py"


rule report_pages:
    # Every page of the report. `make report` asks for them before `snakemake --report`; rule all only
    # under --report (Snakefile), so that rerunning one metric remakes its tables, not 50 pages.
    localrule: True
    input:
        [f"results/report/{page}.html" for page in REPORT_PAGES],
