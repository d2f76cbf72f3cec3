"""The scorecard and the condition comparison of any run, by its item family."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from duplexbench.cli._action_table import print_action_scorecard
from duplexbench.cli._compare_table import print_action_comparison, print_comparison
from duplexbench.cli._workflow_table import print_scorecard
from duplexbench.scoring import ActionRunSummary, RunSummary

Printer = Callable[[dict[str, Any]], None]
_COMPARISONS: dict[str, Printer] = {
    "workflow": print_comparison,
    "action": print_action_comparison,
}


def family_of(summary: dict[str, Any]) -> str:
    """The item family a run summary is of (summaries written before it was recorded:
    workflow)."""
    return str(summary.get("family") or "workflow")


def print_summary(summary: RunSummary) -> None:
    if isinstance(summary, ActionRunSummary):
        print_action_scorecard(summary)
    else:
        print_scorecard(summary)


def print_comparison_of(report: dict[str, Any]) -> None:
    """The comparison block of a multi-condition report (`comparison.json`)."""
    first = next(iter(report["conditions"].values()))
    _COMPARISONS[family_of(first)](report["comparison"])
