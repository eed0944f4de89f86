"""The study's Snakemake report, opened in a real headless Chromium and checked as a reader would see it.

Chromium is driven through ChromeDriver's WebDriver protocol (plain JSON over HTTP on a loopback port,
spoken here with urllib: no Selenium), so that the check can do what a reader does: wait for the
report's scripts to build the page, open each result with the report's own viewer, look inside the
frame that shows it, and take screenshots. Chromium starts with the flags this machine needs (no
sandbox as root, no GPU, no background networking: the network is closed) and a new, empty profile.

What fails the check (``check_report`` returns one line per problem):
- a docutils message ("System Message", "WARNING/2", ...) on the landing page or in any caption;
- a result the report cannot show (it offers only a download: TSV, Markdown);
- a shown table without rows, unless the page says in words that the table has none (the pages of
  mtmeta.paper.report_page do); the caller says which results may be empty (``expect_empty``);
- a page with nothing in it; a figure shown narrower than its natural width;
- a landing page whose workflow description is not fully in view beside the menu at the window's
  1280 px (Snakemake's centred layout pushed it under the menu; workflow/report/report.css).

Only the standard library: tools/test_report.py and tests/workflow/test_report.py import it.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PACKAGES = ["chromium", "chromium-driver", "fonts-dejavu-core"]  # Debian's; the fonts for legible screenshots
# As root on a machine without a display, a GPU or a network (docs/testing.md).
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1280,1000"]  # a common laptop width
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the WebDriver key of an element reference
# What docutils writes into HTML when a caption has a problem, and prints on the console.
DOCUTILS_MESSAGE = re.compile(r"System Message|system-message|\((?:INFO/1|WARNING/2|ERROR/3|SEVERE/4)\)|"
                              r"(?:WARNING|ERROR|SEVERE)/[234]")


class BrowserError(Exception):
    """Chromium or ChromeDriver could not be started or driven."""


def browser_available() -> bool:
    return Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()


def docutils_messages(text: str) -> list[str]:
    """The lines of ``text`` that carry a docutils message."""
    return [line.strip() for line in text.splitlines() if DOCUTILS_MESSAGE.search(line)]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    """One headless Chromium under ChromeDriver; a context manager that stops both."""

    def __init__(self, timeout: float = 120):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="mtmeta-chromium.")
        self.port = _free_port()
        self.driver = subprocess.Popen([CHROMEDRIVER, f"--port={self.port}"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        self.session = None
        try:
            self._wait_ready()
            options = {"binary": CHROMIUM, "args": [*CHROMIUM_FLAGS, f"--user-data-dir={self.profile}"]}
            reply = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
                "browserName": "chrome", "goog:chromeOptions": options,
                "timeouts": {"pageLoad": int(timeout * 1000), "script": int(timeout * 1000)}}}})
            self.session = reply["sessionId"]
        except Exception:
            self.close()
            raise

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if self._call("GET", "/status").get("ready"):
                    return
            except (BrowserError, OSError):
                pass
            if self.driver.poll() is not None:
                raise BrowserError(f"chromedriver exited with {self.driver.returncode}")
            time.sleep(0.2)
        raise BrowserError("chromedriver did not answer within 30 s")

    def _call(self, method: str, path: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout + 30) as reply:
                return json.loads(reply.read())["value"]
        except urllib.error.HTTPError as error:
            detail = json.loads(error.read() or b"{}").get("value", {})
            raise BrowserError(f"{method} {path}: {detail.get('error')}: {detail.get('message', '')[:500]}") from None

    def _session(self, method: str, path: str, body: dict | None = None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def open(self, url: str) -> None:
        self._session("POST", "/url", {"url": url})

    def run(self, script: str, *args):
        """Run ``script`` (a function body; ``arguments`` holds ``args``) in the current frame."""
        return self._session("POST", "/execute/sync", {"script": script, "args": list(args)})

    def wait_for(self, script: str, *args, timeout: float = 60, what: str = "the condition"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.run(script, *args)
            if value:
                return value
            time.sleep(0.1)
        raise BrowserError(f"timed out after {timeout:.0f} s waiting for {what}")

    def click(self, element: dict) -> None:
        self._session("POST", f"/element/{element[ELEMENT]}/click", {})

    def enter_frame(self, element: dict | None) -> None:
        """Look inside an iframe (None: back to the top page)."""
        self._session("POST", "/frame", {"id": element})

    def screenshot(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self._session("GET", "/screenshot")))
        return path

    def close(self) -> None:
        if self.session:
            try:
                self._session("DELETE", "")
            except (BrowserError, OSError):
                pass
            self.session = None
        if self.driver.poll() is None:
            self.driver.terminate()
            try:
                self.driver.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.driver.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# The landing page's workflow description against the menu: where its first line starts, and whether
# that point shows the description (not the menu over it).
LANDING = """
const text = document.querySelector("#app .prose");
const menu = document.querySelector("#app nav");
if (!text || !menu) { return null; }
const box = text.getBoundingClientRect();
const x = box.left + 4, y = box.top + 8;
const hit = document.elementFromPoint(x, y);
return {left: box.left, top: box.top, menu_right: menu.getBoundingClientRect().right, width: window.innerWidth,
        text_width: box.width, visible: !!hit && text.contains(hit)};
"""


MIN_LANDING_WIDTH = 300  # pixels: the workflow description's narrowest readable column


def landing_problems(landing: dict | None) -> list[str]:
    """The problems of the landing page's layout (``LANDING``'s answer)."""
    if landing is None:
        return ["landing page: no workflow description beside a menu"]
    if landing["left"] < landing["menu_right"] - 1 or landing["top"] < 0 or not landing["visible"]:
        return [f"landing page: at {landing['width']} px the workflow description starts at "
                f"x={landing['left']:.0f}, y={landing['top']:.0f}, under the menu (its right edge at "
                f"x={landing['menu_right']:.0f}) or out of view"]
    if landing["text_width"] < MIN_LANDING_WIDTH:
        return [f"landing page: at {landing['width']} px the workflow description is "
                f"{landing['text_width']:.0f} px wide (a few words a line; at least {MIN_LANDING_WIDTH} expected)"]
    return []


# Where a result is listed: its category and subcategory (the report's ``categories``: category ->
# subcategory -> result paths; a category without subcategories has one, "Other").
PLACE = """
for (const [category, subcategories] of Object.entries(categories)) {
  for (const [subcategory, paths] of Object.entries(subcategories)) {
    if (paths.includes(arguments[0])) { return {category, subcategory, single: isSingleSubcategory(category)}; }
  }
}
return null;
"""
# A result's eye button as the report's own view manager makes it (ButtonViewManager, from the report's
# scripts): for a result the report can show, a button whose onClick puts it in the content panel; for
# one it cannot, a bare download link. OPEN_RESULT clicks it (the navigation bar lists its category).
CAN_SHOW = "return !!new ButtonViewManager(app).handleSelectedResult(arguments[0]).props.onClick;"
OPEN_RESULT = """
const [path, place] = arguments;
app.setView({navbarMode: "subcategory", category: place.category, subcategory: place.subcategory});
new ButtonViewManager(app).handleSelectedResult(path).props.onClick();
"""
# The link of the navigation bar whose text is arguments[0] (a category or subcategory), once listed.
MENU_ITEM = """
return Array.from(document.querySelectorAll("nav a")).find(a => a.innerText.trim() === arguments[0]) || null;
"""
# A button of the listed row that shows these label values (or, unlabelled, this path): the eye (0) or
# the information button (1), which shows the caption.
ROW_BUTTON = """
const [path, labels, which] = arguments;
const wanted = labels ? Object.values(labels).map(String) : [path];
for (const row of document.querySelectorAll("nav table tbody tr")) {
  const cells = Array.from(row.cells).slice(0, -1).map(cell => cell.innerText.trim());
  if (cells.length && cells.every(value => wanted.includes(value))) {
    return row.cells[row.cells.length - 1].querySelectorAll("a")[which] || null;
  }
}
return null;
"""
# What the content panel shows once the view has been rendered for ``path``.
SHOWN = """
const path = arguments[0];
if (app.state.resultPath !== path) { return null; }
const frame = document.querySelector("iframe");
if (frame && frame.src === results[path].data_uri) { return {kind: "frame", element: frame}; }
const img = Array.from(document.querySelectorAll("img")).find(i => i.src === results[path].data_uri);
if (img && img.complete) {
  return {kind: "img", natural: img.naturalWidth, shown: img.getBoundingClientRect().width};
}
return null;
"""
# Inside a page's frame, once loaded: its tables, rows, notices and figures.
INSPECT_PAGE = """
if (document.readyState !== "complete") { return null; }
const tables = Array.from(document.querySelectorAll("table")).map(t => ({
  head: t.querySelectorAll("thead th").length, rows: t.querySelectorAll("tbody tr").length,
  noticed: !!(t.nextElementSibling && t.nextElementSibling.classList.contains("no-rows"))}));
const figures = Array.from(document.querySelectorAll("img")).map(i => ({
  complete: i.complete, natural: i.naturalWidth, shown: i.getBoundingClientRect().width}));
return {title: document.title, text: document.body ? document.body.innerText.length : 0, tables, figures,
        notices: document.querySelectorAll(".no-rows").length};
"""


def _click_through(browser: Browser, path: str, place: dict, labels: dict | None) -> None:
    """Open ``path`` with real clicks: the category in the navigation bar's menu, its subcategory (where
    it has several), then the eye button of the result's row."""
    browser.run("app.setView({navbarMode: 'menu'});")  # the home button's view
    browser.click(browser.wait_for(MENU_ITEM, place["category"], what=f"menu item {place['category']}"))
    if not place["single"]:
        browser.click(browser.wait_for(MENU_ITEM, place["subcategory"], what=f"subcategory {place['subcategory']}"))
    browser.click(browser.wait_for(ROW_BUTTON, path, labels, 0, what=f"the row of {path}"))


@dataclass
class Inspection:
    """What the check saw: every result, how it was shown, and the problems."""

    results: dict[str, dict] = field(default_factory=dict)
    categories: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # category -> subcategory -> paths
    problems: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # results shown as tables without rows (said in words)
    screenshots: list[Path] = field(default_factory=list)
    dom: str = ""


def _page_problems(path: str, page: dict) -> tuple[list[str], bool]:
    """Problems of one shown page, and whether it shows a table without rows (said so in words)."""
    problems, empty = [], False
    if not page["text"] and not page["figures"]:
        problems.append(f"{path}: the page is empty")
    for n, table in enumerate(page["tables"], start=1):
        if table["rows"] == 0 and not table["noticed"]:
            problems.append(f"{path}: table {n} renders empty ({table['head']} columns, no rows, no notice)")
        empty |= table["rows"] == 0
    if not page["tables"] and not page["figures"]:
        if page["notices"]:
            empty = True
        else:
            problems.append(f"{path}: neither a table nor a figure")
    for figure in page["figures"]:
        if not figure["complete"] or not figure["natural"]:
            problems.append(f"{path}: the figure did not load")
        elif figure["shown"] < figure["natural"] - 1:
            problems.append(f"{path}: figure shown {figure['shown']:.0f} px wide, narrower than its "
                            f"{figure['natural']} px")
    return problems, empty


def _show(browser: Browser, path: str, result: dict, screenshots: dict[str, str], seen: Inspection,
          out: Path) -> None:
    """Open one result in the report and inspect what it shows (records problems and screenshots)."""
    place = browser.run(PLACE, path)
    if path in screenshots or f"info:{path}" in screenshots:  # as a reader: category, subcategory, eye
        _click_through(browser, path, place, result["labels"])
    else:
        browser.run(OPEN_RESULT, path, place)
    shown = browser.wait_for(SHOWN, path, what=f"{path} to be shown")
    if shown["kind"] == "img":
        if shown["shown"] < shown["natural"] - 1:
            seen.problems.append(f"{path}: figure shown {shown['shown']:.0f} px wide, narrower than "
                                 f"its {shown['natural']} px")
    else:
        browser.enter_frame(shown["element"])
        page = browser.wait_for(INSPECT_PAGE, what=f"the page of {path} to load")
        browser.enter_frame(None)
        result["page"] = page
        problems, empty = _page_problems(path, page)
        seen.problems += problems
        if empty:
            seen.empty.append(path)
    if path in screenshots:
        seen.screenshots.append(browser.screenshot(out / screenshots.pop(path)))
    if f"info:{path}" in screenshots:  # the information button: the caption beside the result
        browser.click(browser.wait_for(ROW_BUTTON, path, result["labels"], 1, what=f"the row of {path}"))
        browser.wait_for("return app.state.navbarMode === 'resultinfo';", what=f"the caption of {path}")
        seen.screenshots.append(browser.screenshot(out / screenshots.pop(f"info:{path}")))


def check_report(report: Path, out: Path, screenshots: dict[str, str] | None = None,
                 expect_empty: set[str] | None = None) -> Inspection:
    """Open ``report`` in headless Chromium and check every result (module docstring). ``screenshots``:
    result path (as the report knows it, results/report/...) -> file name under ``out`` for a screenshot
    of the report showing it ("landing" is the landing page). ``expect_empty``: the results that may be
    tables without rows; any other empty one, or an expected one that is not empty, is a problem."""
    screenshots = dict(screenshots or {})
    seen = Inspection()
    out.mkdir(parents=True, exist_ok=True)
    with Browser() as browser:
        browser.open(Path(report).resolve().as_uri())
        browser.wait_for("return typeof app !== 'undefined' && document.querySelector('#app').innerText.length > 0",
                         what="the report's scripts to build the page")
        seen.dom = browser.run("return document.documentElement.outerHTML;")
        (out / "report.dom.html").write_text(seen.dom, encoding="utf-8")
        landing = browser.run("return document.body.innerText;")
        seen.problems += [f"landing page: {line}" for line in docutils_messages(landing)]
        seen.problems += landing_problems(browser.run(LANDING))
        if "landing" in screenshots:
            seen.screenshots.append(browser.screenshot(out / screenshots.pop("landing")))
        catalogue = browser.run("return {results: Object.fromEntries(Object.entries(results).map(([p, r]) =>"
                                " [p, {caption: r.caption, mime: r.mime_type, labels: r.labels}])),"
                                " workflow: workflow_desc};")
        seen.problems += [f"workflow description: {line}" for line in docutils_messages(catalogue["workflow"])]
        seen.categories = browser.run("return categories;")
        for path, result in sorted(catalogue["results"].items()):
            seen.results[path] = result
            seen.problems += [f"{path}: caption: {line}" for line in docutils_messages(result["caption"])]
            if not browser.run(CAN_SHOW, path):
                seen.problems.append(f"{path}: the report cannot show it ({result['mime']}: a download link only)")
                continue
            try:
                _show(browser, path, result, screenshots, seen, out)
            except BrowserError as error:
                seen.problems.append(f"{path}: {error}")
                browser.enter_frame(None)
    if expect_empty is not None:
        seen.problems += [f"{path}: a table without rows" for path in sorted(set(seen.empty) - expect_empty)]
        seen.problems += [f"{path}: expected a table without rows, shown with rows"
                          for path in sorted(expect_empty - set(seen.empty))]
    seen.problems += [f"{path}: no such result to screenshot" for path in screenshots]
    return seen

