"""The human-readable scorecard of an action run."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from duplexbench.cli._common import _pct, print_error_reasons
from duplexbench.cli.trust import print_trust_warnings, title_label


def _timing(block: dict[str, Any]) -> str:
    for key, label in (
        ("yield_latency_ms", "yield"),
        ("recovery_latency_ms", "recovery"),
        ("interruption_timing_difference_ms", "vs target"),
    ):
        t = block.get(key)
        if t and t.get("n"):
            return f"{label} {t['median']:.0f} ms ({t['q1']:.0f}–{t['q3']:.0f}, n={t['n']})"
    return ""


def print_action_scorecard(summary: dict[str, Any]) -> None:
    block = summary["actions"]
    title = f"{summary['suite']} · {summary['agent']} · {summary['condition']}"
    title += title_label(summary)
    table = Table(title=title, title_justify="left")
    for name, justify in (
        ("action", "left"),
        ("I (immediate)", "right"),
        ("n", "right"),
        ("S (follow-through, offline)", "right"),
        ("n_S", "right"),
        ("S (judge)", "right"),
        ("timing median (IQR, n)", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for action, a in block["per_action"].items():
        table.add_row(
            action,
            _pct(a.get("immediate")),
            str(a.get("n", 0)),
            _pct(a.get("subsequent")),
            str(a.get("n_s", 0)),
            _pct(a["subsequent_judge"]) if "subsequent_judge" in a else "–",
            _timing(a),
        )
    Console().print(table)
    notes = (
        f"episodes {summary['episodes']}, agent errors (failed) {summary.get('agent_errors', 0)}, "
        f"harness errors (left out) {summary['errors']}, "
        f"cues forced {block['cues_forced']}, agent words from ASR in {block['asr_transcribed']}"
    )
    Console().print(notes)
    print_error_reasons(summary)
    print_trust_warnings(summary)
    Console().print(
        "S offline = rule (stop) or transparent heuristics (the rest); judge S only with "
        "--judge-model. Per condition and scenario: summary.json."
    )
