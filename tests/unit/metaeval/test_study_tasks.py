"""The study's official task tables (rule official_tasks, mtmeta.app.study_tasks) are `mtmeta
tasks`' own files: the rule's function on a tiny root with a user metric and an assembly report, then
the command it records, run as a user would into another directory, give the same bytes."""

import shlex

import pandas as pd
from test_tasks import MT, PAIRS, N, build_root  # tests/unit/metaeval is on sys.path

from mtmeta.app.cli import main
from mtmeta.app.study_tasks import missing_system_notes, write_official_tasks
from mtmeta.app.tasks_cli import OUT_FILES


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
