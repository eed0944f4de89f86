"""One page of the study's Snakemake report: a table (TSV or Markdown) or a figure (PNG) as one
self-contained HTML file.

Snakemake's report (9.27) shows a result by its MIME type: a PNG in an ``<img>`` scaled down to the
width of the panel (a 2,400-pixel heatmap becomes unreadable), an HTML file in a full-size frame,
and anything else, TSV and Markdown included, as a download link only. So the workflow marks these
pages for the report instead of the raw files (``workflow/rules/report.smk``): a TSV as an HTML
table (numbers rounded for reading, each one's exact value in its tooltip, a row filter, the file
itself one click away), a Markdown file rendered as GitHub renders it (CommonMark and its tables,
through markdown-it-py), a PNG at its natural size (one image pixel per CSS pixel: the figures are
drawn at 150 dpi with no text under 6 points, so every label is at least 12 pixels high) with a
button to fit it to the window. A table without rows says so in words instead of showing an empty
grid, so that an empty table is told apart from a broken page (tools/test_report.py checks both).

The page depends on the file's bytes only (no time stamp), so a rerun writes the same page. Each
page is its own small job, so this module imports neither pandas nor anything of the package that
does: ``python -m mtmeta.paper.report_page SOURCE PAGE`` starts in a tenth of a second.

Snakemake embeds each page in the report as a base64 ``data:`` URL, and Chromium opens no URL longer
than 2 MiB: a page above about 1.5 MB (the study's system-level table, 1.9 MB) showed as an empty
frame. A page above ``COMPRESS_ABOVE`` is therefore written as a small loader: the page gzip-compressed
(no time stamp: the same bytes every run) and base64-encoded, which the browser's own
DecompressionStream unpacks and writes into the frame (the 1.9 MB table becomes 0.2 MB).
"""

from __future__ import annotations

import argparse
import base64
import csv
import gzip
import html
import io
import os
import re
import struct
import sys
from pathlib import Path

from mtmeta.errors import InputError, MtmetaError, OutputError

# A cell that is a number with a fractional part or an exponent: shown rounded. Integers, names and
# anything else (a system called "nan" or "inf" included) are shown as they are.
DECIMAL = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+(?:\.\d*)?[eE][-+]?\d+)(?:[eE][-+]?\d+)?")
NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
# A Markdown table's number cell: bold (the top group) or with its group in parentheses, as the paper
# tables write them ("**0.835**", "0.945 (2)").
NUMERIC_CELL = re.compile(rf"(\*\*)?{NUMBER.pattern}\1?(?: \(\d+\))?")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FILTER_FROM_ROWS = 15  # a row filter on tables longer than this
LONG_CELL = 40  # characters: a column with a longer cell wraps (the others stay on one line)

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2933; margin: 0;
       padding: 12px 16px 40px; }
header { margin-bottom: 10px; }
h1 { font-size: 16px; margin: 0 0 4px; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
.meta { color: #52606d; margin: 0 0 6px; }
.meta a, .tools a { color: #0b6bcb; }
.tools { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
.tools input { font: inherit; padding: 3px 6px; width: 20em; border: 1px solid #9aa5b1; border-radius: 4px; }
.tools button { font: inherit; padding: 2px 10px; border: 1px solid #9aa5b1; border-radius: 4px;
                background: #f5f7fa; cursor: pointer; }
table { border-collapse: collapse; margin: 6px 0 18px; font-size: 13px; }
th, td { border: 1px solid #d9e2ec; padding: 3px 7px; vertical-align: top; text-align: left; }
th { background: #eef2f7; position: sticky; top: 0; z-index: 1; white-space: nowrap; }
td { white-space: nowrap; }
td.long { white-space: normal; overflow-wrap: break-word; }
tbody tr:nth-child(even) td { background: #f8fafc; }
tbody tr:hover td { background: #fff7d6; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.num[title] { cursor: help; }
.no-rows { padding: 8px 12px; background: #fff4e5; border: 1px solid #f0b429; border-radius: 4px;
           display: inline-block; }
.markdown h1 { font-family: inherit; font-size: 18px; margin: 14px 0 6px; }
.markdown h2 { font-size: 16px; margin: 16px 0 6px; }
.markdown p { max-width: 60em; }
figure { margin: 8px 0; }
figure img.actual { max-width: none; }
figure img.fit { max-width: 100%; height: auto; }
"""

FILTER_SCRIPT = """
const box = document.getElementById("filter"), shown = document.getElementById("shown");
const rows = Array.from(document.querySelectorAll("table tbody tr"));
box.addEventListener("input", () => {
  const terms = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
  let n = 0;
  for (const row of rows) {
    const text = row.textContent.toLowerCase();
    row.hidden = !terms.every(term => text.includes(term));
    n += row.hidden ? 0 : 1;
  }
  shown.textContent = terms.length ? `${n} of ${rows.length} rows shown` : "";
});
"""

FIGURE_SCRIPT = """
const img = document.getElementById("figure"), button = document.getElementById("size");
function toggle() {
  const fit = img.classList.toggle("fit");
  img.classList.toggle("actual", !fit);
  button.textContent = fit ? "Show at actual size" : "Fit to window";
}
button.addEventListener("click", toggle);
img.addEventListener("click", toggle);
document.getElementById("download").addEventListener("click", event => { event.currentTarget.href = img.src; });
"""


def _document(title: str, body: str, script: str = "") -> str:
    script = f"<script>{script}</script>\n" if script else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n{body}\n{script}</body>\n</html>\n"
    )


def _data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _download(data: bytes, name: str, mime: str, what: str) -> str:
    return f'<a download="{html.escape(name)}" href="{_data_uri(data, mime)}">{what}</a>'


def display_number(cell: str) -> str | None:
    """How a decimal cell is shown: 4 decimals, or 3 significant digits for magnitudes below 0.001
    (p-values); None for a cell that is not a decimal number (shown as written)."""
    if not DECIMAL.fullmatch(cell):
        return None
    value = float(cell)
    return f"{value:.4f}" if value == 0 or abs(value) >= 0.001 else f"{value:.3g}"


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError(source, f"byte {error.start} is not UTF-8", line=line, expected="a UTF-8 text file") from None


def read_tsv_rows(text: str, source: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a TSV as strings (as pandas writes it: quoted where a cell holds a tab, a quote
    or a line break). Every row must have the header's number of cells."""
    records = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t"))
    if not records or not any(records[0]):
        raise InputError(source, "no header line", line=1, expected="a tab-separated table with a header")
    header, rows = records[0], records[1:]
    for number, row in enumerate(rows, start=2):
        if len(row) != len(header):
            raise InputError(source, f"{len(row)} cells where the header has {len(header)}", line=number,
                             expected="one cell per column")
    return header, rows


def column_layout(columns: list[list[str]], is_number) -> list[tuple[str, int]]:
    """How each column is laid out, from its body cells: ("num", 0) when its filled cells are all numbers
    (``is_number``; empty and "n/a" cells are missing values), right-aligned; ("long", width) when one
    cell is longer than LONG_CELL: it wraps, at least ``width`` em wide (its longest cell in about
    four lines, 14 to 32 em), so that the table's other columns keep their cells on one line; else
    ("text", 0)."""
    layout = []
    for values in columns:
        filled = [v for v in values if v not in ("", "n/a")]
        longest = max((len(v) for v in values), default=0)
        if filled and all(is_number(v) for v in filled):
            layout.append(("num", 0))
        elif longest > LONG_CELL:
            layout.append(("long", min(32, max(14, round(longest * 0.55 / 4)))))
        else:
            layout.append(("text", 0))
    return layout


def _head_attributes(kind: str, width: int) -> str:
    return ' class="num"' if kind == "num" else f' style="min-width: {width}em"' if kind == "long" else ""


def _cell(value: str, kind: str) -> str:
    shown = display_number(value)
    if shown is None or shown == value:
        css = f' class="{kind}"' if kind != "text" else ""
        return f"<td{css}>{html.escape(value)}</td>"
    return f'<td class="num" title="{html.escape(value)}">{html.escape(shown)}</td>'


def _filter_tools(n_rows: int) -> str:
    if n_rows <= FILTER_FROM_ROWS:
        return ""
    return ('<input id="filter" type="search" placeholder="Filter rows (all words must match)" '
            'aria-label="filter rows"> <span id="shown"></span>')


def table_html(header: list[str], rows: list[list[str]]) -> str:
    layout = column_layout([list(c) for c in zip(*rows, strict=True)] if rows else [[] for _ in header],
                           NUMBER.fullmatch)
    head = "".join(f"<th{_head_attributes(*layout[i])}>{html.escape(h)}</th>" for i, h in enumerate(header))
    body = "\n".join("<tr>" + "".join(_cell(v, layout[i][0]) for i, v in enumerate(row)) + "</tr>" for row in rows)
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def tsv_page(data: bytes, name: str) -> str:
    """The page of a TSV table; ``name`` is the file as the reader knows it (results/...)."""
    header, rows = read_tsv_rows(_decode(data, name), name)
    filename = Path(name).name
    download = _download(data, filename, "text/tab-separated-values", f"download {html.escape(filename)}")
    if not rows:
        body = (f"<header><h1>{html.escape(name)}</h1></header>\n"
                f'<p class="no-rows">No rows: this table has its header only ({len(header)} columns: '
                f"{html.escape(', '.join(header))}). {download}</p>")
        return _document(name, body)
    rounded = any(display_number(v) not in (None, v) for row in rows for v in row)
    note = (" Numbers are rounded for reading (4 decimals; 3 significant digits below 0.001): hover one for "
            "its exact value, as in the file." if rounded else "")
    body = (f"<header><h1>{html.escape(name)}</h1>\n"
            f'<p class="meta">{len(rows)} rows, {len(header)} columns.{note} {download}</p>\n'
            f'<div class="tools">{_filter_tools(len(rows))}</div></header>\n{table_html(header, rows)}')
    return _document(name, body, FILTER_SCRIPT if len(rows) > FILTER_FROM_ROWS else "")


def _markdown():
    from markdown_it import MarkdownIt  # only the Markdown pages need it

    # CommonMark with GitHub's tables; raw HTML in a file is shown as text, not run.
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _mark_table(tokens: list) -> int:
    """Classes on one Markdown table's cells (tokens from table_open to table_close, changed in place):
    "num" on every cell of a column whose body cells are all numbers (bold, or with a Williams group in
    parentheses, counted), "long" on the cells of a column that wraps (column_layout). Its body rows."""
    cells, row, in_body, body_rows = [], -1, False, 0  # cells: (row, column, opening token, text)
    for i, token in enumerate(tokens):
        if token.type == "tbody_open":
            in_body = True
        elif token.type == "tr_open":
            row, column = row + 1, 0
            body_rows += in_body
        elif token.type in ("th_open", "td_open"):
            cells.append((row, column, token, tokens[i + 1].content if tokens[i + 1].type == "inline" else ""))
            column += 1
    n_columns = max((column + 1 for _, column, _, _ in cells), default=0)
    columns = [[text for row, c, _, text in cells if row > 0 and c == column] for column in range(n_columns)]
    layout = column_layout(columns, NUMERIC_CELL.fullmatch)
    for row, column, token, _ in cells:
        kind, width = layout[column]
        if kind == "num":
            token.attrSet("class", "num")
        elif kind == "long":
            if row > 0:
                token.attrSet("class", "long")
            else:  # beside markdown-it's text-align, if the column has one
                token.attrSet("style", "; ".join(filter(None, [token.attrGet("style"), f"min-width: {width}em"])))
    return body_rows


def markdown_page(data: bytes, name: str) -> str:
    """The page of a Markdown file, rendered; a table with no body rows gets a notice instead."""
    from markdown_it.token import Token

    parser = _markdown()
    tokens = parser.parse(_decode(data, name))
    marked, rows, start = [], 0, None
    for token in tokens:
        marked.append(token)
        if token.type == "table_open":
            start = len(marked) - 1
        elif token.type == "table_close":
            body_rows = _mark_table(marked[start:])
            if not body_rows:
                notice = Token("html_block", "", 0)
                notice.content = '<p class="no-rows">No rows: this table has its header only.</p>\n'
                marked.append(notice)
            rows += body_rows
    filename = Path(name).name
    n_tables = sum(t.type == "table_open" for t in tokens)
    summary = f"{n_tables} table{'s' * (n_tables != 1)}, {rows} rows. " if n_tables else ""
    body = (f"<header><h1>{html.escape(name)}</h1>\n<p class=\"meta\">{summary}"
            f"{_download(data, filename, 'text/markdown', 'download ' + html.escape(filename))}</p>\n"
            f'<div class="tools">{_filter_tools(rows)}</div></header>\n'
            f'<div class="markdown">\n{parser.renderer.render(marked, parser.options, {})}</div>')
    return _document(name, body, FILTER_SCRIPT if rows > FILTER_FROM_ROWS else "")


def png_size(data: bytes, source: str) -> tuple[int, int]:
    """Width and height in pixels, from the PNG's header."""
    if len(data) < 24 or not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise InputError(source, "not a PNG image", expected="a PNG file (signature and IHDR chunk)")
    return struct.unpack(">II", data[16:24])


def figure_page(data: bytes, name: str) -> str:
    """The page of a PNG figure at its natural size (one image pixel per CSS pixel), fit on request."""
    width, height = png_size(data, name)
    filename = Path(name).name
    body = (f"<header><h1>{html.escape(name)}</h1>\n"
            f'<p class="meta">{width} x {height} pixels, shown at actual size (scroll to see it all). '
            f'<a id="download" download="{html.escape(filename)}" href="#">download {html.escape(filename)}</a></p>\n'
            '<div class="tools"><button id="size" type="button">Fit to window</button></div></header>\n'
            f'<figure><img id="figure" class="actual" width="{width}" height="{height}" '
            f'alt="{html.escape(filename)}" src="{_data_uri(data, "image/png")}"></figure>')
    return _document(name, body, FIGURE_SCRIPT)


PAGES = {".tsv": tsv_page, ".md": markdown_page, ".png": figure_page}


# Chromium's longest URL is 2 MiB and the report's data: URL is base64 (4/3 of the page): leave room.
COMPRESS_ABOVE = 1_000_000

LOADER_SCRIPT = """(async () => {
  const packed = Uint8Array.from(atob(document.getElementById("page").textContent), c => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
  const text = await new Response(stream).text();
  document.open(); document.write(text); document.close();
})();"""


def compressed(page: str, title: str) -> str:
    """``page`` as a loader page: gzip (mtime 0) + base64 in an inert script element, and the script
    that unpacks it in the browser and replaces the document with it."""
    packed = base64.b64encode(gzip.compress(page.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n</head>\n<body>\n"
            f'<script id="page" type="application/octet-stream">{packed}</script>\n'
            f"<script>{LOADER_SCRIPT}</script>\n</body>\n</html>\n")


def render(data: bytes, name: str) -> str:
    """The page of a file, by its suffix (.tsv, .md, .png); a loader page (:func:`compressed`) for a
    page above ``COMPRESS_ABOVE`` characters that it makes smaller (tables; not a figure's page)."""
    page = PAGES.get(Path(name).suffix)
    if page is None:
        raise InputError(name, "no report page for this kind of file", expected=f"one of {', '.join(PAGES)}")
    text = page(data, name)
    if len(text) <= COMPRESS_ABOVE:
        return text
    loader = compressed(text, name)
    return loader if len(loader) < len(text) else text  # a figure's page is base64 already: no gain


def write_page(source: str | Path, page: str | Path, name: str | None = None) -> None:
    """Write the page of ``source`` to ``page`` (atomically: a temporary file renamed into place; not
    mtmeta.io's helper, which would bring pandas into this small job). ``name`` is the title (default:
    the source path as given)."""
    source, page = Path(source), Path(page)
    try:
        data = source.read_bytes()
    except OSError as error:
        raise InputError(source, f"cannot read it ({error.strerror or error})") from None
    text = render(data, name or source.as_posix())
    part = page.with_name(f".{page.name}.{os.getpid()}.part")
    try:
        page.parent.mkdir(parents=True, exist_ok=True)
        part.write_text(text, encoding="utf-8")
        os.replace(part, page)
    except OSError as error:
        part.unlink(missing_ok=True)
        raise OutputError(page, error.strerror or str(error)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mtmeta.paper.report_page", description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a .tsv, .md or .png file")
    parser.add_argument("page", help="the HTML page to write")
    parser.add_argument("--name", help="the title shown on the page (default: SOURCE as given)")
    args = parser.parse_args(argv)
    try:
        write_page(args.source, args.page, args.name)
    except MtmetaError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
