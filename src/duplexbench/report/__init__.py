"""Reports over run directories: read-only views of what runs recorded.

`_analysis.py` (`duplexbench report`): the tables, intervals and slices over one or
more run directories; `_html/` (`report --html`): that report as one HTML file;
`_viewer/` (`duplexbench view`): one episode folder as a static HTML page;
`_voices_page.py` (`duplexbench voices`): every voice and caller persona measured
(real-time factor, round-trip WER), as JSON and one listening page;
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
    from duplexbench.report._load import find_run_dirs
    from duplexbench.report._numbers import interval, percent
    from duplexbench.report._viewer import ViewerError, write_viewer
    from duplexbench.report._voices_page import (
        PersonaCheck,
        VoicesReport,
        measure_voices,
        voices_page,
        write_voices_page,
    )

_WHERE = {
    "ACTION_METRIC": "_html.action_sections",
    "PersonaCheck": "_voices_page",
    "ViewerError": "_viewer",
    "VoicesReport": "_voices_page",
    "analyze": "_analysis",
    "find_run_dirs": "_load",
    "interval": "_numbers",
    "measure_voices": "_voices_page",
    "percent": "_numbers",
    "render_html": "_html",
    "voices_page": "_voices_page",
    "write_html": "_html",
    "write_viewer": "_viewer",
    "write_voices_page": "_voices_page",
}

__all__ = [
    "ACTION_METRIC",
    "PersonaCheck",
    "ViewerError",
    "VoicesReport",
    "analyze",
    "find_run_dirs",
    "interval",
    "measure_voices",
    "percent",
    "render_html",
    "voices_page",
    "write_html",
    "write_viewer",
    "write_voices_page",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
