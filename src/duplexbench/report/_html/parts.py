"""Building blocks of the HTML report: escaped cells, tables, links, formats.

Every text that reaches the page goes through `esc` (html.escape with
quotes): cell texts, tooltips, link labels and attribute values alike. Only
markup built here from escaped pieces is passed on as HTML (`Cell.markup`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from duplexbench.report._html.charts import esc
from duplexbench.report._numbers import interval, percent


def fmt_pct(value: Any, digits: int = 1) -> str:
    """A rate in the HTML report ("–" when there is none)."""
    return percent(value, digits, missing="–")


def fmt_ms(value: Any) -> str:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "–"
    return f"{value / 1000:.1f} s"


def fmt_num(value: Any, digits: int = 2) -> str:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "–"
    return f"{value:.{digits}f}"


def fmt_value(value: Any) -> str:
    """A gold or agent value as text: strings as they are, the rest as JSON."""
    if value is None:
        return "(empty)"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Cell:
    text: str = ""
    """Plain text (escaped when rendered)."""
    sort: float | str | None = None
    """Sort key (data-v); default: the text."""
    cls: str = ""
    markup: str | None = None
    """Trusted markup built from escaped pieces; replaces `text`."""
    title: str = ""


CellLike = Cell | str | None


def _td(cell: CellLike) -> str:
    if not isinstance(cell, Cell):
        cell = Cell("" if cell is None else cell)
    attrs = ""
    if cell.sort is not None:
        attrs += f' data-v="{esc(cell.sort)}"'
    if cell.cls:
        attrs += f' class="{esc(cell.cls)}"'
    if cell.title:
        attrs += f' title="{esc(cell.title)}"'
    body = cell.markup if cell.markup is not None else esc(cell.text)
    return f"<td{attrs}>{body}</td>"


def rate(value: Any, ci: Any = None, n: Any = None) -> Cell:
    """A rate as a percentage, with its 95% CI and/or count in small print."""
    markup = esc(fmt_pct(value))
    if interval(ci):
        markup += f'<small class="ci">{esc(interval(ci))}</small>'
    if n is not None:
        markup += f" <small>n={esc(n)}</small>"
    sort = value if isinstance(value, int | float) else -1
    return Cell(sort=sort, markup=markup, cls="num")


def num(value: Any, text: str | None = None) -> Cell:
    sort = value if isinstance(value, int | float) and not isinstance(value, bool) else -1
    return Cell(str(value if text is None else text), sort=sort, cls="num")


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[CellLike]],
    *,
    table_id: str = "",
    note: str = "",
    filterable: bool = False,
    cls: str = "",
) -> str:
    """A sortable table (click a header); `filterable` adds a search box above it."""
    if not rows:
        return '<p class="empty">nothing to show</p>'
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(_td(c) for c in row) + "</tr>" for row in rows)
    ident = f' id="{esc(table_id)}"' if table_id else ""
    box = ""
    if filterable and table_id:
        box = (
            f'<input class="filter" type="search" placeholder="filter rows…" '
            f'data-table="{esc(table_id)}" aria-label="filter table">'
        )
    caption = f'<p class="note">{esc(note)}</p>' if note else ""
    return (
        f'{caption}{box}<div class="scroll"><table class="sortable {esc(cls)}"{ident}>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def section(anchor: str, title: str, body: str, intro: str = "") -> str:
    text = f'<p class="intro">{esc(intro)}</p>' if intro else ""
    return f'<section id="{esc(anchor)}"><h2>{esc(title)}</h2>{text}{body}</section>'


def sub(title: str, body: str, intro: str = "") -> str:
    text = f'<p class="intro">{esc(intro)}</p>' if intro else ""
    return f"<h3>{esc(title)}</h3>{text}{body}"


class Links:
    """Relative links from the report file to episode folders (their `view.html`)."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir.resolve()

    def href(self, run_path: str, rel: str | None) -> str | None:
        if not rel:
            return None
        folder = Path(run_path) / rel
        view = folder / "view.html"
        target = view if view.is_file() else folder
        href = Path(os.path.relpath(target, self.out_dir)).as_posix()
        return quote(href + ("" if target is view else "/"), safe="/")

    def link(
        self, run_path: str, rel: str | None, label: str, cls: str = "", title: str = ""
    ) -> str:
        href = self.href(run_path, rel)
        attrs = f' class="{esc(cls)}"' if cls else ""
        attrs += f' title="{esc(title)}"' if title else ""
        if href is None:
            return f"<span{attrs}>{esc(label)}</span>"
        return f'<a{attrs} href="{esc(href)}">{esc(label)}</a>'


def script_json(data: Any) -> str:
    """JSON safe inside <script>: `<`, `>`, `&`, U+2028 and U+2029 as unicode escapes."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, default=str)
    for char in "&<>\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


CSS = """
:root { --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --bg: #f6f7f9; --accent: #2f5d9e; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
       color: var(--fg); background: var(--bg); }
header { background: #1f2d45; color: #fff; padding: 18px 28px; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 0; color: #c9d3e6; }
nav { background: #fff; border-bottom: 1px solid var(--line); padding: 8px 28px;
      position: sticky; top: 0; z-index: 2; }
nav a { margin-right: 16px; color: var(--accent); text-decoration: none; }
main { padding: 8px 28px 40px; max-width: 1500px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px;
          padding: 14px 18px; margin: 16px 0; }
h2 { margin: 0 0 8px; font-size: 18px; }
h3 { margin: 18px 0 6px; font-size: 15px; }
.intro, .note { color: var(--muted); margin: 4px 0 8px; }
.scroll { overflow-x: auto; max-height: 640px; overflow-y: auto; }
table { border-collapse: collapse; font-size: 13px; min-width: 40%; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left;
         vertical-align: top; }
th { background: #eef1f6; cursor: pointer; position: sticky; top: 0; max-width: 150px;
     vertical-align: bottom; overflow-wrap: break-word; }
td:first-child { min-width: 10em; max-width: 24em; overflow-wrap: anywhere; }
small.ci { display: block; }
td.links { white-space: nowrap; }
.scroll { margin-bottom: 10px; }
figure { margin: 0; }
figcaption { font-weight: 600; margin: 4px 0; color: var(--muted); }
th:hover { background: #e2e7f0; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td small, .muted { color: var(--muted); }
td.value { max-width: 320px; overflow-wrap: anywhere; font-family: ui-monospace, monospace;
           font-size: 12px; }
td.text { max-width: 320px; overflow-wrap: anywhere; }
.problems { background: #fff4e5; border-color: #f0b35a; }
.problems li { overflow-wrap: anywhere; }
.charts { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
svg.chart { background: #fff; max-width: 100%; height: auto; }
a.ok, span.ok { color: #1e7b3a; } a.fail, span.fail { color: #b3261e; }
a.err, span.err { color: #8a6d00; }
.ep { margin-right: 6px; }
input.filter { margin: 4px 0 6px; padding: 4px 8px; width: 320px; border: 1px solid var(--line);
               border-radius: 4px; }
details > summary { cursor: pointer; margin: 6px 0; font-weight: 600; }
footer { color: var(--muted); padding: 0 28px 28px; }
"""

JS = """
(function () {
  function key(td) {
    var v = td.getAttribute('data-v');
    if (v !== null && v !== '' && !isNaN(Number(v))) return Number(v);
    return (v !== null ? v : td.textContent).toLowerCase();
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.querySelectorAll('th').forEach(function (th, col) {
      th.addEventListener('click', function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var asc = th.getAttribute('data-dir') !== 'asc';
        table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('data-dir'); });
        th.setAttribute('data-dir', asc ? 'asc' : 'desc');
        rows.sort(function (a, b) {
          var x = key(a.cells[col]), y = key(b.cells[col]);
          if (x === y) return 0;
          return (x < y ? -1 : 1) * (asc ? 1 : -1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  document.querySelectorAll('input.filter').forEach(function (input) {
    input.addEventListener('input', function () {
      var table = document.getElementById(input.getAttribute('data-table'));
      var needle = input.value.toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        row.style.display = row.textContent.toLowerCase().indexOf(needle) < 0 ? 'none' : '';
      });
    });
  });
})();
"""
