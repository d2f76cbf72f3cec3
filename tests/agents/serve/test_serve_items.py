"""serve-agent's conversation items, requests, session objects and input transcription,
as a Realtime client sees them.

Every server event received here is validated against the `openai` SDK's GA
server-event union, so what serve-agent sends is what clients built on the
SDK's types can parse (serve-agent speaks GA event names in every session; a
session configured with beta names also gets `conversation.item.created`);
the session object of a beta session, and the transcription events of one,
against the SDK's beta types, refusing any key they do not declare.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
import websockets
from pydantic import BaseModel, TypeAdapter

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import AgentEvent, AudioDelta, ResponseDone, TranscriptDelta
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._registry import AgentSpec, Channel, get_agent, register_agent
from duplexbench.agents._serve import RealtimeServer, ServeConfig
from duplexbench.audio._frames import AudioFrame, energy
from duplexbench.audio._pcm import Int16Array, resample
from duplexbench.orchestrator._audio_loop import BankSpeech
from duplexbench.speech._bank import SpeechBank
from duplexbench.speech._tts import DEFAULT_VOICE, SpeechUnavailable

ga = pytest.importorskip("openai.types.realtime", reason="openai SDK (clients extra)")
beta = pytest.importorskip("openai.types.beta.realtime", reason="openai SDK (clients extra)")
GA_EVENTS: TypeAdapter[Any] = TypeAdapter(ga.RealtimeServerEvent)
BETA_EVENTS: TypeAdapter[Any] = TypeAdapter(beta.RealtimeServerEvent)
BETA_SESSION_EVENTS = {
    rt.SESSION_CREATED: beta.SessionCreatedEvent,
    rt.SESSION_UPDATED: beta.SessionUpdatedEvent,
}
TOOL = {"type": "function", "name": "lookup", "description": "", "parameters": {}}
COMPLETED = "conversation.item.input_audio_transcription.completed"
FAILED = "conversation.item.input_audio_transcription.failed"
DELTA = "conversation.item.input_audio_transcription.delta"
TRANSCRIBED = {COMPLETED, FAILED}


def _speech(ms: int) -> str:
    t = np.arange(rt.WIRE_RATE * ms // 1000) / rt.WIRE_RATE
    buzz = sum(np.sin(2 * np.pi * 140 * k * t) / k for k in range(1, 6))
    return rt.encode_pcm16((buzz * (0.6 + 0.4 * np.sin(8 * np.pi * t)) * 5000).astype(np.int16))


def _silence(ms: int) -> str:
    return rt.encode_pcm16(np.zeros(rt.WIRE_RATE * ms // 1000, dtype=np.int16))


def strict(model: Any, path: str = "", allowed: frozenset[str] = frozenset()) -> None:
    """No key anywhere in `model` that its SDK type does not declare (the SDK's models
    accept extra keys; `allowed`: dotted paths that may be extra)."""
    if isinstance(model, BaseModel):
        extra = {f"{path}{key}" for key in model.model_extra or {}} - allowed
        assert not extra, f"keys the SDK type does not declare: {sorted(extra)}"
        for name in type(model).model_fields:
            strict(getattr(model, name), f"{path}{name}.", allowed)
    elif isinstance(model, list | tuple):
        for value in model:
            strict(value, path, allowed)


def check_beta(event: dict[str, Any]) -> None:
    """`event` as the SDK's beta types declare it (the session object: the service's
    `object` too, which the SDK's beta `Session` leaves out)."""
    kind = BETA_SESSION_EVENTS.get(event["type"])
    if kind is not None:
        strict(kind.model_validate(event), allowed=frozenset({"session.object"}))
    else:
        strict(BETA_EVENTS.validate_python(event))


class Client:
    """A raw WebSocket client that checks every event against the SDK's types (`beta`:
    session objects against the beta types, transcription events against both)."""

    def __init__(self, ws: Any, beta: bool = False) -> None:
        self.ws = ws
        self.beta = beta
        self.events: list[dict[str, Any]] = []

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            event: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 5))
            if self.beta and event["type"] in BETA_SESSION_EVENTS:
                check_beta(event)
            else:
                GA_EVENTS.validate_python(event)  # the SDK can parse it
            if event["type"] in TRANSCRIBED | {DELTA}:
                strict(GA_EVENTS.validate_python(event))
                if self.beta:
                    check_beta(event)
            self.events.append(event)
            if done(event):
                return event

    async def of_type(self, kind: str) -> dict[str, Any]:
        return await self.until(lambda e: e["type"] == kind)

    async def state(self, ready: Callable[[], bool]) -> None:
        """Reads events until `ready()` (at once if it already is)."""
        if not ready():
            await self.until(lambda e: ready())


async def _session(url: str, session: dict[str, Any], *, beta_header: bool = False) -> Client:
    headers = {"OpenAI-Beta": "realtime=v1"} if beta_header else {}
    ws = await websockets.connect(url + "/realtime?model=x", additional_headers=headers)
    client = Client(ws, beta=beta_header)
    await client.of_type(rt.SESSION_CREATED)
    client.beta = "type" not in session  # the first update's shape decides
    await client.send(type=rt.SESSION_UPDATE, session=session)
    await client.of_type(rt.SESSION_UPDATED)
    return client


def _items(client: Client, kind: str) -> list[dict[str, Any]]:
    return [e["item"] for e in client.events if e["type"] == kind]


def test_every_item_is_announced_and_can_be_retrieved_and_deleted() -> None:
    async def go() -> Client:
        async with RealtimeServer(ServeConfig(agent="echo", port=0)) as server:
            client = await _session(server.url, {"type": "realtime", "tools": [TOOL]})
            for chunk in (_speech(800), _silence(1500)):
                await client.send(type=rt.APPEND, audio=chunk)
            await client.of_type(rt.RESPONSE_DONE)  # echo repeats the user's turn
            output = {"type": "function_call_output", "call_id": "c1", "output": "{}"}
            await client.send(type=rt.ITEM_CREATE, item=output)
            created = await client.of_type("conversation.item.done")
            item_id = created["item"]["id"]
            await client.send(type="conversation.item.retrieve", item_id=item_id)
            retrieved = await client.of_type("conversation.item.retrieved")
            assert retrieved["item"]["call_id"] == "c1"
            await client.send(type="conversation.item.delete", item_id=item_id)
            assert (await client.of_type("conversation.item.deleted"))["item_id"] == item_id
            await client.send(type="conversation.item.retrieve", item_id=item_id, event_id="e9")
            error = await client.of_type(rt.ERROR)
            assert error["error"]["code"] == "invalid_value" and error["error"]["event_id"] == "e9"
            await client.send(
                type=rt.ITEM_TRUNCATE, item_id="nope", content_index=0, audio_end_ms=5
            )
            assert (await client.of_type(rt.ERROR))["error"]["code"] == "invalid_value"
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    added, done = (
        _items(client, "conversation.item.added"),
        _items(client, "conversation.item.done"),
    )
    assert [i["id"] for i in added] == [i["id"] for i in done]  # each added item completes
    roles = [(i["type"], i.get("role")) for i in done]
    assert roles[:2] == [("message", "user"), ("message", "assistant")]
    assert roles[-1] == ("function_call_output", None)
    assert done[0]["content"][0]["type"] == "input_audio"
    committed = next(e for e in client.events if e["type"] == rt.COMMITTED)
    assert committed["item_id"] == done[0]["id"]
    assert not _items(client, rt.ITEM_CREATED)  # GA names only in a GA session


def test_response_create_is_always_answered() -> None:
    async def go() -> Client:
        async with RealtimeServer(ServeConfig(agent="silent", port=0)) as server:
            client = await _session(server.url, {"type": "realtime"})
            await client.send(type=rt.RESPONSE_CREATE)
            created = await client.of_type(rt.RESPONSE_CREATED)
            await client.send(type=rt.RESPONSE_CREATE, event_id="e2")  # one is active
            error = await client.of_type(rt.ERROR)
            assert error["error"]["code"] == "conversation_already_has_active_response"
            await client.send(type=rt.APPEND, audio=_silence(3200))  # the agent stays silent
            done = await client.of_type(rt.RESPONSE_DONE)
            assert done["response"]["id"] == created["response"]["id"]
            assert done["response"]["status"] == "completed" and done["response"]["output"] == []
            await client.send(type="input_audio_buffer.clear")
            await client.of_type("input_audio_buffer.cleared")
            await client.send(type=rt.COMMIT, event_id="e3")  # nothing in the buffer
            error = await client.of_type(rt.ERROR)
            assert error["error"]["code"] == "input_audio_buffer_commit_empty"
            await client.send(type=rt.APPEND, audio=_silence(200))
            await client.send(type=rt.COMMIT)
            committed = await client.of_type(rt.COMMITTED)
            done_item = await client.of_type("conversation.item.done")
            assert done_item["item"]["id"] == committed["item_id"]
            bad = {"type": "transcription"}
            await client.send(type=rt.SESSION_UPDATE, session=bad)
            assert (await client.of_type(rt.ERROR))["error"]["code"] == "invalid_value"
            await client.send(type=rt.SESSION_UPDATE, session={"instructions": "x"})
            await client.of_type(rt.SESSION_UPDATED)  # untyped, but the session stays GA
            await client.send(type=rt.APPEND, audio=_silence(200))
            await client.send(type=rt.COMMIT)
            await client.of_type("conversation.item.added")
            await client.ws.close()
        return client

    asyncio.run(asyncio.wait_for(go(), 20))


def test_a_beta_session_gets_created_events() -> None:
    async def go() -> Client:
        async with RealtimeServer(ServeConfig(agent="echo", port=0)) as server:
            client = await _session(server.url, {"instructions": "hi"})
            await client.send(type=rt.APPEND, audio=_speech(800))
            await client.send(type=rt.APPEND, audio=_silence(1500))
            await client.of_type(rt.RESPONSE_DONE)
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    created = _items(client, rt.ITEM_CREATED)
    assert [(i["type"], i["role"]) for i in created] == [
        ("message", "user"),
        ("message", "assistant"),
    ]
    assert not _items(client, "conversation.item.added")


# --- session objects ------------------------------------------------------------------


BETA_UPDATE = {
    "modalities": ["text", "audio"],
    "voice": "alloy",
    "instructions": "Be brief.",
    "input_audio_format": "pcm16",
    "output_audio_format": "pcm16",
    "input_audio_transcription": {"model": "whisper-1", "language": "en"},
    "turn_detection": {"type": "server_vad", "silence_duration_ms": 400, "threshold": 0.5},
    "tools": [TOOL],
}


def test_a_beta_session_gets_a_beta_session_object() -> None:
    """Configured with beta names, or connected with the beta header (then already in
    `session.created`): the session object has the beta shape; a GA session keeps GA."""

    async def go() -> tuple[Client, Client, Client]:
        async with RealtimeServer(ServeConfig(agent="silent", port=0)) as server:
            named = await _session(server.url, BETA_UPDATE)
            header = await _session(server.url, {"voice": "ash"}, beta_header=True)
            typed = await _session(server.url, {"type": "realtime", "instructions": "GA"})
            for client in (named, header, typed):
                await client.ws.close()
        return named, header, typed

    named, header, typed = asyncio.run(asyncio.wait_for(go(), 20))
    created, updated = (e["session"] for e in named.events)
    assert created["type"] == "realtime"  # no beta name yet: GA
    assert updated == {
        "object": "realtime.session",
        "id": created["id"],
        "modalities": ["text", "audio"],
        "instructions": "Be brief.",
        "voice": "alloy",
        "input_audio_format": "pcm16",
        "output_audio_format": "pcm16",
        "input_audio_transcription": {"model": "whisper-1", "language": "en"},
        "turn_detection": {"type": "server_vad", "silence_duration_ms": 400, "threshold": 0.5},
        "tools": [TOOL],
        "tool_choice": "auto",
    }
    created, updated = (e["session"] for e in header.events)
    assert "type" not in created and created["turn_detection"]["silence_duration_ms"] == 500
    assert updated["voice"] == "ash" and updated["input_audio_transcription"] is None
    ga_session = typed.events[-1]["session"]
    assert ga_session["type"] == "realtime" and ga_session["instructions"] == "GA"
    assert ga_session["audio"]["input"]["transcription"] is None


def test_the_beta_sdk_client_gets_beta_session_objects() -> None:
    """The `openai` SDK's beta client (it sends the beta header) reads beta sessions."""
    openai = pytest.importorskip("openai")

    async def go() -> list[dict[str, Any]]:
        async with RealtimeServer(ServeConfig(agent="silent", port=0)) as server:
            client = openai.AsyncOpenAI(api_key="test", websocket_base_url=server.url)
            async with client.beta.realtime.connect(model="x") as conn:
                raw = [json.loads(await conn.recv_bytes())]
                await conn.session.update(session={"voice": "sage", "instructions": "Hi."})
                raw.append(json.loads(await conn.recv_bytes()))
        return raw

    created, updated = asyncio.run(asyncio.wait_for(go(), 20))
    for event in (created, updated):
        check_beta(event)
    assert updated["type"] == rt.SESSION_UPDATED and updated["session"]["voice"] == "sage"
    assert updated["session"]["input_audio_format"] == "pcm16"


# --- input audio transcription --------------------------------------------------------

HEARER = "test-serve-hearer"
WORDS = "two tickets to Oslo please"


class Hearer:
    """Keeps what it recognised in `transcripts`, as the cascade agent does: `after_ms` of
    silence after the user spoke, it has recognised WORDS and answers."""

    def __init__(self, after_ms: int) -> None:
        self.after_ms = after_ms
        self.transcripts: list[str] = []
        self.spoke, self.quiet_ms = False, 0

    def start(self, session: AudioSession) -> None:
        return None

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        if energy(frame.samples) > 1e-4:
            self.spoke, self.quiet_ms = True, 0
            return []
        self.quiet_ms += frame.duration_ms
        if not self.spoke or self.quiet_ms < self.after_ms:
            return []
        self.spoke = False
        self.transcripts.append(WORDS)
        return [
            TranscriptDelta("Okay."),
            AudioDelta(np.zeros(3200, dtype=np.int16)),
            ResponseDone(),
        ]

    def close(self) -> None:
        return None


try:
    get_agent(HEARER)
except ValueError:

    @register_agent(HEARER, description="keeps what it recognised", channels=("audio",))
    def _hearer(spec: AgentSpec, channel: Channel) -> Hearer:
        return Hearer(int(spec.options.get("after_ms", "600")))


class Kit:
    """A speech kit whose ASR reports what it got (`gate`: it waits for it to be set)."""

    def __init__(self, error: Exception | None = None, gate: threading.Event | None = None):
        self.error, self.gate = error, gate
        self.calls: list[int] = []

    def synthesize(self, text: str, voice: str | None = None) -> Int16Array:
        raise AssertionError("not used")

    def transcribe(self, samples: Int16Array) -> str:
        self.calls.append(len(samples))
        if self.gate is not None:
            assert self.gate.wait(10)
        if self.error is not None:
            raise self.error
        return f"kit heard {len(samples)} samples"


GA_TRANSCRIBED = {"type": "realtime", "audio": {"input": {"transcription": {"model": "x"}}}}


def _serve(agent: str, kit: Kit | None = None) -> RealtimeServer:
    return RealtimeServer(ServeConfig(agent=agent, port=0, speech=kit))


def _first(client: Client, kind: str, item_id: str | None = None) -> int:
    """The index of the first event of `kind` (about item `item_id`)."""
    return next(
        i
        for i, e in enumerate(client.events)
        if e["type"] == kind and item_id in (None, e.get("item_id"), e.get("item", {}).get("id"))
    )


def test_transcription_is_the_agents_own_words() -> None:
    """An agent that keeps what it recognised gives the transcript (no speech kit here:
    nothing else could); it follows the item's `added`, the retrieved item holds it."""

    async def go() -> Client:
        async with _serve(HEARER) as server:
            client = await _session(server.url, GA_TRANSCRIBED)
            for chunk in (_speech(800), _silence(1500)):
                await client.send(type=rt.APPEND, audio=chunk)
            completed = await client.of_type(COMPLETED)
            await client.send(type="conversation.item.retrieve", item_id=completed["item_id"])
            await client.of_type("conversation.item.retrieved")
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    [completed] = [e for e in client.events if e["type"] == COMPLETED]
    committed = next(e for e in client.events if e["type"] == rt.COMMITTED)
    item = committed["item_id"]
    assert completed["item_id"] == item and completed["content_index"] == 0
    assert completed["transcript"] == WORDS
    assert 1.0 < completed["usage"]["seconds"] < 1.6  # 800 ms of speech, 500 ms of silence
    added = _first(client, "conversation.item.added", item)
    assert added < _first(client, DELTA, item) < _first(client, COMPLETED, item)
    assert _first(client, rt.RESPONSE_CREATED) < _first(client, COMPLETED)  # may follow it
    [done] = [i for i in _items(client, "conversation.item.done") if i["id"] == item]
    assert done["content"][0]["transcript"] is None  # done at the commit, before the words
    [retrieved] = _items(client, "conversation.item.retrieved")
    assert retrieved["content"] == [{"type": "input_audio", "transcript": WORDS}]


def test_without_the_agents_words_the_speech_kit_transcribes_off_the_audio_loop() -> None:
    """`echo` keeps no transcripts: the session's speech kit transcribes the item's audio
    (16 kHz, as the agent heard it) in a worker thread; while it is still busy, the
    agent's answer goes out."""
    gate = threading.Event()
    kit = Kit(gate=gate)

    async def go() -> Client:
        async with _serve("echo", kit) as server:
            client = await _session(server.url, GA_TRANSCRIBED)
            for chunk in (_speech(800), _silence(1500)):
                await client.send(type=rt.APPEND, audio=chunk)
            await client.of_type(rt.RESPONSE_DONE)  # the ASR is still blocked on the gate
            gate.set()
            await client.of_type(COMPLETED)
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    [samples] = kit.calls
    assert 16_000 * 1.0 < samples < 16_000 * 1.6
    [completed] = [e for e in client.events if e["type"] == COMPLETED]
    assert completed["transcript"] == f"kit heard {samples} samples"
    assert completed["usage"] == {"type": "duration", "seconds": round(samples / 16_000, 3)}


MANUAL = {"transcription": {"model": "x"}, "turn_detection": None}


@pytest.mark.parametrize("manual", [False, True])
def test_the_agents_words_are_not_used_when_they_may_span_two_items(manual: bool) -> None:
    """The user spoke again before the agent recognised the first item (committed by the
    server VAD, or by the client with turn detection off): the agent's next words may
    cover more than that item, so it takes the speech kit, on its own audio."""
    kit = Kit()
    session = {"type": "realtime", "audio": {"input": MANUAL}} if manual else GA_TRANSCRIBED
    first = [_speech(800), _silence(550)]

    async def go() -> Client:
        async with _serve(f"{HEARER}?after_ms=600", kit) as server:
            client = await _session(server.url, session)
            for chunk in first:
                await client.send(type=rt.APPEND, audio=chunk)
            if manual:
                await client.send(type=rt.COMMIT)
            for chunk in (_speech(800), _silence(1500)):
                await client.send(type=rt.APPEND, audio=chunk)
            await client.of_type(rt.RESPONSE_DONE)  # the agent recognised the whole
            await client.state(lambda: len(_transcribed(client)) == (1 if manual else 2))
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    committed = [e["item_id"] for e in client.events if e["type"] == rt.COMMITTED]
    results = _transcribed(client)
    assert [e["item_id"] for e in results] == committed  # in commit order
    assert [e["transcript"] for e in results] == [f"kit heard {n} samples" for n in kit.calls]


def test_words_the_agent_recognised_before_the_commit_are_in_the_items_done() -> None:
    """The client's VAD waits longer than the agent: the agent's words are known at the
    commit, so the item is announced with them."""
    detection = {"turn_detection": {"silence_duration_ms": 1000}}
    session = {"type": "realtime", "audio": {"input": {"transcription": {}} | detection}}

    async def go() -> Client:
        async with _serve(f"{HEARER}?after_ms=600") as server:
            client = await _session(server.url, session)
            for chunk in (_speech(800), _silence(1500)):
                await client.send(type=rt.APPEND, audio=chunk)
            await client.of_type(COMPLETED)
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    [done] = [i for i in _items(client, "conversation.item.done") if i["role"] == "user"]
    assert done["content"][0]["transcript"] == WORDS
    assert _first(client, "conversation.item.done", done["id"]) < _first(client, COMPLETED)
    [updated] = [e["session"] for e in client.events if e["type"] == rt.SESSION_UPDATED]
    detection = updated["audio"]["input"]["turn_detection"]
    assert detection == {"type": "server_vad", "silence_duration_ms": 1000}  # typed, as the SDK


def _transcribed(client: Client) -> list[dict[str, Any]]:
    return [e for e in client.events if e["type"] in TRANSCRIBED]


def test_an_item_waits_for_the_agents_words_for_a_while_only() -> None:
    """An agent that keeps transcripts but recognises nothing: after `AGENT_WAIT_MS` of
    input audio, the speech kit transcribes the item."""
    kit = Kit()

    async def go() -> Client:
        async with _serve(f"{HEARER}?after_ms=100000", kit) as server:
            client = await _session(server.url, GA_TRANSCRIBED)
            for chunk in (_speech(800), _silence(1500)):
                await client.send(type=rt.APPEND, audio=chunk)
            item = (await client.of_type(rt.COMMITTED))["item_id"]
            await client.send(type="conversation.item.retrieve", item_id=item)
            await client.of_type("conversation.item.retrieved")
            assert kit.calls == []  # ~1 s after the commit: still waiting for the agent
            await client.send(type=rt.APPEND, audio=_silence(2500))
            await client.of_type(COMPLETED)
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    assert len(kit.calls) == 1 and not [e for e in client.events if e["type"] == FAILED]


@pytest.mark.parametrize(
    ("kit", "code", "message"),
    [
        (None, "asr_unavailable", "pip install 'duplexbench[asr]'"),
        (
            Kit(SpeechUnavailable("the whisper ASR needs faster-whisper: pip install 'x[asr]'")),
            "asr_unavailable",
            "needs faster-whisper",
        ),
        (Kit(RuntimeError("decoder fell over")), "asr_error", "RuntimeError: decoder fell over"),
    ],
)
def test_transcription_fails_clearly_without_an_asr(
    kit: Kit | None, code: str, message: str
) -> None:
    async def go() -> Client:
        async with _serve("echo", kit) as server:
            client = await _session(server.url, GA_TRANSCRIBED)
            for chunk in (_speech(800), _silence(1500)):
                await client.send(type=rt.APPEND, audio=chunk)
            kinds = {FAILED, rt.RESPONSE_DONE}  # the session goes on
            await client.state(lambda: kinds <= {e["type"] for e in client.events})
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    [failed] = [e for e in client.events if e["type"] == FAILED]
    committed = next(e for e in client.events if e["type"] == rt.COMMITTED)
    assert failed["item_id"] == committed["item_id"] and failed["content_index"] == 0
    assert failed["error"]["type"] == "transcription_error" and failed["error"]["code"] == code
    assert message in failed["error"]["message"]
    assert not [e for e in client.events if e["type"] in (COMPLETED, DELTA, rt.ERROR)]


def test_a_beta_session_is_transcribed_too() -> None:
    async def go() -> Client:
        async with _serve(HEARER) as server:
            client = await _session(server.url, BETA_UPDATE)
            for chunk in (_speech(800), _silence(1500)):
                await client.send(type=rt.APPEND, audio=chunk)
            await client.of_type(COMPLETED)  # checked against the beta types as well
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 20))
    [created] = [i for i in _items(client, rt.ITEM_CREATED) if i["role"] == "user"]
    assert _first(client, rt.ITEM_CREATED, created["id"]) < _first(client, COMPLETED)


@pytest.mark.parametrize(
    "session",
    [
        {"type": "realtime", "audio": {"input": {"transcription": "whisper-1"}}},
        {"type": "realtime", "audio": {"input": {"transcription": {"model": 5}}}},
        {"type": "realtime", "audio": {"input": {"transcription": {"keywords": "a"}}}},
        {"input_audio_transcription": {"prompt": ["x"]}},
        {"input_audio_transcription": {"model": "whisper-1", "bogus": 1}},
        {"input_audio_transcription": True, "instructions": "changed"},
    ],
)
def test_a_malformed_transcription_config_is_rejected_whole(session: dict[str, Any]) -> None:
    async def go() -> Client:
        async with _serve("silent") as server:
            client = await _session(server.url, {"type": "realtime", "instructions": "kept"})
            await client.send(type=rt.SESSION_UPDATE, session=session, event_id="e7")
            error = await client.of_type(rt.ERROR)
            assert error["error"]["type"] == "invalid_request_error"
            assert (error["error"]["code"], error["error"]["event_id"]) == ("invalid_value", "e7")
            assert "transcription" in error["error"]["message"]
            await client.send(type=rt.SESSION_UPDATE, session={"type": "realtime"})
            await client.of_type(rt.SESSION_UPDATED)
            await client.ws.close()
        return client

    after = asyncio.run(asyncio.wait_for(go(), 20)).events[-1]["session"]
    assert after["instructions"] == "kept" and after["audio"]["input"]["transcription"] is None


class Recording:
    """A speech kit that counts the transcriptions it is asked for."""

    def __init__(self, kit: Any) -> None:
        self.kit = kit
        self.transcribed = 0

    def synthesize(self, text: str, voice: str | None = None) -> Int16Array:
        samples: Int16Array = self.kit.synthesize(text, voice)
        return samples

    def transcribe(self, samples: Int16Array) -> str:
        self.transcribed += 1
        text: str = self.kit.transcribe(samples)
        return text


def test_the_served_reference_agent_transcribes_what_it_heard() -> None:
    """The offline `reference` cascade (whisper, piper) served: the user's item gets
    the words the cascade recognised (its own ASR), not a second transcription."""
    pytest.importorskip("faster_whisper", reason="the asr extra")
    kit = Recording(BankSpeech(SpeechBank(), str(DEFAULT_VOICE)))
    line = kit.synthesize("I would like to check the status of my order.")
    wire = resample(np.concatenate([line, np.zeros(24_000, dtype=np.int16)]), 16_000, 24_000)

    async def go() -> Client:
        server = RealtimeServer(ServeConfig(agent="reference", port=0, speech=kit))
        async with server:
            client = await _session(server.url, GA_TRANSCRIBED)
            await client.send(type=rt.APPEND, audio=rt.encode_pcm16(wire))
            await client.of_type(COMPLETED)
            await client.ws.close()
        return client

    client = asyncio.run(asyncio.wait_for(go(), 60))
    [completed] = [e for e in client.events if e["type"] == COMPLETED]
    assert "status of my order" in completed["transcript"].lower()
    assert kit.transcribed == 0  # the cascade's own words: no second ASR pass


def test_the_agents_sdk_history_gets_the_callers_transcript() -> None:
    """The Agents SDK's RealtimeRunner asks for input transcription by default: the
    caller's turn in its history gets the served agent's own words."""
    realtime = pytest.importorskip("agents.realtime", reason="openai-agents (clients extra)")

    async def go() -> list[Any]:
        async with _serve(HEARER) as server:
            agent = realtime.RealtimeAgent(name="a", instructions="Be helpful.")
            config = {"url": server.url + "/realtime?model=x", "api_key": "test"}
            session = await realtime.RealtimeRunner(agent).run(model_config=config)
            async with session:
                for chunk in (_speech(800), _silence(1500)):
                    await session.send_audio(rt.decode_pcm16(chunk).astype("<i2").tobytes())

                async def transcribed() -> list[Any]:
                    async for event in session:
                        if event.type == "history_updated" and _heard(event.history):
                            return list(event.history)
                    raise AssertionError("the session ended")

                return await asyncio.wait_for(transcribed(), 15)

    history = asyncio.run(go())
    assert _heard(history) == [WORDS]


def _heard(history: Sequence[Any]) -> list[str]:
    """The transcripts of the user's audio in an Agents SDK history."""
    return [
        part.transcript
        for item in history
        if getattr(item, "role", None) == "user"
        for part in item.content
        if getattr(part, "type", None) == "input_audio" and part.transcript
    ]
