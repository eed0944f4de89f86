"""Task sets (mt-metrics-eval's tasks.py) on a tiny MTME root written here: the official designs as
MTME builds them, the values of each task against scipy and hand counts, the weighted average, the
command's tables and files, and bad input named or counted, never a traceback."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from mtmeta.app.cli import main
from mtmeta.data.evalset import EvalSet, write_evalset, write_metric_scores
from mtmeta.errors import InputError
from mtmeta.metaeval.task_tables import metrics_table
from mtmeta.metaeval.tasks import Task, load_task_set, official_task_set, run_task_set

PAIRS = {"en-de": ("refA", "refB"), "he-en": ("refB", "refA"), "zh-en": ("refA",)}  # standard reference first
MT = ["sys1", "sys2", "sys3", "sys4"]
N = 6


def build_root(root, *, missing_metric_system=False, partial_human=False):
    rng = np.random.default_rng(0)
    for lp, refs in PAIRS.items():
        systems = MT + list(refs[1:]) + (["synthetic_ref"] if lp != "he-en" else [])
        texts = pd.DataFrame({"seg_id": range(1, N + 1), "source": [f"s{i}" for i in range(N)], "domain": "news",
                              "doc": "d1"})
        references = pd.DataFrame([{"reference": r, "seg_id": i, "text": f"{r} {i}"} for r in refs
                                   for i in range(1, N + 1)])
        outputs = pd.DataFrame([{"system": s, "seg_id": i, "hypothesis": f"{s} {i}"} for s in systems
                                for i in range(1, N + 1)])
        seg = pd.DataFrame([{"name": "mqm", "system": s, "seg_id": i, "score": -float(rng.integers(0, 5))}
                            for s in systems for i in range(1, N + 1)])
        if partial_human and lp == "en-de":
            seg.loc[seg["system"] == "sys4", "score"] = np.nan
        sys_scores = seg.groupby("system", as_index=False)["score"].mean().assign(name="mqm")
        sys_scores = sys_scores.dropna()
        evalset = EvalSet("wmt23", lp, refs[0], texts, references, outputs, {"seg": seg, "sys": sys_scores})
        base = write_evalset(evalset, root)
        for metric in ("BLEU", "chrF", "NotPrimary"):
            scored = [s for s in systems if s != refs[0]]
            if missing_metric_system and metric == "chrF" and lp == "zh-en":
                scored = scored[1:]
            segs = pd.DataFrame([{"system": s, "seg_id": i, "score": float(rng.normal())} for s in scored
                                 for i in range(1, N + 1)])
            write_metric_scores(base, lp, metric, refs[0], "seg", segs, systems=systems if not (
                missing_metric_system and metric == "chrF" and lp == "zh-en") else scored + [refs[0]],
                n_segments=N)
            write_metric_scores(base, lp, metric, refs[0], "sys",
                                segs.groupby("system", as_index=False)["score"].mean(), systems=systems if not (
                                    missing_metric_system and metric == "chrF" and lp == "zh-en")
                                else scored + [refs[0]])
    return root


def test_wmt23_design_as_mtme_builds_it():
    tasks = official_task_set("wmt23")
    assert [(t.lang, t.level, t.corr_fcn) for t in tasks.tasks] == [("en-de,he-en,zh-en", "sys", "accuracy")] + [
        (lp, level, fcn) for lp in ("en-de", "he-en", "zh-en")
        for level, fcn in (("sys", "pearson"), ("seg", "pearson"), ("seg", "KendallWithTiesOpt"))]
    assert tasks.weights == [3 / 12] + [1 / 12] * 9
    assert [t.human for t in tasks.tasks] == [True] + [False] * 3 + [True] * 3 + [False] * 3
    acc = tasks.tasks[3]
    assert (acc.avg_by, acc.perm_test, acc.args, acc.k, acc.block_size) == ("item", "pairs", {"sample_rate": 1.0},
                                                                             1000, 100)


def test_wmt24_and_wmt25_designs():
    wmt24 = official_task_set("wmt24")
    assert [(t.lang, t.corr_fcn, t.human) for t in wmt24.tasks][:2] == [("en-de", "pce", True),
                                                                        ("en-de", "KendallWithTiesOpt", True)]
    assert wmt24.weights == [1 / 6] * 6
    wmt25 = official_task_set("wmt25")
    assert len(wmt25.tasks) == 32 and "en-sr_Cyrl_RS" in {t.lang for t in wmt25.tasks}
    assert not any(t.human for t in wmt25.tasks)
    moved = official_task_set("wmt24-on-wmt23", lps=["zh-en", "en-de"], test_set="wmt21.news")
    assert [(t.test_set, t.lang, t.human) for t in moved.tasks][::2] == [("wmt21.news", "en-de", "auto"),
                                                                         ("wmt21.news", "zh-en", "auto")]


def test_ranges_as_mtme_tasks_test():
    # tasks_test.py testRange
    assert Task("wmt23", "en-de", corr_fcn="pearson").range == (-1, 1)
    assert Task("wmt23", "en-de", corr_fcn="accuracy").range == (0, 1)
    assert Task("wmt23", "en-de", level="seg", corr_fcn="KendallWithTiesOpt").range == (0, 1)
    assert Task("wmt23", "en-de", level="seg", corr_fcn="KendallWithTiesOpt",
                corr_fcn_args=(("variant", "23"),)).range == (-1, 1)
    assert Task("wmt23", "en-de", corr_fcn="pce").range == (0, 1)


def test_values_and_average_on_a_tiny_root(tmp_path):
    root = build_root(tmp_path)
    result = run_task_set(official_task_set("wmt23", k=0), root)
    by_task = {(t.task.lang, t.task.level, t.task.corr_fcn): t for t in result.tasks}
    # The metric outside WMT23's primary submissions is filtered out.
    assert sorted(by_task[("en-de", "sys", "pearson")].ranking.names) == ["BLEU", "chrF"]
    # en-de: the MT systems only (refB is a human translation, not scored; synthetic_ref is an outlier).
    de = by_task[("en-de", "sys", "pearson")]
    gold = pd.read_csv(root / "wmt23/human-scores/en-de.mqm.sys.score", sep="\t", header=None, index_col=0)[1]
    bleu = pd.read_csv(root / "wmt23/metric-scores/en-de/BLEU-refA.sys.score", sep="\t", header=None,
                       index_col=0)[1]
    assert de.n_systems == 4
    assert de.value("BLEU") == scipy.stats.pearsonr(gold[MT], bleu[MT])[0]
    # he-en has several references: its human translation refA is scored (MTME's lps_with_multiple_refs).
    assert by_task[("he-en", "sys", "pearson")].n_systems == 5 and by_task[("he-en", "sys", "pearson")].human_used
    # Pooled accuracy: agreeing pairs over the pairs of the three pairs (10 + 10 + 6): as in MTME's WMT23,
    # the pooled task scores human translations on every pair once one pair has several references.
    agree = pairs = 0
    for lp, systems in (("en-de", MT + ["refB"]), ("he-en", MT + ["refA"]), ("zh-en", MT)):
        g = pd.read_csv(root / f"wmt23/human-scores/{lp}.mqm.sys.score", sep="\t", header=None, index_col=0)[1]
        ref = PAIRS[lp][0]
        m = pd.read_csv(root / f"wmt23/metric-scores/{lp}/BLEU-{ref}.sys.score", sep="\t", header=None,
                        index_col=0)[1]
        for a, b in itertools.combinations(systems, 2):
            agree += np.sign(g[a] - g[b]) == np.sign(m[a] - m[b])
            pairs += 1
    assert pairs == 26 and by_task[("en-de,he-en,zh-en", "sys", "accuracy")].value("BLEU") == agree / pairs
    # The average: each value rescaled by its range, weighted.
    expected = sum(w * (t.value("BLEU") - t.task.range[0]) / (t.task.range[1] - t.task.range[0])
                   for t, w in zip(result.tasks, [3 / 12] + [1 / 12] * 9, strict=True))
    assert result.average["BLEU"][0] == pytest.approx(expected, abs=1e-15)


def test_the_command_prints_and_writes_the_tables(tmp_path, capsys):
    root = build_root(tmp_path / "root")
    argv = ["tasks", "wmt23", "--root", str(root), "--k", "50", "--out", str(tmp_path / "out"),
            "--figure", str(tmp_path / "ranking.png")]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "avg-corr" in first and "k=50, seed=12345" in first
    assert first.endswith(f"command: mtmeta tasks wmt23 --root {root} --k 50 --seed 12345\n")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["average.tsv", "levels.tsv", "p_values.tsv",
                                                                    "ranking.tsv", "run.json", "table.md", "table.tex",
                                                                    "table.tsv", "table.txt", "tasks.tsv"]
    assert (tmp_path / "out/table.txt").read_text() == first
    tasks = pd.read_csv(tmp_path / "out/tasks.tsv", sep="\t")
    assert len(tasks) == 20 and set(tasks["seed"]) == set(range(12345, 12355))
    ranking = pd.read_csv(tmp_path / "out/ranking.tsv", sep="\t")
    average = pd.read_csv(tmp_path / "out/average.tsv", sep="\t")
    assert list(ranking["metric"]) == list(average["metric"]) and list(ranking["average"]) == list(average["average"])
    assert list(ranking.columns[1:5]) == ["average", "average rank", "task1 en-de,he-en,zh-en sys acc",
                                          "task1 en-de,he-en,zh-en sys acc rank"]
    markdown = (tmp_path / "out/table.md").read_text()
    assert "| metric | average | task1: en-de,he-en,zh-en sys acc |" in markdown and "k=50, seed=12345" in markdown
    assert (tmp_path / "ranking.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(argv) == 0
    assert capsys.readouterr().out == first  # seeded: the same clusters on a rerun
    assert main(["tasks", "wmt23", "--root", str(root), "--k", "0", "--format", "latex"]) == 0
    assert "\\begin{tabular}" in capsys.readouterr().out


def test_user_metric_joins_the_stored_ones(tmp_path, capsys):
    root = build_root(tmp_path / "root")
    rows = [{"lp": lp, "system": s, "seg_id": i, "score": float(i + len(s))} for lp, refs in PAIRS.items()
            for s in MT + list(refs[1:]) + (["synthetic_ref"] if lp != "he-en" else []) for i in range(1, N + 1)]
    pd.DataFrame(rows).to_csv(tmp_path / "mine.tsv", sep="\t", index=False)
    assert main(["tasks", "wmt23", "--root", str(root), "--k", "0", "--scores", f"Mine={tmp_path / 'mine.tsv'}"]) == 0
    out = capsys.readouterr().out
    assert "\nMine " in out


def test_bad_input_is_named_or_counted(tmp_path, capsys):
    root = build_root(tmp_path / "a", missing_metric_system=True, partial_human=True)
    assert main(["tasks", "wmt23", "--root", str(root), "--k", "0"]) == 0
    out = capsys.readouterr().out
    assert "note: zh-en: chrF lacks scores of 1 system(s) (sys1); left out of this task" in out
    assert "note: en-de: 1 system(s) without mqm scores left out: sys4" in out
    assert "note: not in every task, so not averaged: chrF" in out
    # a pair absent
    assert main(["tasks", "wmt23", "--root", str(root), "--pairs", "en-de,ru-en", "--k", "0"]) == 2
    assert "wmt23/sources: no source file of ru-en; expected one of the pairs ['en-de', 'he-en', 'zh-en']" in (
        capsys.readouterr().err)
    # no references
    for path in (root / "wmt23/references").glob("he-en.*"):
        path.unlink()
    assert main(["tasks", "wmt23", "--root", str(root), "--k", "0"]) == 2
    err = capsys.readouterr().err
    assert "standard reference refB of wmt23 he-en is not there (references: none)" in err
    assert "Traceback" not in err


def test_yaml_task_set(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\ntasks:\n"
                    "  - {test_set: wmt23, lang: [en-de, zh-en], corr_fcn: accuracy, weight: 2}\n"
                    "  - {test_set: wmt23, lang: en-de, level: seg, corr_fcn: KendallWithTiesOpt, avg_by: item,\n"
                    "     perm_test: pairs, corr_fcn_args: {sample_rate: 1.0}}\n")
    tasks = load_task_set(path, k=0)
    assert tasks.name == "mine" and tasks.weights == [2 / 3, 1 / 3]
    assert tasks.tasks[0].lang == "en-de,zh-en" and tasks.tasks[1].args == {"sample_rate": 1.0}
    result = run_task_set(tasks, build_root(tmp_path / "root"))
    assert list(result.average) and not math.isnan(next(iter(result.average.values()))[0])
    path.write_text("tasks:\n  - {test_set: wmt23, lang: en-de, corr: pearson}\n")
    with pytest.raises(InputError, match=r"tasks\[1\]: unknown key\(s\) \['corr'\]"):
        load_task_set(path)


def test_metrics_table_as_mtme_tasks_test():
    # tasks_test.py MetricsTableTest's columns, text and TSV cells as MetricsTable writes them
    columns = [{"m1": (0.9, 1), "m2": (0.8, 1), "m3": (0.5, 2)}, {"m1": (0.5, 1), "m2": (-0.2, 2)},
               {"m1": (0.2, 2), "m3": (0.5, 1)}]
    text = metrics_table(["m1", "m2", "m3"], columns, [["m", "a", "b", "c"]], "text")
    assert text.splitlines() == ["m         a        b        c", "--  -------  -------  -------",
                                 "m1  1 0.900  1 0.500  2 0.200", "m2  1 0.800  2-0.200       --",
                                 "m3  2 0.500       --  1 0.500"]
    tsv = metrics_table(["m3"], columns, [], "tsv")
    assert tsv == "m3\t2\t0.500000\t--\t--\t1\t0.500000\n"


def test_metric_scores_beside_the_root_and_no_primary_filter(tmp_path, capsys):
    root = build_root(tmp_path / "root")
    exported = tmp_path / "exported" / "metric-scores"
    for lp in PAIRS:
        (exported / lp).mkdir(parents=True)
        for path in (root / "wmt23/metric-scores" / lp).glob("NotPrimary-*"):
            path.rename(exported / lp / path.name)
    argv = ["tasks", "wmt23", "--root", str(root), "--k", "0", "--metric-scores", str(exported)]
    assert main(argv) == 0
    assert "NotPrimary" not in capsys.readouterr().out  # not a WMT23 primary submission
    assert main([*argv, "--all-metrics"]) == 0
    assert "\n*NotPrimary " in capsys.readouterr().out  # MTME's mark of a non-primary metric
    (exported / "en-de" / "BLEU-refA.sys.score").write_text((root / "wmt23/metric-scores/en-de/BLEU-refA.sys.score")
                                                            .read_text())
    assert main(argv) == 2
    assert "metric scores ['BLEU-refA.sys'] are also stored in the root" in capsys.readouterr().err


def test_an_undefined_average_sorts_last():
    from mtmeta.metaeval.tasks import TaskResult, average_values
    from mtmeta.stats.permutation import MetricRanking

    task = Task("wmt23", "en-de", corr_fcn="pearson")
    ranking = MetricRanking(["B", "A", "C"], [math.nan, 0.5, 0.1], np.zeros((3, 3)), [1, 1, 1],
                            np.zeros((3, 3), int), "")
    averages = average_values([TaskResult(task, ranking)], [1.0])
    assert list(averages) == ["A", "C", "B"] and averages["A"] == 0.75 and math.isnan(averages["B"])


def test_a_users_scores_are_read_by_the_checked_reader(tmp_path):
    """--scores files go through data.tables.read_table (one number parser), and a score must be finite."""
    from mtmeta.app.tasks_cli import read_user_scores
    from mtmeta.errors import InputError

    path = tmp_path / "mine.tsv"
    path.write_text("lp\tsystem\tscore\nen-de\tA\t1\nen-de\tB\tinf\n")
    with pytest.raises(InputError, match=r"mine.tsv:3: score 'inf' is not a finite number; expected a number"):
        read_user_scores("mine", [path], {})
    path.write_text("lp\tsystem\tscore\nen-de\tA\t1_000\n")
    with pytest.raises(InputError, match=r"mine.tsv:2: score '1_000' is not a number \(digit-group separators"):
        read_user_scores("mine", [path], {})


def test_notes_state_the_departures_from_the_official_set_up(tmp_path, capsys):
    root = build_root(tmp_path / "root")
    result = run_task_set(official_task_set("wmt23", k=0), root)
    primaries = [n for n in result.notes if "primary metrics have no scores here" in n]
    assert len(primaries) == 3 and primaries[0].startswith("wmt23 en-de: 30 of mt-metrics-eval's 32 primary metrics")
    assert not any("design" in n for n in result.notes)  # the design on its own data
    moved = run_task_set(official_task_set("wmt23", lps=["en-de", "zh-en"], k=0), root)
    assert moved.notes[0] == ("the wmt23 design (mt-metrics-eval's on wmt23 en-de, he-en, zh-en) put on wmt23 "
                              "en-de, zh-en; human translations scored as mt-metrics-eval's constructor scores them")
    # The user's statements come first; a gold other than MTME's standard one is a stated departure.
    assert main(["tasks", "wmt23", "--root", str(root), "--k", "0", "--pairs", "en-de,zh-en", "--gold", "mqm",
                 "--note", "a statement"]) == 0
    out = capsys.readouterr().out
    notes = [line for line in out.splitlines() if line.startswith("note: ")]
    assert notes[0] == "note: a statement" and not any("-level gold" in n for n in notes)
    assert "--gold mqm" in out.splitlines()[-1] and "--note 'a statement'" in out.splitlines()[-1]
    (root / "wmt23/human-scores/en-de.mqm.sys.score").rename(root / "wmt23/human-scores/en-de.other.sys.score")
    (root / "wmt23/human-scores/en-de.mqm.seg.score").rename(root / "wmt23/human-scores/en-de.other.seg.score")
    assert main(["tasks", "wmt24", "--root", str(root), "--testset", "wmt23", "--pairs", "en-de", "--k", "0",
                 "--gold", "other"]) == 0
    assert "note: wmt23 en-de: seg-level gold other instead of mt-metrics-eval's mqm" in capsys.readouterr().out


def test_a_user_metric_of_one_pair_is_one_note_per_other_pair(tmp_path, capsys):
    root = build_root(tmp_path / "root")
    rows = [{"lp": "en-de", "system": s, "seg_id": i, "score": float(i + len(s))}
            for s in MT + ["refB", "synthetic_ref"] for i in range(1, N + 1)]
    pd.DataFrame(rows).to_csv(tmp_path / "mine.tsv", sep="\t", index=False)
    assert main(["tasks", "wmt23", "--root", str(root), "--k", "0", "--scores", f"Mine={tmp_path / 'mine.tsv'}"]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")]
    assert [n for n in notes if "Mine" in n] == ["note: he-en: no scores of Mine; left out of its tasks",
                                                 "note: zh-en: no scores of Mine; left out of its tasks",
                                                 "note: left out of pooled accuracy (not on every pair): Mine",
                                                 "note: not in every task, so not averaged: Mine"]
