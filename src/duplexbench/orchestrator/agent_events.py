"""Applying an agent's events to the playback queue, shared by every audio loop.

Audio and transcript go to the playback queue, `ResponseDone` seals it,
`SpeechCancelled` drops what was not played, `EndCall` seals and hangs up,
`AgentFailure` ends the episode as an error. What differs between loops
(running a tool, logging a cut or usage) goes to the loop's `AgentEventSink`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from duplexbench.agents.events import (
    AgentEvent,
    AgentFailure,
    AudioDelta,
    EndCall,
    ResponseDone,
    SpeechCancelled,
    ToolCallRequest,
    TranscriptDelta,
    UsageDelta,
)
from duplexbench.agents.protocol import AgentError
from duplexbench.audio.pcm import to_internal
from duplexbench.orchestrator.playback import Playback


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
