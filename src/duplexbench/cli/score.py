"""`duplexbench score`: re-score a run directory from its traces."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from duplexbench.campaign.action_scoring import rescore_action_run
from duplexbench.campaign.multi import is_multi_run, rescore_conditions
from duplexbench.campaign.rescore import rescore_run
from duplexbench.campaign.rundir import RunDirError, read_campaign
from duplexbench.campaign.spec import JudgeConfig
from duplexbench.cli._common import (
    err_console,
    fail,
    judge_config,
    judge_options,
    print_json,
    print_scorecard,
)
from duplexbench.cli.action_table import print_action_scorecard
from duplexbench.cli.compare_table import print_comparison


@click.command("score")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summary JSON.")
@click.option("--no-write", is_flag=True, help="Do not rewrite result.json / summary.json.")
@judge_options
def score_command(
    *,
    run_dir: Path,
    as_json: bool,
    no_write: bool,
    judge_model: str | None,
    judge_base_url: str | None,
    judge_cache: str | None,
) -> None:
    """Recompute every score of RUN_DIR from its events.jsonl files.

    RUN_DIR may also be the folder of `run --condition a,b,...`: every
    condition's run is re-scored and comparison.json rebuilt.

    Scoring is a pure function of the item snapshot, the trace and the judge
    cache, so without a new judge this reproduces the run's summary exactly.
    A corrupt or truncated trace is reported and scored as an error; the
    other episodes still score.
    """
    judge = judge_config(judge_model, judge_base_url, judge_cache)
    if is_multi_run(run_dir):
        _score_conditions(run_dir, judge, as_json, no_write)
        return
    try:
        spec = read_campaign(run_dir)
        if spec.family == "action":
            actions = rescore_action_run(run_dir, spec, judge, write=not no_write)
            for problem in actions.problems:
                err_console.print(f"[yellow]warning:[/] {escape(problem)}", soft_wrap=True)
            if as_json:
                print_json(actions.summary)
            else:
                print_action_scorecard(actions.summary)
            return
        result = rescore_run(run_dir, judge, write=not no_write)
    except RunDirError as exc:
        fail(str(exc))
        return
    for problem in result.problems:
        err_console.print(f"[yellow]warning:[/] {escape(problem)}", highlight=False, soft_wrap=True)
    if result.judge is not None:
        stats = result.judge.stats()
        err_console.print(f"judge: {escape(str(stats))}", highlight=False, soft_wrap=True)
    if as_json:
        print_json(result.summary)
    else:
        print_scorecard(result.summary)


def _score_conditions(out: Path, judge: JudgeConfig | None, as_json: bool, no_write: bool) -> None:
    """A `run --condition a,b` folder: re-score each run and rebuild the comparison."""
    try:
        report, problems = rescore_conditions(out, judge, write=not no_write)
    except RunDirError as exc:
        fail(str(exc))
        return
    for problem in problems:
        err_console.print(f"[yellow]warning:[/] {escape(problem)}", highlight=False, soft_wrap=True)
    if as_json:
        print_json(report)
        return
    for summary in report["conditions"].values():
        print_scorecard(summary)
    print_comparison(report["comparison"])
