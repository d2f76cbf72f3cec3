"""Built-in suites: the packaged suites, their generators, quality checks and importers.

`_package.py`: what suites ship and how a suite name or folder is resolved;
`workflows/` and `actions/`: the generators; `_quality/`: the checks behind
`suite validate` (every generated or imported item passes them); `_prerender.py`:
`suite build`; `_apex_voice/`: the APEX-Voice importer; `_stats.py`,
`_action_stats.py`: `suite stats`; `observer_*`: the act observer's corpus and
`observer-eval`.

The names below load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from duplexbench.suites._action_stats import action_stats
    from duplexbench.suites._apex_voice import REPORT_NAME, ApexImportError, import_apex
    from duplexbench.suites._observer_corpus import ACT_KINDS, CORPUS, SPLITS, load_corpus
    from duplexbench.suites._observer_eval import Tally, evaluate
    from duplexbench.suites._package import (
        DATA,
        DEFAULT_SUITE,
        item_yaml,
        packaged_suites,
        resolve_suite,
        write_suite,
    )
    from duplexbench.suites._prerender import build_suite
    from duplexbench.suites._private import (
        GeneratedInvalid,
        PrivateSuite,
        PrivateSuiteError,
        generate_actions,
        generate_workflows,
    )
    from duplexbench.suites._quality.qa import CHECKS, QualityReport, quality_report
    from duplexbench.suites._stats import suite_stats

_WHERE = {
    "GeneratedInvalid": "_private",
    "PrivateSuite": "_private",
    "PrivateSuiteError": "_private",
    "generate_actions": "_private",
    "generate_workflows": "_private",
    "ACT_KINDS": "_observer_corpus",
    "ApexImportError": "_apex_voice",
    "CHECKS": "_quality.qa",
    "CORPUS": "_observer_corpus",
    "DATA": "_package",
    "QualityReport": "_quality.qa",
    "REPORT_NAME": "_apex_voice",
    "SPLITS": "_observer_corpus",
    "Tally": "_observer_eval",
    "action_stats": "_action_stats",
    "evaluate": "_observer_eval",
    "item_yaml": "_package",
    "load_corpus": "_observer_corpus",
    "packaged_suites": "_package",
    "DEFAULT_SUITE": "_package",
    "build_suite": "_prerender",
    "import_apex": "_apex_voice",
    "quality_report": "_quality.qa",
    "resolve_suite": "_package",
    "suite_stats": "_stats",
    "write_suite": "_package",
}

__all__ = [
    "ACT_KINDS",
    "CHECKS",
    "CORPUS",
    "DATA",
    "DEFAULT_SUITE",
    "REPORT_NAME",
    "SPLITS",
    "ApexImportError",
    "GeneratedInvalid",
    "PrivateSuite",
    "PrivateSuiteError",
    "QualityReport",
    "Tally",
    "action_stats",
    "build_suite",
    "evaluate",
    "generate_actions",
    "generate_workflows",
    "import_apex",
    "item_yaml",
    "load_corpus",
    "packaged_suites",
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
