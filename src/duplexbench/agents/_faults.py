"""`fault`: an agent that misbehaves on purpose, to check what the harness does.

Spec: ``fault?kind=K[&at_ms=N][&transport=step|stream][&times=N&count_file=PATH]``.
Until media time `at_ms` (default 500) the agent listens silently; then:

- ``raise``: its call raises ``RuntimeError`` (a bug in the agent);
- ``disconnect``: the connection drops (`stream`: ``poll`` reports the closed
  connection as an `AgentFailure` and sends raise ``ConnectionResetError``;
  `step`: ``ConnectionResetError``);
- ``garbage``: it returns things that are not agent events (a dict, raw bytes,
  a transcript that is not text);
- ``flood``: it queues a minute of audio every frame;
- ``stall``: its call never returns (it sleeps, up to `hold_s`, default 3600,
  in a loop that swallows every ``Exception``, as sloppy retry code does);
- ``stall-connect`` (`stream` only): ``connect`` never returns.

Every kind must end the episode as an agent error naming the fault (scored
as a failed episode, never retried; docs/metrics.md, "Errors"), within the
stall limit for the stalls (docs/reliability.md). With `times=N` and a
`count_file`, only the first N episodes that start (counted in that file,
across processes) get the fault; the rest listen silently to the end, which
is how the tests show that a faulted episode is not retried. The text channel supports
``raise``, ``garbage`` and ``stall``.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from duplexbench.agents._audio_protocol import AudioSession, StepAgent, StreamingAgent
from duplexbench.agents._events import AgentEvent, AgentFailure, AudioDelta, TranscriptDelta
from duplexbench.agents._protocol import (
    AgentInput,
    AgentSession,
    AgentTurn,
    TextAgent,
    ToolResultMessage,
)
from duplexbench.agents._registry import AgentSpec, Channel, register_agent
from duplexbench.audio import AudioFrame

KINDS = ("raise", "disconnect", "garbage", "flood", "stall", "stall-connect")
_TEXT_KINDS = ("raise", "garbage", "stall")


@dataclass(frozen=True)
class FaultPlan:
    kind: str
    at_ms: int = 500
    hold_s: float = 3600.0
    times: int | None = None
    count_file: Path | None = None

    def armed(self) -> bool:
        """Whether this episode gets the fault (counts the episode in `count_file`)."""
        if self.times is None or self.count_file is None:
            return True
        fd = os.open(self.count_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, b".")
        finally:
            os.close(fd)
        return self.count_file.stat().st_size <= self.times


def _fault(plan: FaultPlan, where: str) -> None:
    """Raise or block as the plan says (kinds handled by the caller return)."""
    if plan.kind == "raise":
        raise RuntimeError(f"injected fault in {where}")
    if plan.kind == "disconnect":
        raise ConnectionResetError(f"injected disconnect in {where}")
    if plan.kind in ("stall", "stall-connect"):
        deadline = time.monotonic() + plan.hold_s
        while time.monotonic() < deadline:  # a retry loop that swallows every Exception
            try:
                time.sleep(0.05)
            except Exception:  # on purpose: the harness must still stop it
                continue


def _garbage() -> list[Any]:
    return [{"type": "audio", "pcm": "not audio"}, b"\x00\xff", TranscriptDelta(text=42)]  # type: ignore[arg-type]  # garbage on purpose


def _flood() -> list[AgentEvent]:
    return [AudioDelta(np.full(16_000 * 60, 1000, dtype=np.int16))]


class FaultyStepAgent:
    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self._armed = False

    def start(self, session: AudioSession) -> None:
        self._armed = self.plan.armed()

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        if not self._armed or frame.t_ms < self.plan.at_ms:
            return []
        if self.plan.kind == "garbage":
            return _garbage()
        if self.plan.kind == "flood":
            return _flood()
        _fault(self.plan, "step")
        return []

    def close(self) -> None:
        return None


class FaultyStream:
    """The streaming form: faults arrive the way a network connection shows them."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self._armed = False
        self._events: list[Any] = []
        self._closed = False

    async def connect(self, session: AudioSession) -> None:
        self._armed = self.plan.armed()
        if self._armed and self.plan.kind == "stall-connect":
            await asyncio.sleep(self.plan.hold_s)

    async def send_audio(self, frame: AudioFrame) -> None:
        if self._closed:
            raise ConnectionResetError("send on a closed connection")
        if not self._armed or frame.t_ms < self.plan.at_ms:
            return
        kind = self.plan.kind
        if kind == "disconnect":
            self._closed = True
            self._events.append(AgentFailure("connection closed by the peer (injected)"))
        elif kind == "garbage":
            self._events += _garbage()
        elif kind == "flood":
            self._events += _flood()
        elif kind == "stall":
            await asyncio.sleep(self.plan.hold_s)
        elif kind == "raise":
            raise RuntimeError("injected fault in send_audio")

    async def send_tool_result(self, result: ToolResultMessage) -> None:
        return None

    def poll(self) -> Sequence[AgentEvent]:
        events, self._events = self._events, []
        return events

    async def close(self) -> None:
        self._closed = True


class FaultyTextAgent:
    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self._armed = False

    def start(self, session: AgentSession) -> None:
        self._armed = self.plan.armed()

    def respond(self, observation: AgentInput) -> AgentTurn:
        if not self._armed or observation.t_ms < self.plan.at_ms:
            return AgentTurn()
        if self.plan.kind == "garbage":
            return AgentTurn(say=b"\x00\xff")  # type: ignore[arg-type]  # garbage on purpose
        _fault(self.plan, "respond")
        return AgentTurn()

    def close(self) -> None:
        return None


def _number(options: dict[str, str], key: str, default: str) -> float:
    raw = options.pop(key, default)
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"fault agent: {key} must be a number, got {raw!r}") from None
    if value < 0:
        raise ValueError(f"fault agent: {key} must be >= 0, got {raw!r}")
    return value


def plan_from_spec(spec: AgentSpec, channel: Channel) -> tuple[FaultPlan, str]:
    """The fault plan and transport of a `fault?...` spec, or ValueError naming the option."""
    options = dict(spec.options)
    kind = options.pop("kind", "")
    allowed = _TEXT_KINDS if channel == "text" else KINDS
    if kind not in allowed:
        raise ValueError(f"fault agent: kind must be one of {', '.join(allowed)}; got {kind!r}")
    transport = options.pop("transport", "step")
    if transport not in ("step", "stream") or (kind == "stall-connect" and transport != "stream"):
        raise ValueError(f"fault agent: transport {transport!r} does not fit kind {kind!r}")
    at_ms = int(_number(options, "at_ms", "500"))
    hold_s = _number(options, "hold_s", "3600")
    times = options.pop("times", None)
    count_file = options.pop("count_file", None)
    if (times is None) != (count_file is None):
        raise ValueError("fault agent: times and count_file go together")
    if options:
        raise ValueError(f"fault agent: unknown options {', '.join(sorted(options))}")
    plan = FaultPlan(
        kind,
        at_ms,
        hold_s,
        None if times is None else int(_number({"times": times}, "times", "0")),
        None if count_file is None else Path(count_file),
    )
    return plan, transport


@register_agent(
    "fault",
    description="Fault injection for testing the harness: raises, disconnects, sends "
    "garbage, floods or stalls (?kind=...).",
    channels=("text", "audio"),
)
def _fault_agent(spec: AgentSpec, channel: Channel) -> TextAgent | StepAgent | StreamingAgent:
    plan, transport = plan_from_spec(spec, channel)
    if channel == "text":
        return FaultyTextAgent(plan)
    return FaultyStream(plan) if transport == "stream" else FaultyStepAgent(plan)
