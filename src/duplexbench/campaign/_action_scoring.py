"""Scoring action episodes from their files, summaries, and re-scoring a run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from duplexbench.audio import SAMPLE_RATE, read_wav, write_wav
from duplexbench.campaign._rundir import (
    write_model,
)
from duplexbench.campaign._spec import CampaignSpec, JudgeConfig
from duplexbench.items import ActionItem
from duplexbench.orchestrator import ActionRecord
from duplexbench.scoring import ACTION_PROMPT_VERSION as PROMPT_VERSION
from duplexbench.scoring import (
    TAMPERED,
    ActionJudge,
    ActionJudgeCache,
    ActionScore,
    OpenAIChatActionJudge,
    action_agent_error_score,
    action_block,
    action_error_score,
    episode_error,
    errors_block,
    header_problem,
    observe,
    pooled_panel,
    score_observation,
    timeline_record,
)
from duplexbench.trace import TraceError, read_events, write_events

JUDGE_CACHE = "action-judge-cache.jsonl"


def make_action_judge(config: JudgeConfig | None, run_dir: Path) -> ActionJudge | None:
    """The follow-through judge: cache (default RUN_DIR/action-judge-cache.jsonl) + endpoint."""
    if config is None:
        return None
    cache = ActionJudgeCache(Path(config.cache) if config.cache else run_dir / JUDGE_CACHE)
    backend = OpenAIChatActionJudge(config.model, config.base_url) if config.base_url else None
    return ActionJudge(config.model, cache, backend)


def save_action_episode(folder: Path, record: ActionRecord) -> None:
    if record.audio is not None:
        user, agent = record.audio
        write_wav(folder / "audio.wav", [user, agent], SAMPLE_RATE)
    if record.line is not None:
        write_wav(folder / "user_line.wav", [record.line], SAMPLE_RATE)
    write_events(folder / "events.jsonl", record.events)


def score_action_trace(
    item: ActionItem,
    folder: Path,
    repetition: int,
    judge: ActionJudge | None = None,
    write: bool = True,
    *,
    checksum: str | None = None,
) -> ActionScore:
    """Score the episode in `folder` from `events.jsonl` (and `audio.wav` for prosody).
    A trace whose header names another episode, or another item checksum than
    `checksum`, or that cannot be read or scored, was changed after the run: a
    tampered, failed trial saying so, never left out (`scoring/_header.py`)."""
    try:
        events = read_events(folder / "events.jsonl")
        problem = header_problem(events, item.id, repetition, checksum)
        if problem is not None:
            score = action_agent_error_score(item, repetition, f"{TAMPERED} {problem}")
            if write and folder.exists():
                write_model(folder / "result.json", score)
            return score
        failure = episode_error(events)
        if failure is not None and failure.kind == "harness":  # retried, left out
            score = action_error_score(item, repetition, failure.message)
            if write and folder.exists():
                write_model(folder / "result.json", score)
            return score
        if failure is not None:  # the agent's error: a failed trial (scoring/_errors.py)
            score = action_agent_error_score(item, repetition, failure.message)
            score.interaction = timeline_record(events)
            if write and folder.exists():
                write_model(folder / "result.json", score)
            return score
        agent_audio = None
        if item.action == "backchannel" and (folder / "audio.wav").exists():
            channels, _ = read_wav(folder / "audio.wav")
            agent_audio = channels[1] if len(channels) > 1 else None
        score = score_observation(observe(item, events, agent_audio), repetition, judge)
        score.interaction = timeline_record(events)
    except TraceError as exc:
        score = action_agent_error_score(item, repetition, f"{TAMPERED} unreadable trace: {exc}")
    except Exception as exc:  # a readable trace the scorer cannot make sense of (damaged)
        message = f"{TAMPERED} unscorable trace: {type(exc).__name__}: {exc}"
        score = action_agent_error_score(item, repetition, message)
    if write and folder.exists():
        write_model(folder / "result.json", score)
    return score


def summarize_actions(spec: CampaignSpec, scores: list[ActionScore]) -> dict[str, Any]:
    return {
        "suite": spec.suite,
        "family": "action",
        "agent": spec.agent,
        "condition": spec.condition,
        "repeats": spec.repeats,
        "seed": spec.seed,
        "episodes": len(scores),
        **errors_block(scores),  # agent errors scored as failures, harness errors left out
        "judge": None
        if spec.judge is None
        else {"model": spec.judge.model, "prompt_version": PROMPT_VERSION},
        "actions": action_block(scores),
        "interaction": pooled_panel([s.interaction for s in scores if s.status == "ok"]),
    }
