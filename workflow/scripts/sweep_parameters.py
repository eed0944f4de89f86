"""Rule sweep_parameters: re-score a metric's cached statistics over a grid, on every target."""

import json
import logging

import pandas as pd

from mtmeta import metrics
from mtmeta.logsetup import configure
from mtmeta.metaeval.sweeps import best_settings, expand_grid, run_sweep, segment_target, system_target
from mtmeta.paper.figures import sweep_figure


def main(snakemake):
    configure(snakemake.log[0])
    log = logging.getLogger("mtmeta")
    sweep, spec = snakemake.params.sweep, snakemake.params.metric
    inputs = {}
    for seg, comparisons, summary in zip(snakemake.input.segments, snakemake.input.comparisons,
                                         snakemake.input.summaries, strict=True):
        meta = json.loads(open(summary).read())
        inputs[(meta["dataset"], meta["lp"])] = (pd.read_parquet(seg), pd.read_parquet(comparisons))
    by_language = {}

    def metric_for(target):
        """The metric in the target language: language presets set the parameters a grid leaves fixed."""
        trg = target.lp.split("-")[1]
        if trg not in by_language:
            by_language[trg] = metrics.get_for_dataset(spec["name"], trg, spec["params"])
            if not hasattr(by_language[trg], "rescore"):
                raise ValueError(f"metric {spec['id']} cannot be re-scored from its statistics")
        return by_language[trg]

    targets = []
    for target in sweep["targets"]:
        for (dataset, lp), (seg, comparisons) in inputs.items():
            if dataset not in target["datasets"]:
                continue
            columns = [c for c in seg.columns if c not in ("system", "seg_id", "score", "signature")]
            if target["statistic"] in ("pearson", "spearman", "kendall"):
                judged = sorted(set(comparisons["sys_a"]) | set(comparisons["sys_b"]))
                targets.append(system_target(dataset, lp, target["statistic"], target["human_score"], seg, columns,
                                             comparisons, judged))
            else:
                targets.append(segment_target(dataset, lp, target["statistic"], seg, columns, comparisons))
    fixed = sweep.get("fixed", {})
    settings = expand_grid(sweep["grid"])
    log.info("%s: %d settings x %d targets", snakemake.wildcards.sweep, len(settings), len(targets))
    table = run_sweep(
        settings,
        targets,
        rescore_segments=lambda target, stats, setting: metric_for(target).rescore(stats, **fixed, **setting),
        corpus_score=lambda target, stats, weights, setting: metric_for(target).corpus_rescore(
            stats, weights, **fixed, **setting),
        higher_is_better=metrics.metric_class(spec["name"]).higher_is_better,
        seed=sweep.get("seed", 12345),
    )
    for name, value in fixed.items():
        table.insert(0, name, value)
    table.insert(0, "metric", spec["id"])
    table.insert(0, "sweep", snakemake.wildcards.sweep)
    table.to_csv(snakemake.output.table, sep="\t", index=False, float_format="%.17g")
    parameters = list(sweep["grid"])
    best = best_settings(table, parameters)
    best.insert(0, "sweep", snakemake.wildcards.sweep)
    best.to_csv(snakemake.output.best, sep="\t", index=False, float_format="%.17g")
    title = f"{snakemake.wildcards.sweep}: {spec['id']} ({', '.join(f'{k} {v:g}' for k, v in fixed.items())})"
    sweep_figure(table, parameters, title, [snakemake.output.png, snakemake.output.pdf])


main(snakemake)  # noqa: F821
