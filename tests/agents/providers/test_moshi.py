"""The moshi adapter: conformance, Ogg Opus both ways, bad input, a real local websocket."""

from __future__ import annotations

import asyncio
import base64
import io
import random
import socket
import struct
from collections.abc import Callable
from typing import Any, ClassVar

import av
import numpy as np
import pytest

from duplexbench.agents import get_agent
from duplexbench.agents._events import (
    AgentEvent,
    AgentFailure,
    AudioDelta,
    ResponseDone,
    TranscriptDelta,
)
from duplexbench.agents._providers import moshi as moshi_module
from duplexbench.agents._providers.moshi import NOT_APPLICABLE, MoshiAgent, MoshiConfig
from duplexbench.agents._providers.moshi_opus import (
    OggOpusDecoder,
    OggOpusEncoder,
    OggOpusError,
    OggReader,
    ogg_crc,
)
from duplexbench.agents._providers.moshi_protocol import decode_frame, encode_frame, message
from duplexbench.agents._providers.transport import ConnectionNotOpened, Transport
from duplexbench.audio._frames import AudioFrame
from duplexbench.testing._conformance import (
    PROVIDER_AUDIO_SAMPLES,
    SCENARIOS,
    TRANSCRIPT,
    ScenarioNotApplicable,
    not_applicable,
    run_scenario,
    session,
)
from duplexbench.testing._provider import Disconnect, Emit, ScriptedProvider, Step
from duplexbench.testing.moshi_server import MoshiScript, MoshiServer
from support.waiting import until

RATE = 24_000


def tone(n: int, hz: float = 440.0, amp: float = 8000.0, rate: int = RATE) -> np.ndarray:
    return (np.sin(2 * np.pi * hz * np.arange(n) / rate) * amp).astype(np.int16)


def hush(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(0, 10, n).astype(np.int16)  # about -70 dBFS


def ogg(pcm: np.ndarray, frame_ms: int = 20) -> bytes:
    return OggOpusEncoder(RATE, frame_ms).encode(pcm)


def _emit(kind: str, data: bytes = b"") -> Emit:
    return Emit(message(kind, data))


def _peak_hz(x: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(x.astype(np.float64)))
    return float(np.argmax(spectrum) * rate / len(x))


# --- conformance ---------------------------------------------------------------------------------


class MoshiKit:
    name = "moshi"
    provider_rate = 48_000  # libopus decodes to 48 kHz
    ignore: tuple[str, ...] = ("audio",)
    not_applicable: ClassVar[dict[str, str]] = NOT_APPLICABLE

    def make(self, transport: Transport) -> MoshiAgent:
        return MoshiAgent(MoshiConfig(setup_timeout_s=2), transport=transport)

    def script(self, scenario: str) -> list[Step]:
        # 10 ms of loud tone at 24 kHz: one Opus packet, 480 samples once decoded at 48 kHz
        audio = ogg(tone(PROVIDER_AUDIO_SAMPLES // 2), frame_ms=10)
        pieces = ["Your", " order", " has", " shipped", "."]
        scripts: dict[str, list[Step]] = {
            "setup": [],
            "audio": [_emit("audio", audio)],
            "transcript": [_emit("text", p.encode()) for p in pieces],
            "error": [_emit("error", b"conformance-error: the model crashed")],
            "disconnect": [Disconnect()],
        }
        return [_emit("handshake"), *scripts[scenario]]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance(scenario: str) -> None:
    kit = MoshiKit()
    reason = not_applicable(kit, scenario)
    if reason is not None:
        with pytest.raises(ScenarioNotApplicable, match=scenario):
            run_scenario(kit, scenario)
        pytest.skip(f"not applicable to moshi: {reason}")
    outcome = run_scenario(kit, scenario)
    if scenario == "transcript":
        assert "".join(e.text for e in outcome.events if isinstance(e, TranscriptDelta)) == (
            TRANSCRIPT
        )
    if scenario == "audio":  # real Ogg Opus went out, after the handshake only
        sent = b"".join(m["data"] for m in outcome.provider.ignored)
        assert sent.startswith(b"OggS") and b"OpusHead" in sent[:100]


def test_a_declared_scenario_must_exist_and_say_why() -> None:
    class Sloppy(MoshiKit):
        not_applicable: ClassVar[dict[str, str]] = {"tool_calls": "typo"}

    with pytest.raises(ValueError, match="tool_calls"):
        not_applicable(Sloppy(), "audio")


# --- Ogg Opus ------------------------------------------------------------------------------------


def test_opus_round_trip_in_pieces_of_any_size() -> None:
    pcm = tone(RATE)  # 1 s of 440 Hz
    encoder = OggOpusEncoder(RATE, 20)
    stream = b"".join(encoder.encode(pcm[i : i + 320]) for i in range(0, RATE, 320))
    decoder, out, pos, rng = OggOpusDecoder(), [], 0, random.Random(7)
    while pos < len(stream):
        n = rng.randint(1, 400)
        out += decoder.feed(stream[pos : pos + n])
        pos += n
    y = np.concatenate(out)
    assert len(y) == 2 * RATE  # 50 packets of 20 ms at 48 kHz; the pre-skip is played (sphn)
    assert _peak_hz(y[4800:28800], 48_000) == pytest.approx(440, abs=2)
    level = np.sqrt(np.mean(y[4800:].astype(np.float64) ** 2))
    assert level == pytest.approx(8000 / np.sqrt(2), rel=0.1)


def test_our_stream_reads_with_ffmpegs_ogg_demuxer() -> None:
    """An independent reader: FFmpeg checks page CRCs and applies the pre-skip."""
    stream = ogg(tone(RATE))
    container = av.open(io.BytesIO(stream), "r", format="ogg")
    frames = list(container.decode(audio=0))
    head = struct.unpack_from("<H", stream, stream.index(b"OpusHead") + 10)[0]
    assert sum(f.samples for f in frames) == 2 * RATE - head  # granules and pre-skip agree
    assert container.streams.audio[0].sample_rate == 48_000


def test_we_read_ffmpegs_ogg_muxer_byte_by_byte() -> None:
    """An independent writer (several packets per page): every packet, fed a byte at a time."""
    buf = io.BytesIO()
    with av.open(buf, "w", format="ogg") as out:
        stream = out.add_stream("libopus", rate=RATE, layout="mono")
        pcm = tone(RATE, hz=300)
        for i in range(0, RATE, 480):
            frame = av.AudioFrame.from_ndarray(pcm[None, i : i + 480], format="s16", layout="mono")
            frame.sample_rate, frame.pts = RATE, i
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    data = buf.getvalue()
    reference = sum(f.samples for f in av.open(io.BytesIO(data), "r").decode(audio=0))
    decoder = OggOpusDecoder()
    ours = [pcm for i in range(len(data)) for pcm in decoder.feed(data[i : i + 1])]
    head = struct.unpack_from("<H", data, data.index(b"OpusHead") + 10)[0]
    assert sum(len(p) for p in ours) >= reference + head - 960  # FFmpeg trims the last packet
    assert _peak_hz(np.concatenate(ours)[4800:28800], 48_000) == pytest.approx(300, abs=2)


# Four messages of `sphn.OpusStreamWriter(24000)` (sphn 0.2.1, the codec of moshi.server), base64:
# append_pcm of 4 x 1920 samples of a 300 Hz sine at 0.25 full scale; the first holds the headers.
SPHN_STREAM = (
    (
        "T2dnUwACAAAAAAAAAAAqAAAAAAAAAK7+8/EBE09wdXNIZWFkAQEAD4C7AAAAAABPZ2dTAAAAAAAAAAAAACoAAAAB"
        "AAAASzwBcQEbT3B1c1RhZ3MLAAAAS3l1dGFpTW9zaGkAAAAAT2dnUwAAgAcAAAAAAAAqAAAAAgAAAMaV+94BqWpp"
        "ggKQL/CLA7FOD7yTyYcnzBz2M+qHksthDkcrme0VB003gaff4J/a8pyzWB4PSG8UO8XFNkiyPuSKeLOZ98lh0K/Z"
        "mHVNQseZj08rpdF4fmqeRuFngXKdih8Nn9nak97+ZCsvDbSa7zEkqn6A0rwh1tCar51UpBd2sheLmf68eegu0sRf"
        "OazkDr74GKw0baHPM9CB5Gbsqu0r+n/Y1hUZpqkZkakyNTZPZ2dTAAAADwAAAAAAACoAAAADAAAAv6N7+AGBaj6c"
        "G1JP5YDeJ1mRFTc8PX1/M4SmjNShHtqVZHX9E0IzFPnHA3AykXn4lP3Of54uZV2FTkHWFRmo4vmRqTI1KpwbUk/l"
        "gSMnRHymjz3FP3Wv3J9YUMZAqebzeubIvkvStXRn+Ny5VMDavmNofWYQRE1QQWorsenSHEqM2ZGpMjUq"
    ),
    (
        "T2dnUwAAgBYAAAAAAAAqAAAABAAAAO4guPsBlGpGnBtST+WBIyc29GC2ANWapUC1WqOP749IzKt5AjwLQ3PPIASV"
        "p0O7rMhoa1b4pyn+3WBsr/QaWfLAV4jp1RmmqRMu2zI1KpwbUk/lgSMnVw7niZjOsZORZG0/t3P/NohLCJVhlt6D"
        "yzwqaFXXcp7JFKvZ8Kxc3GK6URAKnE+qQb2rbYaXRrKB6dUZqOL5kakyNSpPZ2dTAAAAHgAAAAAAACoAAAAFAAAA"
        "6eytxgGDaj+cG1JP5YEjJzb0SbISbmHsHL2g1G5/gP0DeqSCQvMltWoa9rQvH+kIsu56VLeY/X7wL3gy1hHF6ozZ"
        "kakyNSqcG1JP5YEjJylqOfW7fGDFQS+Sjb8lTOFFAboz2g/QP85t5Oi6IZGgQqGoLYnRJfUbzdUWob7NNVHF6ozU"
        "0SsyNSo="
    ),
    (
        "T2dnUwAAgCUAAAAAAAAqAAAABgAAAIQORaABZFDNlWkrbPtk2fc95iQtBh8hTwlzCHudmvoUndBKhDkM4/K00TUR"
        "Hy5GP7lD8NvMr8MP017momkVKXoWrHB5moVQPW3plZJKXUZcsXajfkbpzXzJES3RODoymuIIS7/6e4W/GhpPZ2dT"
        "AAAALQAAAAAAACoAAAAHAAAAWaJTeQFeUM2VaSts+3AcCDwFo8o0ocGhNluorrfLe4wsSiE2oNHucbwtYgmKzmns"
        "GhOC1PfnqKj1vIi+rSTJ/0oRwEDhDIslPG6+Wh5uYyyxbvyUm9ZPS6E9pgfd8upl1wq2UA=="
    ),
    (
        "T2dnUwAAgDQAAAAAAAAqAAAACAAAAM+yN3YBcFDNlWkrbPtwG/8Gh4D42yCw60XVelljx7+xkqO8xrgFMmXkOiq/"
        "ZAcRvL7JwhkQSOsyke2Y92nP7DsVKqsQ/RYukx3K5wZLfrPoPyCBVkgHs635tCxlFb3/sNBucNEq9bh+flS2Im+I"
        "idjx3aC4hYBPZ2dTAAAAPAAAAAAAACoAAAAJAAAAWZ1vlgFdUM2VaSts+3AUwyrpOytH1bmklo0qMSWrTwmqdMMu"
        "pWg8nWRE5pVAGoiPNJFp2aPtpPd3gDzn8YWVNZfiggKB9taYCzuszfx/WHslIA04GyJY4ABUIyxBDV5chKCI"
    ),
)


def test_we_read_what_moshis_own_writer_sends() -> None:
    decoder = OggOpusDecoder()
    out = [pcm for chunk in SPHN_STREAM for pcm in decoder.feed(base64.b64decode("".join(chunk)))]
    y = np.concatenate(out)
    assert len(y) == 4 * 1920 * 2  # every sample at 48 kHz (sphn's pre-skip of 3840 not applied)
    assert _peak_hz(y[-9600:], 48_000) == pytest.approx(300, abs=5)
    assert np.sqrt(np.mean(y[-9600:].astype(np.float64) ** 2)) == pytest.approx(5793, rel=0.1)


def _page(body: bytes, lacing: list[int], flags: int, seq: int, serial: int = 7) -> bytes:
    head = struct.pack("<4sBBqIIIB", b"OggS", 0, flags, 0, serial, seq, 0, len(lacing))
    page = bytearray(head + bytes(lacing) + body)
    page[22:26] = struct.pack("<I", ogg_crc(page))
    return bytes(page)


def test_ogg_packets_continued_over_pages() -> None:
    packet = bytes(range(256)) * 2  # 512 bytes: laced 255, 255, 2
    first = _page(packet[:510], [255, 255], flags=0x02, seq=0)
    second = _page(packet[510:] + b"next", [2, 4], flags=0x01, seq=1)
    reader = OggReader()
    assert reader.feed(first) == []
    assert [p.data for p in reader.feed(second)] == [packet, b"next"]
    with pytest.raises(OggOpusError, match="continuation"):
        OggReader().feed(second)  # continues a packet that never began


@pytest.mark.parametrize(
    ("mangle", "reason"),
    [
        (lambda s: b"RIFF" + s[4:], "not an Ogg page"),
        (lambda s: s[:40] + bytes([s[40] ^ 0xFF]) + s[41:], "checksum"),
        (lambda s: s + _page(b"x", [1], 0, 9, serial=8), "second Ogg stream"),
    ],
)
def test_bad_ogg_is_an_error(mangle: Callable[[bytes], bytes], reason: str) -> None:
    with pytest.raises(OggOpusError, match=reason):
        OggOpusDecoder().feed(mangle(ogg(tone(960))))


def test_bad_opus_is_an_error() -> None:
    stereo = b"OpusHead" + struct.pack("<BBHIhB", 1, 2, 312, RATE, 0, 0)
    with pytest.raises(OggOpusError, match="mono"):
        OggOpusDecoder().feed(_page(stereo, [19], 0x02, 0))
    head = b"OpusHead" + struct.pack("<BBHIhB", 1, 1, 312, RATE, 0, 0)
    garbage = b"\xff\xff\xff"  # a code-3 packet with an impossible frame count
    stream = _page(head, [19], 0x02, 0) + _page(garbage, [3], 0, 1)
    with pytest.raises(OggOpusError, match="undecodable Opus packet"):
        OggOpusDecoder().feed(stream)
    with pytest.raises(OggOpusError, match="OpusHead"):
        OggOpusDecoder().feed(_page(b"hello", [5], 0x02, 0))


# --- framing and options -------------------------------------------------------------------------


def test_framing() -> None:
    assert encode_frame({"type": "audio", "data": b"abc"}) == b"\x01abc"
    assert encode_frame({"type": "audio", "data": b""}) == b""  # never sent
    assert decode_frame(b"\x00\x00") == {"type": "handshake", "kind": 0, "data": b"\x00"}
    assert decode_frame(b"\x2aX") == {"type": "unknown", "kind": 42, "data": b"X"}
    with pytest.raises(ValueError, match="empty frame"):
        decode_frame(b"")


def test_spec_options() -> None:
    spec = (
        "moshi:personaplex?url=ws://gpu:8998/api/chat&text_temperature=0.7&seed=3"
        "&param.lang=fr&instructions_param=text_prompt&gate_dbfs=off&setup_timeout=5"
    )
    info, parsed = get_agent(spec)
    agent = info.create(parsed, "audio")
    assert isinstance(agent, MoshiAgent) and info.channels == ("audio",)
    config = agent.config
    assert config.query == (("text_temperature", "0.7"), ("seed", "3"), ("lang", "fr"))
    assert config.gate_dbfs is None and config.setup_timeout_s == 5
    assert config.model == "personaplex" and "personaplex" in repr(agent)
    agent._instructions = "Be brief & kind."
    url, headers = agent.endpoint()
    assert url == (
        "ws://gpu:8998/api/chat?text_temperature=0.7&seed=3&lang=fr&text_prompt=Be+brief+%26+kind."
    )
    assert headers == {}
    assert MoshiAgent().endpoint() == ("ws://localhost:8998/api/chat", {})
    for bad, says in [
        ("moshi?voice=x", "unknown option(s) voice; known: url, setup_timeout"),
        ("moshi?url=http://x", "ws:// or wss://"),
        ("moshi?hangover_ms=soon", "bad number"),
        ("moshi?setup_timeout=nan", "setup_timeout must be > 0"),
        ("moshi?unknown_kinds=maybe", "'fail' or 'ignore'"),
    ]:
        with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
            info.create(get_agent(bad)[1], "audio")


def test_without_pyav_the_factory_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = "Opus needs PyAV (No module named 'av'): pip install 'duplexbench[moshi]'"
    monkeypatch.setattr(moshi_module, "PYAV_MISSING", missing)
    info, spec = get_agent("moshi")
    with pytest.raises(ValueError, match=r"duplexbench\[moshi\]"):
        info.create(spec, "audio")


# --- the adapter on a scripted provider ----------------------------------------------------------


async def _until(
    agent: MoshiAgent,
    done: Callable[[list[AgentEvent]], bool],
    events: list[AgentEvent] | None = None,
) -> list[AgentEvent]:
    """Poll until `done(events)` (3 s at most); `events`: those polled before."""
    got = [] if events is None else events

    def reached() -> bool:
        got.extend(agent.poll())
        return done(got)

    await until(reached, 3, lambda: f"the events the test waits for: {got}")
    return got


def _failed(events: list[AgentEvent]) -> bool:
    return any(isinstance(e, AgentFailure) for e in events)


def _scripted(steps: list[Step], config: MoshiConfig | None = None) -> list[AgentEvent]:
    async def go() -> list[AgentEvent]:
        provider = ScriptedProvider([_emit("handshake"), *steps], ignore=("audio",))
        agent = MoshiAgent(config or MoshiConfig(setup_timeout_s=2), transport=provider)
        await agent.connect(session())
        events = await _until(agent, _failed)
        await agent.close()
        return events

    return asyncio.run(asyncio.wait_for(go(), 10))


def _failure(events: list[AgentEvent]) -> str:
    [failure] = [e for e in events if isinstance(e, AgentFailure)]
    return failure.message


@pytest.mark.parametrize(
    ("frame", "says"),
    [
        (b"\x2a\x00", "moshi: unknown message kind 42"),
        (b"\x02\xff\xfe", "moshi: malformed text frame: UnicodeDecodeError"),
        (b"\x01garbage-not-ogg", "moshi: malformed audio frame: OggOpusError: not an Ogg page"),
        (b"\x07", "moshi: malformed coloredtext frame: ValueError: no color byte"),
        (b"\x05out of memory", "moshi: server error: out of memory"),
    ],
)
def test_bad_frames_end_the_episode(frame: bytes, says: str) -> None:
    events = _scripted([Emit(decode_frame(frame)), _emit("text", b" never")])
    assert _failure(events).startswith(says)
    assert not [e for e in events if isinstance(e, TranscriptDelta)]  # nothing read after


def test_other_kinds_are_read_past_on_purpose() -> None:
    async def go() -> tuple[MoshiAgent, list[AgentEvent]]:
        steps: list[Step] = [
            _emit("metadata", b'{"text_temperature": 0.7}'),
            Emit(decode_frame(b"\x00" + struct.pack("<II", 0, 3))),
            _emit("metadata", b"not json"),
            *(Emit(decode_frame(f)) for f in (b"\x03\x01", b"\x06", b"\x2a", b"\x09")),
            Emit(decode_frame(b"\x07\x05 colored")),
            _emit("text", b" plain"),
        ]
        provider = ScriptedProvider(steps, ignore=("audio",))
        config = MoshiConfig(setup_timeout_s=2, unknown_kinds="ignore")
        agent = MoshiAgent(config, transport=provider)
        await agent.connect(session())
        events = await _until(agent, lambda ev: TranscriptDelta(" plain") in ev)
        await agent.close()
        return agent, events

    agent, events = asyncio.run(asyncio.wait_for(go(), 10))
    assert events == [TranscriptDelta(" colored"), TranscriptDelta(" plain")]
    assert agent.metadata == [{"text_temperature": 0.7}, "not json"]
    assert agent.versions == (0, 3)
    assert agent.ignored == {"control": 1, "ping": 1, "unknown": 1, "codes": 1}


def test_no_handshake_fails_after_setup_timeout() -> None:
    async def go() -> list[AgentEvent]:
        provider = ScriptedProvider([], ignore=("audio",))
        agent = MoshiAgent(MoshiConfig(setup_timeout_s=0.2), transport=provider)
        await agent.connect(session())
        events = list(agent.poll())
        await agent.close()
        return events

    assert _failure(asyncio.run(go())) == "moshi: no handshake within 0.2 s"


def _speech_then_silence() -> bytes:
    parts = [hush(RATE * 400 // 1000), tone(RATE // 2, hz=220), hush(RATE, seed=1)]
    return ogg(np.concatenate(parts))


def test_the_speech_gate_passes_speech_and_marks_its_end() -> None:
    def is_done(events: list[AgentEvent]) -> bool:
        return ResponseDone() in events

    async def go(config: MoshiConfig, until: Callable[[list[AgentEvent]], bool]) -> Any:
        provider = ScriptedProvider(
            [_emit("handshake"), _emit("audio", _speech_then_silence())], ignore=("audio",)
        )
        agent = MoshiAgent(config, transport=provider)
        await agent.connect(session())
        events = await _until(agent, until)
        await agent.close()
        return events

    events = asyncio.run(go(MoshiConfig(hangover_ms=300), is_done))
    audio = [e for e in events if isinstance(e, AudioDelta)]
    assert all(a.sample_rate == 48_000 for a in audio)
    passed_ms = sum(len(a.pcm) for a in audio) / 48
    assert 500 <= passed_ms <= 500 + 300 + 60  # the speech and the hangover, no leading hush
    assert isinstance(events[-1], ResponseDone) and events.count(ResponseDone()) == 1

    def all_audio(events: list[AgentEvent]) -> bool:
        return sum(len(e.pcm) for e in events if isinstance(e, AudioDelta)) >= 1900 * 48

    events = asyncio.run(go(MoshiConfig(gate_dbfs=None), all_audio))
    assert sum(len(e.pcm) for e in events if isinstance(e, AudioDelta)) == 1900 * 48
    assert ResponseDone() not in events


# --- a real websocket: the scripted Moshi server -------------------------------------------------


def _frames(n: int, make: Callable[[int], np.ndarray]) -> list[AudioFrame]:
    return [AudioFrame(i * 20, make(i)) for i in range(n)]


async def _converse(
    server: MoshiServer,
    config: MoshiConfig,
    frames: list[AudioFrame],
    done: Callable[[list[AgentEvent]], bool],
) -> tuple[MoshiAgent, list[AgentEvent]]:
    agent = MoshiAgent(config)
    await agent.connect(session())
    events: list[AgentEvent] = []
    for frame in frames:  # Moshi is input-driven: no need to pace the frames in real time
        await agent.send_audio(frame)
        events += agent.poll()
    events = await _until(agent, done, events)
    await agent.close()
    return agent, events


def test_end_to_end_a_greeting_over_a_real_websocket() -> None:
    line = "Hello, how can I help you today?"

    async def go() -> tuple[MoshiServer, MoshiAgent, list[AgentEvent]]:
        async with MoshiServer(MoshiScript(lines=(line,))) as server:
            config = MoshiConfig(
                url=server.url,
                query=(("text_temperature", "0.7"),),
                instructions_param="text_prompt",
            )
            silence = _frames(150, lambda i: np.zeros(320, dtype=np.int16))  # 3 s at 16 kHz
            agent, events = await _converse(server, config, silence, lambda e: ResponseDone() in e)
            return server, agent, events

    server, agent, events = asyncio.run(asyncio.wait_for(go(), 20))
    [log] = server.sessions
    assert log.query == {"text_temperature": "0.7", "text_prompt": "Be helpful."}
    assert log.user_samples >= 2.5 * 48_000  # the user's Ogg Opus arrived and decoded
    text = "".join(e.text for e in events if isinstance(e, TranscriptDelta))
    assert text == " " + line and len(log.text) == 7
    audio = [e for e in events if isinstance(e, AudioDelta)]
    spoken_ms = sum(len(a.pcm) for a in audio) / 48
    assert 7 * 240 <= spoken_ms <= 7 * 240 + 300 + 160  # the words (no hush before), hangover
    assert isinstance(events[-1], ResponseDone) and not agent.ignored


def test_end_to_end_echo_keeps_the_pitch() -> None:
    async def go() -> list[AgentEvent]:
        async with MoshiServer(MoshiScript(echo=True)) as server:
            frames = _frames(60, lambda i: tone(320, hz=500, rate=16_000)[:320])
            _, events = await _converse(
                server,
                MoshiConfig(url=server.url, gate_dbfs=None),
                frames,
                lambda ev: sum(len(e.pcm) for e in ev if isinstance(e, AudioDelta)) >= 48_000,
            )
            return events

    events = asyncio.run(asyncio.wait_for(go(), 20))
    y = np.concatenate([e.pcm for e in events if isinstance(e, AudioDelta)])
    assert _peak_hz(y[9600:33600], 48_000) == pytest.approx(500, abs=3)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_refused_or_wrong_endpoint_names_the_url() -> None:
    async def refused(url: str) -> None:
        await MoshiAgent(MoshiConfig(url=url)).connect(session())

    url = f"ws://127.0.0.1:{_free_port()}/api/chat"
    with pytest.raises(ConnectionNotOpened, match=f"moshi: cannot connect to {url}"):
        asyncio.run(refused(url))

    async def wrong_path() -> None:
        async with MoshiServer() as server:
            await refused(server.url.replace("/api/chat", "/chat"))

    with pytest.raises(ConnectionNotOpened, match=r"/chat: .*404"):
        asyncio.run(wrong_path())


@pytest.mark.parametrize(
    ("script", "says"),
    [
        (MoshiScript(handshake=False), "moshi: no handshake within 0.3 s"),
        (MoshiScript(after_handshake=(b"",)), "moshi: malformed message from the provider: an "),
        (MoshiScript(after_handshake=("{}",)), "moshi: malformed message from the provider: a t"),
        (MoshiScript(after_handshake=(b"\x01" + b"X" * 40,)), "moshi: malformed audio frame"),
        (MoshiScript(close_after_handshake=True), "moshi: connection closed"),
        (MoshiScript(metadata={"a": 1}, handshake=False), "moshi: no handshake within 0.3 s"),
    ],
)
def test_bad_servers_over_a_real_websocket(script: MoshiScript, says: str) -> None:
    async def go() -> list[AgentEvent]:
        async with MoshiServer(script) as server:
            config = MoshiConfig(url=server.url, setup_timeout_s=0.3)
            frames = _frames(5, lambda i: np.zeros(320, dtype=np.int16))
            return (await _converse(server, config, frames, _failed))[1]

    assert _failure(asyncio.run(asyncio.wait_for(go(), 10))).startswith(says)
