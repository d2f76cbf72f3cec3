"""Reports over run directories: read-only views of what runs recorded.

`analysis.py` (`duplexbench report`): the tables, intervals and slices over one or
more run directories; `html/` (`report --html`): that report as one HTML file;
`viewer/` (`duplexbench view`): one episode folder as a static HTML page;
`numbers.py`: how every rate and interval is written.

The names below load on first use, so a command that formats one number does not
import the HTML report with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from duplexbench.report.analysis import analyze
    from duplexbench.report.html import render_html, write_html
    from duplexbench.report.numbers import interval, percent
    from duplexbench.report.viewer import ViewerError, write_viewer

_WHERE = {
    "ViewerError": "viewer",
    "analyze": "analysis",
    "interval": "numbers",
    "percent": "numbers",
    "render_html": "html",
    "write_html": "html",
    "write_viewer": "viewer",
}

__all__ = [
    "ViewerError",
    "analyze",
    "interval",
    "percent",
    "render_html",
    "write_html",
    "write_viewer",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
