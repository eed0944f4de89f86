"""The README and the docs as a fresh clone shows them: every relative link resolves to a file of the
repository (and to a heading of it, when the link names one), the README fits one screen, and no page
reads like a logbook (commit hashes, hosts, "issue N")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DOCS = [README, *sorted((REPO / "docs").glob("*.md")), REPO / "config" / "README.md"]
PAGES = [*DOCS, *sorted((REPO / "benchmarks" / "results").glob("*.md"))]  # generated pages link back
# Excluded: the study's outputs, written by `make study` and ignored by git, so absent in a fresh clone.
# The docs link them as the files a finished study holds (docs/findings.md and docs/outputs.md say
# so); the README, the page a fresh clone opens with, may not link there at all.
STUDY_OUTPUTS = ("results/",)
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)|!\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")


def links(text: str) -> list[str]:
    text = CODE.sub("", FENCE.sub("", text))
    return [a or b for a, b in LINK.findall(text)]


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    for line in FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            base = slug(match.group(1))
            seen[base if base not in seen else f"{base}-{seen[base]}"] = 0
            seen[base] = seen.get(base, 0) + 1
    return set(seen)


def broken_links(page: Path, text: str | None = None) -> list[str]:
    broken = []
    for target in links(page.read_text(encoding="utf-8") if text is None else text):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        resolved = (page.parent / file).resolve() if file else page
        inside = resolved.is_relative_to(REPO)
        where = resolved.relative_to(REPO).as_posix() if inside else str(resolved)
        if inside and where.startswith(STUDY_OUTPUTS):
            if page == README:
                broken.append(f"{target}: a study output, absent in a fresh clone")
            continue
        if not inside or not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {where}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_resolves(page):
    assert broken_links(page) == []


def test_a_broken_link_is_caught():
    text = "[a](architecture.md#layers) [b](nowhere.md) [c](architecture.md#nowhere) [d](../results/paper/x.md)"
    assert broken_links(REPO / "docs" / "index.md", text) == [
        "nowhere.md: no such file", "architecture.md#nowhere: no heading #nowhere in docs/architecture.md"]
    assert broken_links(README, "[d](results/paper/x.md) `[e](nowhere.md)`") == [
        "results/paper/x.md: a study output, absent in a fresh clone"]


def test_github_anchors():
    assert slug("TER: sacrebleu's default and the WMT baseline") == "ter-sacrebleus-default-and-the-wmt-baseline"
    assert slug("The `mtmeta` command") == "the-mtmeta-command"
    assert slug("mt-metrics-eval's protocols (MQM era)") == "mt-metrics-evals-protocols-mqm-era"


def test_the_readme_fits_one_screen():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 80


# Hex words that are not this repository's commits: other repositories' commits cited as the
# provenance of the Meteor releases (docs/official-record.md), and a content hash in an example
# signature (docs/softbleu.md).
NOT_OUR_COMMITS = {"1e4cc9d", "0672b2f", "3f42664", "5554cc4c107c"}
LOGBOOK = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,12}\b|\bissue \d+|\bEPYC\b"
                     r"|\b(?:faster|slower|idle|earlier|current) host\b", re.I)


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_page_reads_like_a_logbook(page):
    """Measurements, with the commit and the machine they ran on, live in benchmarks/results/."""
    found = [m.group(0) for m in LOGBOOK.finditer(page.read_text(encoding="utf-8"))]
    assert [word for word in found if word not in NOT_OUR_COMMITS] == []


def test_a_logbook_word_is_caught():
    text = "At 468fbe6 on the slower host (AMD EPYC), as issue 31 asked; emb:study-w2v@5554cc4c107c, 2026-11-25"
    assert [m.group(0) for m in LOGBOOK.finditer(text)] == ["468fbe6", "slower host", "EPYC", "issue 31",
                                                             "5554cc4c107c"]
