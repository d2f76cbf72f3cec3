"""The human-readable scorecard of an action run."""

from __future__ import annotations

from rich.console import Console, JustifyMethod
from rich.table import Table

from duplexbench.cli._common import print_error_reasons
from duplexbench.cli._trust import print_trust_warnings, title_label
from duplexbench.report import percent
from duplexbench.scoring import ActionRates, ActionRunSummary


def _timing(rates: ActionRates) -> str:
    for t, label in (
        (rates.yield_latency_ms, "yield"),
        (rates.recovery_latency_ms, "recovery"),
        (rates.interruption_timing_difference_ms, "vs target"),
    ):
        if t and t.n and t.median is not None and t.q1 is not None and t.q3 is not None:
            return f"{label} {t.median:.0f} ms ({t.q1:.0f}–{t.q3:.0f}, n={t.n})"
    return ""


def print_action_scorecard(summary: ActionRunSummary) -> None:
    block = summary.actions
    title = f"{summary.suite} · {summary.agent} · {summary.condition}{title_label(summary)}"
    table = Table(title=title, title_justify="left")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("action", "left"),
        ("I (immediate)", "right"),
        ("n", "right"),
        ("S (follow-through, offline)", "right"),
        ("n_S", "right"),
        ("S (judge)", "right"),
        ("timing median (IQR, n)", "left"),
    )
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for action, a in block.per_action.items():
        table.add_row(
            action,
            percent(a.immediate),
            str(a.n),
            percent(a.subsequent),
            str(a.n_s),
            "–" if a.n_s_judge is None else percent(a.subsequent_judge),
            _timing(a),
        )
    Console().print(table)
    notes = (
        f"episodes {summary.episodes}, agent errors (failed) {summary.agent_errors}, "
        f"harness errors (left out) {summary.errors}, "
        f"cues forced {block.cues_forced}, agent words from ASR in {block.asr_transcribed}"
    )
    Console().print(notes)
    print_error_reasons(summary)
    print_trust_warnings(summary)
    Console().print(
        "S offline = rule (stop) or transparent heuristics (the rest); judge S only with "
        "--judge-model. Per condition and scenario: summary.json."
    )
