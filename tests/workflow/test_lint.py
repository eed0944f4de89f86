"""Workflow hygiene: every rule that runs declares its resources, the small table rules are local,
and `make lint`'s filter (tools/lint_workflow.py) lets through the conda/container lint only."""

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from loaded_workflow import LOADED_WORKFLOW, loaded_json  # tests/workflow/: the test file's directory is on sys.path

REPO = Path(__file__).resolve().parents[2]

# The workflow's rules as Snakemake loads them (no DAG): name, whether it runs anything, its declared
# resources, whether it is local. Through the Python API (Snakemake is pinned in requirements.lock;
# WorkflowApi._workflow is what `snakemake --list-rules` uses), in a subprocess of its own.
RULES_PROGRAM = LOADED_WORKFLOW + """
    rules = [{"name": rule.name, "runs": not rule.norun, "resources": sorted(rule.resources),
              "local": rule.name in workflow._localrules,
              "code": rule.shellcmd or getattr(rule, "run_func_src", None) or "",
              "kind": "shell" if rule.shellcmd else "script" if rule.script else
                      "run" if getattr(rule, "run_func_src", None) else "none"} for rule in workflow.rules]
print(json.dumps(rules))
"""

# Rules that only join per-metric pieces or tabulate small finished tables, in seconds
# (results/benchmarks/): not worth a cluster job. The target rules (no script) are local anyway.
LOCAL_RULES = {"collect_exclusions", "collect_system_level", "collect_segment_level", "collect_system_bootstrap",
               "collect_protocols", "collect_categories", "collect_clusters", "paper_parmesan",
               "paper_sensitivity", "paper_wmt_baselines", "paper_ledger", "tables", "paper", "all"}


@pytest.fixture(scope="module")
def workflow_rules(tmp_path_factory):
    rules = loaded_json(RULES_PROGRAM, REPO, tmp_path_factory.mktemp("wd"))
    assert len(rules) > 50  # every metric's scoring rule is one
    return rules


@pytest.mark.workflow
def test_every_rule_that_runs_declares_mem_and_runtime(workflow_rules):
    missing = [rule["name"] for rule in workflow_rules
               if rule["runs"] and not {"mem_mb", "runtime"} <= set(rule["resources"])]
    assert not missing, f"rules without mem_mb and runtime under resources: {missing}"


@pytest.mark.workflow
def test_small_table_rules_are_local(workflow_rules):
    local = {rule["name"] for rule in workflow_rules if rule["local"]}
    settings = {name for name in local if name.startswith("parmesan_settings_")}
    pages = {name for name in local if name.startswith("report_")}  # test_report_page_rules_are_local
    # One metric's own results (metric_<id>, metaeval.smk): a target rule per scored metric, running nothing.
    targets = {rule["name"] for rule in workflow_rules if rule["name"].startswith("metric_")}
    scoring = {rule["name"] for rule in workflow_rules if rule["name"].startswith("score_")
               and not rule["name"].startswith("score_paraphrased_")}
    assert targets <= local and {"metric_" + name.removeprefix("score_") for name in scoring} == targets
    assert not any(rule["runs"] for rule in workflow_rules if rule["name"] in targets)
    assert settings and local - settings - pages - targets == LOCAL_RULES
    assert not any(name.startswith("score_") for name in local)


@pytest.mark.workflow
def test_report_page_rules_are_local(workflow_rules):
    """The report's pages (report.smk): a tenth of a second each, one rule per caption, all local rules."""
    pages = {rule["name"]: rule for rule in workflow_rules if rule["name"].startswith("report_")}
    assert {"report_pages", "report_overview", "report_ledger", "report_system_scatter"} <= set(pages)
    assert all(rule["local"] for rule in pages.values())
    assert all({"mem_mb", "runtime"} <= set(rule["resources"]) for rule in pages.values() if rule["runs"])


@pytest.mark.workflow
def test_rule_code_names_no_path_of_this_machine(workflow_rules, tmp_path):
    """Snakemake reruns a job whose rule's code (its shell command or run block) differs from the one
    recorded with its outputs ("Code has changed"): code holding the interpreter's, the repository's or
    the working directory's path would make a copied or moved study out of date."""
    local = [str(Path(sys.executable).parent), str(REPO), str(tmp_path.parent)]
    with_paths = {rule["name"]: [p for p in local if p in rule["code"]] for rule in workflow_rules}
    assert not {name: paths for name, paths in with_paths.items() if paths}
    assert {rule["kind"] for rule in workflow_rules} <= {"script", "shell", "none"}  # the kinds are read
    # Snakemake 9's local executor spawns a whole Snakemake process for each job of a rule with a run
    # block (seconds of parsing per report page): the small local rules are scripts instead.
    assert not [rule["name"] for rule in workflow_rules if rule["kind"] == "run"]
    assert {rule["kind"] for rule in workflow_rules if rule["name"].startswith("report_") and rule["runs"]} == {
        "script"}


def load_filter():
    spec = importlib.util.spec_from_file_location("lint_workflow", REPO / "tools" / "lint_workflow.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CONDA = """\
    * Specify a conda environment or container for each rule.:
      This way, the used software for each specific step is documented, and the
      workflow can be executed on any machine without prerequisites.
      Also see:
      https://snakemake.readthedocs.io/en/latest/snakefiles/deployment.html#integrated-package-management
"""
MIXED = """\
    * Mixed rules and functions in same snakefile.:
      Small one-liner functions used only once should be defined as lambda
      expressions.
      Also see:
      https://snakemake.readthedocs.io/en/latest/snakefiles/modularization.html#includes
"""


def text_report(*blocks):
    return "Using workflow specific profile profiles/default for setting default command line arguments.\n" + "".join(
        f"Lints for {item}:\n{body}\n" for item, body in blocks)


def fake_snakemake(tmp_path, returncode, stderr="", stdout=""):
    """An executable that prints like `snakemake --lint` and exits with `returncode`."""
    path = tmp_path / "snakemake"
    path.write_text(f"#!{sys.executable}\nimport sys\n"
                    f"sys.stdout.write({stdout!r})\nsys.stderr.write({stderr!r})\nsys.exit({returncode})\n")
    path.chmod(0o755)
    return str(path)


def test_filter_passes_conda_lints_only(tmp_path):
    report = text_report(("rule a (line 5, /x/data.smk)", CONDA), ("rule b (line 9, /x/data.smk)", CONDA))
    assert load_filter().main(["--snakemake", fake_snakemake(tmp_path, 1, stderr=report)]) == 0


def test_filter_fails_on_any_other_lint(tmp_path):
    lint_filter = load_filter()
    report = text_report(("snakefile /x/paper.smk", MIXED), ("rule a (line 5, /x/data.smk)", CONDA + MIXED))
    assert lint_filter.main(["--snakemake", fake_snakemake(tmp_path, 1, stderr=report)]) == 1
    code, message = lint_filter.judge(1, "", report)
    assert code == 1 and message.count("Mixed rules and functions") == 2 and "1 lint(s) ignored" in message


def test_filter_reads_json_reports():
    lint_filter = load_filter()
    lint = {"title": "Specify a conda environment or container for each rule.", "body": "", "links": []}
    other = {"title": "No log directive defined", "body": "", "links": []}
    rule = {"rule": "a", "line": 5, "snakefile": "/x/data.smk"}
    only_conda = {"snakefiles": [], "rules": [{"for": rule, "lints": [lint]}]}
    assert lint_filter.judge(1, json.dumps(only_conda), "")[0] == 0
    with_other = {"snakefiles": [], "rules": [{"for": rule, "lints": [lint, other]}]}
    assert lint_filter.judge(1, json.dumps(with_other), "")[0] == 1


def test_filter_fails_on_errors_and_unreadable_reports(tmp_path):
    lint_filter = load_filter()
    # A Snakemake error (exit code 1, no lint) fails; a clean workflow passes.
    assert lint_filter.main(["--snakemake", fake_snakemake(tmp_path, 1, stderr="SyntaxError in line 3\n")]) == 1
    assert lint_filter.judge(0, "", "Congratulations, your workflow is in a good condition!\n")[0] == 0
    # A lint line in a shape the parser does not know is not silently skipped.
    garbled = textwrap.dedent("""\
        Lints for rule a (line 5, /x/data.smk):
            * Specify a conda environment or container for each rule.
        """)
    assert lint_filter.judge(1, "", garbled)[0] == 1


@pytest.mark.workflow
def test_the_workflow_passes_make_lint():
    """`make lint`'s Snakemake half on the repository's own workflow: any lint but the conda one fails."""
    result = subprocess.run([sys.executable, str(REPO / "tools" / "lint_workflow.py"),
                             "--snakemake", str(Path(sys.executable).with_name("snakemake"))],
                            capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    assert "snakemake --lint: passed" in result.stdout + result.stderr
