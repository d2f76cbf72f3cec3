"""The trust labels of a summary on the scorecard (docs/security.md): a privileged
agent, edited or unverified item snapshots, judge verdicts from the cache only."""

from __future__ import annotations

from rich.console import Console

from duplexbench.campaign import PRIVILEGED_LABEL, trust_warnings
from duplexbench.scoring import RunSummary


def title_label(summary: RunSummary) -> str:
    """` · privileged: not a valid result` for the scorecard's title, else ``."""
    return f" · {PRIVILEGED_LABEL}" if PRIVILEGED_LABEL in trust_warnings(summary) else ""


def print_trust_warnings(summary: RunSummary) -> None:
    """One line per trust label, after the table (nothing for a clean run)."""
    console = Console(highlight=False)
    for warning in trust_warnings(summary):
        console.print(f"warning: {warning}", markup=False, soft_wrap=True)
