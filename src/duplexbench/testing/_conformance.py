"""The adapter conformance suite: the same seven scenarios for every network adapter.

Each adapter ships a `ConformanceKit`: how to build the adapter on a given
transport, and its provider's script for each scenario. `run_scenario`
drives the adapter through the streaming interface against a
`ScriptedProvider` and checks what every adapter must do, whatever its
protocol:

- `setup`: connect and configure the session (instructions, tools, audio format);
- `audio`: user audio goes out; provider audio comes back as `AudioDelta` at the
  provider's rate, with the right sample count;
- `transcript`: provider transcript text comes back as `TranscriptDelta`;
- `tool_call`: a provider function call becomes `ToolCallRequest` (name, parsed
  arguments, call id); the result goes back and the response continues;
- `barge_in`: the provider reports the user started talking during a response:
  the adapter emits `SpeechStarted` and `SpeechCancelled` (drop queued audio);
- `error`: a provider error becomes `AgentFailure` with the provider's message;
- `disconnect`: a dropped connection becomes `AgentFailure`, never a hang.

A scenario whose subject the protocol does not have (Moshi has no function
calls and no VAD events) is declared in the kit's optional `not_applicable`
mapping, scenario -> reason; `run_scenario` refuses it with
`ScenarioNotApplicable` (the test reports it skipped, with the reason), so it
is never passed silently. Kits without the mapping run every scenario.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

import numpy as np

from duplexbench.agents import (
    AgentEvent,
    AgentFailure,
    AgentSession,
    AudioDelta,
    AudioSession,
    SpeechCancelled,
    SpeechStarted,
    StreamingAgent,
    ToolCallRequest,
    ToolResultMessage,
    ToolSpec,
    TranscriptDelta,
    Transport,
)
from duplexbench.audio import AudioFrame
from duplexbench.testing._provider import ScriptedProvider, Step

SCENARIOS = ("setup", "audio", "transcript", "tool_call", "barge_in", "error", "disconnect")
TOOL = ToolSpec(
    "lookup_order",
    "Look up an order by id.",
    {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
)
TOOL_ARGUMENTS = {"id": "A-17"}
TOOL_OUTPUT = {"ok": True, "result": {"status": "shipped"}}
TRANSCRIPT = "Your order has shipped."
PROVIDER_AUDIO_SAMPLES = 480  # what the scripts send back in the audio scenario


class ConformanceKit(Protocol):
    name: str
    provider_rate: int
    """Sample rate of the audio the provider sends back."""
    ignore: tuple[str, ...]
    """Client message types the provider accepts anywhere (e.g. audio appends)."""

    def make(self, transport: Transport) -> StreamingAgent: ...

    def script(self, scenario: str) -> list[Step]: ...


class ScenarioNotApplicable(Exception):
    """The kit declared this scenario not applicable to its protocol (the reason says why)."""


def not_applicable(kit: ConformanceKit, scenario: str) -> str | None:
    """Why `scenario` does not apply to the kit's protocol, or None (it applies).

    Read from the kit's optional `not_applicable` mapping (scenario -> reason);
    a name that is not a scenario, or an empty reason, is a ValueError."""
    reasons: dict[str, str] = getattr(kit, "not_applicable", None) or {}
    bad = sorted(k for k, why in reasons.items() if k not in SCENARIOS or not why)
    if bad:
        raise ValueError(f"{kit.name}: not_applicable names no scenario or gives no reason: {bad}")
    return reasons.get(scenario)


def session() -> AudioSession:
    text = AgentSession("Be helpful.", (TOOL,), "conformance", 0)
    return AudioSession(text, frame_ms=20)


@dataclass
class Outcome:
    events: list[AgentEvent]
    provider: ScriptedProvider


_SETTLE_S = 5.0
"""How long `_drive` waits for the adapter to catch up with the provider (a hang fails)."""


async def _until(done: Callable[[], bool], deadline: float, what: Callable[[], str]) -> None:
    """Let the adapter's tasks run until `done()`; AssertionError at `deadline` (loop time).

    It yields before each check, so that writes the adapter has queued reach the
    provider (and what the script answers is queued) before the check.
    """
    loop = asyncio.get_running_loop()
    tries = 0
    while True:
        await asyncio.sleep(0 if tries < 100 else 0.001)  # the only wait: a yield, polled
        tries += 1
        if done():
            return
        if loop.time() >= deadline:
            raise AssertionError(f"{what()} within {_SETTLE_S:g} s")


def _failed(events: Sequence[AgentEvent]) -> bool:
    return any(isinstance(e, AgentFailure) for e in events)


async def _drive(kit: ConformanceKit, scenario: str, frames: int = 10) -> Outcome:
    """Stream `frames` frames; after each, wait until the adapter has read and handled
    all the provider has sent (then poll, and answer tool calls); at the end, until the
    script has run to its end and been read (or the adapter has failed)."""
    provider = ScriptedProvider(kit.script(scenario), ignore=kit.ignore)
    agent = kit.make(provider)
    events: list[AgentEvent] = []
    deadline = asyncio.get_running_loop().time() + _SETTLE_S

    def caught_up() -> bool:
        events.extend(agent.poll())
        return provider.caught_up() or _failed(events)

    def settled() -> bool:
        return caught_up() and (provider.finished() or _failed(events))

    def stuck() -> str:
        script = "at its end" if provider.finished() else "not at its end"
        return f"{kit.name}/{scenario}: the adapter did not catch up (script {script}; {events})"

    await agent.connect(session())
    tone = (np.sin(np.arange(320) / 5) * 8000).astype(np.int16)
    for i in range(frames):
        await agent.send_audio(AudioFrame(i * 20, tone))
        seen = len(events)
        await _until(caught_up, deadline, stuck)
        for event in events[seen:]:
            if isinstance(event, ToolCallRequest):
                result = ToolResultMessage(event.call_id or "", event.name, TOOL_OUTPUT)
                await agent.send_tool_result(result)
    await _until(settled, deadline, stuck)
    events += agent.poll()
    await agent.close()
    return Outcome(events, provider)


E = TypeVar("E")


def _of(events: Sequence[AgentEvent], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def check(scenario: str, outcome: Outcome, kit: ConformanceKit) -> None:
    """The expectations every adapter shares; raises AssertionError with the reason."""
    events = outcome.events
    failures = _of(events, AgentFailure)
    if scenario in ("error", "disconnect"):
        assert failures, f"{kit.name}/{scenario}: no AgentFailure in {events}"
        if scenario == "error":
            assert any("conformance-error" in f.message for f in failures)
        return
    assert not failures, f"{kit.name}/{scenario}: unexpected failure {failures}"
    outcome.provider.finish()
    if scenario == "audio":
        audio = _of(events, AudioDelta)
        assert audio, f"{kit.name}: no AudioDelta"
        assert all(a.sample_rate == kit.provider_rate for a in audio)
        total = sum(len(a.pcm) for a in audio)
        assert total == PROVIDER_AUDIO_SAMPLES, f"{kit.name}: {total} samples"
        assert outcome.provider.ignored, f"{kit.name}: no user audio reached the provider"
    elif scenario == "transcript":
        text = "".join(t.text for t in _of(events, TranscriptDelta))
        assert text == TRANSCRIPT, f"{kit.name}: transcript {text!r}"
    elif scenario == "tool_call":
        [call] = _of(events, ToolCallRequest)
        assert call.name == TOOL.name and call.arguments == TOOL_ARGUMENTS
        assert call.call_id
    elif scenario == "barge_in":
        kinds = [type(e) for e in events]
        assert SpeechStarted in kinds and SpeechCancelled in kinds, f"{kit.name}: {kinds}"
        assert kinds.index(SpeechStarted) <= kinds.index(SpeechCancelled)


def run_scenario(kit: ConformanceKit, scenario: str) -> Outcome:
    """Run one scenario (blocking) and check it; returns what happened.

    Raises `ScenarioNotApplicable` for a scenario the kit declared not applicable."""
    reason = not_applicable(kit, scenario)
    if reason is not None:
        raise ScenarioNotApplicable(f"{kit.name}/{scenario}: {reason}")
    outcome = asyncio.run(asyncio.wait_for(_drive(kit, scenario), timeout=10))
    check(scenario, outcome, kit)
    return outcome
