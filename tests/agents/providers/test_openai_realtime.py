"""The `openai-realtime` adapter: options, protocol units and the conformance suite."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from duplexbench.agents._audio_protocol import StreamingAgent
from duplexbench.agents._events import (
    AgentEvent,
    AgentFailure,
    AudioDelta,
    ResponseDone,
    SpeechCancelled,
    SpeechStarted,
    ToolCallRequest,
    TranscriptDelta,
    UsageDelta,
)
from duplexbench.agents._protocol import AgentError, ToolResultMessage
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._providers.openai_realtime import OpenAIRealtimeAgent, RealtimeOptions
from duplexbench.agents._providers.transport import (
    ConnectionNotOpened,
    Message,
    Transport,
    TransportError,
)
from duplexbench.agents._registry import get_agent, parse_spec
from duplexbench.audio._frames import AudioFrame
from duplexbench.testing import Disconnect, Emit, Expect, ScriptedProvider
from duplexbench.testing._conformance import (
    PROVIDER_AUDIO_SAMPLES,
    SCENARIOS,
    TOOL,
    TOOL_ARGUMENTS,
    TOOL_OUTPUT,
    TRANSCRIPT,
    run_scenario,
    session,
)
from duplexbench.testing._provider import Step
from support.waiting import until

APPEND = rt.APPEND
AUDIO_NAMES = {"ga": (rt.AUDIO_DELTA, rt.TRANSCRIPT_DELTA)}
AUDIO_NAMES["beta"] = ("response.audio.delta", "response.audio_transcript.delta")


def pcm(n: int, value: int = 1000) -> str:
    return rt.encode_pcm16(np.full(n, value, dtype=np.int16))


def created(rid: str) -> Emit:
    return Emit({"type": rt.RESPONSE_CREATED, "response": {"id": rid, "status": "in_progress"}})


def done(rid: str, status: str = "completed", **extra: Any) -> Emit:
    return Emit({"type": rt.RESPONSE_DONE, "response": {"id": rid, "status": status, **extra}})


def audio(rid: str, samples: int, names: str = "ga", item: str = "item_1") -> Emit:
    return Emit(
        {
            "type": AUDIO_NAMES[names][0],
            "response_id": rid,
            "item_id": item,
            "output_index": 0,
            "content_index": 0,
            "delta": pcm(samples),
        }
    )


def transcript(rid: str, text: str, names: str = "ga") -> Emit:
    return Emit(
        {"type": AUDIO_NAMES[names][1], "response_id": rid, "item_id": "item_1", "delta": text}
    )


def call(rid: str, call_id: str, arguments: str, kind: str = rt.ARGUMENTS_DONE) -> Emit:
    body = {"name": TOOL.name, "call_id": call_id, "arguments": arguments}
    if kind == rt.OUTPUT_ITEM_DONE:
        item = {"type": "function_call", "status": "completed", **body}
        return Emit({"type": kind, "response_id": rid, "item": item})
    return Emit({"type": kind, "response_id": rid, "item_id": f"fc_{call_id}", **body})


def output_of(call_id: str) -> Expect:
    return Expect(
        rt.ITEM_CREATE,
        {"item": {"type": "function_call_output", "call_id": call_id}},
        check=lambda m: json.loads(m["item"]["output"]) == TOOL_OUTPUT,
    )


def _session_ok(api: str, message: Message) -> bool:
    s = message["session"]
    ok = s["instructions"] == "Be helpful." and s["tool_choice"] == "auto"
    ok &= s["tools"] == [rt.function_tool(TOOL)]
    if api == "beta":
        return bool(ok and s["voice"] == "marin" and s["input_audio_format"] == "pcm16")
    pcm16 = {"type": "audio/pcm", "rate": 24_000}
    audio_cfg = s["audio"]
    ok &= s["type"] == "realtime" and audio_cfg["input"]["format"] == pcm16
    ok &= audio_cfg["output"] == {"format": pcm16, "voice": "marin"}
    return bool(ok and audio_cfg["input"]["turn_detection"]["type"] == "server_vad")


def setup_steps(api: str = "ga") -> list[Step]:
    return [
        Emit({"type": rt.SESSION_CREATED, "session": {}}),
        Expect(rt.SESSION_UPDATE, check=lambda m: _session_ok(api, m)),
        Emit({"type": rt.SESSION_UPDATED, "session": {}}),
    ]


@dataclass
class RealtimeKit:
    """Conformance kit for `openai-realtime`: `api` shapes session.update, `names` the events."""

    api: str = "ga"
    names: str = "ga"
    provider_rate: int = rt.WIRE_RATE
    ignore: tuple[str, ...] = (APPEND,)
    name: str = ""

    def __post_init__(self) -> None:
        self.name = f"openai-realtime[api={self.api},events={self.names}]"

    def make(self, transport: Transport) -> StreamingAgent:
        return OpenAIRealtimeAgent(RealtimeOptions(api=self.api), transport)

    def script(self, scenario: str) -> list[Step]:
        n, half = self.names, PROVIDER_AUDIO_SAMPLES // 2
        body: dict[str, list[Step]] = {
            "setup": [],
            "audio": [created("r1"), audio("r1", half, n), audio("r1", half, n), done("r1")],
            "transcript": [
                created("r1"),
                transcript("r1", TRANSCRIPT[:10], n),
                transcript("r1", TRANSCRIPT[10:], n),
                done("r1"),
            ],
            "tool_call": [
                created("r1"),
                call("r1", "call_1", json.dumps(TOOL_ARGUMENTS)),
                call("r1", "call_1", json.dumps(TOOL_ARGUMENTS), rt.OUTPUT_ITEM_DONE),
                done("r1"),
                output_of("call_1"),
                Expect(rt.RESPONSE_CREATE),
                created("r2"),
                audio("r2", 480, n),
                done("r2"),
            ],
            "barge_in": [
                created("r1"),
                audio("r1", 24_000, n),
                Expect(APPEND),
                Expect(APPEND),
                Expect(APPEND),
                Emit({"type": rt.SPEECH_STARTED, "audio_start_ms": 100, "item_id": "u1"}),
                Expect(rt.RESPONSE_CANCEL, {"response_id": "r1"}),
                Expect(
                    rt.ITEM_TRUNCATE,
                    {"item_id": "item_1", "content_index": 0},
                    check=lambda m: 0 < m["audio_end_ms"] < 1000,
                ),
                done("r1", "cancelled"),
            ],
            "error": [
                Emit(
                    {
                        "type": rt.ERROR,
                        "error": {
                            "type": "invalid_request_error",
                            "code": "conformance-error",
                            "message": "Something broke",
                            "event_id": None,
                        },
                    }
                )
            ],
            "disconnect": [Disconnect()],
        }
        return setup_steps(self.api) + body[scenario]


KITS = [RealtimeKit(), RealtimeKit(names="beta"), RealtimeKit(api="beta", names="beta")]


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.name)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance(kit: RealtimeKit, scenario: str) -> None:
    outcome = run_scenario(kit, scenario)
    if scenario == "tool_call":
        creates = [m for m in outcome.provider.sent if m["type"] == rt.RESPONSE_CREATE]
        assert len(creates) == 1


# --- options and registration -------------------------------------------------


def test_options_from_spec() -> None:
    spec = parse_spec("openai-realtime:gpt-x?voice=Cedar&base_url=http://127.0.0.1:9/v1/")
    options = RealtimeOptions.from_spec(spec)
    assert options.model == "gpt-x" and options.voice == "cedar"
    assert options.url == "ws://127.0.0.1:9/v1/realtime?model=gpt-x"
    assert RealtimeOptions.from_spec(parse_spec("openai-realtime")).url == (
        "wss://api.openai.com/v1/realtime?model=gpt-realtime"
    )
    spec = parse_spec("openai-realtime?vad_silence_ms=300&vad_threshold=0.7&api=beta")
    options = RealtimeOptions.from_spec(spec)
    assert (options.vad_silence_ms, options.vad_threshold, options.api) == (300, 0.7, "beta")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("openai-realtime?voice=nova", "unknown voice 'nova'.*voice_check=off"),
        ("openai-realtime?colour=red", "unknown option"),
        ("openai-realtime?vad_silence_ms=soon", "not a int"),
        ("openai-realtime?api=v2", "api must be"),
        ("openai-realtime?base_url=ftp://x", "base_url"),
    ],
)
def test_bad_options(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_agent(spec)[0].create(parse_spec(spec), "audio")


def test_registered_and_voice_check_off() -> None:
    info, spec = get_agent("openai-realtime:gpt-realtime?voice=custom_v&voice_check=off")
    assert info.channels == ("audio",)
    agent = info.create(spec, "audio")
    assert isinstance(agent, OpenAIRealtimeAgent) and isinstance(agent, StreamingAgent)
    assert agent.options.voice == "custom_v"
    with pytest.raises(ValueError, match="no text channel"):
        info.create(spec, "text")


def test_key_stays_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-test-do-not-leak-123"
    monkeypatch.setenv("DB_TEST_REALTIME_KEY", secret)
    spec = parse_spec("openai-realtime?api_key_env=DB_TEST_REALTIME_KEY&base_url=ws://127.0.0.1:9")
    agent = get_agent(spec.raw)[0].create(spec, "audio")
    assert isinstance(agent, OpenAIRealtimeAgent)
    assert agent.options.headers(agent.options.api_key())["Authorization"] == f"Bearer {secret}"
    with pytest.raises(ConnectionNotOpened) as caught:  # never opened: a harness error
        asyncio.run(agent.connect(session()))
    assert secret not in str(caught.value) and "cannot connect" in str(caught.value)
    assert secret not in repr(agent) and secret not in repr(agent.options)
    assert secret not in repr(vars(agent))


def test_missing_key_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DB_TEST_MISSING_KEY", raising=False)
    options = RealtimeOptions(api_key_env="DB_TEST_MISSING_KEY")
    with pytest.raises(AgentError, match="environment variable DB_TEST_MISSING_KEY"):
        asyncio.run(OpenAIRealtimeAgent(options).connect(session()))
    local = RealtimeOptions(api_key_env="DB_TEST_MISSING_KEY", base_url="ws://localhost:1/v1")
    assert local.api_key() is None and local.headers(None) == {}
    assert RealtimeOptions(api="beta").headers("k") == {
        "OpenAI-Beta": "realtime=v1",
        "Authorization": "Bearer k",
    }


# --- protocol behaviour -----------------------------------------------------


@dataclass
class Run:
    events: list[AgentEvent]
    agent: OpenAIRealtimeAgent
    provider: ScriptedProvider

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


async def _drive(
    agent: OpenAIRealtimeAgent,
    tap: ScriptedProvider,
    frames: int,
    answer: bool,
) -> list[AgentEvent]:
    """Stream `frames` frames, after each one waiting until the adapter has handled all
    the provider sent (or failed), then polling; at the end, until the script has run to
    its end and been read (or the adapter failed)."""
    events: list[AgentEvent] = []

    def stuck() -> str:
        return f"the adapter to catch up (script at its end: {tap.finished()}): {events}"

    await agent.connect(session())
    tone = (np.sin(np.arange(320) / 5) * 8000).astype(np.int16)
    for i in range(frames):
        await agent.send_audio(AudioFrame(i * 20, tone))
        await until(lambda: tap.caught_up() or not agent.ready, 3, stuck)
        batch = list(agent.poll())
        events += batch
        for e in batch:
            if answer and isinstance(e, ToolCallRequest):
                result = ToolResultMessage(e.call_id or "", e.name, TOOL_OUTPUT)
                await agent.send_tool_result(result)
    await until(lambda: (tap.finished() and tap.caught_up()) or not agent.ready, 3, stuck)
    events += agent.poll()
    await agent.close()
    return events


def run(
    steps: Sequence[Step],
    frames: int = 8,
    answer: bool = True,
    transport: type[ScriptedProvider] = ScriptedProvider,
    **options: Any,
) -> Run:
    async def go() -> Run:
        provider = transport([*setup_steps(), *steps], ignore=(APPEND,))
        tap = provider
        agent = OpenAIRealtimeAgent(RealtimeOptions(**options), tap)
        events = await _drive(agent, tap, frames, answer)
        return Run(events, agent, provider)

    return asyncio.run(asyncio.wait_for(go(), 10))


def test_malformed_arguments_pass_through_raw() -> None:
    out = run([created("r1"), call("r1", "c1", '{"id": "A-1'), done("r1")], answer=False)
    [request] = out.of(ToolCallRequest)
    assert request.arguments == '{"id": "A-1' and request.call_id == "c1"
    assert not out.of(AgentFailure)


def test_all_outputs_then_one_response_create() -> None:
    out = run(
        [
            created("r1"),
            call("r1", "c1", '{"id": "1"}'),
            call("r1", "c2", '{"id": "2"}'),
            done("r1"),
            output_of("c1"),
            output_of("c2"),
            Expect(rt.RESPONSE_CREATE),
        ]
    )
    out.provider.finish()
    assert [c.call_id for c in out.of(ToolCallRequest)] == ["c1", "c2"]
    assert [m["type"] for m in out.provider.sent].count(rt.RESPONSE_CREATE) == 1


def test_no_response_create_while_the_response_is_active() -> None:
    # The output is sent before response.done: response.create must wait for it.
    out = run(
        [
            created("r1"),
            call("r1", "c1", "{}"),
            output_of("c1"),
            done("r1"),
            Expect(rt.RESPONSE_CREATE),
        ]
    )
    out.provider.finish()
    assert not out.of(AgentFailure)


def test_usage_and_response_done() -> None:
    usage = {
        "input_tokens": 120,
        "output_tokens": 80,
        "input_token_details": {"audio_tokens": 100, "text_tokens": 20},
        "output_token_details": {"audio_tokens": 60, "text_tokens": 20},
    }
    out = run([created("r1"), done("r1", usage=usage)])
    assert out.of(ResponseDone) and out.of(UsageDelta) == [UsageDelta(120, 80, 100, 60)]


@pytest.mark.parametrize("code", sorted(rt.BENIGN_ERROR_CODES))
def test_benign_errors_are_counted_not_fatal(code: str) -> None:
    error = {"type": "invalid_request_error", "code": code, "message": "no", "event_id": None}
    out = run([Emit({"type": rt.ERROR, "error": error})])
    assert not out.of(AgentFailure) and out.agent.benign_errors == [f"{code}: no"]


def test_errors_caused_by_our_truncate_are_benign() -> None:
    class Echoing(ScriptedProvider):
        """Answers the truncate with an error that names it (event_id)."""

        async def send(self, message: Message) -> None:
            await super().send(message)
            if message["type"] == rt.ITEM_TRUNCATE:
                error = {"code": "invalid_value", "message": "too long"}
                error["event_id"] = message["event_id"]
                self._inbox.put_nowait({"type": rt.ERROR, "error": error})

    out = run(
        [
            created("r1"),
            audio("r1", 24_000),
            done("r1"),
            Expect(APPEND),
            Expect(APPEND),
            Expect(APPEND),  # audio has played for two polls (>= 5 ms)
            Emit({"type": rt.SPEECH_STARTED}),
            Expect(rt.ITEM_TRUNCATE, {"item_id": "item_1"}),
        ],
        transport=Echoing,
    )
    out.provider.finish()
    assert not out.of(AgentFailure) and out.agent.benign_errors == ["invalid_value: too long"]
    kinds = [type(e) for e in out.events]
    assert kinds.index(SpeechStarted) < kinds.index(SpeechCancelled)
    assert rt.RESPONSE_CANCEL not in [m["type"] for m in out.provider.sent]  # r1 was done


def test_speech_started_when_quiet_is_informational() -> None:
    out = run([Emit({"type": rt.SPEECH_STARTED}), Emit({"type": rt.SPEECH_STOPPED})])
    assert out.of(SpeechStarted) and not out.of(SpeechCancelled)


def test_deltas_of_a_cancelled_response_are_dropped() -> None:
    out = run(
        [
            created("r1"),
            Emit({"type": rt.SPEECH_STARTED}),
            Expect(rt.RESPONSE_CANCEL),
            audio("r1", 480),
            transcript("r1", "late words"),
            call("r1", "c9", "{}"),
            done("r1", "cancelled"),
        ]
    )
    assert out.of(SpeechCancelled) and not out.of(AudioDelta)
    assert not out.of(TranscriptDelta) and not out.of(ToolCallRequest)


def test_server_cancel_while_audio_plays_stops_it() -> None:
    out = run(
        [
            created("r1"),
            audio("r1", 48_000),
            Expect(APPEND),
            Expect(APPEND),
            done("r1", "cancelled"),
        ]
    )
    kinds = [type(e) for e in out.events]
    assert kinds.index(AudioDelta) < kinds.index(SpeechCancelled)


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([Emit({"type": rt.AUDIO_DELTA, "delta": "%%%not base64"})], "not valid base64"),
        ([Emit({"type": rt.AUDIO_DELTA, "delta": "AAAA"})], "whole PCM16"),
        ([created("r1"), done("r1", "failed", status_details={"error": "boom"})], "boom"),
        ([Emit({"type": rt.ERROR, "error": {"code": "x", "message": "bad"}})], "x: bad"),
        ([Disconnect()], "connection closed"),
    ],
)
def test_failures(steps: list[Step], message: str) -> None:
    out = run(steps)
    [failure] = out.of(AgentFailure)
    assert message in failure.message


def test_malformed_json_is_a_failure() -> None:
    class Garbled(ScriptedProvider):
        async def recv(self, timeout: float | None = None) -> Message | None:
            message = await super().recv(timeout)
            if message is not None and message["type"] == "garble":
                raise TransportError("not JSON: 'x'")
            return message

    out = run([Emit({"type": "garble"})], transport=Garbled)
    [failure] = out.of(AgentFailure)
    assert "malformed message" in failure.message


def test_unknown_events_are_counted_and_ignored() -> None:
    out = run([Emit({"type": "brand.new.event"}), Emit({"type": "rate_limits.updated"})])
    assert out.agent.unknown_events == {"brand.new.event": 1} and not out.of(AgentFailure)


def test_inbox_is_bounded() -> None:
    out = run([created("r1")] + [transcript("r1", "x") for _ in range(20)], max_inbox=5)
    [failure] = out.of(AgentFailure)
    assert "more than 5 events" in failure.message
    assert len(out.of(TranscriptDelta)) == 5


def test_setup_error_and_timeout_raise_at_connect() -> None:
    async def connect(steps: list[Step], timeout: float = 5) -> None:
        agent = OpenAIRealtimeAgent(
            RealtimeOptions(connect_timeout=timeout), ScriptedProvider(steps)
        )
        try:
            await agent.connect(session())
        finally:
            await agent.close()

    bad = {"type": rt.ERROR, "error": {"code": "invalid_value", "message": "bad voice"}}
    with pytest.raises(AgentError, match="setup failed: provider error invalid_value: bad voice"):
        asyncio.run(connect([Expect(rt.SESSION_UPDATE), Emit(bad)]))
    with pytest.raises(AgentError, match=r"no session\.updated"):
        asyncio.run(connect([Expect(rt.SESSION_UPDATE)], timeout=0.1))
    with pytest.raises(AgentError, match="connection closed"):
        asyncio.run(connect([Expect(rt.SESSION_UPDATE), Disconnect()]))


def test_protocol_helpers() -> None:
    samples = np.array([0, 1, -1, 32767, -32768], dtype=np.int16)
    assert np.array_equal(rt.decode_pcm16(rt.encode_pcm16(samples)), samples)
    with pytest.raises(ValueError):
        rt.decode_pcm16(42)
    assert rt.tool_arguments('{"a": 1}') == {"a": 1} and rt.tool_arguments("") == {}
    assert rt.canonical("response.audio.delta") == rt.AUDIO_DELTA
    assert rt.usage({"usage": None}) is None
    assert rt.error_fields({"error": "weird"})[0] == "unknown"


@pytest.mark.parametrize(("src", "dst", "chunk"), [(16_000, 24_000, 320), (24_000, 16_000, 480)])
def test_stream_resampler_is_exact_continuous_and_prompt(src: int, dst: int, chunk: int) -> None:
    t = np.arange(src) / src
    x = (np.sin(2 * np.pi * 440 * t) * 10_000).astype(np.int16)
    stream = rt.StreamResampler(src, dst)
    parts = [stream.process(x[i : i + chunk]) for i in range(0, len(x), chunk)]
    assert {len(p) for p in parts} == {chunk * dst // src}  # every frame out at once
    y = np.concatenate(parts)
    assert np.array_equal(y, rt.StreamResampler(src, dst).process(x))  # no seams
    ref = np.sin(2 * np.pi * 440 * np.arange(len(y)) / dst) * 10_000
    delay = int(0.002 * dst)  # the delay is under 2 ms
    errors = [
        np.abs(y[dst // 4 + d : -dst // 4] - ref[dst // 4 : -dst // 4 - d]).max()
        for d in range(delay)
    ]
    assert min(errors) < 30
