"""Built-in suites: the packaged suites, their generators, quality checks and importers.

`package.py`: what suites ship and how a suite name or folder is resolved;
`workflows/` and `actions/`: the generators; `quality/`: the checks behind
`suite validate` (every generated or imported item passes them); `prerender.py`:
`suite build`; `apex_voice/`: the APEX-Voice importer; `stats.py`,
`action_stats.py`: `suite stats`; `observer_*`: the act observer's corpus and
`observer-eval`.

The names below load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from duplexbench.suites.apex_voice import import_apex
    from duplexbench.suites.package import DEFAULT_SUITE, resolve_suite, write_suite
    from duplexbench.suites.prerender import build_suite
    from duplexbench.suites.quality.qa import quality_report
    from duplexbench.suites.stats import suite_stats

_WHERE = {
    "DEFAULT_SUITE": "package",
    "build_suite": "prerender",
    "import_apex": "apex_voice",
    "quality_report": "quality.qa",
    "resolve_suite": "package",
    "suite_stats": "stats",
    "write_suite": "package",
}

__all__ = [
    "DEFAULT_SUITE",
    "build_suite",
    "import_apex",
    "quality_report",
    "resolve_suite",
    "suite_stats",
    "write_suite",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
