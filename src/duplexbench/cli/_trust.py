"""The trust labels of a summary on the scorecard (docs/security.md): a privileged
agent, edited or unverified item snapshots, judge verdicts from the cache only."""

from __future__ import annotations

from rich.console import Console

from duplexbench.campaign import invalid_labels, trust_warnings
from duplexbench.scoring import RunSummary


def left_out(errors: int, episodes: int) -> str:
    """The headline's words for episodes left out of the rates (harness errors)."""
    return f"{errors} of {episodes} episodes left out (harness errors)"


def title_label(summary: RunSummary) -> str:
    """The scorecard title's labels: each reason the run is not a valid result
    (`privileged: not a valid result`, edited items, tampered traces) and the
    episodes left out of the rates; else ``."""
    labels = invalid_labels(trust_warnings(summary))
    if summary.errors:
        labels.append(left_out(summary.errors, summary.episodes))
    return "".join(f" · {label}" for label in labels)


def print_trust_warnings(summary: RunSummary) -> None:
    """One line per trust label, after the table (nothing for a clean run)."""
    console = Console(highlight=False)
    for warning in trust_warnings(summary):
        console.print(f"warning: {warning}", markup=False, soft_wrap=True)
