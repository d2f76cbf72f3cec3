"""The human-readable scorecard of a workflow run, from its typed summary, and the
"Why fields were wrong" tables (failure attribution, docs/metrics.md)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from duplexbench.cli._common import PANEL_ROWS, panel_value, print_error_reasons
from duplexbench.cli._trust import print_trust_warnings, title_label
from duplexbench.report import interval, percent
from duplexbench.scoring import CAUSES, Attribution, UnsupportedValues, WorkflowRunSummary

SIMULATOR_NOTE = (
    "asked_not_understood (a validity figure) is an upper bound on the simulated caller's "
    "share: docs/metrics.md, Failure attribution"
)


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value / 1000:.2f} s"


def unsupported_cells(block: UnsupportedValues) -> tuple[str, str, str]:
    """The unsupported-value row (docs/metrics.md): rate and CI, or why there is none."""
    label = "unsupported values"
    n = f"{block.unsupported} of {block.correct}"
    if block.exempt:
        return label, f"exempt ({block.exempt})", n
    return label, percent(block.rate), f"{interval(block.ci95)} {n}".strip()


def _extra_rows(table: Table, summary: WorkflowRunSummary) -> None:
    wf = summary.workflows
    timing = wf.timing
    table.add_row(
        "median time to resolution",
        _ms(timing.median_time_to_resolution_ms),
        f"n = {timing.resolved_runs}",
    )
    cu = wf.correction_uptake
    if cu.corrected_fields:
        table.add_row(
            "AFA corrected / other fields",
            f"{percent(cu.afa_corrected_fields)} / {percent(cu.afa_other_fields)}",
            f"n = {cu.corrected_fields} / {cu.other_fields}",
        )
    floor = summary.floor
    if floor:
        table.add_row(
            "yield rate on barge-ins", percent(floor.yield_rate), f"n = {floor.barge_ins}"
        )
        table.add_row(
            "ended naturally (not a yield)",
            percent(floor.ended_naturally_rate),
            f"{floor.ended_naturally} of {floor.barge_ins}",
        )
        stop = floor.median_stop_latency_ms
        table.add_row("median stop latency", "n/a" if stop is None else f"{stop:.0f} ms", "")
        table.add_row(
            "unintended overlap rate",
            percent(floor.unintended_overlap_rate),
            f"n = {floor.agent_turns} turns",
        )
    repairs = summary.repairs
    if repairs and repairs.episodes_with_repairs:
        kinds = ", ".join(f"{k} {n}" for k, n in repairs.kinds.items())
        table.add_row(
            "repair turns per episode",
            f"{repairs.turns_per_episode:.2f}",
            f"{repairs.episodes_with_repairs} of {repairs.episodes} episodes; {kinds}",
        )
        table.add_row(
            "time in repairs per episode",
            f"{repairs.seconds_per_episode:.1f} s",
            f"{percent(repairs.share_of_call_time)} of call time",
        )
    if summary.interaction:
        panel = summary.interaction.model_dump()
        for key, label in PANEL_ROWS:
            table.add_row(label, panel_value(key, panel[key]), f"n = {panel[key]['count']}")


def attribution_cells(block: dict[str, Any] | None, cause: str) -> str:
    """One cause of one run: "count (share)", "–" for misheard on a text run."""
    if block is None:
        return "not recorded"
    if cause not in block["counts"]:
        return "– (audio only)"
    return f"{block['counts'][cause]} ({percent(block['shares'][cause])})"


def attribution_table(runs: list[tuple[str, dict[str, Any] | None]]) -> Table:
    """Why fields were wrong, runs side by side: (run label, `attribution` block or
    None when not recorded). The report's `workflow.attribution` rows give them."""
    table = Table(title=Text("Why fields were wrong"), title_justify="left")
    table.add_column("cause")
    for label, _ in runs:
        table.add_column(Text(label), justify="right", overflow="fold")
    for cause in CAUSES:
        table.add_row(cause, *(attribution_cells(b, cause) for _, b in runs))
    wrong = [str(b["wrong_fields"]) if b else "not recorded" for _, b in runs]
    table.add_row("wrong fields", *wrong)
    return table


def print_attribution(block: Attribution | None) -> None:
    """The scorecard's "Why fields were wrong" table (cause, count, share)."""
    if block is None:
        Console().print(
            "why fields were wrong: not recorded (scored before failure attribution; "
            "`duplexbench score` re-scores the traces)"
        )
        return
    table = Table(title="Why fields were wrong", title_justify="left")
    table.add_column("cause")
    table.add_column("count", justify="right")
    table.add_column("share", justify="right")
    for cause in CAUSES:
        if cause in block.counts:
            table.add_row(cause, str(block.counts[cause]), percent(block.shares[cause]))
        else:
            table.add_row(cause, "–", "audio only")
    table.add_row("wrong fields", str(block.wrong_fields), "")
    Console().print(table)
    Console().print(SIMULATOR_NOTE, style="dim", highlight=False)


def print_scorecard(summary: WorkflowRunSummary) -> None:
    """The human-readable scorecard of one workflow summary."""
    wf = summary.workflows
    title = f"{summary.suite} · {summary.agent} · {summary.condition}{title_label(summary)}"
    table = Table(title=title, title_justify="left")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% CI (item bootstrap)", justify="right")
    k, ci = wf.k, wf.ci95
    table.add_row("Pass@1 (Workflow Success)", percent(wf.pass_at_1), interval(ci.pass_at_1))
    table.add_row(f"Pass@{k}", percent(wf.pass_at_k), interval(ci.pass_at_k))
    table.add_row(f"Reliable@{k}", percent(wf.reliable_at_k), interval(ci.reliable_at_k))
    afa_note = "" if summary.judge else " (deterministic)"
    table.add_row(f"AFA{afa_note}", percent(wf.afa), interval(ci.afa))
    if summary.judge:
        table.add_row("AFA deterministic-only", percent(wf.afa_deterministic), "")
    table.add_row(*unsupported_cells(wf.unsupported_values))
    for gate in ("TS", "PV", "AC", "AV"):
        table.add_row(f"gate {gate}", percent(wf.gates.get(gate)), "")
    eff = wf.tool_efficiency
    table.add_row("tool calls / oracle", "n/a" if eff is None else f"{eff:.2f}", "")
    _extra_rows(table, summary)
    table.add_row("items × runs", f"{wf.items} × {k} = {wf.runs} valid", "")
    table.add_row("agent errors (scored as failures)", str(summary.agent_errors), "")
    table.add_row("harness errors (left out)", str(summary.errors), "")
    Console().print(table)
    if wf.fields_graded:
        print_attribution(wf.attribution)
    print_error_reasons(summary)
    print_trust_warnings(summary)
