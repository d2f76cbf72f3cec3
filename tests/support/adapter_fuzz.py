"""The harness of the adapter fuzzer (tests/agents/test_fuzz_adapters.py).

A `Target` is a network adapter with its provider's handshake, a sentinel
message (a transcript delta), valid provider messages to mutate and where its
audio field is. `play` runs the adapter on a `WebSocketTransport` over a
`FakeSocket` that plays raw frames: the handshake and the fuzzed frames (in
either order), then the sentinel. It waits until every frame was read or the
adapter stopped reading (never on a clock), fails if the reader task died, and
checks every event (`check_event`). `outcome` is `ok` (the sentinel came
through) or `failure` (an `AgentFailure`, or `AgentError` from `connect`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import event as tally
from hypothesis.control import currently_in_test_context
from websockets.exceptions import ConnectionClosed
from websockets.frames import Close

from duplexbench.agents._audio_protocol import StreamingAgent
from duplexbench.agents._events import (
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
from duplexbench.agents._protocol import AgentError, ToolResultMessage
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._providers.gemini_live import GeminiLiveAgent, GeminiLiveConfig
from duplexbench.agents._providers.openai_realtime import OpenAIRealtimeAgent, RealtimeOptions
from duplexbench.agents._providers.step_audio import StepAudioAgent, StepAudioConfig
from duplexbench.agents._providers.transport import Transport, WebSocketTransport
from duplexbench.audio._frames import AudioFrame
from duplexbench.testing._conformance import TOOL, session
from support.agent_fuzz import b64, encode
from support.fuzzing import CASE_SECONDS, time_guard

SENTINEL = "fuzz-sentinel-5b1f"
CLOSE = object()  # in a frame list: the provider drops the connection here


@dataclass(frozen=True)
class Target:
    name: str
    make: Callable[[Transport], StreamingAgent]
    handshake: list[dict[str, Any]]
    sentinel: dict[str, Any]
    samples: list[dict[str, Any]]
    audio: dict[str, Any]  # a valid audio message; its audio field is at `audio_path`
    audio_path: tuple[Any, ...]


def _realtime_samples(audio_type: str, transcript_type: str) -> list[dict[str, Any]]:
    call = {"name": TOOL.name, "call_id": "c1", "arguments": '{"id": "A-17"}'}
    usage = {"input_tokens": 9, "output_tokens": 5, "input_token_details": {"audio_tokens": 4}}
    failed = {"status": "failed", "status_details": {"error": 1}}
    return [
        {"type": "session.created", "session": {"id": "s1"}},
        {"type": "response.created", "response": {"id": "r1", "status": "in_progress"}},
        {"type": audio_type, "response_id": "r1", "item_id": "i1", "delta": b64(960)},
        {"type": transcript_type, "response_id": "r1", "item_id": "i1", "delta": "Hello"},
        {"type": rt.ARGUMENTS_DONE, "response_id": "r1", "item_id": "fc1", **call},
        {"type": rt.OUTPUT_ITEM_DONE, "item": {"type": "function_call", **call}},
        {"type": rt.RESPONSE_DONE, "response": {"id": "r1", "status": "done", "usage": usage}},
        {"type": rt.RESPONSE_DONE, "response": failed},
        {"type": rt.ERROR, "error": {"code": "response_cancel_not_active", "message": "no"}},
        {"type": rt.SPEECH_STARTED, "audio_start_ms": 100, "item_id": "u1"},
        {"type": rt.SPEECH_STOPPED, "audio_end_ms": 900, "item_id": "u1"},
    ]


BETA = ("response.audio.delta", "response.audio_transcript.delta")
OPENAI_SAMPLES = [*_realtime_samples(rt.AUDIO_DELTA, rt.TRANSCRIPT_DELTA)]
OPENAI_SAMPLES += _realtime_samples(*BETA)[2:4]
STEP_SAMPLES = _realtime_samples(*BETA)
GEMINI_AUDIO = {"mimeType": "audio/pcm;rate=24000", "data": b64(960)}
GEMINI_USAGE = {
    "promptTokenCount": 12,
    "responseTokenCount": 30,
    "promptTokensDetails": [{"modality": "AUDIO", "tokenCount": 10}],
}
GEMINI_SAMPLES: list[dict[str, Any]] = [
    {"setupComplete": {}},
    {"serverContent": {"modelTurn": {"parts": [{"inlineData": GEMINI_AUDIO}]}}},
    {"serverContent": {"outputTranscription": {"text": "Hello"}, "turnComplete": True}},
    {"serverContent": {"interrupted": True}},
    {"toolCall": {"functionCalls": [{"id": "fc-1", "name": TOOL.name, "args": {"id": "A"}}]}},
    {"toolCallCancellation": {"ids": ["fc-1"]}},
    {"usageMetadata": GEMINI_USAGE},
    {"goAway": {"timeLeft": "5s"}},
    {"error": {"code": 400, "message": "bad", "status": "INVALID_ARGUMENT"}},
]
REALTIME_HANDSHAKE: list[dict[str, Any]] = [
    {"type": "session.created", "session": {}},
    {"type": "session.updated"},
]
TARGETS = [
    Target(
        "openai-realtime",
        lambda t: OpenAIRealtimeAgent(RealtimeOptions(connect_timeout=5), t),
        REALTIME_HANDSHAKE,
        {"type": rt.TRANSCRIPT_DELTA, "delta": SENTINEL},
        OPENAI_SAMPLES,
        OPENAI_SAMPLES[2],
        ("delta",),
    ),
    Target(
        "gemini-live",
        lambda t: GeminiLiveAgent(GeminiLiveConfig(setup_timeout_s=5), transport=t),
        [{"setupComplete": {}}],
        {"serverContent": {"outputTranscription": {"text": SENTINEL}}},
        GEMINI_SAMPLES,
        GEMINI_SAMPLES[1],
        ("serverContent", "modelTurn", "parts", 0, "inlineData", "data"),
    ),
    Target(
        "step-audio",
        lambda t: StepAudioAgent(StepAudioConfig(setup_timeout_s=5), transport=t),
        REALTIME_HANDSHAKE,
        {"type": "response.audio_transcript.delta", "delta": SENTINEL},
        STEP_SAMPLES,
        STEP_SAMPLES[2],
        ("delta",),
    ),
]
BY_NAME = {t.name: t for t in TARGETS}


# --- driving an adapter over a fake socket ------------------------------------------------------


class FakeSocket:
    """The `websockets` connection under a `WebSocketTransport`: plays raw frames, keeps sends."""

    def __init__(self, frames: list[Any]) -> None:
        self.frames = list(frames)
        self.sent: list[Any] = []
        self.drained = asyncio.Event()  # every frame was read and the reader waits for more
        self.closed = False

    async def recv(self) -> Any:
        if self.closed or (self.frames and self.frames[0] is CLOSE):
            self.closed = True
            raise ConnectionClosed(Close(1011, "fuzz"), None)
        if not self.frames:
            self.drained.set()
            await asyncio.Event().wait()
        return self.frames.pop(0)

    async def send(self, data: Any) -> None:
        json.loads(data)  # the adapter only ever sends JSON
        self.sent.append(data)

    async def close(self) -> None:
        self.closed = True


def check_event(event: AgentEvent, name: str) -> None:
    if isinstance(event, AudioDelta):
        assert isinstance(event.pcm, np.ndarray) and event.pcm.dtype == np.int16
        assert event.pcm.ndim == 1 and type(event.sample_rate) is int
        assert 8_000 <= event.sample_rate <= 48_000, event.sample_rate
    elif isinstance(event, TranscriptDelta):
        assert isinstance(event.text, str)
    elif isinstance(event, ToolCallRequest):
        assert isinstance(event.name, str) and isinstance(event.call_id, str | None)
    elif isinstance(event, UsageDelta):
        counts = [event.input_tokens, event.output_tokens]
        counts += [event.input_audio_tokens, event.output_audio_tokens]
        assert all(type(n) is int and n >= 0 for n in counts), event
    elif isinstance(event, AgentFailure):
        assert isinstance(event.message, str) and event.message.startswith(f"{name}: ")
        assert len(event.message) <= 1000, len(event.message)
    else:
        kinds = (ResponseDone, SpeechCancelled, SpeechStarted, SpeechStopped, EndCall)
        assert isinstance(event, kinds), event


async def drive(target: Target, frames: list[Any], before: bool) -> list[AgentEvent]:
    """Handshake and frames (in either order), then the sentinel; the events polled."""
    handshake = [encode(m) for m in target.handshake]
    played = [*frames, *handshake] if before else [*handshake, *frames]
    sock = FakeSocket([*played, encode(target.sentinel)])
    agent = target.make(WebSocketTransport(sock))
    try:
        await agent.connect(session())
    except AgentError as exc:  # openai-realtime: the setup failed
        assert str(exc).startswith(f"{target.name}: ")
        await agent.close()
        return [AgentFailure(str(exc))]
    await agent.send_audio(AudioFrame(0, np.full(320, 500, dtype=np.int16)))
    reader: asyncio.Task[None] | None = getattr(agent, "_reader", None)
    if reader is not None:  # None: the session never started (an AgentFailure says why)
        drained = asyncio.ensure_future(sock.drained.wait())
        done, _ = await asyncio.wait([drained, reader], timeout=5, return_when="FIRST_COMPLETED")
        drained.cancel()
        assert done, "the adapter neither read every frame nor stopped reading"
        if reader.done() and not reader.cancelled() and reader.exception() is not None:
            raise AssertionError("the reader task died") from reader.exception()
    events = list(agent.poll())
    for event in events:
        check_event(event, target.name)
        if isinstance(event, ToolCallRequest):
            result = ToolResultMessage(event.call_id or "", event.name, {"ok": True})
            await agent.send_tool_result(result)
    await agent.close()
    return events + list(agent.poll())


def play(target: Target, frames: list[Any], before: bool = False) -> list[AgentEvent]:
    with time_guard():
        events = asyncio.run(asyncio.wait_for(drive(target, frames, before), CASE_SECONDS))
    for event in events:
        check_event(event, target.name)
    return events


def outcome(target: Target, frames: list[Any], before: bool = False) -> str:
    """`ok` (the sentinel came through) or `failure`; anything else fails the test."""
    events = play(target, frames, before)
    failed = any(isinstance(e, AgentFailure) for e in events)
    if not failed:
        assert TranscriptDelta(SENTINEL) in events, f"no failure and no sentinel: {events}"
    result = "failure" if failed else "ok"
    if currently_in_test_context():
        tally(f"outcome: {result}")  # shown by --hypothesis-show-statistics
    return result


def failures(events: list[AgentEvent]) -> list[str]:
    return [e.message for e in events if isinstance(e, AgentFailure)]
