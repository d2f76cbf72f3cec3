"""Exit status for errored episodes (`--fail-on-error`; docs/metrics.md, "Errors").

- exit 4: every episode of a run errored (agent or harness errors alike):
  nothing was measured, whatever the options;
- exit 3: `--fail-on-error` and at least one episode errored (an agent error,
  scored as a failure, or a harness error left out of the rates);
- otherwise 0. The summary and run directory are written first either way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click
from rich.markup import escape

from duplexbench.cli._common import err_console
from duplexbench.scoring import RunSummary, all_errored

F = TypeVar("F", bound=Callable[..., Any])

SOME_ERRORED = 3
ALL_ERRORED = 4


def fail_on_error_option(func: F) -> F:
    return click.option(
        "--fail-on-error",
        is_flag=True,
        help="Exit with status 3 when any episode errored (agent or harness error), for CI. "
        "A run in which every episode errored exits with status 4 even without it.",
    )(func)


def errored(summary: RunSummary) -> int:
    """Episodes of one run summary that ended in an error (agent or harness)."""
    return summary.errors + summary.agent_errors


def exit_for_errors(summaries: Iterable[RunSummary], fail_on_error: bool) -> None:
    """Exit non-zero (module docstring) after the results were printed; return otherwise."""
    runs = list(summaries)
    dead = [s for s in runs if all_errored(s.episodes, s.errors, s.agent_errors)]
    if dead:
        names = ", ".join(f"{s.agent} · {s.condition}" for s in dead)
        err_console.print(
            f"[bold red]error:[/] every episode errored ({escape(names)}): nothing was measured",
            highlight=False,
            soft_wrap=True,
        )
        sys.exit(ALL_ERRORED)
    count = sum(errored(s) for s in runs)
    if fail_on_error and count:
        err_console.print(
            f"[bold red]error:[/] {count} episode(s) errored (--fail-on-error)",
            highlight=False,
            soft_wrap=True,
        )
        sys.exit(SOME_ERRORED)
