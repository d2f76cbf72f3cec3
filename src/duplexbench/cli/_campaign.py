"""`duplexbench campaign run PLAN`: agents x suites x conditions x repetitions, resumable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from duplexbench.campaign import load_plan, run_plan
from duplexbench.cli._common import err_console, print_json, run_failures
from duplexbench.cli._errors import exit_for_errors, fail_on_error_option
from duplexbench.cli._execution_options import execution_from, execution_options
from duplexbench.cli._progress import episode_bars
from duplexbench.cli._trust import title_label
from duplexbench.scoring import ActionRunSummary, RunSummary, WorkflowRunSummary, parse_summary


@click.group("campaign")
def campaign_group() -> None:
    """Campaigns: several agents, suites and conditions in one resumable run."""


@campaign_group.command("run")
@click.argument("plan", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Campaign folder (runs/<suite>/<agent>/<condition>/ inside).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the campaign summary JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@fail_on_error_option
@execution_options
def campaign_run_command(
    *, plan: Path, out: Path, as_json: bool, quiet: bool, fail_on_error: bool, **kw: Any
) -> None:
    """Run every episode of PLAN (YAML: agents, suites, conditions, repetitions, seed,
    limits, retries; see docs/campaigns.md) into OUT.

    Rerunning the same command with --resume continues a campaign that was
    stopped or killed: complete episodes are kept, incomplete ones redone.
    The plan's `retries`, `backoff_s` and per-agent `limits` apply; --workers,
    --backend and --ray-address choose where episodes run. Exit status 4 when
    every episode of a run errored, 3 with --fail-on-error when any did.
    """
    execution = execution_from(kw)
    with run_failures():
        loaded = load_plan(plan)
        with episode_bars(quiet) as bar:
            summary = run_plan(loaded, out, execution, bar("episodes"), bar)
    runs = [parse_summary({k: v for k, v in r.items() if k != "run_dir"}) for r in summary["runs"]]
    if as_json:
        print_json(summary)
    else:
        _print_runs(runs)
        err_console.print(f"campaign folder: {escape(str(out))}", soft_wrap=True)
    exit_for_errors(runs, fail_on_error)


def _headline(run: RunSummary) -> list[str]:
    """Workflows: Pass@1 and AFA; actions: I and S, each the mean over the run's actions."""
    if isinstance(run, WorkflowRunSummary):
        values = [run.workflows.pass_at_1, run.workflows.afa]
    else:
        rates = run.actions.per_action.values()
        values = [_mean([a.immediate for a in rates]), _mean([a.subsequent for a in rates])]
    return ["n/a" if v is None else f"{100 * v:.1f}%" for v in values]


def _mean(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def _print_runs(runs: list[RunSummary]) -> None:
    table = Table(title="campaign", title_justify="left")
    columns = ("suite", "agent", "condition", "episodes", "agent errors", "errors")
    for col in (*columns, "Pass@1 | mean I", "AFA | mean S"):
        table.add_column(col, justify="left" if col in columns[:3] else "right")
    for run in runs:
        table.add_row(
            escape(run.suite),
            escape(run.agent + title_label(run)),
            run.condition,
            str(run.episodes),
            str(run.agent_errors),
            str(run.errors) + ("" if run.complete else " (incomplete)"),
            *_headline(run),
        )
    Console().print(table)
    if any(isinstance(run, ActionRunSummary) for run in runs):
        Console().print("action runs: I and S averaged over their actions (per action: report)")
