"""The scorecard's unsupported-value row: a rate with its interval, or why there is none."""

from __future__ import annotations

import pytest

from duplexbench.cli._workflow_table import print_scorecard, unsupported_cells
from duplexbench.scoring._summary import build_summary
from duplexbench.scoring.summary_models import (
    UnsupportedValues,
    WorkflowRunSummary,
    parse_summary,
)


def _summary(exempt: str | None) -> WorkflowRunSummary:
    built = build_summary(
        [],
        suite="s",
        agent="a",
        condition="text",
        repeats=1,
        seed=0,
        judge=None,
        provenance_exempt=exempt,
    )
    items = {"status": "not checked", "edited": {}, "unverified": []}
    trust = {"privileged": False, "items": items, "judge": None, "warnings": []}
    summary = parse_summary({**built, "privileged": False, "trust": trust})
    assert isinstance(summary, WorkflowRunSummary)
    return summary


def test_an_exempt_run_says_so_instead_of_a_rate(capsys: pytest.CaptureFixture[str]) -> None:
    print_scorecard(_summary("oracle"))
    out = capsys.readouterr().out
    assert "unsupported values" in out and "exempt (oracle)" in out


def test_a_rate_is_shown_with_its_interval_and_counts() -> None:
    block = UnsupportedValues(
        rate=0.1, ci95=[0.0, 0.25], unsupported=2, correct=20, exempt=None, label=None
    )
    assert unsupported_cells(block) == ("unsupported values", "10.0%", "[0.0, 25.0] 2 of 20")
