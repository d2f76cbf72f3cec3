"""Setting up a run before its first episode: its `campaign.json`, its folder, its
judge label and its observer (both families use these when they prepare a run)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import duplexbench
from duplexbench.agents import get_agent, redact_spec
from duplexbench.campaign._lock import LOCK
from duplexbench.campaign._model import RunOptions
from duplexbench.campaign._rundir import RunDirError, check_writable, storage_error
from duplexbench.campaign._spec import CampaignSpec, JudgeConfig
from duplexbench.items import ActionSuite, Suite, item_checksum
from duplexbench.scoring import PROMPT_VERSION, SCORER_VERSION
from duplexbench.users import ObserverConfig, check_observer, simulator_identity


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
        condition=opts.condition.name,
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


def observer_for_run(config: ObserverConfig, out: Path) -> ObserverConfig:
    """The observer of a run, checked now (a missing model fails before any episode);
    an LLM layer caches its answers in RUN_DIR/observer-cache.jsonl unless told
    otherwise."""
    check_observer(config)
    if config.llm_model and config.llm_cache is None:
        return replace(config, llm_cache=str(out.resolve() / "observer-cache.jsonl"))
    return config
