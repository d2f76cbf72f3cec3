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
from duplexbench.campaign.action_scoring import (
    index_row,
    make_action_judge,
    save_action_episode,
    score_action_trace,
    summarize_actions,
)
from duplexbench.campaign.conditions import get_condition
from duplexbench.campaign.rundir import write_index, write_json, write_model
from duplexbench.campaign.runner import RunOptions, campaign_spec, free_run_dir, prepare_run_dir
from duplexbench.campaign.spec import IndexRow, episode_dir, slug
from duplexbench.items.action_suite import ActionSuite, load_action_suite
from duplexbench.orchestrator.replay import ActionSetup, ReplayConfig
from duplexbench.orchestrator.replay_loop import ActionEpisode
from duplexbench.scoring.actions.result import ActionScore
from duplexbench.speech.bank import SpeechBank
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
    suite = load_action_suite(opts.suite).select(list(opts.items) or None, opts.limit)
    _check(info, agent_spec, suite)
    bank = SpeechBank(opts.speech_cache)
    out = opts.out or free_run_dir(Path("runs") / slug(f"{suite.name}-{agent_spec.name}"))
    prepare_run_dir(out, opts.overwrite)
    spec = campaign_spec(opts, suite)
    write_model(out / "campaign.json", spec)
    for item in suite.items:
        write_json(out / "items" / f"{item.id}.json", item.model_dump(mode="json"))
    config = ReplayConfig(frame_ms=opts.frame_ms)
    judge = make_action_judge(opts.judge, out)
    scores: list[ActionScore] = []
    rows: list[IndexRow] = []
    total = len(suite.items) * opts.repeats
    for item in suite.items:
        for repetition in range(opts.repeats):
            setup = ActionSetup(
                item,
                spec.item_checksums[item.id],
                suite.name,
                spec.agent,
                opts.condition,
                repetition,
                opts.seed,
            )
            agent = info.create(agent_spec, "audio")
            assert isinstance(agent, StepAgent)
            record = ActionEpisode(
                setup, agent, bank, privileged=info.privileged, config=config
            ).run()
            rel = episode_dir(spec, item.id, repetition)
            save_action_episode(out / rel, record)
            score = score_action_trace(item, out / rel, repetition, judge)
            scores.append(score)
            rows.append(index_row(score, rel))
            if progress is not None:
                progress(len(scores), total, score)
    write_index(out, rows)
    summary = summarize_actions(spec, scores)
    write_json(out / "summary.json", summary)
    return ActionRunResult(out, summary, scores)
