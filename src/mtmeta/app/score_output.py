"""What ``mtmeta score`` prints: sacrebleu's output forms (its score lines, JSON and tables) and
mtmeta's own (a score and a signature per line, TSV, JSON records).

The sacrebleu forms follow sacrebleu 2.6.0's ``Score.format``, ``print_single_results`` and
``print_results_table`` rule by rule (alignment on ``=``, JSON key order, tabulate's table styles),
so that the same command prints the same text; the differences (no colours, mtmeta's signatures,
its own note under a paired test) are listed in benchmarks/results/cli-vs-sacrebleu.md.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Result:
    """One metric's score of one system: the value, its bootstrap mean and 95% half-width, the p-value
    of a paired test against the baseline, and the signature (with its metric's short form)."""

    system: str
    metric: str  # the id the user named
    label: str  # the score's name as sacrebleu prints it (BLEU, chrF2, TER)
    score: float
    signature: str  # with the label as its first field, as Metric.signature() gives it
    short_signature: str
    mean: float | None = None
    ci: float | None = None
    p_value: float | None = None
    details: dict = field(default_factory=dict)

    def signature_body(self, short: bool = False) -> str:
        """The signature without the score's name (sacrebleu's ``Signature.format``)."""
        return (self.short_signature if short else self.signature).split("|", 1)[1]

    @property
    def verbose(self) -> str:
        return self.details.get("verbose", "")


def _number(value) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


# ------------------------------------------------------------------ sacrebleu's forms
def score_text(result: Result, width: int) -> str:
    """sacrebleu's ``sc``: the score, then ``(μ = mean ± half-width)`` when bootstrapped."""
    text = f"{result.score:.{width}f}"
    if result.mean is not None:
        text += f" (μ = {result.mean:.{width}f} ± {result.ci:.{width}f})"
    return text


def score_line(result: Result, width: int, short: bool, score_only: bool) -> str:
    """sacrebleu's text line ``NAME|signature = score [details]``, or the score alone (``-b``)."""
    if score_only:
        return score_text(result, width)
    line = f"{result.label}|{result.signature_body(short)} = {score_text(result, width)}"
    return f"{line} {result.verbose}" if result.verbose else line


def score_json(result: Result, width: int) -> str:
    """sacrebleu's JSON of one score: name, score rounded to the width, signature, the bootstrap
    estimate, the verbose details, then each signature field (values as strings)."""
    body = result.signature_body()
    record: dict = {"name": result.label, "score": float(f"{result.score:.{width}f}"), "signature": body}
    if result.mean is not None:
        mean, ci = f"{result.mean:.{width}f}", f"{result.ci:.{width}f}"
        record.update(confidence_mean=float(mean), confidence_var=float(ci), confidence=f"μ = {mean} ± {ci}")
    if result.verbose:
        record["verbose_score"] = result.verbose
    for pair in body.split("|"):
        key, _, value = pair.partition(":")  # partition: a value may hold ':' (LEPOR's weights)
        record[key] = value
    return json.dumps(record, indent=1, ensure_ascii=False)


def single_system(results: list[Result], fmt: str, width: int, short: bool, score_only: bool) -> str:
    """sacrebleu's single-system output: JSON records, or text lines aligned on their first ``=``
    (``-f latex`` prints the text lines too, as sacrebleu does for one system)."""
    if fmt == "json":
        texts = [score_text(r, width) if score_only else score_json(r, width) for r in results]
        return texts[0] if len(texts) == 1 else "[\n" + ",\n".join(texts) + "\n]"
    lines = [score_line(r, width, short, score_only) for r in results]
    if len(lines) == 1:
        return lines[0]
    out, aligned = [], []
    for line in lines:  # sacrebleu prints a line without '=' at once, the others aligned afterwards
        if "=" in line:
            aligned.append((line.index("=") - 1, line))
        else:
            out.append(line)
    if aligned:
        column = max(position for position, _ in aligned)
        out += [f"{line[:position]:>{column}}{line[position:]}" for position, line in aligned]
    return "\n".join(out)


def segment_lines(results: list[Result], width: int, short: bool, score_only: bool) -> str:
    """sacrebleu's ``-sl``: one text line per segment, whatever ``-f`` says."""
    return "\n".join(score_line(r, width, short, score_only) for r in results)


def _cell(result: Result, width: int, multiline: bool) -> str:
    text = f"{result.score:.{width}f}"
    if result.mean is not None:
        text += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
    if result.p_value is not None:
        # sacrebleu stars p <= 0.05 (and colours the others red)
        text += ("\n" if multiline else " ") + f"(p = {result.p_value:.4f})" + ("*" if result.p_value <= 0.05 else "")
    return text


def systems_table(results: list[Result], rows: list[tuple[str, str]], columns: list[tuple[str, str]], fmt: str,
                  width: int, short: bool, test: str | None, n_samples: int) -> str:
    """sacrebleu's multi-system output: JSON records, or a table (text: tabulate's ``fancy_grid``;
    latex: ``latex_booktabs``), a note on the paired test, and the metrics' signatures.

    ``rows``: (system, name shown) in print order; ``columns``: (metric id, column title)."""
    from tabulate import tabulate

    by_key = {(r.system, r.metric): r for r in results}
    systems = [system for system, _ in rows]
    if fmt == "json":
        records = []
        for system, shown in rows:
            record = {"system": shown}
            for metric_id, title in columns:
                r = by_key[(system, metric_id)]
                if test or r.mean is not None:  # sacrebleu's Result object, as a dict
                    record[title] = {"score": r.score, "p_value": r.p_value, "mean": r.mean, "ci": r.ci}
                else:
                    record[title] = f"{r.score:.{width}f}"
            records.append(record)
        return json.dumps(records, indent=4)
    multiline = fmt == "text"
    table = {"System": [shown for _, shown in rows]}
    for metric_id, title in columns:
        cells = [_cell(by_key[(system, metric_id)], width, multiline) for system in systems]
        bootstrapped = any(by_key[(system, metric_id)].mean is not None for system in systems)
        table[title + (" (μ ± 95% CI)" if bootstrapped else "")] = cells
    text = tabulate(table, headers="keys", tablefmt="fancy_grid" if multiline else "latex_booktabs",
                    colalign=("right",), stralign="center", numalign="center", floatfmt=f".{width}f")
    parts = [text, ""]
    if test:
        parts.append(paired_note(test, n_samples, rows[0][1]))
    parts.append(signatures_block({title: by_key[(systems[0], metric_id)].signature_body(short)
                                   for metric_id, title in columns}))
    return "\n".join(parts)


def paired_note(test: str, n_samples: int, baseline: str) -> str:
    """What the p-values mean (sacrebleu prints a longer note; the test and its definition are the same)."""
    title = (f"Paired bootstrap resampling test with {n_samples} resampling trials" if test == "bs" else
             f"Paired approximate randomization test with {n_samples} trials")
    rule = "-" * len(title)
    shown = ("score (bootstrap mean ± 95% CI half-width)" if test == "bs" else "score")
    return "\n".join([
        rule, title, rule,
        f" - Each system is compared with {baseline}; each cell shows the system's {shown}.",
        " - p: how often a difference at least as large as the observed one arises when the system and the",
        "   baseline are samples of one process (sacrebleu's definition); * marks p <= 0.05. A small p says",
        "   that the systems differ, not which one is better.",
        ""])


def signatures_block(signatures: dict[str, str]) -> str:
    lines = ["-----------------", "Metric signatures", "-----------------"]
    return "\n".join(lines + [f" - {name:<10} {signature}" for name, signature in signatures.items()])


# ------------------------------------------------------------------ mtmeta's forms
def plain(value):
    """A value for JSON: Python numbers, None for NaN (JSON has no NaN), lists and dicts element-wise."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if hasattr(value, "item"):
        value = value.item()
    return None if isinstance(value, float) and math.isnan(value) else value


def mtmeta_corpus(results: list[Result], fmt: str, width: int, short: bool, score_only: bool) -> str:
    """One system: ``score<TAB>signature`` per metric (text), a TSV with a header, or JSON records
    at full precision with the score's details."""
    signature = (lambda r: r.short_signature) if short else (lambda r: r.signature)  # noqa: E731
    if score_only and fmt != "json":
        return "\n".join(f"{r.score:.{width}f}" for r in results)
    if fmt == "json":
        rows = [{"metric": r.metric, "score": r.score, "signature": signature(r),
                 **({"details": plain(r.details)} if r.details else {})} for r in results]
        return json.dumps(rows if len(rows) > 1 else rows[0], indent=1, ensure_ascii=False)
    if fmt == "tsv":
        return "\n".join(["metric\tscore\tsignature", *(f"{r.metric}\t{r.score:.{width}f}\t{signature(r)}"
                                                          for r in results)])
    if fmt == "latex":
        import pandas as pd

        return _latex(pd.DataFrame([{"metric": r.metric, "score": r.score, "signature": signature(r)}
                                    for r in results]), width)
    return "\n".join(f"{r.score:.{width}f}\t{signature(r)}" for r in results)


def mtmeta_segments(columns: dict[str, list[float]], signatures: list[str], fmt: str, width: int) -> tuple[str, str]:
    """Segment scores, a column per metric id: (standard output, standard error). Text and TSV print the
    signatures on standard error, JSON holds them."""
    if fmt == "json":
        rows = [{"metric": metric_id, "scores": scores, "signature": signature}
                for (metric_id, scores), signature in zip(columns.items(), signatures, strict=True)]
        return json.dumps(rows if len(rows) > 1 else rows[0], indent=1), ""
    if fmt == "latex":
        import pandas as pd

        return _latex(pd.DataFrame(columns), width), "\n".join(signatures)
    lines = ["\t".join(columns)] if fmt == "tsv" or len(columns) > 1 else []
    lines += ["\t".join(f"{value:.{width}f}" for value in values) for values in zip(*columns.values(), strict=True)]
    return "\n".join(lines), "\n".join(signatures)


def mtmeta_systems(table: pd.DataFrame, fmt: str, width: int, test: str | None, signatures: dict[str, str]) -> str:
    """Several systems, or intervals, or a paired test: one row per system x metric (TSV, JSON, LaTeX),
    or text with systems down and metrics across."""
    if fmt == "json":
        return json.dumps([plain(row) for row in table.to_dict(orient="records")], indent=1, ensure_ascii=False)
    if fmt == "tsv":
        return table.to_csv(sep="\t", index=False, float_format=f"%.{width}f", na_rep="").rstrip("\n")
    if fmt == "latex":
        return _latex(table, width)
    lines = [_system_table_text(table, width, test)]
    lines += [f"{metric_id}: {signature}" for metric_id, signature in signatures.items()]
    return "\n".join(lines)


def _system_table_text(table: pd.DataFrame, width: int, test: str | None) -> str:
    """Systems down, metrics across: score, (mean +- half-width), p-value with * at p < 0.05."""
    import pandas as pd

    def cell(row) -> str:
        text = f"{row.score:.{width}f}"
        if not pd.isna(row.mean):
            text += f" (μ = {row.mean:.{width}f} ± {row.ci:.{width}f})"
        if not pd.isna(row.p_value):
            text += f" (p = {row.p_value:.4f}){'*' if row.p_value < 0.05 else ''}"
        return text

    systems = list(dict.fromkeys(table["system"]))
    metric_ids = list(dict.fromkeys(table["metric"]))
    cells = {(row.system, row.metric): cell(row) for row in table.itertuples()}
    names = [f"Baseline: {s}" if test and k == 0 else s for k, s in enumerate(systems)]
    lines = [["system", *metric_ids], *[[name, *(cells[(s, m)] for m in metric_ids)]
                                        for name, s in zip(names, systems, strict=True)]]
    widths = [max(len(line[c]) for line in lines) for c in range(len(lines[0]))]
    out = ["  ".join(text.ljust(w) for text, w in zip(line, widths, strict=True)).rstrip() for line in lines]
    if test:
        out.append(f"p: {'paired bootstrap resampling' if test == 'bs' else 'approximate randomisation'} against "
                   "the baseline (sacrebleu's definition); * p < 0.05")
    return "\n".join(out)


def _latex(table: pd.DataFrame, width: int) -> str:
    from tabulate import tabulate

    return tabulate(table, headers="keys", tablefmt="latex_booktabs", showindex=False, floatfmt=f".{width}f")
