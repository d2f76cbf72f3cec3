"""Shared CLI pieces: judge options, JSON output, error reporting, panel cells."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console
from rich.markup import escape

from duplexbench.campaign import JudgeConfig, RunDirError
from duplexbench.items import ItemError
from duplexbench.report import percent
from duplexbench.scoring import RunSummary
from duplexbench.speech import SpeechUnavailable

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
    return f"{value:.2f}" if key == "agent_interruption_rate" else percent(value)


MAX_REASONS_SHOWN = 5


def print_error_reasons(summary: RunSummary) -> None:
    """The distinct reasons of the error episodes (the first few; all in summary.json):
    agent errors (failed episodes), harness errors (left out), and whether the run is
    incomplete (harness errors left: docs/metrics.md, "Errors")."""
    console = Console(highlight=False)
    for reasons, label in (
        (summary.agent_error_reasons, "agent error"),
        (summary.error_reasons, "error"),
    ):
        for reason in reasons[:MAX_REASONS_SHOWN]:
            console.print(f"{label}: {reason}", markup=False, soft_wrap=True)
        if len(reasons) > MAX_REASONS_SHOWN:
            console.print(f"... {len(reasons) - MAX_REASONS_SHOWN} more reasons in summary.json")
    if not summary.complete:
        console.print(
            f"INCOMPLETE: {summary.errors} episode(s) left out by harness errors; "
            "the rates cover the rest",
            markup=False,
            soft_wrap=True,
        )
