"""Small builders for action items and observations (shared by the action tests)."""

from __future__ import annotations

from typing import Any

import numpy as np

from duplexbench.audio._pcm import Int16Array
from duplexbench.items._action import ActionItem, Annotations, Segment
from duplexbench.scoring._actions.observation import (
    ActionObservation,
    AgentSegment,
    CueInfo,
    PlayedSegment,
)


def words(n: int, word: str = "word") -> str:
    """`n` distinct filler words."""
    return " ".join(f"{word}{i}" for i in range(n))


def seg(
    start: int,
    end: int,
    text: str = "the user says something here",
    *,
    role: str = "user",
    part: str = "main",
    sid: str | None = None,
) -> Segment:
    return Segment(
        id=sid or f"s{start}{part}",
        role=role,
        text=text,
        voice="piper:joe",
        part=part,
        start_ms=start,
        end_ms=end,
    )


def item(condition: str, segments: list[Segment] | None = None, **ann: Any) -> ActionItem:
    return ActionItem(
        id=f"t-{condition.replace('_', '-')}",
        version="1",
        condition=condition,
        scenario=ann.pop("scenario", "casual_conversation"),
        topic="a test topic",
        context="You are a helpful voice assistant.",
        segments=segments or [seg(0, 4000)],
        annotations=Annotations(**ann),
    )


def agent(start: int, end: int, text: str) -> AgentSegment:
    return AgentSegment(start, end, tuple(text.split()))


def observe(
    it: ActionItem,
    agent_segments: list[AgentSegment] | tuple[AgentSegment, ...] = (),
    *,
    end_ms: int = 30_000,
    cue: tuple[int, int] | None = None,
    forced: bool = False,
    audio: Int16Array | None = None,
) -> ActionObservation:
    """The observation of `it` as played: main segments at their times, cue segments
    at the cue onset (`cue` = (start, end) absolute ms)."""
    played = [
        PlayedSegment(s.id, s.role, s.text, s.start_ms, s.end_ms, "main") for s in it.part("main")
    ]
    info = None
    if cue is not None:
        info = CueInfo(cue[0], cue[1], forced=forced)
        played += [
            PlayedSegment(s.id, s.role, s.text, cue[0] + s.start_ms, cue[0] + s.end_ms, "cue")
            for s in it.part("cue")
        ]
    return ActionObservation(
        item=it,
        agent=tuple(agent_segments),
        user=tuple(sorted(played, key=lambda p: p.start_ms)),
        end_ms=end_ms,
        cue=info,
        agent_audio=audio,
    )


def tone(
    f_start: float, f_end: float, ms: int, rate: int = 16_000, ramp_last_ms: int | None = None
) -> Int16Array:
    """A sine tone: flat at `f_start`, gliding to `f_end` over the last `ramp_last_ms`
    (the whole tone when None)."""
    n = rate * ms // 1000
    ramp = n if ramp_last_ms is None else rate * ramp_last_ms // 1000
    freq = np.full(n, f_start, dtype=float)
    freq[n - ramp :] = np.linspace(f_start, f_end, ramp)
    phase = 2 * np.pi * np.cumsum(freq) / rate
    return (0.5 * 32767 * np.sin(phase)).astype(np.int16)
