"""The gemini-live adapter: the seven conformance scenarios, setup content, key hygiene."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import numpy as np
import pytest
from websockets.asyncio.server import ServerConnection, serve

from duplexbench.agents import get_agent
from duplexbench.agents._events import (
    AgentFailure,
    ResponseDone,
    SpeechStarted,
    SpeechStopped,
    UsageDelta,
)
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.agents._providers.gemini_live import (
    DEFAULT_URL,
    SERVER_CONTENT_IGNORED,
    SERVER_CONTENT_READ,
    SERVER_MESSAGE_KEYS,
    GeminiLiveAgent,
    GeminiLiveConfig,
    setup_message,
)
from duplexbench.agents._providers.secrets import SecretError
from duplexbench.agents._providers.transport import Message, Transport, TransportClosed
from duplexbench.audio._frames import AudioFrame
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
from duplexbench.testing._provider import Disconnect, Emit, Expect, ScriptedProvider, Step
from support.waiting import until

KEY = "AIza-test-secret-value/+="


class Typed:
    """Gemini messages are keyed by kind (`{"setup": ...}`), not by a `type` field:
    this shim names each outgoing message by its single top-level key so the
    scripted provider can match it."""

    def __init__(self, inner: Transport) -> None:
        self.inner = inner

    async def send(self, message: Message) -> None:
        await self.inner.send({"type": next(iter(message)), **message})

    async def recv(self, timeout: float | None = None) -> Message | None:
        return await self.inner.recv(timeout)

    async def close(self) -> None:
        await self.inner.close()


def _audio_b64(n: int) -> str:
    pcm = (np.arange(n) % 200 - 100).astype("<i2")
    return base64.b64encode(pcm.tobytes()).decode()


def _setup_ok(message: Message) -> bool:
    setup = message["setup"]
    [declaration] = setup["tools"][0]["functionDeclarations"]
    return bool(
        setup["model"] == "models/gemini-test"
        and setup["generationConfig"]["responseModalities"] == ["AUDIO"]
        and setup["systemInstruction"]["parts"][0]["text"] == "Be helpful."
        and declaration["name"] == TOOL.name
        and declaration["parametersJsonSchema"] == TOOL.parameters
    )


def _content(**fields: Any) -> Message:
    return {"serverContent": fields}


class GeminiKit:
    name = "gemini-live"
    provider_rate = 24_000
    ignore: tuple[str, ...] = ("realtimeInput",)

    def make(self, transport: Transport) -> GeminiLiveAgent:
        config = GeminiLiveConfig(model="gemini-test", voice="Puck", setup_timeout_s=2)
        return GeminiLiveAgent(config, transport=Typed(transport))

    def script(self, scenario: str) -> list[Step]:
        opening: list[Step] = [
            Expect("setup", check=_setup_ok),
            Emit({"setupComplete": {}}),
        ]
        audio = {"mimeType": "audio/pcm;rate=24000", "data": _audio_b64(PROVIDER_AUDIO_SAMPLES)}
        half = len(TRANSCRIPT) // 2
        scripts: dict[str, list[Step]] = {
            "setup": [],
            "audio": [
                Emit(_content(modelTurn={"parts": [{"inlineData": audio}]})),
                Emit(_content(turnComplete=True)),
            ],
            "transcript": [
                Emit(_content(outputTranscription={"text": TRANSCRIPT[:half]})),
                Emit(_content(outputTranscription={"text": TRANSCRIPT[half:]})),
                Emit(_content(turnComplete=True)),
            ],
            "tool_call": [
                Emit(
                    {
                        "toolCall": {
                            "functionCalls": [
                                {"id": "fc-1", "name": TOOL.name, "args": TOOL_ARGUMENTS}
                            ]
                        }
                    }
                ),
                Expect(
                    "toolResponse",
                    {
                        "toolResponse": {
                            "functionResponses": [
                                {"id": "fc-1", "name": TOOL.name, "response": TOOL_OUTPUT}
                            ]
                        }
                    },
                ),
                Emit(_content(outputTranscription={"text": TRANSCRIPT}, turnComplete=True)),
            ],
            "barge_in": [
                Emit(_content(modelTurn={"parts": [{"inlineData": audio}]})),
                Emit(_content(interrupted=True)),
                Emit(_content(turnComplete=True)),
            ],
            # the Live API reports errors by closing the socket with a reason (its
            # LiveServerMessage has no error field)
            "error": [Disconnect("1007 (invalid frame payload data) conformance-error")],
            "disconnect": [Disconnect()],
        }
        return opening + scripts[scenario]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance(scenario: str) -> None:
    run_scenario(GeminiKit(), scenario)


def test_setup_content() -> None:
    config = GeminiLiveConfig(model="gemini-x", voice="Kore", temperature=0.2, language="en-US")
    setup = setup_message(config, session())["setup"]
    assert setup["model"] == "models/gemini-x"
    assert setup["generationConfig"] == {
        "responseModalities": ["AUDIO"],
        "speechConfig": {
            "voiceConfig": {"prebuiltVoiceConfig": {"voiceName": "Kore"}},
            "languageCode": "en-US",
        },
        "temperature": 0.2,
    }
    assert setup["outputAudioTranscription"] == {}
    openapi = setup_message(GeminiLiveConfig(schema="openapi"), session())["setup"]
    assert openapi["tools"][0]["functionDeclarations"][0]["parameters"] == TOOL.parameters


def test_spec_options() -> None:
    info, spec = get_agent("gemini-live:gemini-2.5-flash-native-audio?voice=Puck&auth=header")
    assert info.channels == ("audio",)
    agent = info.create(spec, "audio")
    assert isinstance(agent, GeminiLiveAgent)
    assert agent.config.voice == "Puck" and agent.config.auth == "header"
    assert agent.config.base_url == DEFAULT_URL
    _, bad = get_agent("gemini-live?colour=blue")
    with pytest.raises(ValueError, match="unknown option"):
        info.create(bad, "audio")


def _drive(agent: GeminiLiveAgent) -> list[Any]:
    """Connect, send a frame; the events once the adapter has failed (as each use here does)."""

    async def go() -> list[Any]:
        await agent.connect(session())
        await agent.send_audio(AudioFrame(0, np.zeros(320, dtype=np.int16)))
        events: list[Any] = []

        def failed() -> bool:
            events.extend(agent.poll())
            return any(isinstance(e, AgentFailure) for e in events)

        await until(failed, 3, lambda: f"the adapter to fail: {events}")
        await agent.close()
        return events

    return asyncio.run(asyncio.wait_for(go(), 5))


def test_key_stays_out_of_urls_errors_and_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_TEST_KEY", KEY)
    seen: list[tuple[str, dict[str, str]]] = []

    async def refuse(url: str, headers: dict[str, str]) -> Transport:
        seen.append((url, headers))
        raise TransportClosed(f"cannot connect to {url}: 403 for key {KEY}")

    config = GeminiLiveConfig(api_key_env="GEMINI_TEST_KEY")
    agent = GeminiLiveAgent(config, connector=refuse)
    [failure] = _drive(agent)
    assert isinstance(failure, AgentFailure)
    assert "***" in failure.message and "403" in failure.message
    assert KEY not in failure.message and "AIza" not in failure.message
    assert "key=" in seen[0][0] and KEY not in repr(agent) and "AIza" not in repr(agent)

    header = GeminiLiveAgent(
        GeminiLiveConfig(api_key_env="GEMINI_TEST_KEY", auth="header"), connector=refuse
    )
    _drive(header)
    assert seen[1] == (DEFAULT_URL, {"x-goog-api-key": KEY})


def test_missing_key_names_the_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.delenv("GEMINI_MISSING_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    agent = GeminiLiveAgent(GeminiLiveConfig(api_key_env="GEMINI_MISSING_KEY"))
    with pytest.raises(SecretError, match="GEMINI_MISSING_KEY"):
        _drive(agent)


def test_setup_timeout_and_go_away() -> None:
    silent = ScriptedProvider([Expect("setup")])
    agent = GeminiLiveAgent(GeminiLiveConfig(setup_timeout_s=0.05), transport=Typed(silent))
    [failure] = _drive(agent)
    assert isinstance(failure, AgentFailure) and "setupComplete" in failure.message

    steps: list[Step] = [
        Expect("setup"),
        Emit({"setupComplete": {}}),
        Emit(
            {
                "usageMetadata": {
                    "promptTokenCount": 12,
                    "responseTokenCount": 30,
                    "promptTokensDetails": [{"modality": "AUDIO", "tokenCount": 10}],
                    "responseTokensDetails": [{"modality": "AUDIO", "tokenCount": 25}],
                },
                "serverContent": {"turnComplete": True},
            }
        ),
        Emit({"goAway": {"timeLeft": "5s"}}),
    ]
    provider = ScriptedProvider(steps, ignore=("realtimeInput",))
    events = _drive(GeminiLiveAgent(GeminiLiveConfig(), transport=Typed(provider)))
    assert UsageDelta(12, 30, 10, 25) in events and ResponseDone() in events
    assert isinstance(events[-1], AgentFailure) and "goAway" in events[-1].message


def test_cancelled_tool_calls_get_no_response() -> None:
    steps: list[Step] = [
        Expect("setup"),
        Emit({"setupComplete": {}}),
        Emit({"toolCall": {"functionCalls": [{"id": "c9", "name": TOOL.name, "args": {}}]}}),
        Emit({"toolCallCancellation": {"ids": ["c9"]}}),
    ]
    tap = provider = ScriptedProvider(steps, ignore=("realtimeInput",))
    agent = GeminiLiveAgent(GeminiLiveConfig(), transport=Typed(tap))

    async def go() -> None:
        await agent.connect(session())
        await until(tap.caught_up, 3, "the adapter to read the call and its cancellation")
        await agent.send_tool_result(ToolResultMessage("c9", TOOL.name, TOOL_OUTPUT))
        await agent.close()

    asyncio.run(go())
    assert not [m for m in provider.sent if m["type"] == "toolResponse"]


def test_over_a_real_websocket(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default connector: the key travels in the URL, audio and events flow."""
    monkeypatch.setenv("GEMINI_TEST_KEY", KEY)
    seen: dict[str, Any] = {}

    async def handler(ws: ServerConnection) -> None:
        seen["path"] = ws.request.path if ws.request else ""
        seen["setup"] = json.loads(await ws.recv())
        await ws.send(json.dumps({"setupComplete": {}}))
        seen["audio"] = json.loads(await ws.recv())
        audio = {"mimeType": "audio/pcm;rate=24000", "data": _audio_b64(240)}
        await ws.send(json.dumps(_content(modelTurn={"parts": [{"inlineData": audio}]})))
        await ws.send(json.dumps(_content(turnComplete=True)))
        await ws.wait_closed()

    async def go() -> list[Any]:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            config = GeminiLiveConfig(
                base_url=f"ws://127.0.0.1:{port}/ws", api_key_env="GEMINI_TEST_KEY"
            )
            agent = GeminiLiveAgent(config)
            await agent.connect(session())
            await agent.send_audio(AudioFrame(0, np.ones(320, dtype=np.int16)))
            events: list[Any] = []

            def answered() -> bool:
                events.extend(agent.poll())
                return ResponseDone() in events

            await until(answered, 3, lambda: f"ResponseDone over the socket: {events}")
            await agent.close()
            return events

    events = asyncio.run(asyncio.wait_for(go(), 5))
    assert seen["path"].startswith("/ws?key=") and "setup" in seen["setup"]
    assert seen["audio"]["realtimeInput"]["audio"]["mimeType"] == "audio/pcm;rate=16000"
    assert len(base64.b64decode(seen["audio"]["realtimeInput"]["audio"]["data"])) == 640
    assert [type(e).__name__ for e in events] == ["AudioDelta", "ResponseDone"]


def test_the_adapter_reads_the_sdk_s_message_shape() -> None:
    """Every field of google-genai's LiveServerMessage / LiveServerContent is read or
    deliberately read past, and every message the scripted provider sends is one the
    SDK accepts (its models forbid unknown keys): the fake speaks the real protocol."""
    genai = pytest.importorskip("google.genai.types", reason="google-genai (clients extra)")
    message_keys = {f.alias or n for n, f in genai.LiveServerMessage.model_fields.items()}
    assert message_keys == set(SERVER_MESSAGE_KEYS)
    content_keys = {f.alias or n for n, f in genai.LiveServerContent.model_fields.items()}
    assert content_keys == SERVER_CONTENT_READ | SERVER_CONTENT_IGNORED
    kit = GeminiKit()
    for scenario in SCENARIOS:
        for step in kit.script(scenario):
            if isinstance(step, Emit):
                genai.LiveServerMessage.model_validate(step.message)


def test_voice_activity_and_unusual_turn_ends_are_read() -> None:
    steps: list[Step] = [
        Expect("setup"),
        Emit({"setupComplete": {}}),
        Emit({"voiceActivity": {"voiceActivityType": "ACTIVITY_START"}}),
        Emit({"voiceActivity": {"voiceActivityType": "ACTIVITY_END"}}),
        Emit(_content(turnComplete=True, turnCompleteReason="MALFORMED_FUNCTION_CALL")),
        Emit({"sessionResumptionUpdate": {"newHandle": "h", "resumable": True}}),
        Emit({"brandNewField": {}}),
    ]
    provider = ScriptedProvider(steps, ignore=("realtimeInput",))
    agent = GeminiLiveAgent(GeminiLiveConfig(), transport=Typed(provider))

    async def go() -> list[Any]:
        await agent.connect(session())
        await until(lambda: agent.unknown_keys, 3, "the last message to be read")
        events: list[Any] = list(agent.poll())
        await agent.close()
        return events

    events = asyncio.run(asyncio.wait_for(go(), 5))
    assert events == [SpeechStarted(), SpeechStopped(), ResponseDone()]
    assert agent.turn_complete_reasons == {"MALFORMED_FUNCTION_CALL": 1}
    assert agent.unknown_keys == {"brandNewField": 1}
