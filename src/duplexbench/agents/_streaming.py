"""Bridges between the two audio interfaces."""

from __future__ import annotations

from collections.abc import Sequence

from duplexbench.agents._audio_protocol import AudioSession, StepAgent
from duplexbench.agents._events import AgentEvent
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.audio import AudioFrame


class StepAsStreaming:
    """Presents a step agent through the streaming interface.

    Each `send_audio` runs one step; its events wait for the next `poll`.
    Useful to run local agents under the RealtimeClock (and to check that
    both interfaces write the same trace).
    """

    def __init__(self, agent: StepAgent) -> None:
        self.agent = agent
        self._events: list[AgentEvent] = []
        self._results: list[ToolResultMessage] = []

    async def connect(self, session: AudioSession) -> None:
        self.agent.start(session)

    async def send_audio(self, frame: AudioFrame) -> None:
        results, self._results = self._results, []
        self._events += self.agent.step(frame, results)

    async def send_tool_result(self, result: ToolResultMessage) -> None:
        self._results.append(result)

    def poll(self) -> Sequence[AgentEvent]:
        events, self._events = self._events, []
        return events

    async def close(self) -> None:
        self.agent.close()
