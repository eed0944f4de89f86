"""benchmarks/study_timing.py: the no-op rerun is timed only when the command really had nothing to
do, and the table reports it beside the per-rule costs."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "study_timing.py"


def load():
    spec = importlib.util.spec_from_file_location("study_timing", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_noop_rerun_is_timed_and_tabled(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    timing = load()
    job = tmp_path / "results/benchmarks/score_bleu"
    job.mkdir(parents=True)
    (job.parent / "score_segments").mkdir()
    (job.parent / "score_segments" / "bleu.tsv").write_text("s\th:m:s\tmax_rss\tcpu_time\n12.5\t0:00:12\t300\t11\n")
    quiet = [sys.executable, "-c", "print('Nothing to be done (all requested files are present and up to date).')"]
    summary = timing.noop(quiet, repeats=3)
    assert len(summary["seconds"]) == 3 and summary["median_seconds"] == sorted(summary["seconds"])[1]
    assert json.loads((tmp_path / "results/benchmarks/noop.json").read_text()) == summary
    text = timing.table()
    assert "A no-op rerun" in text and f"**{summary['median_seconds']:.1f} s** median of 3 runs" in text
    assert "| `score_segments` | 1 | 12.5 | 100.0% | 11.0 | 12.5 | 300 |" in text
    # A command that ran jobs (or failed) is not a no-op: no timing is written for it.
    (tmp_path / "results/benchmarks/noop.json").unlink()
    with pytest.raises(SystemExit, match="not a no-op run"):
        timing.noop([sys.executable, "-c", "print('3 of 3 steps (100%) done')"], repeats=1)
    assert not (tmp_path / "results/benchmarks/noop.json").exists()


def test_run_records_the_machine_and_its_calibration(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    timing = load()
    monkeypatch.setattr(timing, "calibrate", lambda: 0.512)
    summary = timing.run([sys.executable, "-c", "print('7 of 7 steps (100%) done')"])
    assert summary["jobs"] == 7 and summary["exit_code"] == 0 and summary["calibration_seconds"] == 0.512
    assert summary["cores"] >= 1 and summary["cpu"]
    (tmp_path / "results/benchmarks/score_segments").mkdir(parents=True, exist_ok=True)
    (tmp_path / "results/benchmarks/score_segments/bleu.tsv").write_text("s\tmax_rss\n3.0\t100\n")
    text = timing.table()
    assert f"Machine: {summary['cpu']} (family {summary['cpu_family']}" in text and "calibration 0.512 s" in text


def test_calibration_is_a_positive_best_of_runs(monkeypatch):
    timing = load()
    ticks = iter([0.0, 0.9, 1.0, 1.4, 2.0, 2.7])  # three runs of 0.9, 0.4 and 0.7 s: the best is 0.4
    monkeypatch.setattr(timing.time, "perf_counter", lambda: next(ticks))
    assert timing.calibrate(repeats=3) == 0.4


def test_compare_puts_two_studies_side_by_side(tmp_path):
    timing = load()
    for name, (seconds, cpu) in {"before": ((20.0, 5.0), (16.0, 4.0)), "after": ((10.0, 5.5), (8.0, 5.0))}.items():
        root = tmp_path / name / "results" / "benchmarks"
        for rule, s, c in (("evaluate_metric", seconds[0], cpu[0]), ("plot_system_scatter", seconds[1], cpu[1])):
            (root / rule).mkdir(parents=True)
            (root / rule / "bleu.tsv").write_text(f"s\th:m:s\tmax_rss\tcpu_time\n{s}\t0:00:10\t300\t{c}\n")
        (root / "study.json").write_text(json.dumps({"wall_seconds": 100.0 * len(name), "cpu_seconds": 180.0,
                                                     "jobs": 2, "calibration_seconds": 1.25}))
    text = timing.compare(tmp_path / "before", tmp_path / "after", top=1)
    assert "| `evaluate_metric` | 1 / 1 | 20.0 | 10.0 | 16.0 | 8.0 | 0.50 |" in text
    assert "| 1 other rules | 1 / 1 | 5.0 | 5.5 | 4.0 | 5.0 | 1.25 |" in text
    assert "| **total** | 2 / 2 | 25.0 | 15.5 | 20.0 | 13.0 | 0.65 |" in text
    assert "before: 600.0 s wall, 180 CPU s, 2 jobs, calibration 1.250 s." in text


def test_a_jobs_log_gives_its_cpu_time_in_place_of_the_benchmark_sample(tmp_path, monkeypatch):
    # Snakemake samples a long job's CPU time every 30 s; the job's log records all of it when its
    # process exits (mtmeta.logsetup). Here one job has that line and one has not.
    monkeypatch.chdir(tmp_path)
    timing = load()
    from mtmeta.logsetup import process_time_line

    for metric, sampled in (("bleu", 15.3), ("chrf", 4.0)):
        bench = tmp_path / f"results/benchmarks/evaluate_metric/{metric}.tsv"
        bench.parent.mkdir(parents=True, exist_ok=True)
        bench.write_text(f"s\th:m:s\tmax_rss\tcpu_time\n25.0\t0:00:25\t800\t{sampled}\n")
    log = tmp_path / "results/logs/evaluate_metric/bleu.log"
    log.parent.mkdir(parents=True)
    log.write_text("12:00:00 INFO mtmeta: 32 pairs\n" + process_time_line(24.61))
    (tmp_path / "results/logs/evaluate_metric/chrf.log").write_text("12:00:00 INFO mtmeta: no time recorded\n")
    [cost] = timing.rule_costs()
    assert cost["cpu_seconds"] == pytest.approx(24.61 + 4.0) and cost["exact_jobs"] == 1 and cost["jobs"] == 2
    assert "1 of the 2 jobs" in timing.table()


def test_a_workflow_jobs_log_ends_with_its_processes_cpu_time(tmp_path):
    # A job that burns about 0.3 s of CPU, then waits for a child process that burns about 0.3 s more.
    log = tmp_path / "logs" / "job.log"
    code = ("import subprocess, sys, time\nfrom mtmeta.logsetup import configure\n"
            f"configure({str(log)!r})\nimport logging; logging.getLogger('mtmeta').info('working')\n"
            "end = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
            "subprocess.run([sys.executable, '-c', 'import time\\nend = time.process_time() + 0.3\\n"
            "while time.process_time() < end: pass'], check=True)\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    from mtmeta.logsetup import PROCESS_TIME

    lines = log.read_text().splitlines()
    assert "working" in lines[0] and len(lines) == 2
    [recorded] = PROCESS_TIME.findall(lines[-1])
    assert 0.6 <= float(recorded) < 5.0


def test_the_cpu_time_goes_to_the_jobs_log_after_a_change_of_directory(tmp_path):
    # A relative log path names the log where the job started; the exit line must not land in the
    # directory the process ends in.
    (tmp_path / "later").mkdir()
    code = ("import os\nfrom mtmeta.logsetup import configure\nconfigure('job.log')\n"
            "os.chdir('later')\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, cwd=tmp_path)
    from mtmeta.logsetup import PROCESS_TIME

    assert len(PROCESS_TIME.findall((tmp_path / "job.log").read_text())) == 1
    assert list((tmp_path / "later").iterdir()) == []
