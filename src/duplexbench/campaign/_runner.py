"""Running a campaign: every item x repetition of one agent and condition.

Each episode runs, its trace is written and read back, and it is scored
from that file, so `duplexbench score` on the run directory reproduces
every number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from duplexbench.campaign._ahead import Bars, render_ahead
from duplexbench.campaign._execution import execute, start_run_dir
from duplexbench.campaign._families import get_family
from duplexbench.campaign._lock import run_lock
from duplexbench.campaign._model import ExecutionOptions, RunOptions, RunResult, Score, Target
from duplexbench.campaign._rundir import (
    StorageError,
    check_writable,
    index_row,
    write_index,
    write_summary,
)
from duplexbench.campaign._setup import prepare_run_dir
from duplexbench.campaign._store import StoreError, refresh_index
from duplexbench.campaign._trust import add_trust, cache_file, check_snapshots
from duplexbench.items import suite_family
from duplexbench.scoring import ActionJudge, FieldJudge

OnScore = Callable[[int, int, Score], None]
"""Called after each saved episode with (done, total, its score)."""


def run_campaign(
    opts: RunOptions, progress: OnScore | None = None, bars: Bars | None = None
) -> RunResult:
    """Run every episode of a campaign not complete yet and write the run directory
    (either item family: the suite's).

    Audio runs render every clip their episodes need first (`campaign/_ahead.py`);
    `bars` makes the progress bars of that step.
    """
    target = prepare_target(opts)
    check_writable(target.run_dir)  # a read-only folder: a clear StorageError, not a traceback
    with run_lock(target.run_dir):
        start_target(target, opts)
        return complete_runs([target], opts.execution, progress, bars)[0]


def start_runs(options: Sequence[RunOptions]) -> list[Target]:
    """Check every run first (a bad one fails before any folder is written), then create
    (or, resuming, check) each run directory; hold a lock around this and the rest."""
    targets = [prepare_target(o) for o in options]
    for target, o in zip(targets, options, strict=True):
        start_target(target, o)
    return targets


def complete_runs(
    targets: Sequence[Target],
    ex: ExecutionOptions,
    progress: OnScore | None = None,
    bars: Bars | None = None,
) -> list[RunResult]:
    """Render every clip the audio runs need, run every episode not complete yet on one
    engine (a run, a multi-condition run and a campaign plan alike), and write each
    run's index and summary."""
    render_ahead(targets, ex, bars)
    execute(list(targets), ex, progress)
    return [finish_target(t) for t in targets]


def prepare_target(opts: RunOptions) -> Target:
    """Check everything the run needs (agent, condition, voices, prices, folder) and describe
    it; the suite's item family (`campaign/_family.py`) knows what to check."""
    return get_family(suite_family(opts.suite)).prepare(opts)


def start_target(target: Target, opts: RunOptions) -> None:
    """Create (or, resuming, check) the run directory; hold its lock around this."""
    if not opts.execution.resume:
        prepare_run_dir(target.run_dir, opts.overwrite)
    items = list(target.items.values())
    start_run_dir(target.run_dir, target.spec, items, opts.execution)
    target.judge = get_family(target.config.family).make_judge(opts.judge, target.run_dir)


def finish_target(target: Target) -> RunResult:
    """Write the index and the summary of a run whose episodes are done."""
    family = get_family(target.config.family)
    ordered = [(rel, s) for rel, s in target.ordered_scores() if isinstance(s, family.score_type)]
    scores = [s for _, s in ordered]
    check = check_snapshots(target.spec, target.items, allowed=True)
    judge = target.judge if isinstance(target.judge, FieldJudge | ActionJudge) else None
    summary = add_trust(
        family.summarize(target.spec, scores), target.spec, scores, check, cache=cache_file(judge)
    )
    try:
        write_index(target.run_dir, [index_row(s, rel) for rel, s in ordered])
        write_summary(target.run_dir, summary)
        refresh_index(target.run_dir)  # episodes finished before a crash are indexed too
    except (StorageError, StoreError) as exc:
        raise StorageError(
            f"{exc}; every episode is saved: free space (or make the folder writable) and "
            "rerun with --resume to write the index and the summary"
        ) from exc
    judge = target.judge if isinstance(target.judge, FieldJudge) else None
    return RunResult(target.run_dir, summary, scores, judge, family.name)
