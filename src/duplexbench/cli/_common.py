"""Shared CLI pieces: judge options, JSON output, error reporting, the scorecard."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from duplexbench.campaign.rundir import RunDirError
from duplexbench.campaign.spec import JudgeConfig
from duplexbench.cli.trust import print_trust_warnings, title_label
from duplexbench.items.errors import ItemError
from duplexbench.speech.tts import SpeechUnavailable

F = TypeVar("F", bound=Callable[..., Any])
err_console = Console(stderr=True)


def judge_options(func: F) -> F:
    """Add --judge-model / --judge-base-url / --judge-cache."""
    func = click.option(
        "--judge-cache",
        type=click.Path(dir_okay=False),
        help="Verdict cache (JSONL). Default: RUN_DIR/judge-cache.jsonl.",
    )(func)
    func = click.option(
        "--judge-base-url",
        help="OpenAI-compatible endpoint for the field judge. Without it only the cache answers.",
    )(func)
    func = click.option(
        "--judge-model",
        help="Judge model name; enables the second grading tier (judge-assisted AFA).",
    )(func)
    return func


def judge_config(model: str | None, base_url: str | None, cache: str | None) -> JudgeConfig | None:
    if model is None:
        if base_url or cache:
            raise click.UsageError("--judge-base-url/--judge-cache need --judge-model")
        return None
    return JudgeConfig(model=model, base_url=base_url, cache=cache)


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def fail(message: str, code: int = 2) -> NoReturn:
    """Print an error (no traceback) and exit."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    sys.exit(code)


@contextmanager
def run_failures() -> Iterator[None]:
    """`fail` (no traceback) on what a run refuses: an invalid suite, a run directory
    that cannot be used or written, bad options, a missing speech engine."""
    try:
        yield
    except ItemError as exc:
        fail(f"invalid suite ({len(exc.problems)} problem(s)):\n{exc}")
    except (RunDirError, ValueError, SpeechUnavailable) as exc:
        fail(str(exc))


def _pct(value: Any) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _ci(summary: dict[str, Any], key: str) -> str:
    ci = summary["workflows"]["ci95"].get(key)
    return "" if not ci else f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _ms(value: Any) -> str:
    return "n/a" if value is None else f"{value / 1000:.2f} s"


def _extra_rows(table: Table, summary: dict[str, Any]) -> None:
    wf = summary["workflows"]
    timing = wf["timing"]
    table.add_row(
        "median time to resolution",
        _ms(timing["median_time_to_resolution_ms"]),
        f"n = {timing['resolved_runs']}",
    )
    cu = wf["correction_uptake"]
    if cu["corrected_fields"]:
        table.add_row(
            "AFA corrected / other fields",
            f"{_pct(cu['afa_corrected_fields'])} / {_pct(cu['afa_other_fields'])}",
            f"n = {cu['corrected_fields']} / {cu['other_fields']}",
        )
    floor = summary.get("floor")
    if floor:
        table.add_row(
            "yield rate on barge-ins", _pct(floor["yield_rate"]), f"n = {floor['barge_ins']}"
        )
        if "ended_naturally_rate" in floor:  # summaries written before it lack it
            table.add_row(
                "ended naturally (not a yield)",
                _pct(floor["ended_naturally_rate"]),
                f"{floor['ended_naturally']} of {floor['barge_ins']}",
            )
        stop = floor["median_stop_latency_ms"]
        table.add_row("median stop latency", "n/a" if stop is None else f"{stop:.0f} ms", "")
        table.add_row(
            "unintended overlap rate",
            _pct(floor["unintended_overlap_rate"]),
            f"n = {floor['agent_turns']} turns",
        )
    interaction = summary.get("interaction")
    if interaction:
        for key, label in PANEL_ROWS:
            table.add_row(
                label, panel_value(key, interaction[key]), f"n = {interaction[key]['count']}"
            )


PANEL_ROWS = (
    ("response_latency", "τ-Voice response latency L_R"),
    ("response_rate", "τ-Voice response rate R_R"),
    ("yield_latency", "τ-Voice yield latency L_Y"),
    ("yield_rate", "τ-Voice yield rate R_Y"),
    ("agent_interruption_rate", "τ-Voice agent interruptions I_A"),
    ("selectivity_backchannel", "selectivity S_BC"),
    ("selectivity_vocal_tic", "selectivity S_VT"),
    ("selectivity_non_directed", "selectivity S_ND"),
)


def panel_value(key: str, entry: dict[str, Any]) -> str:
    """One τ-Voice panel entry: seconds for latencies, a share for rates, or why not."""
    if entry["insufficient"]:
        return "insufficient (< 10)"
    value = entry["value"]
    if key.endswith("latency"):
        return f"{value:.2f} s"
    return f"{value:.2f}" if key == "agent_interruption_rate" else _pct(value)


def unsupported_cells(block: dict[str, Any] | None) -> tuple[str, str, str]:
    """The unsupported-value row (docs/metrics.md): rate and CI, or why there is none."""
    label = "unsupported values"
    if not block:
        return label, "n/a", "not recorded"
    n = f"{block['unsupported']} of {block['correct']}"
    if block.get("exempt"):
        return label, f"exempt ({block['exempt']})", n
    ci = block.get("ci95")
    interval = f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""
    return label, _pct(block.get("rate")), f"{interval} {n}".strip()


def print_scorecard(summary: dict[str, Any]) -> None:
    """The human-readable scorecard of one summary."""
    wf = summary["workflows"]
    title = f"{summary['suite']} · {summary['agent']} · {summary['condition']}"
    title += title_label(summary)
    table = Table(title=title, title_justify="left")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% CI (item bootstrap)", justify="right")
    k = wf["k"]
    table.add_row("Pass@1 (Workflow Success)", _pct(wf["pass_at_1"]), _ci(summary, "pass_at_1"))
    table.add_row(f"Pass@{k}", _pct(wf["pass_at_k"]), _ci(summary, "pass_at_k"))
    table.add_row(f"Reliable@{k}", _pct(wf["reliable_at_k"]), _ci(summary, "reliable_at_k"))
    afa_note = "" if summary["judge"] else " (deterministic)"
    table.add_row(f"AFA{afa_note}", _pct(wf["afa"]), _ci(summary, "afa"))
    if summary["judge"]:
        table.add_row("AFA deterministic-only", _pct(wf["afa_deterministic"]), "")
    table.add_row(*unsupported_cells(wf.get("unsupported_values")))
    for gate in ("TS", "PV", "AC", "AV"):
        table.add_row(f"gate {gate}", _pct(wf["gates"][gate]), "")
    eff = wf["tool_efficiency"]
    table.add_row("tool calls / oracle", "n/a" if eff is None else f"{eff:.2f}", "")
    _extra_rows(table, summary)
    table.add_row("items × runs", f"{wf['items']} × {k} = {wf['runs']} valid", "")
    table.add_row("agent errors (scored as failures)", str(summary.get("agent_errors", 0)), "")
    table.add_row("harness errors (left out)", str(summary["errors"]), "")
    Console().print(table)
    print_error_reasons(summary)
    print_trust_warnings(summary)


MAX_REASONS_SHOWN = 5


def print_error_reasons(summary: dict[str, Any]) -> None:
    """The distinct reasons of the error episodes (the first few; all in summary.json):
    agent errors (failed episodes), harness errors (left out), and whether the run is
    incomplete (harness errors left: docs/metrics.md, "Errors")."""
    console = Console(highlight=False)
    for key, label in (("agent_error_reasons", "agent error"), ("error_reasons", "error")):
        reasons: list[str] = summary.get(key) or []
        for reason in reasons[:MAX_REASONS_SHOWN]:
            console.print(f"{label}: {reason}", markup=False, soft_wrap=True)
        if len(reasons) > MAX_REASONS_SHOWN:
            console.print(f"... {len(reasons) - MAX_REASONS_SHOWN} more reasons in summary.json")
    if summary.get("complete") is False:
        console.print(
            f"INCOMPLETE: {summary['errors']} episode(s) left out by harness errors; "
            "the rates cover the rest",
            markup=False,
            soft_wrap=True,
        )
