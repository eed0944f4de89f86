"""The report's pages (mtmeta.paper.report_page): a TSV as a table, Markdown rendered, a PNG at its size.

The pages are parsed back with the standard library's HTML parser, so that the tests check what a
browser gets: the cells, their classes and titles, the notices, the embedded files."""

from __future__ import annotations

import base64
import html.parser
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from mtmeta.errors import InputError
from mtmeta.paper import report_page


class Page(html.parser.HTMLParser):
    """The elements of a page as (tag, attributes, text) in document order."""

    def __init__(self, text: str):
        super().__init__()
        self.elements: list[list] = []
        self.open: list[list] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        element = [tag, dict(attrs), ""]
        self.elements.append(element)
        if tag not in ("img", "input", "meta", "br"):
            self.open.append(element)

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for element in self.open:
            element[2] += data

    def all(self, tag):
        return [e for e in self.elements if e[0] == tag]


def png(width: int, height: int) -> bytes:
    """A valid, tiny, grey PNG of the given size."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


TSV = (
    "system\tmetric\tpearson\tpearson_p\tn_systems\tnote\n"
    "NA\tbleu\t0.94178362539186024\t3.1415e-05\t4\t\n"
    "nan\tchrf++\t-0.5\t0.049999999999999996\t12\t\"a \"\"quoted\"\"\tnote\"\n"
)


def test_display_number_rounds_decimals_and_keeps_the_rest():
    assert report_page.display_number("0.94178362539186024") == "0.9418"
    assert report_page.display_number("-0.5") == "-0.5000"
    assert report_page.display_number("3.1415e-05") == "3.14e-05"  # below 0.001: 3 significant digits
    assert report_page.display_number("0.00099949999") == "0.000999"
    assert report_page.display_number("0.001") == "0.0010"
    assert report_page.display_number("1e3") == "1000.0000"
    assert report_page.display_number("0.0") == "0.0000"
    for cell in ("4", "-12", "nan", "NA", "inf", "bleu", "", "1.2.3", "0.945 (2)"):
        assert report_page.display_number(cell) is None, cell


def test_tsv_page_shows_every_cell_with_exact_values_in_titles():
    page = Page(report_page.tsv_page(TSV.encode(), "results/paper/x.tsv"))
    assert page.all("h1")[0][2] == "results/paper/x.tsv"
    heads = [(e[2], e[1].get("class")) for e in page.all("th")]
    assert heads == [("system", None), ("metric", None), ("pearson", "num"), ("pearson_p", "num"),
                     ("n_systems", "num"), ("note", None)]
    cells = [(e[2], e[1].get("title"), e[1].get("class")) for e in page.all("td")]
    assert cells == [
        ("NA", None, None), ("bleu", None, None), ("0.9418", "0.94178362539186024", "num"),
        ("3.14e-05", "3.1415e-05", "num"), ("4", None, "num"), ("", None, None),
        ("nan", None, None), ("chrf++", None, None), ("-0.5000", "-0.5", "num"),
        ("0.0500", "0.049999999999999996", "num"), ("12", None, "num"), ('a "quoted"\tnote', None, None),
    ]
    assert "2 rows, 6 columns" in page.all("p")[0][2]
    # The file itself, byte for byte, behind the download link.
    link = next(e for e in page.all("a") if e[1].get("download") == "x.tsv")
    assert link[1]["href"].startswith("data:text/tab-separated-values;base64,")
    assert base64.b64decode(link[1]["href"].split(",", 1)[1]) == TSV.encode()
    assert not page.all("input")  # no filter on two rows


def test_tsv_page_of_a_header_only_table_says_it_has_no_rows():
    page = Page(report_page.tsv_page(b"seed\ttable\treported\n", "results/paper/ledger.tsv"))
    assert not page.all("table")
    notice = [e for e in page.all("p") if e[1].get("class") == "no-rows"]
    assert len(notice) == 1 and "3 columns: seed, table, reported" in notice[0][2]


def test_long_tables_get_a_filter_and_long_text_wraps():
    rows = "".join(f"sys{i}\t{'word ' * 12}\n" for i in range(16))
    page = Page(report_page.tsv_page(f"system\treason\n{rows}".encode(), "t.tsv"))
    assert page.all("input")[0][1]["id"] == "filter" and "getElementById(\"filter\")" in page.all("script")[0][2]
    assert page.all("th")[1][1]["style"] == "min-width: 14em"  # 60 characters: the narrowest wrapping column
    assert {e[1].get("class") for e in page.all("td")[1::2]} == {"long"}


def test_ragged_and_empty_tsv_files_are_errors_naming_the_line():
    with pytest.raises(InputError, match=r"t.tsv:3: 1 cells where the header has 2"):
        report_page.tsv_page(b"a\tb\n1\t2\n3\n", "t.tsv")
    with pytest.raises(InputError, match=r"t.tsv:1: no header line"):
        report_page.tsv_page(b"", "t.tsv")
    with pytest.raises(InputError, match=r"t.tsv:2: byte 6 is not UTF-8"):
        report_page.tsv_page(b"a\tb\n1\t\xff\n", "t.tsv")


MARKDOWN = """\
# Sensitivity

Each row *changes* one factor.

| metric | wmt12 cs-en | reason |
|---|---:|---|
| bleu | **0.835** | n/a |
| chrf | 0.945 (2) | a reason long enough to wrap in its own column, as ledger reasons are |

**Empty**

| dataset | lp |
|---|---|

<script>alert(1)</script>
"""


def test_markdown_page_renders_tables_headings_and_marks_columns():
    page = Page(report_page.markdown_page(MARKDOWN.encode(), "results/paper/s.md"))
    assert [e[2] for e in page.all("h1")] == ["results/paper/s.md", "Sensitivity"]
    assert page.all("em")[0][2] == "changes"
    tables = page.all("table")
    assert len(tables) == 2
    heads = page.all("th")
    assert heads[1][1] == {"style": "text-align:right", "class": "num"}  # the Markdown's own alignment kept
    assert heads[2][1]["style"] == "min-width: 14em"
    cells = [(e[2], e[1].get("class")) for e in page.all("td")]
    assert cells == [("bleu", None), ("0.835", "num"), ("n/a", "long"), ("chrf", None), ("0.945 (2)", "num"),
                     ("a reason long enough to wrap in its own column, as ledger reasons are", "long")]
    assert page.all("strong")[0][2] == "0.835"
    notices = [e for e in page.all("p") if e[1].get("class") == "no-rows"]
    assert len(notices) == 1  # after the empty table, and only there
    assert "2 tables, 2 rows" in page.all("p")[0][2]
    assert not [e for e in page.all("script") if "alert" in e[2]]  # raw HTML is shown as text, never run
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in report_page.markdown_page(MARKDOWN.encode(), "s.md")


def test_figure_page_shows_the_png_at_its_natural_size():
    data = png(7, 3)
    page = Page(report_page.figure_page(data, "results/paper/overview.png"))
    img = page.all("img")[0]
    assert (img[1]["width"], img[1]["height"], img[1]["class"]) == ("7", "3", "actual")
    assert base64.b64decode(img[1]["src"].removeprefix("data:image/png;base64,")) == data
    assert "7 x 3 pixels" in page.all("p")[0][2]
    assert page.all("button")[0][2] == "Fit to window"
    with pytest.raises(InputError, match="not a PNG image"):
        report_page.figure_page(b"GIF89a", "x.png")


def test_write_page_is_deterministic_and_the_command_line_reports_errors(tmp_path):
    source = tmp_path / "results" / "t.tsv"
    source.parent.mkdir()
    source.write_text(TSV)
    first, second = tmp_path / "report" / "a.html", tmp_path / "b.html"
    report_page.write_page(source, first, "results/t.tsv")
    assert report_page.main([str(source), str(second), "--name", "results/t.tsv"]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert not list(tmp_path.glob("report/.*.part"))
    bad = tmp_path / "t.csv"
    bad.write_text("a,b\n")
    result = subprocess.run([sys.executable, "-m", "mtmeta.paper.report_page", str(bad), str(tmp_path / "c.html")],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "no report page for this kind of file" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "c.html").exists()


def test_the_page_module_starts_without_pandas():
    """Each page is a job of its own: the module must not pull in pandas (a second per job)."""
    code = "import sys, mtmeta.paper.report_page; print('pandas' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


def test_a_page_too_long_for_a_data_url_is_written_as_a_compressed_loader(tmp_path):
    """Snakemake embeds a page as a base64 data: URL and Chromium opens none over 2 MiB: the study's
    1,311-row system-level table (a 1.9 MB page) showed as an empty frame. A table page above the
    threshold is gzip + base64 in the page, unpacked by the browser; the same bytes on every run."""
    import gzip
    import re

    rows = "".join(f"wmt12\ten-cs\tmetric-{k}\t{k / 7:.17f}\tBLEU|nrefs:1|case:mixed|tok:13a|order:4\n"
                   for k in range(12_000))
    source = tmp_path / "big.tsv"
    source.write_text("dataset\tlp\tmetric\tpearson\tsignature\n" + rows)
    plain = report_page.tsv_page(source.read_bytes(), "results/big.tsv")
    assert len(plain) > report_page.COMPRESS_ABOVE and len(plain) * 4 / 3 > 2 * 1024 * 1024
    page = report_page.render(source.read_bytes(), "results/big.tsv")
    packed = re.search(r'<script id="page" type="application/octet-stream">([A-Za-z0-9+/=]*)</script>', page)
    assert packed and "DecompressionStream" in page and len(page) * 4 / 3 < 2 * 1024 * 1024 / 4
    assert gzip.decompress(base64.b64decode(packed.group(1))).decode("utf-8") == plain
    assert report_page.render(source.read_bytes(), "results/big.tsv") == page  # deterministic
    # A small table stays a plain page; so does a figure's page, which gzip cannot make smaller.
    small = report_page.render(b"a\tb\n1\t2\n", "results/small.tsv")
    assert "DecompressionStream" not in small and "<table>" in small


def test_the_landing_text_carries_the_style_that_keeps_it_beside_the_menu():
    # Snakemake renders the workflow description with docutils (raw HTML allowed) after Jinja.
    import jinja2
    from docutils.core import publish_parts

    repo = Path(__file__).resolve().parents[3]
    text = jinja2.Environment().from_string((repo / "workflow/report/workflow.rst").read_text()).render()
    body = publish_parts(text, writer_name="html")["html_body"]
    style = body[body.index("<style>"):body.index("</style>")]
    assert "#app > div > nav + div > * { margin: auto; }" in style
    assert "flex: none; width: min(32rem, 40vw);" in style
    assert "System Message" not in body
