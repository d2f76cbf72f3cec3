"""The progress bar `run` and `campaign run` share: episodes done, errors, rate, ETA."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from duplexbench.cli._common import err_console

Tick = Callable[[int, int, Any], None]
"""Called after each episode with (done, total, its score)."""


@contextmanager
def episode_bars(quiet: bool) -> Iterator[Callable[[str], Tick]]:
    """Yield a factory of bars: `bar(description)` adds one and returns its tick.

    Bars show on a terminal unless `quiet`; each counts its error episodes
    and the episodes per minute since it started.
    """
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[errors]} errors · {task.fields[rate]}/min"),
        TimeRemainingColumn(),
    )
    show = not quiet and err_console.is_terminal
    with Progress(*columns, console=err_console, disable=not show) as progress:

        def bar(description: str) -> Tick:
            task = progress.add_task(escape(description), total=None, errors=0, rate="-")
            errors = 0

            def tick(done: int, total: int, score: Any) -> None:
                nonlocal errors
                errors += score.status == "error"
                elapsed = progress.tasks[task].elapsed or 0.0
                rate = f"{60 * done / elapsed:.1f}" if elapsed > 0 else "-"
                progress.update(task, completed=done, total=total, errors=errors, rate=rate)

            return tick

        yield bar
