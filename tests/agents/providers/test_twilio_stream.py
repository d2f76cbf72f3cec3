"""`twilio-stream`: duplexbench as the telephone network to a Media Streams agent.

Protocol checks against a scripted phone agent on a real loopback WebSocket;
end to end against a pipecat bot (pipecat's FastAPI WebSocket transport and
Twilio serializer) through `duplexbench run`.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import websockets
from click.testing import CliRunner

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._connection import ConnectionNotOpened
from duplexbench.agents._events import (
    AgentEvent,
    AgentFailure,
    AudioDelta,
    EndCall,
    ResponseDone,
    SpeechCancelled,
)
from duplexbench.agents._protocol import AgentSession
from duplexbench.agents._providers.twilio_stream import (
    CHUNK_BYTES,
    TwilioStreamAgent,
    TwilioStreamConfig,
    call_ids,
)
from duplexbench.agents._registry import get_agent, parse_spec
from duplexbench.audio._effects import mulaw_encode
from duplexbench.audio._frames import AudioFrame
from duplexbench.cli import main

SESSION = AudioSession(AgentSession("Be brief.", (), "order-revocation", 3), frame_ms=20)
Handler = Callable[[Any], Awaitable[None]]


def agent_audio(ms: int) -> str:
    """`ms` of a 300 Hz tone as a Twilio media payload (8 kHz mu-law, base64)."""
    t = np.arange(8 * ms) / 8000
    pcm = (np.sin(2 * np.pi * 300 * t) * 8000).astype(np.int16)
    return base64.b64encode(mulaw_encode(pcm).tobytes()).decode()


async def call(handler: Handler, frames: int, **config: Any) -> tuple[TwilioStreamAgent, list[Any]]:
    """Serve `handler` as the phone agent, place a call, send `frames` 20 ms frames of
    caller audio on the media clock (polling after each), hang up; the events."""
    async with websockets.serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        agent = TwilioStreamAgent(TwilioStreamConfig(f"ws://127.0.0.1:{port}/", **config))
        await agent.connect(SESSION)
        events: list[tuple[int, AgentEvent]] = []
        for i in range(frames):
            await agent.send_audio(AudioFrame(i * 20, np.full(320, 500, dtype=np.int16)))
            await asyncio.sleep(0.002)  # pacing: a frame every 2 ms of wall time
            events += [(i * 20, e) for e in agent.poll()]
            if any(isinstance(e, EndCall | AgentFailure) for _, e in events):
                break
        await agent.close()
    return agent, events


def kinds(events: list[tuple[int, AgentEvent]]) -> list[str]:
    out: list[str] = []
    for _, e in events:
        name = type(e).__name__
        if not (out and out[-1] == name == "AudioDelta"):
            out.append(name)
    return out


def test_the_call_speaks_twilios_messages() -> None:
    got: list[dict[str, Any]] = []

    async def agent(ws: Any) -> None:
        async for raw in ws:
            got.append(json.loads(raw))

    config = {"parameters": {"tenant": "acme"}, "dtmf": "1#", "instructions": True}
    asyncio.run(call(agent, 25, **config))
    events = [m["event"] for m in got]
    assert events[:4] == ["connected", "start", "dtmf", "dtmf"] and events[-1] == "stop"
    assert got[0] == {"event": "connected", "protocol": "Call", "version": "1.0.0"}
    start = got[1]["start"]
    call_sid, stream_sid = call_ids(SESSION)
    assert (start["callSid"], start["streamSid"]) == (call_sid, stream_sid)
    assert start["customParameters"] == {"tenant": "acme", "instructions": "Be brief."}
    assert start["mediaFormat"] == {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}
    assert [m["dtmf"]["digit"] for m in got if m["event"] == "dtmf"] == ["1", "#"]
    media = [m for m in got if m["event"] == "media"]
    assert len(media) == 25  # 20 ms each, as they come
    assert {len(base64.b64decode(m["media"]["payload"])) for m in media} == {CHUNK_BYTES}
    assert [m["media"]["chunk"] for m in media[:3]] == ["1", "2", "3"]
    assert [m["media"]["timestamp"] for m in media[:3]] == ["0", "20", "40"]
    assert [m["sequenceNumber"] for m in got[1:]] == [str(i) for i in range(1, len(got))]
    assert all(m["streamSid"] == stream_sid for m in got[1:])
    assert got[-1]["stop"] == {"accountSid": "AC" + "0" * 32, "callSid": call_sid}


def test_agent_audio_marks_turn_end_and_hang_up() -> None:
    marks: list[tuple[int, str]] = []  # (media messages received before it, name)

    async def agent(ws: Any) -> None:
        sid, heard = "", 0
        async for raw in ws:
            m = json.loads(raw)
            if m["event"] == "start":
                sid = m["streamSid"]
                reply = {"event": "media", "streamSid": sid, "media": {"payload": agent_audio(200)}}
                await ws.send(json.dumps(reply))
                await ws.send(
                    json.dumps({"event": "mark", "streamSid": sid, "mark": {"name": "r1"}})
                )
            elif m["event"] == "media":
                heard += 1
                if marks and heard == marks[0][0] + 40:
                    await ws.close(1000)  # the bot hangs up 800 ms after its reply played
            elif m["event"] == "mark":
                marks.append((heard, m["mark"]["name"]))

    bridge, events = asyncio.run(call(agent, 200))
    assert kinds(events) == ["AudioDelta", "ResponseDone", "EndCall"]
    audio = [e for _, e in events if isinstance(e, AudioDelta)]
    assert sum(len(e.pcm) for e in audio) == 1600 and audio[0].sample_rate == 8000
    [(heard, name)] = marks
    # echoed once the 200 ms reply had played, never before (the upper bound: liveness
    # on a loaded machine, where the reply may arrive some frames late)
    assert name == "r1" and 10 <= heard <= 60
    done_at = next(t for t, e in events if isinstance(e, ResponseDone))
    assert 680 <= done_at <= 2000  # 500 ms of silence after it played, never sooner
    assert bridge.hung_up and bridge.marks_echoed == ["r1"]


def test_clear_cancels_queued_audio_and_returns_its_marks() -> None:
    echoed: list[str] = []

    async def agent(ws: Any) -> None:
        async for raw in ws:
            m = json.loads(raw)
            sid = m.get("streamSid")
            if m["event"] == "start":
                reply = {
                    "event": "media",
                    "streamSid": sid,
                    "media": {"payload": agent_audio(3000)},
                }
                await ws.send(json.dumps(reply))
                await ws.send(
                    json.dumps({"event": "mark", "streamSid": sid, "mark": {"name": "long"}})
                )
            elif m["event"] == "media" and m["media"]["chunk"] == "10":
                await ws.send(json.dumps({"event": "clear", "streamSid": sid}))  # barge-in
            elif m["event"] == "mark":
                echoed.append(m["mark"]["name"])

    _, events = asyncio.run(call(agent, 150))
    assert kinds(events) == ["AudioDelta", "SpeechCancelled"]
    assert echoed == ["long"]  # at once, though 2.8 s of it never played
    cancelled_at = next(t for t, e in events if isinstance(e, SpeechCancelled))
    assert cancelled_at >= 180  # not before the agent heard chunk 10


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("not json", "not JSON"),
        (json.dumps({"event": "media", "media": {"payload": "%%%"}}), "bad audio from the agent"),
        (json.dumps({"event": "media", "media": {}}), "without a payload"),
    ],
)
def test_garbage_from_the_agent_is_an_agent_failure(message: str, reason: str) -> None:
    async def agent(ws: Any) -> None:
        await ws.recv()
        await ws.send(message)
        await ws.wait_closed()

    _, events = asyncio.run(call(agent, 1000))  # until it fails
    [failure] = [e for _, e in events if isinstance(e, AgentFailure)]
    assert failure.message.startswith("twilio-stream:") and reason in failure.message


def test_an_abnormal_close_is_a_failure_and_unknown_events_are_counted() -> None:
    async def agent(ws: Any) -> None:
        await ws.recv()
        await ws.send(json.dumps({"event": "heartbeat"}))
        await ws.close(1011, "bot crashed")

    bridge, events = asyncio.run(call(agent, 1000))  # until it fails
    [failure] = [e for _, e in events if isinstance(e, AgentFailure)]
    assert "1011" in failure.message and "bot crashed" in failure.message
    assert bridge.unknown_events == {"heartbeat": 1} and not bridge.hung_up


def test_a_refused_connection_names_the_url() -> None:
    agent = TwilioStreamAgent(TwilioStreamConfig("ws://127.0.0.1:9/agent"))
    with pytest.raises(
        ConnectionNotOpened, match=r"twilio-stream: cannot connect to ws://127\.0\.0\.1:9/agent"
    ):
        asyncio.run(agent.connect(SESSION))


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ("twilio-stream", "url=ws://"),
        ("twilio-stream?url=http://x", "url=ws://"),
        ("twilio-stream?url=ws://x&colour=red", "unknown option(s) colour"),
        ("twilio-stream?url=ws://x&dtmf=12a", "dtmf takes the keys"),
        ("twilio-stream?url=ws://x&turn_gap_ms=5", "turn_gap_ms"),
        ("twilio-stream?url=ws://x&instructions=yes", "instructions must be"),
    ],
)
def test_bad_specs_are_clear_errors(spec: str, error: str) -> None:
    agent, parsed = get_agent(spec)
    with pytest.raises(ValueError, match="twilio-stream: ") as info:
        agent.create(parsed, "audio")
    assert error in str(info.value)


def test_spec_options() -> None:
    spec = parse_spec("twilio-stream?url=wss://bot.example/ws&param.lang=en&dtmf=9&turn_gap_ms=800")
    config = TwilioStreamConfig.from_spec(spec)
    assert (config.url, config.parameters, config.dtmf, config.turn_gap_ms) == (
        "wss://bot.example/ws",
        {"lang": "en"},
        "9",
        800,
    )


# --- end to end: a pipecat phone bot through `duplexbench run` ----------------


def test_pipecat_phone_bot_runs_the_fixture_suite(tmp_path: Path) -> None:
    """pipecat's Twilio serializer and WebSocket transport, a rule-based bot speaking
    with piper: `duplexbench run` completes the episode with audio both ways and the
    caller's barge-in at the bot's read-back honoured (pipecat's `clear`)."""
    pytest.importorskip("pipecat", reason="pipecat-ai (clients extra)")
    pytest.importorskip("piper", reason="the bot speaks with piper (speech extra)")
    pytest.importorskip(
        "faster_whisper", reason="the caller hears the bot through whisper (asr extra)"
    )
    phone = pytest.importorskip("support.pipecat_phone_bot")
    with phone.phone_bot(phone.order_desk_lines()) as (url, log):
        args = ["run", "--suite", "tests/fixtures", "--items", "order-revocation", "-k", "1"]
        args += [
            "--agent",
            f"twilio-stream?url={url}&param.desk=supplies",
            "--out",
            str(tmp_path / "run"),
            "-q",
        ]
        result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    [start] = log.starts
    assert start["body"] == {"desk": "supplies"}  # pipecat read our `start`
    assert log.interruptions >= 1 and log.lines_said >= 2
    [events_file] = (tmp_path / "run").rglob("events.jsonl")
    events = [json.loads(line) for line in events_file.read_text().splitlines()]
    end = next(e for e in events if e["type"] == "episode.end")["data"]
    assert end["error_kind"] is None and end["reason"] in ("user_ended", "agent_ended")
    [yielded] = [e["data"] for e in events if e["type"] == "floor.yield"]
    assert yielded["event_id"] == "hold_order" and yielded["yielded"]
    said = [e["data"]["text"] for e in events if e["type"] == "agent.utterance"]
    assert any("read that back" in text for text in said)  # the bot's audio, heard by whisper
    segments = {e["data"]["channel"] for e in events if e["type"] == "floor.segment"}
    assert segments == {"user", "agent"}  # audio in both channels


def test_a_dropped_connection_says_so_once() -> None:
    async def agent(ws: Any) -> None:
        await ws.recv()
        await ws.close(1011, "bot crashed")

    _, events = asyncio.run(call(agent, 1000))  # until it fails
    [failure] = [e for _, e in events if isinstance(e, AgentFailure)]
    assert failure.message.count("connection closed") == 1, failure.message
