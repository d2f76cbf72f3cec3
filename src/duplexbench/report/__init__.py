"""Reports over run directories: read-only views of what runs recorded.

`_analysis.py` (`duplexbench report`): the tables, intervals and slices over one or
more run directories; `_html/` (`report --html`): that report as one HTML file;
`_viewer/` (`duplexbench view`): one episode folder as a static HTML page;
`_numbers.py`: how every rate and interval is written.

The names below load on first use, so a command that formats one number does not
import the HTML report with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from duplexbench.report._analysis import analyze
    from duplexbench.report._html import render_html, write_html
    from duplexbench.report._html.action_sections import ACTION_METRIC
    from duplexbench.report._numbers import interval, percent
    from duplexbench.report._viewer import ViewerError, write_viewer

_WHERE = {
    "ACTION_METRIC": "_html.action_sections",
    "ViewerError": "_viewer",
    "analyze": "_analysis",
    "interval": "_numbers",
    "percent": "_numbers",
    "render_html": "_html",
    "write_html": "_html",
    "write_viewer": "_viewer",
}

__all__ = [
    "ACTION_METRIC",
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
