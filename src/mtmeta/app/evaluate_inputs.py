"""What ``mtmeta evaluate`` needs of a dataset x language pair when no finished study has made it:
the pair's prepared files, built by the study's own workflow (rule prepare_dataset, run as a
Snakemake subprocess for those files only), and the built-in metrics' scores, computed here for the
metrics that need nothing but the prepared pair, by the code the study's scoring rules run
(:func:`mtmeta.metrics.score_tables.score_runs`). Nothing is written to ``results/scores``: those
files are the scoring rules'."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from mtmeta.errors import MtmetaError
from mtmeta.io import FLOAT_FORMAT, read_tsv

# The files of a prepared pair that evaluate reads (rule prepare_dataset writes them all, with
# report.tsv, which evaluate does not read). The first three are needed; older studies' results lack
# the last two, and a pair without pairwise judgments has an empty comparisons table.
NEEDED = ("segments.parquet", "summary.json", "human_scores.tsv")
READ = (*NEEDED, "comparisons.parquet", "human_segments.parquet", "human_translations.tsv")
# Where Snakemake's output goes when evaluate runs the workflow (under the results directory).
WORKFLOW_LOG = Path("logs") / "evaluate" / "prepare_dataset.log"


def pair_dir(results: Path, dataset: str, lp: str) -> Path:
    return Path(results) / "datasets" / dataset / lp


def missing_pairs(results: Path, pairs) -> list[tuple[str, str]]:
    """The pairs of ``pairs`` whose needed prepared files are not all in ``results``."""
    return [(d, lp) for d, lp in pairs if not all((pair_dir(results, d, lp) / name).is_file() for name in NEEDED)]


def targets(results: Path, pairs) -> list[str]:
    """The prepared files evaluate reads of each pair, as workflow targets."""
    return [str(pair_dir(results, d, lp) / name) for d, lp in pairs for name in READ]


def is_study_project(results: Path, cwd: Path | None = None) -> bool:
    """Whether the working directory is the study's project (its Snakefile and workflow/ are there) and
    ``results`` its default results directory, the one its workflow writes."""
    cwd = Path.cwd() if cwd is None else Path(cwd)
    return ((cwd / "Snakefile").is_file() and (cwd / "workflow").is_dir()
            and Path(results).resolve() == (cwd / "results").resolve())


def default_cores() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def snakemake_command(paths: list[str], cores: int, configfile: str | None = None) -> list[str]:
    """The study's workflow run for ``paths`` only: the Snakemake beside this Python (the study's
    virtualenv), the config evaluate reads (``--configfile``) after the targets (it takes several files)."""
    command = [str(Path(sys.executable).parent / "snakemake"), "--cores", str(cores), *paths]
    if configfile is not None:
        command += ["--configfile", str(configfile)]
    return command


def say(line: str) -> None:
    print(f"mtmeta evaluate: {line}", file=sys.stderr)


def workflow_builder(results: Path, configfile: str | None, cores: int, runner: Callable = subprocess.run,
                     cwd: Path | None = None) -> Callable[[list[tuple[str, str]]], None] | None:
    """A function building the prepared files of some pairs with the study's workflow, if the working
    directory is the study's project and ``results`` its results directory (None otherwise).
    ``runner`` runs the command (``subprocess.run``'s arguments; its result's ``returncode``)."""
    if not is_study_project(results, cwd):
        return None

    def build(pairs: list[tuple[str, str]]) -> None:
        wanted = targets(Path("results"), pairs)
        command = snakemake_command(wanted, cores, configfile)
        if not Path(command[0]).is_file():
            raise MtmetaError(f"{command[0]} not found: evaluate builds a missing prepared pair with the study's "
                              "workflow; expected Snakemake installed beside this Python (`make setup`)")
        log = Path("results") / WORKFLOW_LOG
        log.parent.mkdir(parents=True, exist_ok=True)
        names = ", ".join(f"{d} {lp}" for d, lp in pairs)
        say(f"{names}: not prepared in {results}; running the study's workflow for {len(wanted)} files: "
            f"{' '.join(command)} (Snakemake's output: {log})")
        # PYTHONHASHSEED as `make study` sets it (Makefile), so that the jobs run as the study's do.
        with open(log, "w", encoding="utf-8") as handle:
            result = runner(command, stdout=handle, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONHASHSEED": "0"}, check=False)
        if result.returncode != 0:
            raise MtmetaError(f"the study's workflow failed (status {result.returncode}) preparing {names}"
                              f"{_first_error(log)}; expected it to write {wanted[0]} and the pair's other files: "
                              f"Snakemake's output is in {log}")
        absent = [path for path in wanted if Path(path).name in NEEDED and not Path(path).is_file()]
        if absent:
            raise MtmetaError(f"{absent[0]} not found after the study's workflow ran for it; expected the rule "
                              f"prepare_dataset to write it: Snakemake's output is in {log}")

    return build


def _first_error(log: Path) -> str:
    """``: `` and the first line of Snakemake's output that names an error, if there is one."""
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    for line in lines:
        if re.search(r"\b(Error|Exception)\b|Error:", line):
            return f": {line.strip()[:300]}"
    return ""


def not_prepared_message(results: Path, pairs: list[tuple[str, str]], configfile: str | None) -> str:
    """A missing prepared pair where evaluate cannot run the workflow: which file, and what to run."""
    first = pair_dir(results, *pairs[0]) / NEEDED[0]
    segments = [str(pair_dir(Path("results"), d, lp) / NEEDED[0]) for d, lp in pairs]  # one job per pair
    command = " ".join(snakemake_command(segments, default_cores(), configfile)[1:])
    return (f"{first} not found: evaluate reads the prepared pair from a study's results, and builds it only when "
            f"run in the study's directory (the one with its Snakefile) with the default --results results; run "
            f"there `snakemake {command}` (or `make study`), or pass --results DIR of a study that has it")


# -- the built-in metrics' scores

def metric_needs(config: dict, metric_id: str, lang: str) -> list[str]:
    """What a metric id reads beside the prepared pair in target language ``lang``: the sources and
    workflow products the registry names (WordNet, paraphrase tables, word vectors), or the score
    file of an ``external_scores`` id. Empty: it can be scored here."""
    from mtmeta import metrics as registry
    from mtmeta.app.config import EXTERNAL, metric_spec

    name, params = metric_spec(config, metric_id)
    if name == EXTERNAL:
        spec = config["external_scores"][metric_id]
        return [f"its score file {path}" for path in (spec["segment"], spec.get("system")) if path]
    return ([f"source {source}" for source in registry.required_sources(name, lang, **params)]
            + list(registry.required_files(name, lang, **params)))


def score_here(config: dict, results: Path, dataset: str, lp: str, metric_ids: list[str]) -> dict:
    """metric id -> (segment table, system table) of each of ``metric_ids`` on the pair, as the
    study's scoring rules compute them (rule tokenize_segments' tokenisations, then
    :func:`~mtmeta.metrics.score_tables.score_runs` with the rule's metric entry and run) and as
    their files hold them: the system table through the text the TSV file would have (%.17g, read
    back by :func:`mtmeta.io.read_tsv`), so that evaluate's numbers are those it reads from a study."""
    from mtmeta.app.config import metric_spec
    from mtmeta.data.tokenize import forget
    from mtmeta.io import write_parquet
    from mtmeta.metrics.score_tables import score_runs

    segments = pair_dir(results, dataset, lp) / "segments.parquet"
    run = {"dataset": dataset, "lp": lp, "tokenized": config["datasets"][dataset].get("tokenized", False)}
    out = {}
    with tempfile.TemporaryDirectory(prefix="mtmeta-evaluate-") as scratch, _quiet("mtmeta.metrics.score_tables"):
        tokens = Path(scratch) / "tokens.parquet"
        write_parquet(token_table(pd.read_parquet(segments, columns=["hypothesis", "reference"])), tokens)
        try:
            for metric_id in metric_ids:
                name, params = metric_spec(config, metric_id)
                entry = {"id": metric_id, "name": name, "params": params}
                ((segment_table, system_table),) = score_runs(entry, [run], [tokens], [segments])
                out[metric_id] = (segment_table, as_written(system_table))
        finally:
            forget()  # the tokenisations' file goes with the scratch directory: no tokeniser may read it later
    return out


@contextmanager
def _quiet(name: str) -> Iterator[None]:
    """Logger ``name``'s INFO lines left out (the scoring code's line per system is for the study's
    logs), unless DEBUG is on (``mtmeta -v``)."""
    logger = logging.getLogger(name)
    level = logger.level
    if not logger.isEnabledFor(logging.DEBUG):
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def token_table(segments: pd.DataFrame) -> pd.DataFrame:
    """Rule tokenize_segments' table of a pair (workflow/scripts/tokenize_segments.py): each distinct
    hypothesis and reference line and its tokenisation, per tokeniser."""
    from mtmeta.data.prepare import SEGMENT_TOKENIZERS
    from mtmeta.data.tokenize import tokenisations

    texts = [t for column in ("hypothesis", "reference") for t in segments[column] if t is not None]
    frames = [pd.DataFrame({"tokenizer": name, "line": lines, "tokens": tokens})
              for name, (lines, tokens) in tokenisations(texts, SEGMENT_TOKENIZERS).items()]
    return pd.concat(frames, ignore_index=True)


def as_written(table: pd.DataFrame) -> pd.DataFrame:
    """A table as :func:`mtmeta.io.write_tsv` writes it and :func:`mtmeta.io.read_tsv` reads it back."""
    text = table.to_csv(sep="\t", index=False, float_format=FLOAT_FORMAT)
    return read_tsv(io.StringIO(text))
