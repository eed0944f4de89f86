"""The Snakemake report. Every caption of the extended study (a superset of the default's) renders without
a docutils message (docutils alone, as Snakemake renders it). In a real headless Chromium
(tools/report_browser.py): the check fails on each of the problems the report had (a category with a
colon, a TSV marked for the report, a table without rows, a shrunk figure), and the landing text stays
beside the menu. The synthetic study's report is checked in test_workflow_e2e.py, beside the study's
numbers (one run of the study).

The browser tests need Debian's chromium and chromium-driver: `make test-report` (as root) installs them,
and so does CI before the tests (.ci/run). Where they are missing they are skipped, except in CI, where
they fail."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import jinja2
import pytest
from docutils.core import publish_parts
from loaded_workflow import LOADED_WORKFLOW, loaded_json
from synthetic_study import snakemake_env

pytestmark = pytest.mark.workflow


# The study's report pages as report.smk declares them (caption, category, subcategory, labels),
# read from the loaded workflow (no DAG), in a subprocess of its own as test_lint.py does.
PAGES_PROGRAM = LOADED_WORKFLOW + """    print(json.dumps(workflow.globals["REPORT_PAGES"]))
"""
# What Snakemake 9.27 appends to every caption before docutils reads it (snakemake/report/__init__.py,
# auto_report's rst_links): a link target per category and per result file name.
RST_LINKS = """

.. _Workflow: javascript:show_panel('workflow')
.. _Statistics: javascript:show_panel('statistics')
{% for category in categories %}
.. _{{ category }}: javascript:app.showCategory('{{ category|urlencode }}')
{% endfor %}
{% for name, path in files %}
.. _{{ name }}: javascript:app.showResultInfo('{{ path|urlencode }}')
{% endfor %}
"""


def docutils_warnings(caption: str, categories, files) -> str:
    """Everything docutils says about a caption as Snakemake renders it (StrictUndefined: a caption that
    reads wildcards, which the page rules do not have, fails here instead of rendering empty)."""
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    text = env.from_string(caption + RST_LINKS).render(categories=categories, files=files)
    stream = io.StringIO()
    body = publish_parts(text, writer="html", settings_overrides={"warning_stream": stream})["body"]
    return stream.getvalue() + ("System Message" if "system-message" in body else "")


def test_every_caption_renders_without_docutils_messages(repo, tmp_path):
    default = loaded_json(PAGES_PROGRAM, repo, tmp_path)
    pages = loaded_json(PAGES_PROGRAM, repo, tmp_path, "config/extended.yaml")
    # The extended study adds the official WMT12 record (its table as TSV and Markdown, the factors)
    # with ter-wmt's scatter figure, PER's and chrF++'s scatter figures, and Parmesan on WMT14 en-cs
    # (its settings table as TSV and Markdown, the samples of its nine paraphrase settings); the
    # default's pages are all among its.
    assert len(default) == 122 and set(default) < set(pages) and len(pages) == 122 + 4 + 2 + 2 + 9
    assert {"official_wmt12", "official_wmt12_factors"} <= {Path(page).name.split(".")[0] for page in pages}
    assert len({spec["caption"] for spec in default.values()}) == 20  # all but the official record's
    categories = sorted({spec["category"] for spec in pages.values()})
    assert categories == ["Correlations", "Data", "Embeddings", "Figures", "Paper", "Sweeps"]
    # One target per file name, the first result's (Snakemake skips the other results of the same name).
    files = list({Path(page).name + ".html": f"results/report/{page}.html" for page in reversed(pages)}.items())
    captions = sorted({spec["caption"] for spec in pages.values()})
    assert len(captions) == 21 and {p.stem for p in (repo / "workflow/report").glob("*.rst")} == {*captions, "workflow"}
    for caption in [*captions, "workflow"]:
        text = (repo / "workflow/report" / f"{caption}.rst").read_text(encoding="utf-8")
        assert docutils_warnings(text, categories, files) == "", caption
    # The check finds what the report had: "Paper: ..." categories are targets "Paper", twice.
    old = docutils_warnings("A caption.", ["Paper: overview", "Paper: ledger"], files)
    assert 'Duplicate explicit target name: "paper"' in old


BROKEN_WORKFLOW = """
rule all:
    input: "a.tsv", "b.html", "c.png"

rule a:
    output: report("a.tsv", caption="caption.rst", category="Paper: one")
    shell: "printf 'x\\\\ty\\\\n1\\\\t2\\\\n' > {output}"

rule b:
    output: report("b.html", caption="caption.rst", category="Paper: two")
    shell: "echo '<table><thead><tr><th>x</th></tr></thead><tbody></tbody></table>' > {output}"

rule c:
    output: report("c.png", caption="caption.rst", category="Figures")
    run:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        plt.figure(figsize=(30, 2)).savefig(output[0], dpi=100)
"""


def test_the_check_fails_on_each_problem_the_report_had(tmp_path, browser_check):
    """What the study's report used to do, in a three-rule workflow: categories "Paper: ..." (docutils reads
    a target "Paper" twice), a TSV (a download link only), a table without rows, a 3000-pixel PNG."""
    (tmp_path / "Snakefile").write_text(textwrap.dedent(BROKEN_WORKFLOW))
    (tmp_path / "caption.rst").write_text("A caption.\n")
    snakemake = [os.path.join(os.path.dirname(sys.executable), "snakemake"), "--cores", "1", "-d", str(tmp_path),
                 "-s", str(tmp_path / "Snakefile")]
    env = snakemake_env(tmp_path)
    assert subprocess.run(snakemake, capture_output=True, text=True, env=env).returncode == 0
    result = subprocess.run([*snakemake, "--report", str(tmp_path / "report.html")], capture_output=True, text=True,
                            env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    assert any('Duplicate explicit target name: "paper"' in line
               for line in browser_check.docutils_messages(result.stderr))
    seen = browser_check.check_report(tmp_path / "report.html", tmp_path / "shots", expect_empty=set())
    problems = "\n".join(seen.problems)
    assert "a.tsv: caption:" in problems and "System Message" in problems  # the warning, in every caption
    assert "a.tsv: the report cannot show it (text/tab-separated-values: a download link only)" in problems
    assert "b.html: table 1 renders empty (1 columns, no rows, no notice)" in problems
    assert "c.png: figure shown" in problems and "narrower than its 3000 px" in problems


def test_the_landing_text_stays_beside_the_menu_at_1280_px(repo, tmp_path, browser_check):
    """A rule graph wider than the window beside the menu (the study's, at 1280 or 1400 px): Snakemake's
    centred layout slid the workflow description under the menu and squeezed it to a few words a line;
    the style at the end of the study's description (workflow/report/workflow.rst) keeps it in view."""
    rules = "".join(f'rule r{k}:\n    output: "out/{k}.txt"\n    shell: "touch {{output}}"\n\n' for k in range(120))
    (tmp_path / "Snakefile").write_text(f'report: "desc.rst"\n\nrule all:\n    input: [f"out/{{k}}.txt" for k in '
                                        f'range(120)]\n\n{rules}')
    snakemake = [os.path.join(os.path.dirname(sys.executable), "snakemake"), "--cores", "1", "-d", str(tmp_path),
                 "-s", str(tmp_path / "Snakefile"), "--workflow-profile", "none"]
    env = snakemake_env(tmp_path)
    assert subprocess.run(snakemake, capture_output=True, text=True, env=env).returncode == 0
    description = (repo / "workflow/report/workflow.rst").read_text()
    style = description[description.index(".. raw:: html"):]
    problems = {}
    for name, text in (("plain", "A workflow description. " * 30), ("styled", "A workflow description. " * 30
                                                                     + "\n\n" + style)):
        (tmp_path / "desc.rst").write_text(text + "\n")
        report = tmp_path / f"{name}.html"
        assert subprocess.run([*snakemake, "--report", str(report)], capture_output=True, text=True,
                              env=env).returncode == 0
        with browser_check.Browser() as browser:
            browser.open(report.as_uri())
            browser.wait_for("return typeof app !== 'undefined' && document.querySelector('#app .prose') !== null",
                             what="the landing page")
            browser.wait_for("return document.querySelector('#rulegraph canvas, #rulegraph svg') !== null",
                             what="the rule graph")
            problems[name] = browser_check.landing_problems(browser.run(browser_check.LANDING))
    assert len(problems["plain"]) == 1 and "under the menu" in problems["plain"][0]
    assert problems["styled"] == []
