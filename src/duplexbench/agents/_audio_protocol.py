"""The two audio agent interfaces.

- :class:`StepAgent` (local agents, discrete time): each frame of user audio
  in, the agent's events out. Deterministic under the VirtualClock.
- :class:`StreamingAgent` (network agents): audio is sent as it is produced
  and events arrive asynchronously; the harness polls them every frame under
  the RealtimeClock.

Both are driven by the same loop and write the same trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from duplexbench.agents._events import AgentEvent
from duplexbench.agents._protocol import AgentSession, ToolResultMessage
from duplexbench.audio import AudioFrame, Int16Array


@dataclass(frozen=True)
class AudioSession:
    """What an audio agent is told at the start: the text session plus the audio setup."""

    session: AgentSession
    frame_ms: int
    sample_rate: int = 16_000
    speech: SpeechKit | None = None


class SpeechKit(Protocol):
    """Offline speech the harness lends to local step agents (`AudioSession.speech`):
    TTS through the speech bank and the harness's ASR, so an agent author can
    build a cascade without bringing speech models (docs/agents.md)."""

    def synthesize(self, text: str, voice: str | None = None) -> Int16Array:
        """Mono int16 at 16 kHz (cached, deterministic)."""
        ...

    def transcribe(self, samples: Int16Array) -> str:
        """What is said in mono int16 at 16 kHz ("" for silence); the offline
        whisper engine (`duplexbench[asr]`), cached by the audio's content."""
        ...


@runtime_checkable
class StepAgent(Protocol):
    def start(self, session: AudioSession) -> None: ...

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]: ...

    def close(self) -> None: ...


@runtime_checkable
class StreamingAgent(Protocol):
    async def connect(self, session: AudioSession) -> None: ...

    async def send_audio(self, frame: AudioFrame) -> None: ...

    async def send_tool_result(self, result: ToolResultMessage) -> None: ...

    def poll(self) -> Sequence[AgentEvent]:
        """Events received since the last poll (never blocks)."""
        ...

    async def close(self) -> None: ...
