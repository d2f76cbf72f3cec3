"""Running a campaign: every item x repetition of one agent and condition.

Each episode runs, its trace is written and read back, and it is scored
from that file, so `duplexbench score` on the run directory reproduces
every number.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import duplexbench
from duplexbench.agents import get_agent, redact_spec
from duplexbench.campaign._ahead import Bars, render_ahead
from duplexbench.campaign._conditions import DEFAULT_CONDITION
from duplexbench.campaign._engine import Target
from duplexbench.campaign._execution import ExecutionOptions, execute, start_run_dir
from duplexbench.campaign._family import FamilyName, Score, get_family
from duplexbench.campaign._lock import LOCK, run_lock
from duplexbench.campaign._rundir import (
    RunDirError,
    StorageError,
    check_writable,
    index_row,
    storage_error,
    write_index,
    write_summary,
)
from duplexbench.campaign._spec import CampaignSpec, JudgeConfig
from duplexbench.campaign._store import StoreError, refresh_index
from duplexbench.campaign._trust import add_trust, cache_file, check_snapshots
from duplexbench.items import ActionSuite, Suite, item_checksum, suite_family
from duplexbench.scoring import PROMPT_VERSION, SCORER_VERSION, ActionJudge, FieldJudge, RunSummary
from duplexbench.users import DeciderConfig, ObserverConfig, check_observer, simulator_identity

OnScore = Callable[[int, int, Score], None]
"""Called after each saved episode with (done, total, its score)."""


@dataclass(frozen=True)
class RunOptions:
    suite: str
    agent: str = "oracle"
    condition: str = DEFAULT_CONDITION
    repeats: int = 3
    seed: int = 0
    items: tuple[str, ...] = ()
    limit: int | None = None
    out: Path | None = None
    overwrite: bool = False
    judge: JudgeConfig | None = None
    frame_ms: int = 20
    speech_cache: Path | None = None
    prices: Path | None = None
    realtime_speed: float = 1.0
    user_model: DeciderConfig | None = None
    """Optional LLM decision model of the user (cache default: RUN_DIR/user-decisions.jsonl)."""
    noise_dir: Path | None = None
    voice_fallback: bool = False
    """A persona whose TTS engine is missing speaks with its fallback voice (else the run
    stops before its first episode, naming the package)."""
    """Recordings (`<kind>/*.wav`) instead of procedural noise and bursts."""
    execution: ExecutionOptions = field(default_factory=ExecutionOptions)
    """Backend, workers, retries, limits, resume."""
    observer: ObserverConfig = field(default_factory=ObserverConfig)
    """The simulated user's act observer (an LLM layer's cache defaults to
    RUN_DIR/observer-cache.jsonl)."""


@dataclass(frozen=True)
class RunResult:
    run_dir: Path
    summary: RunSummary
    scores: list[Score]
    """Workflow runs: `EpisodeScore`s; action runs: `ActionScore`s."""
    judge: FieldJudge | None
    """The field judge of a workflow run (for its statistics)."""
    family: FamilyName = "workflow"


def judge_label(config: JudgeConfig | None) -> dict[str, Any] | None:
    return None if config is None else {"model": config.model, "prompt_version": PROMPT_VERSION}


def free_run_dir(base: Path) -> Path:
    """`base`, or `base-2`, `base-3`, ... : the first that does not hold files yet."""
    candidate, n = base, 1
    while candidate.exists() and any(candidate.iterdir()):
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate


def prepare_run_dir(out: Path, overwrite: bool) -> None:
    """An empty run directory at `out` (the runner's own lock file aside)."""
    entries = [p for p in out.iterdir() if p.name != LOCK] if out.exists() else []
    if entries:
        if not overwrite:
            raise RunDirError(
                f"{out} exists and is not empty; --resume to continue it, or choose another "
                "--out, or --overwrite"
            )
        if not (out / "campaign.json").exists():
            raise RunDirError(f"{out} is not a run directory; refusing to overwrite it")
        try:
            for entry in entries:
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        except OSError as exc:
            raise storage_error(exc, f"cannot clear {out} for --overwrite") from exc
    check_writable(out)


def campaign_spec(opts: RunOptions, suite: Suite | ActionSuite) -> CampaignSpec:
    """`campaign.json` of a run of `suite` with these options."""
    return CampaignSpec(
        duplexbench_version=duplexbench.__version__,
        suite=suite.name,
        family="action" if isinstance(suite, ActionSuite) else "workflow",
        suite_version=suite.version,
        suite_path=str(suite.path),
        generator=suite.manifest.generator if suite.manifest else None,
        scorer_version=SCORER_VERSION,
        agent=redact_spec(opts.agent),
        condition=opts.condition,
        repeats=opts.repeats,
        seed=opts.seed,
        items=[i.id for i in suite.items],
        item_checksums={i.id: item_checksum(i) for i in suite.items},
        judge=opts.judge,
        prices=str(opts.prices) if opts.prices else None,
        simulator=None if isinstance(suite, ActionSuite) else simulator_identity(opts.observer),
        privileged=get_agent(opts.agent)[0].privileged,
        voice_fallback=opts.voice_fallback,
    )


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
        render_ahead([target], opts.execution, bars)
        execute([target], opts.execution, progress)
        return finish_target(target)


def prepare_target(opts: RunOptions) -> Target:
    """Check everything the run needs (agent, condition, voices, prices, folder) and describe
    it; the suite's item family (`campaign/_family.py`) knows what to check."""
    return get_family(suite_family(opts.suite)).prepare(opts)


def observer_for_run(config: ObserverConfig, out: Path) -> ObserverConfig:
    """The observer of a run, checked now (a missing model fails before any episode);
    an LLM layer caches its answers in RUN_DIR/observer-cache.jsonl unless told
    otherwise."""
    check_observer(config)
    if config.llm_model and config.llm_cache is None:
        return replace(config, llm_cache=str(out.resolve() / "observer-cache.jsonl"))
    return config


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
