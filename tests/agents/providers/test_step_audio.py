"""The step-audio adapter: the seven conformance scenarios and its protocol choices."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import numpy as np
import pytest
from websockets.asyncio.server import ServerConnection, serve

from duplexbench.agents import get_agent
from duplexbench.agents._events import AgentFailure, ResponseDone, UsageDelta
from duplexbench.agents._providers.step_audio import StepAudioAgent, StepAudioConfig, session_update
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

KEY = "step-secret-key-123"


def _audio_b64(n: int) -> str:
    return base64.b64encode(np.zeros(n, dtype="<i2").tobytes()).decode()


def _session_ok(message: Message) -> bool:
    s = message["session"]
    return bool(
        s["instructions"] == "Be helpful."
        and s["modalities"] == ["text", "audio"]
        and s["input_audio_format"] == s["output_audio_format"] == "pcm16"
        and s["turn_detection"] == {"type": "server_vad"}
        and s["tools"][0]["function"]["name"] == TOOL.name
        and s["tools"][0]["function"]["parameters"] == TOOL.parameters
    )


def _ev(kind: str, **fields: Any) -> Emit:
    return Emit({"type": kind, **fields})


class StepKit:
    name = "step-audio"
    provider_rate = 24_000
    ignore: tuple[str, ...] = ("input_audio_buffer.append",)

    def make(self, transport: Transport) -> StepAudioAgent:
        return StepAudioAgent(StepAudioConfig(setup_timeout_s=2), transport=transport)

    def script(self, scenario: str) -> list[Step]:
        opening: list[Step] = [
            _ev("session.created", session={}),
            Expect("session.update", check=_session_ok),
            _ev("session.updated", session={}),
        ]
        output_item = {
            "type": "function_call",
            "call_id": "call-7",
            "name": TOOL.name,
            "arguments": json.dumps(TOOL_ARGUMENTS),
        }
        scripts: dict[str, list[Step]] = {
            "setup": [],
            "audio": [
                _ev("response.created", response={}),
                _ev("response.audio.delta", delta=_audio_b64(PROVIDER_AUDIO_SAMPLES - 80)),
                _ev("response.audio.delta", delta=_audio_b64(80)),
                _ev("response.done", response={"status": "completed"}),
            ],
            "transcript": [
                _ev("response.created", response={}),
                _ev("response.audio_transcript.delta", delta=TRANSCRIPT[:5]),
                _ev("response.audio_transcript.delta", delta=TRANSCRIPT[5:]),
                _ev("response.done", response={"status": "completed"}),
            ],
            "tool_call": [
                _ev("response.created", response={}),
                _ev(
                    "response.function_call_arguments.done",
                    call_id="call-7",
                    name=TOOL.name,
                    arguments=json.dumps(TOOL_ARGUMENTS),
                ),
                _ev("response.output_item.done", item=output_item),
                _ev("response.done", response={"status": "completed"}),
                Expect(
                    "conversation.item.create",
                    {
                        "item": {
                            "type": "function_call_output",
                            "call_id": "call-7",
                            "output": json.dumps(TOOL_OUTPUT),
                        }
                    },
                ),
                Expect("response.create"),
                _ev("response.created", response={}),
                _ev("response.audio_transcript.delta", delta=TRANSCRIPT),
                _ev("response.done", response={"status": "completed"}),
            ],
            "barge_in": [
                _ev("response.created", response={}),
                _ev("response.audio.delta", delta=_audio_b64(480)),
                _ev("input_audio_buffer.speech_started", audio_start_ms=100),
                Expect("response.cancel"),
                _ev("response.done", response={"status": "cancelled"}),
            ],
            "error": [
                _ev(
                    "error",
                    error={"type": "invalid_request_error", "message": "conformance-error"},
                )
            ],
            "disconnect": [Disconnect()],
        }
        return opening + scripts[scenario]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance(scenario: str) -> None:
    run_scenario(StepKit(), scenario)


def test_session_and_tool_formats() -> None:
    flat = session_update(StepAudioConfig(tool_format="flat", temperature=0.3), session())
    assert flat["session"]["tools"][0] == {
        "type": "function",
        "name": TOOL.name,
        "description": TOOL.description,
        "parameters": TOOL.parameters,
    }
    assert flat["session"]["temperature"] == 0.3 and flat["session"]["voice"] == "qingchunshaonv"
    info, spec = get_agent("step-audio:step-audio-2-mini?voice=wenrounansheng")
    agent = info.create(spec, "audio")
    assert isinstance(agent, StepAudioAgent) and agent.config.model == "step-audio-2-mini"
    assert agent.config.voice == "wenrounansheng"


def _run(agent: StepAudioAgent, frames: int = 3, tap: ScriptedProvider | None = None) -> list[Any]:
    """Connect, send `frames` frames; the events once the adapter has failed or (with the
    `tap` it reads through) read all the script sent."""

    async def go() -> list[Any]:
        await agent.connect(session())
        for i in range(frames):
            await agent.send_audio(AudioFrame(i * 20, np.zeros(320, dtype=np.int16)))
        events: list[Any] = []

        def settled() -> bool:
            events.extend(agent.poll())
            if any(isinstance(e, AgentFailure) for e in events):
                return True
            return tap is not None and tap.finished() and tap.caught_up()

        await until(settled, 3, lambda: f"the adapter to read the script or fail: {events}")
        await agent.close()
        return events

    return asyncio.run(asyncio.wait_for(go(), 5))


def test_audio_goes_out_at_24k_and_usage_comes_back() -> None:
    steps: list[Step] = [
        Expect("session.update"),
        _ev("session.updated"),
        _ev(
            "response.done",
            response={
                "status": "completed",
                "usage": {
                    "input_tokens": 50,
                    "output_tokens": 20,
                    "input_token_details": {"audio_tokens": 40},
                    "output_token_details": {"audio_tokens": 15},
                },
            },
        ),
        _ev("error", error={"code": "response_cancel_not_active", "message": "nothing to cancel"}),
    ]
    provider = ScriptedProvider(steps, ignore=("input_audio_buffer.append",))
    tap = provider
    events = _run(StepAudioAgent(transport=tap), frames=10, tap=tap)
    assert events == [UsageDelta(50, 20, 40, 15), ResponseDone()]  # the benign error is ignored
    sent = sum(len(base64.b64decode(m["audio"])) // 2 for m in provider.ignored)
    assert 0 < sent <= 10 * 480 and sent >= 10 * 480 - 480  # 200 ms at 24 kHz, less filter delay


def test_failed_response_and_key_hygiene(monkeypatch: pytest.MonkeyPatch) -> None:
    steps: list[Step] = [
        Expect("session.update"),
        _ev("session.updated"),
        _ev(
            "response.done",
            response={"status": "failed", "status_details": {"error": {"message": "quota"}}},
        ),
    ]
    [failure] = _run(
        StepAudioAgent(transport=ScriptedProvider(steps, ignore=("input_audio_buffer.append",)))
    )
    assert isinstance(failure, AgentFailure) and "quota" in failure.message

    monkeypatch.setenv("STEP_TEST_KEY", KEY)
    seen: list[tuple[str, dict[str, str]]] = []

    async def refuse(url: str, headers: dict[str, str]) -> Transport:
        seen.append((url, headers))
        raise TransportClosed(f"rejected Bearer {KEY}")

    agent = StepAudioAgent(StepAudioConfig(api_key_env="STEP_TEST_KEY"), connector=refuse)
    [failure] = _run(agent)
    assert isinstance(failure, AgentFailure) and KEY not in failure.message
    assert seen == [
        ("wss://api.stepfun.com/v1/realtime?model=step-audio-2", {"Authorization": f"Bearer {KEY}"})
    ]
    assert KEY not in repr(agent)


def test_over_a_real_websocket(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default connector: Bearer header, model in the query, events flow."""
    monkeypatch.setenv("STEP_TEST_KEY", KEY)
    seen: dict[str, Any] = {}

    async def handler(ws: ServerConnection) -> None:
        assert ws.request is not None
        seen["path"] = ws.request.path
        seen["auth"] = ws.request.headers.get("Authorization")
        await ws.send(json.dumps({"type": "session.created", "session": {}}))
        seen["update"] = json.loads(await ws.recv())
        await ws.send(json.dumps({"type": "session.updated", "session": {}}))
        await ws.send(json.dumps({"type": "response.audio_transcript.delta", "delta": "Hi."}))
        await ws.send(json.dumps({"type": "response.done", "response": {}}))
        await ws.wait_closed()

    async def go() -> list[Any]:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            url = f"ws://127.0.0.1:{port}/v1/realtime"
            config = StepAudioConfig(base_url=url, api_key_env="STEP_TEST_KEY")
            agent = StepAudioAgent(config)
            await agent.connect(session())
            events: list[Any] = []

            def answered() -> bool:
                events.extend(agent.poll())
                return ResponseDone() in events

            await until(answered, 3, lambda: f"ResponseDone over the socket: {events}")
            await agent.close()
            return events

    events = asyncio.run(asyncio.wait_for(go(), 5))
    assert seen["path"] == "/v1/realtime?model=step-audio-2"
    assert seen["auth"] == f"Bearer {KEY}" and seen["update"]["type"] == "session.update"
    assert [type(e).__name__ for e in events] == ["TranscriptDelta", "ResponseDone"]
