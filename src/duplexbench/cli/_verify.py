"""`duplexbench verify PATH...`: re-run a sample of each run's episodes and compare."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from duplexbench.campaign import RunCheck, RunDirError, verify_run
from duplexbench.cli._common import err_console, fail, print_json
from duplexbench.report import find_run_dirs


@click.command("verify")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--sample",
    type=click.FloatRange(0, 1, min_open=True),
    default=0.1,
    show_default=True,
    help="Fraction of each run's items to re-run (every repetition of each; at least one item).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sample.")
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
def verify_command(
    *, paths: tuple[Path, ...], sample: float, seed: int, workers: int, as_json: bool
) -> None:
    """Re-run a sample of each run's episodes and compare them with the saved ones.

    PATHS are run directories, or folders searched for them. Each sampled item
    is played again from the run's item snapshot with the run's agent spec,
    condition and seeds. A local agent must reproduce its traces event for
    event (wall-clock times excepted), and the first difference is named; a
    network agent's scores are compared (WS and AFA; action items: immediate
    execution and follow-through). Runs that cannot be re-run (a privileged
    agent, a plug-in not installed here, redacted secrets, a human caller) say
    why, and the rest are still verified. This is the answer to a trace forged
    consistently (docs/security.md, "Verifying a run").

    Exit status 0 when every re-run episode matched, 1 when any did not (or no
    run could be re-run), 2 on a usage error.
    """
    found, problems = find_run_dirs(list(paths))
    for problem in problems:
        err_console.print(f"[yellow]warning:[/] {escape(problem)}", highlight=False)
    if not found:
        fail(f"no run directory (a folder with campaign.json) at {', '.join(map(str, paths))}")
    checks: list[RunCheck] = []
    for run_dir in found:
        if not as_json:
            err_console.print(f"verifying {escape(str(run_dir))} ...", highlight=False)
        try:
            checks.append(verify_run(run_dir, sample, seed, workers))
        except (RunDirError, ValueError) as exc:
            fail(f"{run_dir}: {exc}")
    if as_json:
        print_json([c.model_dump(mode="json") for c in checks])
    else:
        _print(checks)
    ran = [c for c in checks if c.mode is not None]
    raise SystemExit(0 if ran and all(c.verified for c in ran) else 1)


def _print(checks: list[RunCheck]) -> None:
    console = Console(highlight=False)
    table = Table(title="verify: re-run episodes against the saved ones", title_justify="left")
    for column in ("run", "agent", "compared", "episodes", "agree", "verdict"):
        table.add_column(column)
    for c in checks:
        if c.mode is None:
            table.add_row(c.run, c.agent, "-", "0", "-", "not re-run (below)")
            continue
        verdict = "verified" if c.verified else "DIFFERENT"
        compared = "traces" if c.mode == "trace" else "scores"
        table.add_row(c.run, c.agent, compared, str(len(c.episodes)), str(c.agree), verdict)
    console.print(table)
    for c in checks:
        if c.cannot_rerun:
            console.print(f"{c.run}: not re-run: {c.cannot_rerun}", markup=False, soft_wrap=True)
        for e in c.episodes:
            if (e.identical is False) or not e.scores_agree:
                line = f"{c.run}/{e.path}: {e.difference or 'scores differ'}"
                console.print(line, markup=False, soft_wrap=True)
                if not e.scores_agree:
                    console.print(
                        f"  saved {e.saved} / re-run {e.rerun}", markup=False, soft_wrap=True
                    )
