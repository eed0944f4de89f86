"""The study's official task tables (rule official_tasks, mtmeta.app.study_tasks) are `mtmeta
tasks`' own files: the rule's function on a tiny root with a user metric and an assembly report, then
the command it records, run as a user would into another directory, give the same bytes."""

import runpy
import shlex
import shutil
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from test_tasks import MT, PAIRS, N, build_root  # tests/unit/metaeval is on sys.path

from mtmeta.app.cli import main
from mtmeta.app.study_tasks import missing_system_notes, write_official_tasks
from mtmeta.app.tasks_cli import OUT_FILES

SCRIPT = Path(__file__).resolve().parents[3] / "workflow" / "scripts" / "official_tasks.py"


def study_scores(folder, lps):
    """A user metric as the study stores it: per pair results/scores/<d>/<lp>/<id>.seg.parquet, .sys.tsv."""
    segments, systems = [], []
    for lp in lps:
        refs = PAIRS[lp]
        names = MT + list(refs[1:]) + (["synthetic_ref"] if lp != "he-en" else [])
        seg = pd.DataFrame([{"system": s, "seg_id": i, "score": float(i * len(s) % 7)} for s in names
                            for i in range(1, N + 1)])
        (folder / lp).mkdir(parents=True)
        seg.to_parquet(folder / lp / "mine.seg.parquet")
        seg.groupby("system", as_index=False)["score"].mean().to_csv(folder / lp / "mine.sys.tsv", sep="\t",
                                                                     index=False)
        segments.append(str(folder / lp / "mine.seg.parquet"))
        systems.append(str(folder / lp / "mine.sys.tsv"))
    return {"higher_is_better": False, "pairs": list(lps), "segments": segments, "systems": systems}


def test_the_recorded_command_writes_the_same_files(tmp_path, capsys):
    root = build_root(tmp_path / "root")
    pd.DataFrame([{"evalset": "wmt23", "lp": "en-de", "kind": "scores_without_output",
                   "detail": "MQM scores of sys9, which has no output in the repositories", "count": 6,
                   "action": "excluded", "file": "x"}]).to_csv(root / "wmt23_report.tsv", sep="\t", index=False)
    spec = {"name": "tiny", "design": "wmt23", "dataset": "tiny", "root": str(root), "testset": "wmt23",
            "pairs": ["zh-en", "en-de", "he-en"], "gold": "mqm", "std_refs": {"en-de": "refA"}, "metric_scores": [],
            "external": {"mine": study_scores(tmp_path / "scores", ["en-de", "zh-en"])},
            "notes": ["a statement of the config's"], "k": 30, "seed": 7}
    out = tmp_path / "study"
    run = write_official_tasks(spec, out, tmp_path / "table.tsv", tmp_path / "table.md", [tmp_path / "table.png"])
    assert run.result.notes[:2] == ["a statement of the config's",
                                    "wmt23 en-de: 1 system(s) with mqm scores but no output in the public sources of "
                                    "the eval set, so in no task here: sys9"]
    assert "mine" in run.result.tasks[1].ranking.names  # en-de sys pearson
    assert sorted(p.name for p in (out / "scores").iterdir()) == ["mine.seg.tsv", "mine.sys.tsv"]
    # The user metric's lower-is-better scores enter negated.
    seg = pd.read_csv(out / "scores/mine.seg.tsv", sep="\t")
    assert set(seg["lp"]) == {"en-de", "zh-en"} and (seg["score"] <= 0).all()

    assert main([*shlex.split(run.command)[1:], "--out", str(tmp_path / "cli")]) == 0
    printed = capsys.readouterr().out
    assert printed == (out / "table.txt").read_text()
    for name in OUT_FILES:
        # run.json too: a rerun writes the same bytes (no run time in it)
        assert (out / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert (tmp_path / "table.tsv").read_bytes() == (out / "ranking.tsv").read_bytes()
    assert (tmp_path / "table.md").read_bytes() == (out / "table.md").read_bytes()
    assert (tmp_path / "table.png").read_bytes()[:4] == b"\x89PNG"


def test_no_assembly_report_no_notes(tmp_path):
    root = build_root(tmp_path / "root")
    (root / "other_report.tsv").write_text("a\tb\n1\t2\n")  # not an assembly report: ignored
    assert missing_system_notes(root, "wmt23", ["en-de"], "mqm") == []


def test_the_rule_copies_its_last_run_while_nothing_it_reads_changed(tmp_path, monkeypatch):
    """The rule's script, run as Snakemake runs it: a second run with the same root, scores and
    parameters copies the first run's files (the same bytes, no test run); a changed user score, or
    a changed file of the root, computes the tables again."""
    monkeypatch.chdir(tmp_path)
    root = build_root(Path("root"))
    spec = {"name": "tiny", "design": "wmt23", "dataset": "tiny", "root": str(root), "testset": "wmt23",
            "pairs": ["en-de"], "gold": "mqm", "std_refs": {"en-de": "refA"}, "metric_scores": [],
            "external": {"mine": study_scores(Path("scores"), ["en-de"])}, "notes": [], "k": 30, "seed": 7}
    output = SimpleNamespace(tsv="table.tsv", markdown="table.md", png="table.png", pdf="table.pdf", out="out")

    def run() -> tuple[dict, str]:
        log = Path(f"run{len(list(Path().glob('run*.log')))}.log")
        snakemake = SimpleNamespace(params=SimpleNamespace(spec=spec), output=output, log=[str(log)],
                                    scriptdir=str(SCRIPT.parent))
        runpy.run_path(str(SCRIPT), init_globals={"snakemake": snakemake})
        files = [Path(name) for name in ("table.tsv", "table.md", "table.png", "table.pdf")]
        files += sorted(path for path in Path("out").rglob("*") if path.is_file())
        written = {path.as_posix(): path.read_bytes() for path in files}
        for path in files:
            path.unlink()  # as Snakemake removes a job's outputs before it runs
        shutil.rmtree("out")
        return written, log.read_text()

    first, first_log = run()
    assert "s of tests" in first_log and "0 of 1 pieces reused" in first_log
    assert {f"out/{name}" for name in OUT_FILES} | {"out/levels.tsv", "out/scores/mine.seg.tsv"} <= set(first)
    second, second_log = run()
    assert "s of tests" not in second_log and "1 of 1 pieces reused" in second_log
    assert second == first

    scores = pd.read_parquet("scores/en-de/mine.seg.parquet")
    scores.assign(score=scores["score"] + 1).to_parquet("scores/en-de/mine.seg.parquet")
    changed, changed_log = run()
    assert "s of tests" in changed_log and changed["out/scores/mine.seg.tsv"] != first["out/scores/mine.seg.tsv"]
    ratings = next(root.rglob("*.seg.score"))
    ratings.write_text(ratings.read_text() + "\n")
    _, root_log = run()
    assert "s of tests" in root_log
    assert len(list(Path("results/cache/official_tasks/tiny").iterdir())) == 1  # the last run's piece only
    spec["name"] = "../tiny"
    with pytest.raises(ValueError, match="one path component"):
        run()
