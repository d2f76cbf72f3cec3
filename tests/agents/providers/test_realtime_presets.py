"""`xai-realtime` and `azure-realtime`: URLs and headers, the conformance suite through each
preset, bad options, the key kept out of sight, and each preset against a real serve-agent."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request

from duplexbench.agents._audio_protocol import StreamingAgent
from duplexbench.agents._events import AgentEvent, AgentFailure, AudioDelta, ResponseDone
from duplexbench.agents._protocol import AgentError
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._providers.openai_realtime import OpenAIRealtimeAgent
from duplexbench.agents._providers.realtime_presets import PresetOptions, preset_options
from duplexbench.agents._providers.transport import ConnectionNotOpened, Message, Transport
from duplexbench.agents._registry import get_agent, parse_spec
from duplexbench.agents._serve import RealtimeServer, ServeConfig
from duplexbench.audio._frames import AudioFrame
from duplexbench.testing import Disconnect, Emit, Expect, ScriptedProvider
from duplexbench.testing._conformance import (
    PROVIDER_AUDIO_SAMPLES,
    SCENARIOS,
    TOOL,
    TOOL_ARGUMENTS,
    TRANSCRIPT,
    run_scenario,
    session,
)
from duplexbench.testing._provider import Step
from support.waiting import until

KEY_ENV, KEY = "DB_TEST_PRESET_KEY", "sk-preset-test-do-not-leak-42"
PCM = {"type": "audio/pcm", "rate": rt.WIRE_RATE}
EVENT_NAMES = {
    "ga": (rt.AUDIO_DELTA, rt.TRANSCRIPT_DELTA),
    "beta": ("response.audio.delta", "response.audio_transcript.delta"),
}


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)


def options(spec: str) -> PresetOptions:
    return preset_options(parse_spec(spec))


def keyed(spec: str) -> str:
    """`spec` with `api_key_env` naming the test's key."""
    return f"{spec}{'&' if '?' in spec else '?'}api_key_env={KEY_ENV}"


# --- URLs and headers -------------------------------------------------------------

ENDPOINTS = [
    (
        "xai-realtime",
        "wss://api.x.ai/v1/realtime?model=grok-voice-latest",
        {"Authorization": f"Bearer {KEY}"},
    ),
    (
        "xai-realtime:grok-voice-think-fast-1.0?base_url=http://127.0.0.1:9/v1/",
        "ws://127.0.0.1:9/v1/realtime?model=grok-voice-think-fast-1.0",
        {"Authorization": f"Bearer {KEY}"},
    ),
    (
        "azure-realtime?resource=my-res",
        "wss://my-res.openai.azure.com/openai/v1/realtime?model=gpt-realtime",
        {"api-key": KEY},
    ),
    (
        "azure-realtime:my-dep?endpoint=https://gw.example.com/&auth=bearer",
        "wss://gw.example.com/openai/v1/realtime?model=my-dep",
        {"Authorization": f"Bearer {KEY}"},
    ),
    (
        "azure-realtime:ignored?resource=r1&deployment=dep a&api_version=2025-04-01-preview",
        "wss://r1.openai.azure.com/openai/realtime?api-version=2025-04-01-preview&deployment=dep%20a",
        {"api-key": KEY},
    ),
]


@pytest.mark.parametrize(("spec", "url", "headers"), ENDPOINTS)
def test_url_and_headers(spec: str, url: str, headers: dict[str, str]) -> None:
    opened: list[tuple[str, dict[str, str]]] = []

    async def refuse(at: str, sent: dict[str, str]) -> Transport:
        opened.append((at, sent))
        raise ConnectionNotOpened("refused")

    info, parsed = get_agent(keyed(spec))
    agent = info.create(parsed, "audio")
    assert isinstance(agent, OpenAIRealtimeAgent) and info.channels == ("audio",)
    agent = OpenAIRealtimeAgent(agent.options, connector=refuse)
    with pytest.raises(ConnectionNotOpened, match=f"^{parsed.name}: refused"):
        asyncio.run(agent.connect(session()))
    assert opened == [(url, headers)]


def test_defaults_and_dialects(monkeypatch: pytest.MonkeyPatch) -> None:
    xai = options("xai-realtime?voice=Rex")
    assert (xai.voice, xai.api, xai.api_key_env) == ("rex", "xai", "XAI_API_KEY")
    azure = options("azure-realtime:dep?resource=r")
    assert (azure.model, azure.voice, azure.api, azure.api_key_env) == (
        "dep",
        "marin",
        "ga",
        "AZURE_OPENAI_API_KEY",
    )
    assert options("azure-realtime?resource=r&api_version=2025-04-01-preview").api == "beta"
    assert options("azure-realtime?resource=r&auth=bearer").api_key_env == "AZURE_OPENAI_AD_TOKEN"
    monkeypatch.delenv("DB_TEST_NO_KEY", raising=False)
    local = options("azure-realtime?endpoint=http://localhost:1&api_key_env=DB_TEST_NO_KEY")
    assert local.api_key() is None and local.headers(None) == {}  # loopback: no key needed


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("xai-realtime?colour=red", r"unknown option\(s\) colour; known: api_key_env, base_url"),
        ("azure-realtime?base_url=ws://x", r"unknown option\(s\) base_url; known: .*resource"),
        ("azure-realtime", "azure-realtime: give the Azure resource: resource=NAME"),
        ("azure-realtime:d?deployment=x", "resource=NAME .* or endpoint=URL"),
        ("azure-realtime?resource=a&endpoint=https://b", "not both"),
        ("azure-realtime?resource=a.evil.com/x", "not a resource name"),
        ("azure-realtime?endpoint=nohost", "not a URL like"),
        ("azure-realtime?resource=a&auth=basic", "auth must be 'api-key' or 'bearer'"),
        ("azure-realtime?resource=a&api_version=latest", "api_version 'latest'"),
        ("azure-realtime?resource=a&voice=eve", "azure-realtime: unknown voice 'eve'"),
        ("xai-realtime?voice=marin", "xai-realtime: unknown voice 'marin'.*ara, eve, leo"),
        ("xai-realtime?interrupt_response=off", "interrupt_response=off is not supported"),
        ("xai-realtime?vad_silence_ms=soon", "vad_silence_ms='soon' is not a int"),
        ("xai-realtime?base_url=ftp://x", "xai-realtime: base_url must be"),
    ],
)
def test_bad_options(spec: str, message: str) -> None:
    info, parsed = get_agent(spec)
    with pytest.raises(ValueError, match=message):
        info.create(parsed, "audio")


def test_custom_voice_with_voice_check_off() -> None:
    assert options("xai-realtime?voice=my-voice-7&voice_check=off").voice == "my-voice-7"


# --- the key stays out of sight -----------------------------------------------------


@pytest.mark.parametrize("spec", ["xai-realtime", "azure-realtime?resource=r"])
def test_key_never_in_repr_or_errors(spec: str) -> None:
    async def leaky(url: str, headers: dict[str, str]) -> Transport:
        raise ConnectionNotOpened(f"handshake rejected with headers {headers}")

    agent = OpenAIRealtimeAgent(options(keyed(spec)), connector=leaky)
    with pytest.raises(ConnectionNotOpened) as caught:
        asyncio.run(agent.connect(session()))
    assert "handshake rejected" in str(caught.value) and KEY not in str(caught.value)
    assert KEY not in repr(agent) and KEY not in repr(agent.options)
    assert KEY not in repr(vars(agent))

    echo = {"type": rt.ERROR, "error": {"code": "invalid_api_key", "message": f"bad key {KEY}"}}
    provider = ScriptedProvider([Expect(rt.SESSION_UPDATE), Emit(echo)])
    kit = PresetKit(keyed(spec), "ga", _any)
    with pytest.raises(AgentError, match="setup failed: provider error invalid_api_key") as failed:
        asyncio.run(kit.make(provider).connect(session()))
    assert KEY not in str(failed.value)


# --- conformance through each preset ----------------------------------------------


def _any(message: Message) -> bool:
    return True


def _xai_session(m: Message) -> bool:
    s = m["session"]
    detection = {"type": "server_vad", "threshold": 0.5}
    detection |= {"prefix_padding_ms": 300, "silence_duration_ms": 500}
    return bool(
        "type" not in s
        and "tool_choice" not in s
        and s["voice"] == "eve"
        and s["instructions"] == "Be helpful."
        and s["tools"] == [rt.function_tool(TOOL)]
        and s["turn_detection"] == detection
        and s["audio"] == {"input": {"format": PCM}, "output": {"format": PCM}}
    )


def _ga_session(m: Message) -> bool:
    s = m["session"]
    audio = s["audio"]
    ok = s["type"] == "realtime" and s["tools"] == [rt.function_tool(TOOL)]
    return bool(ok and audio["input"]["format"] == PCM and audio["output"]["voice"] == "marin")


def _beta_session(m: Message) -> bool:
    s = m["session"]
    return bool(s["input_audio_format"] == "pcm16" and s["voice"] == "marin" and "audio" not in s)


@dataclass
class PresetKit:
    """Conformance kit: a preset's agent, opened through its connector onto the script."""

    spec: str
    names: str
    shape_ok: Callable[[Message], bool]
    first: str = rt.SESSION_CREATED
    extra: tuple[Message, ...] = ()
    provider_rate: int = rt.WIRE_RATE
    ignore: tuple[str, ...] = (rt.APPEND,)
    name: str = ""
    opened: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    agents: list[OpenAIRealtimeAgent] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.name = self.spec.partition("?")[0] + f"[{self.names}]"

    def make(self, transport: Transport) -> StreamingAgent:
        async def connector(url: str, headers: dict[str, str]) -> Transport:
            self.opened.append((url, headers))
            return transport

        self.agents.append(OpenAIRealtimeAgent(options(self.spec), connector=connector))
        return self.agents[-1]

    def script(self, scenario: str) -> list[Step]:
        audio_name, text_name = EVENT_NAMES[self.names]
        half = PROVIDER_AUDIO_SAMPLES // 2

        def audio(rid: str, n: int) -> Emit:
            pcm = rt.encode_pcm16(np.full(n, 1000, dtype=np.int16))
            return Emit({"type": audio_name, "response_id": rid, "item_id": "i1", "delta": pcm})

        def text(part: str) -> Emit:
            return Emit({"type": text_name, "response_id": "r1", "item_id": "i1", "delta": part})

        def created(rid: str) -> Emit:
            return Emit({"type": rt.RESPONSE_CREATED, "response": {"id": rid}})

        def done(rid: str, status: str = "completed") -> Emit:
            return Emit({"type": rt.RESPONSE_DONE, "response": {"id": rid, "status": status}})

        arguments = json.dumps(TOOL_ARGUMENTS)
        call = {"type": rt.ARGUMENTS_DONE, "response_id": "r1", "call_id": "c1"}
        error = {"code": "conformance-error", "message": "Something broke", "event_id": None}
        body: dict[str, list[Step]] = {
            "setup": [],
            "audio": [created("r1"), audio("r1", half), audio("r1", half), done("r1")],
            "transcript": [created("r1"), text(TRANSCRIPT[:9]), text(TRANSCRIPT[9:]), done("r1")],
            "tool_call": [
                created("r1"),
                Emit(call | {"name": TOOL.name, "arguments": arguments}),
                done("r1"),
                Expect(rt.ITEM_CREATE, {"item": {"type": "function_call_output", "call_id": "c1"}}),
                Expect(rt.RESPONSE_CREATE),
                created("r2"),
                audio("r2", 480),
                done("r2"),
            ],
            "barge_in": [
                created("r1"),
                audio("r1", 24_000),
                *(Expect(rt.APPEND) for _ in range(3)),
                Emit({"type": rt.SPEECH_STARTED, "item_id": "u1"}),
                Expect(rt.RESPONSE_CANCEL, {"response_id": "r1"}),
                Expect(rt.ITEM_TRUNCATE, {"item_id": "i1", "content_index": 0}),
                done("r1", "cancelled"),
            ],
            "error": [Emit({"type": rt.ERROR, "error": error})],
            "disconnect": [Disconnect()],
        }
        setup: list[Step] = [Emit({"type": self.first}), *(Emit(m) for m in self.extra)]
        setup += [Expect(rt.SESSION_UPDATE, check=self.shape_ok)]
        return [*setup, Emit({"type": rt.SESSION_UPDATED, "session": {}}), *body[scenario]]


KITS = [
    PresetKit(
        f"xai-realtime?api_key_env={KEY_ENV}",
        "ga",
        _xai_session,
        first="conversation.created",
        extra=({"type": "ping", "timestamp": 1},),
    ),
    PresetKit(f"azure-realtime?resource=r&api_key_env={KEY_ENV}", "ga", _ga_session),
    PresetKit(
        f"azure-realtime:d?resource=r&api_version=2025-04-01-preview&api_key_env={KEY_ENV}",
        "beta",
        _beta_session,
    ),
]


@pytest.mark.parametrize("kit", KITS, ids=lambda k: k.name)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance(kit: PresetKit, scenario: str) -> None:
    outcome = run_scenario(kit, scenario)
    agent = kit.agents[-1]
    assert kit.opened[-1] == (agent.options.url, agent.options.headers(KEY))
    assert not agent.unknown_events  # xAI's conversation.created and ping are known
    failures = [e.message for e in outcome.events if isinstance(e, AgentFailure)]
    prefix = kit.spec.partition("?")[0].partition(":")[0]
    assert all(f.startswith(f"{prefix}: ") for f in failures), failures


# --- each preset against a real serve-agent ---------------------------------------


class HeaderTap:
    """A loopback relay in front of serve-agent that records each handshake's path and
    headers (what a server receives), then passes every message both ways."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.removesuffix("/v1")
        self.handshakes: list[tuple[str, dict[str, str]]] = []
        self._server: Server | None = None

    async def start(self) -> str:
        self._server = await serve(
            self._relay, "127.0.0.1", 0, process_request=self._record, max_size=None
        )
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def _record(self, connection: ServerConnection, request: Request) -> None:
        headers = {k.lower(): v for k, v in request.headers.raw_items()}
        self.handshakes.append((request.path, headers))

    async def _relay(self, client: ServerConnection) -> None:
        assert client.request is not None
        async with connect(self.upstream + client.request.path, max_size=None) as upstream:
            pumps = [
                asyncio.create_task(_pump(client, upstream)),
                asyncio.create_task(_pump(upstream, client)),
            ]
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
            for pump in pumps:
                pump.cancel()


async def _pump(source: Any, sink: Any) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for message in source:
            await sink.send(message)


def speech(ms: int, rate: int = 16_000) -> Any:
    """Speech-like: a 140 Hz harmonic buzz with a 4 Hz syllable envelope."""
    t = np.arange(rate * ms // 1000) / rate
    buzz = sum(np.sin(2 * np.pi * 140 * k * t) / k for k in range(1, 6))
    return (buzz * (0.6 + 0.4 * np.sin(2 * np.pi * 4 * t)) * 5000).astype(np.int16)


async def _talk(agent: OpenAIRealtimeAgent) -> list[AgentEvent]:
    """600 ms of speech, then silence until `echo` has answered (ResponseDone)."""
    events: list[AgentEvent] = []

    def answered() -> bool:
        events.extend(agent.poll())
        return any(isinstance(e, ResponseDone | AgentFailure) for e in events)

    await agent.connect(session())
    for i in range(150):  # 3 s of audio at most; then only wait for the answer
        samples = speech(20) if i < 30 else np.zeros(320, dtype=np.int16)
        await agent.send_audio(AudioFrame(i * 20, samples))
        await asyncio.sleep(0.005)  # pacing: a 20 ms frame every 5 ms of wall time
        if answered():
            break
    await until(answered, 10, lambda: f"an answer from serve-agent: {events}")
    await agent.close()
    return events


@pytest.mark.parametrize(
    ("spec", "path", "auth"),
    [
        ("xai-realtime?base_url={url}/v1", "/v1/realtime?model=grok-voice-latest", "authorization"),
        ("azure-realtime:dep-1?endpoint={url}", "/openai/v1/realtime?model=dep-1", "api-key"),
        (
            "azure-realtime:dep-2?endpoint={url}&api_version=2025-04-01-preview",
            "/openai/realtime?api-version=2025-04-01-preview&deployment=dep-2",
            "api-key",
        ),
    ],
)
def test_against_serve_agent(spec: str, path: str, auth: str) -> None:
    async def go() -> tuple[list[AgentEvent], HeaderTap, RealtimeServer]:
        async with RealtimeServer(ServeConfig(agent="echo", port=0)) as server:
            tap = HeaderTap(server.url)
            url = await tap.start()
            try:
                info, parsed = get_agent(keyed(spec.format(url=url)))
                agent = info.create(parsed, "audio")
                assert isinstance(agent, OpenAIRealtimeAgent)
                events = await _talk(agent)
            finally:
                await tap.close()
        return events, tap, server

    events, tap, server = asyncio.run(asyncio.wait_for(go(), 30))
    assert not [e for e in events if isinstance(e, AgentFailure)]
    audio = [e for e in events if isinstance(e, AudioDelta)]
    assert audio and all(a.sample_rate == rt.WIRE_RATE for a in audio)
    [(got_path, headers)] = tap.handshakes
    assert got_path == path
    assert headers[auth] == (f"Bearer {KEY}" if auth == "authorization" else KEY)
    [stats] = server.sessions
    assert stats.errors == [] and stats.client_events[rt.SESSION_UPDATE] == 1
