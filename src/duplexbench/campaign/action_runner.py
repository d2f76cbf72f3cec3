"""Running an action campaign: every action item x repetition of one agent.

Each episode replays its item's timeline (direct or simulator replay), its
trace and stereo audio are written, read back and scored from those files,
so `duplexbench score` on the run directory reproduces every number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duplexbench.agents.audio_protocol import StepAgent
from duplexbench.agents.registry import AgentInfo, AgentSpec, get_agent
from duplexbench.campaign.action_scoring import make_action_judge, summarize_actions
from duplexbench.campaign.conditions import get_condition
from duplexbench.campaign.engine import Target
from duplexbench.campaign.execution import execute, start_run_dir
from duplexbench.campaign.jobs import JobConfig
from duplexbench.campaign.lock import run_lock
from duplexbench.campaign.rundir import index_row, write_index, write_json
from duplexbench.campaign.runner import RunOptions, campaign_spec, free_run_dir, prepare_run_dir
from duplexbench.campaign.spec import slug
from duplexbench.campaign.store import refresh_index
from duplexbench.campaign.trust import add_trust, check_snapshots
from duplexbench.items.action_suite import ActionSuite, load_action_suite
from duplexbench.scoring.actions.result import ActionScore
from duplexbench.speech.tts import VoiceRef, get_tts

ActionProgress = Callable[[int, int, ActionScore], None]


@dataclass(frozen=True)
class ActionRunResult:
    run_dir: Path
    summary: dict[str, Any]
    scores: list[ActionScore]


def _check(info: AgentInfo, spec: AgentSpec, suite: ActionSuite) -> None:
    """Fail fast: a step agent on the audio channel, and every voice's engine installed."""
    agent = info.create(spec, "audio")
    if not isinstance(agent, StepAgent):
        raise ValueError(
            f"agent {info.name!r} is a streaming (network) agent; action suites run step "
            "agents only in this version"
        )
    agent.close()
    voices = sorted({s.voice for item in suite.items for s in item.segments})
    for voice in voices:
        get_tts(VoiceRef.parse(voice).engine).version()


def run_action_campaign(
    opts: RunOptions, progress: ActionProgress | None = None
) -> ActionRunResult:
    condition = get_condition(opts.condition)
    if condition.name != "clean":
        raise ValueError(
            f"action items replay a fixed user timeline and run in the clean condition only, "
            f"not {condition.name!r} (caller effects on replays are not built yet)"
        )
    info, agent_spec = get_agent(opts.agent)
    suite = load_action_suite(opts.suite, opts.items, opts.limit)  # only the items it runs
    _check(info, agent_spec, suite)
    out = opts.out or free_run_dir(Path("runs") / slug(f"{suite.name}-{agent_spec.name}"))
    spec = campaign_spec(opts, suite)
    if not opts.execution.resume:
        prepare_run_dir(out, opts.overwrite)
    with run_lock(out):
        start_run_dir(out, spec, suite.items, opts.execution)
        config = JobConfig(
            "action",
            suite.name,
            opts.agent,
            spec.agent,
            opts.condition,
            opts.seed,
            opts.frame_ms,
            None if opts.speech_cache is None else str(opts.speech_cache),
        )
        judge = make_action_judge(opts.judge, out)
        target = Target(out, spec, {i.id: i for i in suite.items}, config, judge)
        execute([target], opts.execution, progress)  # type: ignore[arg-type]
        ordered = target.ordered_scores()
        scores = [s for _, s in ordered if isinstance(s, ActionScore)]
        write_index(out, [index_row(s, rel) for rel, s in ordered if isinstance(s, ActionScore)])
        check = check_snapshots(spec, target.items, allowed=True)
        summary = add_trust(summarize_actions(spec, scores), spec, scores, check)
        write_json(out / "summary.json", summary)
        refresh_index(out)
    return ActionRunResult(out, summary, scores)
