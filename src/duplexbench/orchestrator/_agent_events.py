"""Applying an agent's events to the playback queue, shared by every audio loop.

Audio and transcript go to the playback queue, `ResponseDone` seals it,
`SpeechCancelled` drops what was not played, `EndCall` seals and hangs up,
`AgentFailure` ends the episode as an error. What differs between loops
(running a tool, logging a cut or usage) goes to the loop's `AgentEventSink`.

An agent is not trusted to send well-formed events: anything that is not one
of the event types, or whose fields have the wrong types, ends the episode as
an error naming it (`AgentError`), as does a flood of queued audio
(`AgentFlood`, checked by the loops after each frame).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from duplexbench.agents import (
    AgentError,
    AgentEvent,
    AgentFailure,
    AudioDelta,
    EndCall,
    ResponseDone,
    SpeechCancelled,
    SpeechStarted,
    SpeechStopped,
    ToolCallRequest,
    TranscriptDelta,
    UsageDelta,
)
from duplexbench.audio import to_internal
from duplexbench.orchestrator._playback import Playback


class AgentFlood(AgentError):
    """The agent queued more unplayed audio than the playback buffer holds."""

    def __init__(self, playback: Playback) -> None:
        seconds = playback.max_buffer / playback.rate
        super().__init__(f"the agent queued more than {seconds:g} s of unplayed audio")


def check_flood(playback: Playback) -> None:
    if playback.overflowing:
        raise AgentFlood(playback)


def _check(event: object) -> None:
    """AgentError unless `event` is an agent event with fields of the right types."""
    bad: str | None = None
    if isinstance(event, AudioDelta):
        if not isinstance(event.sample_rate, int) or isinstance(event.sample_rate, bool):
            bad = f"sample_rate {event.sample_rate!r}"
    elif isinstance(event, TranscriptDelta):
        if not isinstance(event.text, str):
            bad = f"text of type {type(event.text).__name__}"
    elif isinstance(event, ToolCallRequest):
        if not isinstance(event.name, str) or not (
            event.call_id is None or isinstance(event.call_id, str)
        ):
            bad = "tool call name or call_id that is not a string"
    elif isinstance(event, AgentFailure):
        if not isinstance(event.message, str):
            bad = "failure message that is not a string"
    elif isinstance(event, UsageDelta):
        counts = dataclasses.astuple(event)
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
            bad = f"usage counts {counts!r}"
    elif not isinstance(
        event, ResponseDone | SpeechCancelled | EndCall | SpeechStarted | SpeechStopped
    ):
        bad = f"an unknown event of type {type(event).__name__}"
    if bad is not None:
        raise AgentError(f"the agent sent a malformed event: {bad}")


class AgentEventSink(Protocol):
    def on_tool_call(self, event: ToolCallRequest, t: int) -> None: ...

    def on_cancel(self, t: int, dropped_samples: int, unheard: str) -> None:
        """The agent stopped: `dropped_samples` of queued audio were never played."""
        ...

    def on_usage(self, t: int, usage: UsageDelta) -> None: ...

    def on_end_call(self) -> None: ...


def apply_agent_events(
    events: Sequence[AgentEvent], playback: Playback, sink: AgentEventSink, t: int
) -> None:
    for event in events:
        _check(event)
        if isinstance(event, AudioDelta):
            playback.audio(to_internal(event.pcm, event.sample_rate))
        elif isinstance(event, TranscriptDelta):
            playback.text(event.text)
        elif isinstance(event, ToolCallRequest):
            sink.on_tool_call(event, t)
        elif isinstance(event, ResponseDone):
            playback.seal()
        elif isinstance(event, SpeechCancelled):
            sink.on_cancel(t, *playback.cancel())
        elif isinstance(event, EndCall):
            playback.seal()
            sink.on_end_call()
        elif isinstance(event, AgentFailure):
            raise AgentError(event.message)
        elif isinstance(event, UsageDelta):
            sink.on_usage(t, event)
