"""`duplexbench score`: re-score a run directory from its traces."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from duplexbench.campaign import (
    JudgeConfig,
    RunDirError,
    is_multi_run,
    rescore_conditions,
    rescore_run,
)
from duplexbench.cli._common import (
    err_console,
    fail,
    judge_config,
    judge_options,
    print_json,
)
from duplexbench.cli._errors import exit_for_errors, fail_on_error_option
from duplexbench.cli._scorecards import print_comparison_of, print_summary
from duplexbench.scoring import RunSummary, summary_data


@click.command("score")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the summary JSON.")
@click.option("--no-write", is_flag=True, help="Do not rewrite result.json / summary.json.")
@click.option(
    "--allow-edited-items",
    is_flag=True,
    help="Score item snapshots that differ from campaign.json's checksums (every output "
    "then says the items were edited).",
)
@fail_on_error_option
@judge_options
def score_command(
    *,
    run_dir: Path,
    as_json: bool,
    no_write: bool,
    allow_edited_items: bool,
    fail_on_error: bool,
    judge_model: str | None,
    judge_base_url: str | None,
    judge_cache: str | None,
) -> None:
    """Recompute every score of RUN_DIR from its events.jsonl files.

    RUN_DIR may also be the folder of `run --condition a,b,...`: every
    condition's run is re-scored and comparison.json rebuilt.

    Scoring is a pure function of the item snapshot, the trace and the judge
    cache, so without a new judge this reproduces the run's summary exactly.
    A corrupt, truncated or misplaced trace (changed after the run) is
    reported and scored as a tampered, failed episode, never left out; the
    other episodes still score. Item snapshots that differ from the checksums
    recorded in campaign.json are refused (exit status 2, naming each item)
    unless --allow-edited-items (docs/security.md). Exit status 4 when every
    episode errored, 3 with --fail-on-error when any did (docs/metrics.md).
    """
    judge = judge_config(judge_model, judge_base_url, judge_cache)
    edited = allow_edited_items
    if is_multi_run(run_dir):
        summaries = _score_conditions(run_dir, judge, as_json, no_write, edited)
        exit_for_errors(summaries, fail_on_error)
        return
    try:
        result = rescore_run(run_dir, judge, not no_write, edited)
    except RunDirError as exc:
        fail(str(exc))
    for problem in result.problems:
        err_console.print(f"[yellow]warning:[/] {escape(problem)}", highlight=False, soft_wrap=True)
    if result.judge is not None:
        stats = result.judge.stats()
        err_console.print(f"judge: {escape(str(stats))}", highlight=False, soft_wrap=True)
    if as_json:
        print_json(summary_data(result.summary))
    else:
        print_summary(result.summary)
    exit_for_errors([result.summary], fail_on_error)


def _score_conditions(
    out: Path, judge: JudgeConfig | None, as_json: bool, no_write: bool, edited: bool
) -> list[RunSummary]:
    """A `run --condition a,b` folder: re-score each run and rebuild the comparison."""
    try:
        report, summaries, problems = rescore_conditions(out, judge, not no_write, edited)
    except RunDirError as exc:
        fail(str(exc))
    for problem in problems:
        err_console.print(f"[yellow]warning:[/] {escape(problem)}", highlight=False, soft_wrap=True)
    if as_json:
        print_json(report)
        return list(summaries.values())
    for summary in summaries.values():
        print_summary(summary)
    print_comparison_of(report)
    return list(summaries.values())
