"""The report as one self-contained HTML file (`duplexbench report --html`).

`report_page.py` assembles the page (`render_html`, `write_html`, the `CSP`);
`parts.py` holds its escaped building blocks, `workflow_sections.py` and
`action_sections.py` its sections, `charts.py` the inline SVG charts.
"""

from duplexbench.report._html.report_page import CSP, render_html, write_html

__all__ = ["CSP", "render_html", "write_html"]
