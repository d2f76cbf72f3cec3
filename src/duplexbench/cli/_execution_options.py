"""The execution options shared by `run` and `campaign run` (backend, workers, resume, ...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from duplexbench.campaign import ExecutionOptions
from duplexbench.orchestrator import DEFAULT_STALL_S

F = TypeVar("F", bound=Callable[..., Any])


def execution_options(func: F) -> F:
    """Add --resume, --workers, --backend, --ray-address, --retries, --backoff, --stall-timeout."""
    options = [
        click.option(
            "--resume",
            is_flag=True,
            help="Continue the run directory made by the same command: complete episodes "
            "are kept, incomplete ones (e.g. after a crash or kill) are run again.",
        ),
        click.option(
            "--workers",
            default=1,
            show_default=True,
            type=click.IntRange(1, 512),
            help="Episodes run at once. local: 1 runs them in this process, N in a pool of "
            "N processes; ray: N tasks in flight, and 1 (the default) means one per cluster CPU.",
        ),
        click.option(
            "--backend",
            type=click.Choice(["local", "ray"]),
            default="local",
            show_default=True,
            help="Where episodes run: local processes, or Ray tasks (duplexbench[ray]).",
        ),
        click.option(
            "--ray-address",
            help="Ray cluster address (ray://host:10001 or auto); default: a local Ray.",
        ),
        click.option(
            "--retries",
            default=0,
            show_default=True,
            type=click.IntRange(0, 20),
            help="Re-run an episode that ended in an error (agent or connection failure) this "
            "many times, with exponential backoff; still failing: counted as an error.",
        ),
        click.option(
            "--backoff",
            "backoff_s",
            default=1.0,
            show_default=True,
            type=click.FloatRange(0.0, 600.0),
            help="Seconds before the first retry (doubled each time).",
        ),
        click.option(
            "--stall-timeout",
            "stall_s",
            default=DEFAULT_STALL_S,
            show_default=True,
            type=click.FloatRange(0.0, 86_400.0, min_open=True),
            help="Wall seconds an episode may go without progress (a frame or turn done, "
            "an agent call returned) before it is stopped as an error (then retried).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def execution_from(kw: dict[str, Any], limits: dict[str, int] | None = None) -> ExecutionOptions:
    """Pop the execution options out of a command's keyword arguments."""
    return ExecutionOptions(
        backend=kw.pop("backend"),
        workers=kw.pop("workers"),
        ray_address=kw.pop("ray_address"),
        retries=kw.pop("retries"),
        backoff_s=kw.pop("backoff_s"),
        limits=limits or {},
        resume=kw.pop("resume"),
        stall_s=kw.pop("stall_s"),
    )
