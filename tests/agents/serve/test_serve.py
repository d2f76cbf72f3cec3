"""`serve-agent` over a real loopback socket: with our adapter, raw clients and the official SDK."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import openai  # a dev dependency: the compatibility test must run, never skip
import pytest
import websockets
from openai.types.realtime import (
    RealtimeConversationItemFunctionCallOutputParam,
    RealtimeFunctionToolParam,
    ResponseAudioDeltaEvent,
    ResponseAudioTranscriptDeltaEvent,
)

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import (
    AgentEvent,
    AgentFailure,
    AudioDelta,
    ResponseDone,
    SpeechCancelled,
    SpeechStarted,
    ToolCallRequest,
    TranscriptDelta,
)
from duplexbench.agents._protocol import AgentSession, ToolResultMessage, ToolSpec
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._providers.openai_realtime import OpenAIRealtimeAgent, RealtimeOptions
from duplexbench.agents._registry import AgentSpec, Channel, get_agent, register_agent
from duplexbench.agents._serve import RealtimeServer, ServeConfig, is_loopback
from duplexbench.audio._frames import AudioFrame, energy
from duplexbench.audio._pcm import Int16Array, resample
from support.waiting import until

TALKER = "test-serve-talker"
TEXT_ONLY = "test-serve-text-only"
LINE1, LINE2 = "Let me check that order.", "Your order has shipped."
FIRST_MS, ANSWER_MS = 400, 2000
TOOL = ToolSpec(
    "lookup_order",
    "Look up an order by id.",
    {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
)
RESULT = {"ok": True, "result": {"status": "shipped"}}


def tone(ms: int, rate: int) -> Int16Array:
    t = np.arange(rate * ms // 1000) / rate
    return (np.sin(2 * np.pi * 220 * t) * 6000).astype(np.int16)


def speech(ms: int, rate: int = 16_000) -> Int16Array:
    """Speech-like: a 140 Hz harmonic buzz with a 4 Hz syllable envelope."""
    t = np.arange(rate * ms // 1000) / rate
    buzz = sum(np.sin(2 * np.pi * 140 * k * t) / k for k in range(1, 6))
    envelope = 0.6 + 0.4 * np.sin(2 * np.pi * 4 * t)
    return (buzz * envelope * 5000).astype(np.int16)


class Talker:
    """After 500 ms of user speech then 500 ms of silence: a line, audio and a tool call;
    on the tool result: a long answer (long enough to barge in on)."""

    def __init__(self) -> None:
        self.speech_ms = self.silence_ms = 0
        self.session: AudioSession | None = None

    def start(self, session: AudioSession) -> None:
        self.session = session

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        if tool_results:
            assert tool_results[0].output == RESULT and tool_results[0].name == TOOL.name
            return [TranscriptDelta(LINE2), AudioDelta(tone(ANSWER_MS, 16_000)), ResponseDone()]
        if energy(frame.samples) > 1e-4:
            self.speech_ms, self.silence_ms = self.speech_ms + frame.duration_ms, 0
        else:
            self.silence_ms += frame.duration_ms
        if self.speech_ms < 500 or self.silence_ms < 500:
            return []
        self.speech_ms = 0
        return [
            TranscriptDelta(LINE1),
            AudioDelta(tone(FIRST_MS, 24_000), 24_000),
            ToolCallRequest(TOOL.name, {"id": "A-17"}),
            ResponseDone(),
        ]

    def close(self) -> None:
        return None


def _register() -> None:
    try:
        get_agent(TALKER)
    except ValueError:

        @register_agent(TALKER, description="serve-agent test agent", channels=("audio",))
        def _talker(spec: AgentSpec, channel: Channel) -> Talker:
            return Talker()

        @register_agent(TEXT_ONLY, description="no audio channel")
        def _text(spec: AgentSpec, channel: Channel) -> Any:
            raise AssertionError("never created")


_register()


def serve(agent: str = TALKER, **kw: Any) -> RealtimeServer:
    return RealtimeServer(ServeConfig(agent=agent, port=0, **kw))


def run(coro: Any, timeout: float = 10) -> Any:
    return asyncio.run(asyncio.wait_for(coro, timeout))


# --- our adapter against serve-agent ------------------------------------------


@dataclass
class User:
    """Speaks 600 ms, waits; 700 ms after the answer arrives (300 ms into it, after the
    400 ms first line) it barges in for 300 ms."""

    log: list[tuple[float, AgentEvent]] = field(default_factory=list)
    marks: dict[str, float] = field(default_factory=dict)
    barge_frames: int = 0
    sent: list[float] = field(default_factory=list)

    def frame(self, i: int) -> Int16Array:
        if i < 30:
            self.marks["speech_end"] = time.monotonic()
            return speech(20)
        answer = [t for t, e in self.log if isinstance(e, TranscriptDelta) and e.text == LINE2]
        if answer and time.monotonic() - answer[0] >= 0.7 and self.barge_frames < 15:
            self.barge_frames += 1
            return speech(20)
        return np.zeros(320, dtype=np.int16)

    def done(self) -> bool:
        return any(isinstance(e, SpeechCancelled) for _, e in self.log) and self.barge_frames >= 15


async def converse(
    agent: OpenAIRealtimeAgent, user: User, server: RealtimeServer, max_frames: int = 300
) -> None:
    """Drives the agent like the streaming loop: real-time frames, tool results, polls;
    after the barge-in, waits until `server` has the truncate, then hangs up."""

    async def collect() -> None:
        for event in agent.poll():
            user.log.append((time.monotonic(), event))
            if isinstance(event, ToolCallRequest):
                result = ToolResultMessage(event.call_id or "", event.name, RESULT)
                await agent.send_tool_result(result)

    text = AgentSession("Be helpful.", (TOOL,), "serve-test", 0)
    await agent.connect(AudioSession(text, frame_ms=20))
    start = time.monotonic()
    for i in range(max_frames):
        while time.monotonic() < start + i * 0.02:  # poll finely to time the first byte
            await collect()
            await asyncio.sleep(0.001)  # pacing: real-time frames, the first byte timed to 1 ms
        samples = user.frame(i)
        user.sent.append(time.monotonic())
        await agent.send_audio(AudioFrame(i * 20, samples))
        await collect()
        if user.done():
            break
    await until(lambda: server.sessions[0].truncations, 2, "the truncate to reach the server")
    await collect()
    await agent.close()


def test_adapter_round_trip_with_tool_call_and_barge_in() -> None:
    async def go() -> tuple[User, RealtimeServer]:
        ended = asyncio.Event()
        async with serve(on_session_end=lambda stats: ended.set()) as server:
            agent = OpenAIRealtimeAgent(RealtimeOptions(base_url=server.url))
            user = User()
            await converse(agent, user, server)
            await until(ended.is_set, 2, "the server to see the hang-up")
        return user, server

    user, server = run(go())
    events = [e for _, e in user.log]
    assert not [e for e in events if isinstance(e, AgentFailure)]
    text = [e.text for e in events if isinstance(e, TranscriptDelta)]
    assert text == [LINE1, LINE2]
    [call] = [e for e in events if isinstance(e, ToolCallRequest)]
    assert call.name == TOOL.name and call.arguments == {"id": "A-17"} and call.call_id
    audio = [e for e in events if isinstance(e, AudioDelta)]
    assert all(a.sample_rate == rt.WIRE_RATE for a in audio)
    expected = (FIRST_MS + ANSWER_MS) * rt.WIRE_RATE // 1000
    assert abs(sum(len(a.pcm) for a in audio) - expected) <= 48
    kinds = [type(e) for e in events]
    assert kinds.count(ResponseDone) == 2
    barge = kinds.index(SpeechCancelled)
    assert SpeechStarted in kinds[:barge]
    [stats] = server.sessions
    assert stats.tool_results == 1 and stats.errors == []
    [heard_ms] = stats.truncations  # the answer was cut after ~300 ms of play
    assert 200 <= heard_ms <= 1200, heard_ms
    first_audio = next(t for t, e in user.log if isinstance(e, AudioDelta))
    latency = first_audio - user.marks["speech_end"]
    trigger = max(t for t in user.sent if t < first_audio)
    print(
        f"\nserve-agent first audio byte: {1000 * latency:.0f} ms after the end of user speech"
        f" (agent endpoint 500 ms); {1000 * (first_audio - trigger):.1f} ms after the frame"
        " that triggered it was sent"
    )
    assert latency < 5


# --- the official OpenAI SDK against serve-agent -----------------------------


def test_official_sdk_client() -> None:
    async def go() -> dict[str, Any]:
        got: dict[str, Any] = {"audio": 0, "text": [], "types": set()}
        async with serve() as server:
            client = openai.AsyncOpenAI(api_key="test", websocket_base_url=server.url)
            async with client.realtime.connect(model="x") as conn:
                await conn.session.update(
                    session={
                        "type": "realtime",
                        "instructions": "Be brief.",
                        "tools": [cast(RealtimeFunctionToolParam, rt.function_tool(TOOL))],
                        "audio": {"output": {"voice": "cedar"}},
                    }
                )

                async def until(kind: str) -> Any:
                    while True:
                        event = await asyncio.wait_for(conn.recv(), 5)
                        got["types"].add(event.type)
                        if event.type == rt.AUDIO_DELTA:
                            assert isinstance(event, ResponseAudioDeltaEvent)
                            got["audio"] += len(base64.b64decode(event.delta)) // 2
                        elif event.type == rt.TRANSCRIPT_DELTA:
                            assert isinstance(event, ResponseAudioTranscriptDeltaEvent)
                            got["text"].append(event.delta)
                        if event.type == kind:
                            return event

                updated = await until(rt.SESSION_UPDATED)
                got["instructions"] = updated.session.instructions
                user = np.concatenate([speech(600), np.zeros(16_000, dtype=np.int16)])
                wire = resample(user, 16_000, rt.WIRE_RATE)
                for start in range(0, len(wire), 480):
                    chunk = rt.encode_pcm16(wire[start : start + 480])
                    await conn.input_audio_buffer.append(audio=chunk)
                call = await until(rt.ARGUMENTS_DONE)
                got["call"] = (call.name, json.loads(call.arguments), call.call_id)
                await until(rt.RESPONSE_DONE)
                output: RealtimeConversationItemFunctionCallOutputParam = {
                    "type": "function_call_output",
                    "call_id": call.call_id,
                    "output": json.dumps(RESULT),
                }
                await conn.conversation.item.create(item=output)
                await conn.response.create()
                silence = rt.encode_pcm16(np.zeros(2_400, dtype=np.int16))
                await conn.input_audio_buffer.append(audio=silence)  # the agent's next step
                done = await until(rt.RESPONSE_DONE)
                got["usage"] = done.response.usage
        return got

    got = run(go())
    assert got["instructions"] == "Be brief."
    assert got["call"][:2] == (TOOL.name, {"id": "A-17"}) and got["call"][2]
    assert got["text"] == [LINE1, LINE2]
    assert abs(got["audio"] - (FIRST_MS + ANSWER_MS) * 24) <= 48
    assert {rt.SPEECH_STARTED, rt.SPEECH_STOPPED, rt.RESPONSE_CREATED} <= got["types"]
    assert rt.ERROR not in got["types"]  # no error event in the whole conversation
    assert got["usage"].output_token_details.audio_tokens == ANSWER_MS // 50


def _user_audio() -> list[bytes]:
    """600 ms of speech then 1.5 s of silence, as 20 ms chunks of 24 kHz PCM16."""
    user = np.concatenate([speech(600), np.zeros(24_000, dtype=np.int16)])
    wire = resample(user, 16_000, rt.WIRE_RATE)
    return [wire[i : i + 480].astype("<i2").tobytes() for i in range(0, len(wire), 480)]


def test_openai_agents_realtime_runner() -> None:
    """The Agents SDK's RealtimeRunner (url=): a function call through to the answer, the
    caller's turn in its history, no error events on either side."""
    realtime = pytest.importorskip("agents.realtime", reason="openai-agents (clients extra)")
    agents_sdk = pytest.importorskip("agents", reason="openai-agents (clients extra)")
    calls: list[str] = []
    function_tool: Callable[..., Callable[[Callable[[str], str]], object]]
    function_tool = agents_sdk.function_tool  # the SDK's module comes untyped from importorskip

    @function_tool(name_override=TOOL.name)
    def lookup_order(id: str) -> str:
        """Look up an order by id."""
        calls.append(id)
        return json.dumps(RESULT)

    async def go() -> tuple[list[Any], Any]:
        async with serve() as server:
            agent = realtime.RealtimeAgent(
                name="a", instructions="Be helpful.", tools=[lookup_order]
            )
            config = {"url": server.url + "/realtime?model=x", "api_key": "test"}
            session = await realtime.RealtimeRunner(agent).run(model_config=config)
            events: list[Any] = []
            async with session:
                for chunk in _user_audio():
                    await session.send_audio(chunk)

                async def answered() -> None:
                    async for event in session:
                        events.append(event)
                        if event.type == "tool_end":  # the agent's next step hears silence
                            for _ in range(10):
                                await session.send_audio(bytes(960))
                        elif event.type == "audio_end" and "tool_end" in [e.type for e in events]:
                            return  # the answer after the tool result has played

                await asyncio.wait_for(answered(), 15)
        return events, server

    events, server = asyncio.run(go())
    kinds = [e.type for e in events]
    assert calls == ["A-17"] and "tool_end" in kinds and "error" not in kinds
    roles = [getattr(e.item, "role", e.item.type) for e in events if e.type == "history_added"]
    assert roles[0] == "user"  # the caller's turn is in the SDK's history
    assert "function_call" in roles and roles[-1] == "assistant"
    [session_stats] = server.sessions
    assert session_stats.errors == []


# --- raw clients: malformed messages, limits, refusals ------------------------


async def _error(ws: Any, payload: str, code: str) -> dict[str, Any]:
    await ws.send(payload)
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert message["type"] == rt.ERROR and message["error"]["code"] == code, message
    return message


def test_malformed_client_messages_get_errors_and_the_session_survives() -> None:
    silence = rt.encode_pcm16(np.zeros(2_400, dtype=np.int16))
    bad = [
        ("not json {", "invalid_json"),
        ("[1, 2]", "invalid_event"),
        ({"type": "bogus", "event_id": "e1"}, "unknown_event"),
        ({"type": rt.APPEND, "audio": "@@@"}, "invalid_audio"),
        ({"type": rt.APPEND, "audio": "A" * 70_000}, "message_too_large"),
        (
            {"type": rt.SESSION_UPDATE, "session": {"audio": {"output": {"format": {}}}}},
            "invalid_value",
        ),
        ({"type": rt.RESPONSE_CANCEL}, "response_cancel_not_active"),
        ({"type": rt.ITEM_TRUNCATE, "item_id": "i"}, "invalid_value"),
        ({"type": rt.ITEM_CREATE, "item": {"type": "function_call_output"}}, "invalid_value"),
    ]

    async def go() -> RealtimeServer:
        server = serve("silent", max_message_bytes=64 * 1024)
        async with server, websockets.connect(server.url + "/realtime?model=x") as ws:
            assert json.loads(await ws.recv())["type"] == rt.SESSION_CREATED
            for payload, code in bad:
                text = payload if isinstance(payload, str) else json.dumps(payload)
                error = await _error(ws, text, code)
            assert error["error"]["event_id"] is None
            await ws.send(json.dumps({"type": rt.APPEND, "audio": silence}))
            update = {"type": rt.SESSION_UPDATE, "session": {"instructions": "hi"}}
            await ws.send(json.dumps(update))
            updated = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert updated["type"] == rt.SESSION_UPDATED
            assert updated["session"]["instructions"] == "hi"
        return server

    [stats] = run(go()).sessions
    assert stats.frames >= 4 and len(stats.errors) == len(bad)  # the resampler holds a little
    assert stats.client_events["bogus"] == 1


def test_each_session_is_logged_when_it_ends() -> None:
    logged: list[dict[str, Any]] = []

    async def go() -> None:
        server = serve("silent", on_session_end=lambda stats: logged.append(stats.record()))
        async with server, websockets.connect(server.url + "/realtime?model=x") as ws:
            await ws.recv()
            await ws.send(json.dumps({"type": "bogus"}))
            assert json.loads(await ws.recv())["error"]["code"] == "unknown_event"
        await until(lambda: logged, what="the session's log record")  # noticed on its own time

    run(go())
    [record] = logged
    assert record["end"] == "client closed" and record["client_events"] == 1
    assert (record["errors"], record["error_codes"]) == (1, ["unknown_event"])
    assert json.loads(json.dumps(record)) == record  # --log-json prints it as is


@pytest.mark.parametrize(
    ("idle", "total", "code"), [(0.2, 30, "idle_timeout"), (30, 0.3, "session_expired")]
)
def test_session_limits_close_with_an_error(idle: float, total: float, code: str) -> None:
    async def go() -> None:
        server = serve("silent", idle_timeout_s=idle, max_session_s=total)
        async with server, websockets.connect(server.url + "/realtime") as ws:
            assert json.loads(await ws.recv())["type"] == rt.SESSION_CREATED
            message = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert message["error"]["code"] == code
            with pytest.raises(websockets.exceptions.ConnectionClosedOK):
                await asyncio.wait_for(ws.recv(), 5)

    run(go())


@pytest.mark.parametrize(
    ("agent", "message"),
    [("oracle", "reference trajectory"), ("openai-realtime", "step agents only")],
)
def test_agent_errors_reach_the_client(agent: str, message: str) -> None:
    async def go() -> None:
        server = serve(agent)
        async with server, websockets.connect(server.url + "/realtime") as ws:
            first = json.loads(await ws.recv())
            if first["type"] == rt.SESSION_CREATED:
                await ws.send(json.dumps(rt.append_audio(np.zeros(2_400, dtype=np.int16))))
                first = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert first["error"]["code"] == "agent_error"
            assert message in first["error"]["message"]
            with pytest.raises(websockets.exceptions.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)

    run(go())


def test_refusals() -> None:
    with pytest.raises(ValueError, match="not loopback"):
        serve("silent", host="0.0.0.0")
    assert serve("silent", host="0.0.0.0", allow_remote=True).config.allow_remote
    assert is_loopback("::1") and is_loopback("localhost") and not is_loopback("example.com")
    with pytest.raises(ValueError, match="no audio channel"):
        serve(TEXT_ONLY)
    with pytest.raises(ValueError, match="unknown agent"):
        serve("no-such-agent")
    with pytest.raises(ValueError, match="frame size"):
        serve("silent", frame_ms=7)

    async def wrong_path() -> None:
        async with serve("silent") as server:
            with pytest.raises(websockets.exceptions.InvalidStatus, match="404"):
                await websockets.connect(server.url + "/elsewhere")

    run(wrong_path())


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize(
    ("stop_signal", "inherit_ignored_sigint"),
    [(signal.SIGINT, False), (signal.SIGINT, True), (signal.SIGTERM, False)],
)
def test_cli_serves_until_interrupted(stop_signal: int, inherit_ignored_sigint: bool) -> None:
    """Ctrl-C and SIGTERM stop the server, also when it was started as a background
    job with SIGINT ignored (a regression: it then never stopped)."""
    code = "from duplexbench.cli import main; main()"
    args = [sys.executable, "-X", "faulthandler", "-c", code, "serve-agent", "--agent", "silent"]
    args += ["--port", "0"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=_ignore_sigint if inherit_ignored_sigint else None,  # noqa: PLW1509
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "serving silent" in line and "ws://127.0.0.1:" in line, line
        url = line.split()[-1]

        async def hello() -> None:
            async with websockets.connect(url + "/realtime") as ws:
                assert json.loads(await ws.recv())["type"] == rt.SESSION_CREATED

        run(hello())
        proc.send_signal(stop_signal)
        try:
            _, err = proc.communicate(timeout=60)  # a liveness bound, not a timing
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)  # faulthandler prints every thread's stack
            _, err = proc.communicate(timeout=10)
            raise AssertionError(f"serve-agent did not stop after Ctrl-C:\n{err}") from None
        assert proc.returncode == 0 and "stopped" in err
        assert "ended: client closed;" in err and "0 errors" in err  # the session's log line
    finally:
        if proc.poll() is None:
            proc.kill()


def test_pipecat_openai_realtime_service() -> None:
    """pipecat's `OpenAIRealtimeLLMService` (base_url=) in a pipeline with its context
    aggregators: the function call reaches the registered handler, its result goes
    back, the answer's audio and text come out; no error on either side."""
    pytest.importorskip("pipecat", reason="pipecat-ai (clients extra)")
    client = pytest.importorskip("support.pipecat_realtime_client")
    user = [speech(600), np.zeros(16_000, dtype=np.int16)]
    got = asyncio.run(asyncio.wait_for(_pipecat_call(client, user), 30))
    assert got.calls == [{"id": "A-17"}]
    assert got.errors == []
    assert LINE2 in " ".join(got.text)
    assert got.audio_ms >= FIRST_MS + ANSWER_MS - 100


async def _pipecat_call(client: Any, user: list[Any]) -> Any:
    async with serve() as server:
        got = await client.converse(server.url + "/realtime", TOOL, RESULT, user, LINE2)
        [stats] = server.sessions
        got.errors += stats.errors
        return got
