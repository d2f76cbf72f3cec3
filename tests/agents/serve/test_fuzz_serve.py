"""Property-based fuzzing of the `serve-agent` protocol server over a real loopback socket.

One `RealtimeServer` per test runs in its own thread and event loop (64 KiB
message limit, so the WebSocket frame limit is 2 x 64 KiB + 1 KiB) and serves
every case of the test. Each case opens a session, sends 1-5 fuzzed frames,
then a `session.update` with a marker, and reads until the marker's
`session.updated`: the session must answer every frame that is certainly
invalid with its protocol error, in order (`invalid_json`, `invalid_event`,
`unknown_event`, `invalid_audio`, `message_too_large`; `expected_code` is the
oracle), may answer the others with any error, and must send only well-formed
events (short error messages, a well-formed session). A frame over the frame
limit closes that session with 1009 instead. Meanwhile a well-behaved session
runs concurrently and must complete normally: session update, a response with
transcript, audio and a tool call, the tool result, the follow-up response.
After the test the server must still serve, and must have logged no handler
failure or unhandled task exception. (The harness: tests/support/serve_fuzz.py.)

Cases per test by default (`DUPLEXBENCH_FUZZ_EXAMPLES`, default 40):

- `test_random_frames`: N (random JSON, objects with client keys and event
  types, non-JSON text, binary, truncated JSON)
- `test_mutated_messages`: N (mutated client events under 0.5 MB, valid events out of order)
- `test_bad_audio`: N (`input_audio_buffer.append` with bad audio, but no 4 MB deltas)
- `test_oversized_frames`: N (sizes around the message and frame limits)
- `test_adversarial`: 19 fixed frames (10,000-deep nesting, `silence_duration_ms` of
  1e400, 60 KB event types, malformed input transcription configs, ...), all on one server
- `test_concurrent_bad_sessions`: 20 hostile sessions at once beside a good one
- `test_transcribing_sessions_end_cleanly`: input transcription without an ASR, and a
  session closed while its items wait
- regression tests for the fixes (`test_regression_*`).

The whole file runs in about 10 s at the default.
"""

from __future__ import annotations

import asyncio
import logging
import tracemalloc
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import websockets
from hypothesis import given
from hypothesis import strategies as st

from duplexbench.agents._providers import openai_realtime_protocol as rt
from support.agent_fuzz import (
    DEEP_LISTS,
    DEEP_MAPS,
    bad_audio,
    documents,
    encode,
    is_pcm16,
    mutated,
    shaped,
)
from support.serve_fuzz import (
    FRAME_LIMIT,
    LIMIT,
    SERVER_FUZZ,
    UPDATE,
    Failures,
    ServerThread,
    check_case,
    expected_code,
    good_session,
    hostile_session,
    recv,
    run,
    until,
)


@pytest.fixture
def server() -> Iterator[ServerThread]:
    """One server for all the cases of a test; it must still serve at the end, cleanly."""
    failures = Failures()
    logging.getLogger("websockets").addHandler(failures)
    served = ServerThread()
    try:
        yield served
        run(good_session(served.url))  # still serving after every case
    finally:
        served.stop()
        logging.getLogger("websockets").removeHandler(failures)
    assert not failures.records, failures.records[0]
    assert not served.unhandled, served.unhandled[0]


# --- properties ---------------------------------------------------------------------------------

CLIENT_SAMPLES: list[dict[str, Any]] = [
    {**UPDATE, "event_id": "e1"},
    {
        "type": rt.SESSION_UPDATE,
        "session": {
            "type": "realtime",
            "audio": {
                "input": {"format": {"type": "audio/pcm", "rate": 24_000}, "turn_detection": None},
                "output": {"format": {"type": "audio/pcm", "rate": 24_000}, "voice": "cedar"},
            },
        },
    },
    {"type": rt.SESSION_UPDATE, "session": {"voice": "alloy", "input_audio_format": "pcm16"}},
    {"type": rt.SESSION_UPDATE, "session": {"turn_detection": {"silence_duration_ms": 300}}},
    {
        "type": rt.SESSION_UPDATE,
        "session": {
            "type": "realtime",
            "audio": {"input": {"transcription": {"model": "whisper-1", "language": "en"}}},
        },
    },
    {"type": rt.SESSION_UPDATE, "session": {"input_audio_transcription": {"model": "whisper-1"}}},
    rt.append_audio(np.full(2400, 3000, dtype=np.int16)),
    {"type": rt.COMMIT},
    {"type": rt.CLEAR},
    rt.function_output("call_000001", {"ok": True}),
    {"type": rt.ITEM_CREATE, "item": {"type": "message", "role": "user", "content": []}},
    rt.truncate("item_000001", 100),
    {"type": rt.RESPONSE_CREATE, "event_id": "e2"},
    {"type": rt.RESPONSE_CANCEL},
    {"type": "output_audio_buffer.clear"},
]


@st.composite
def raw_frame(draw: st.DrawFn) -> str | bytes:
    kind = draw(st.sampled_from(["json", "shaped", "text", "binary", "truncated"]))
    if kind == "json":
        return encode(draw(documents))
    if kind == "shaped":
        return encode(draw(shaped(CLIENT_SAMPLES)))
    if kind == "text":
        return draw(st.text(max_size=200))
    if kind == "binary":
        return draw(st.binary(max_size=200))
    whole = encode(draw(st.sampled_from(CLIENT_SAMPLES)))
    return whole[: draw(st.integers(0, len(whole) - 1))]


@SERVER_FUZZ
@given(frames=st.lists(raw_frame(), min_size=1, max_size=5))
def test_random_frames(server: ServerThread, frames: list[str | bytes]) -> None:
    check_case(server, frames)


def fits(value: Any) -> bool:
    """Leaves out the 4 MB values (`ENORMOUS` audio): over the frame limit they only
    repeat `test_oversized_frames`, and the client library cannot always close a
    connection the server dropped during such a write (AttributeError in asyncio)."""
    return len(encode(value)) < 4 * FRAME_LIMIT


@SERVER_FUZZ
@given(
    messages=st.lists(
        st.one_of(mutated(CLIENT_SAMPLES).filter(fits), st.sampled_from(CLIENT_SAMPLES)),
        min_size=1,
        max_size=5,
    ),
    binary=st.booleans(),
)
def test_mutated_messages(server: ServerThread, messages: list[Any], binary: bool) -> None:
    frames = [encode(m) for m in messages]
    check_case(server, [f.encode() for f in frames] if binary else frames)


@SERVER_FUZZ
@given(audio=bad_audio.filter(fits), event_id=st.one_of(st.none(), documents))
def test_bad_audio(server: ServerThread, audio: Any, event_id: Any) -> None:
    frame = encode({"type": rt.APPEND, "audio": audio, "event_id": event_id})
    codes = check_case(server, [frame])
    if len(frame) > FRAME_LIMIT:
        assert codes == ["closed"]
    else:
        assert codes == ([] if is_pcm16(audio) else ["invalid_audio"])


sizes = st.one_of(
    st.integers(LIMIT - 64, LIMIT + 64),
    st.integers(LIMIT, FRAME_LIMIT),
    st.integers(FRAME_LIMIT - 64, FRAME_LIMIT + 64),
    st.integers(FRAME_LIMIT, 4 * FRAME_LIMIT),
)


@SERVER_FUZZ
@given(size=sizes, kind=st.sampled_from(["audio", "text", "binary"]))
def test_oversized_frames(server: ServerThread, size: int, kind: str) -> None:
    head = encode({"type": rt.APPEND, "audio": ""})[:-2]
    body = head + "A" * max(0, size - len(head) - 2) + '"}'
    frame: str | bytes = body if kind != "binary" else body.encode()
    if kind == "text":
        frame = "x" * size
    codes = check_case(server, [frame])
    code = expected_code(frame)
    assert codes == (["closed"] if size > FRAME_LIMIT else [code] if code else [])


def session_update(session: Any) -> str:
    return encode({"type": rt.SESSION_UPDATE, "session": session})


def deep(depth: int) -> Any:
    node: Any = 1
    for _ in range(depth):
        node = [node]
    return node


DEEP_OUTPUT = {"type": "function_call_output", "call_id": "c", "output": "[" * 10_000}
BAD_SILENCE = (
    '{"type": "session.update", "session": {"turn_detection": {"silence_duration_ms": %s}}}'
)
ADVERSARIAL: dict[str, tuple[str | bytes, list[str]]] = {
    "deep-lists": (DEEP_LISTS, ["invalid_json"]),
    "deep-maps": (DEEP_MAPS.encode(), ["invalid_json"]),
    "deep-tool-output": (encode(rt.function_output("c", 1) | {"item": DEEP_OUTPUT}), []),
    "huge-int": (
        '{"type": "input_audio_buffer.append", "audio": ' + "9" * 5000 + "}",
        ["invalid_json"],
    ),
    "silence-nan": (BAD_SILENCE % "NaN", ["invalid_value"]),
    "silence-inf": (BAD_SILENCE % "1e400", ["invalid_value"]),
    "silence-negative": (BAD_SILENCE % "-5", ["invalid_value"]),
    "silence-string": (BAD_SILENCE % '"soon"', ["invalid_value"]),
    "detection-string": (session_update({"turn_detection": "x"}), ["invalid_value"]),
    "tools-not-a-list": (session_update({"tools": 7}), ["invalid_value"]),
    "transcription-string": (
        session_update({"input_audio_transcription": "whisper-1"}),
        ["invalid_value"],
    ),
    "transcription-deep-model": (
        session_update({"input_audio_transcription": {"model": deep(900)}}),
        ["invalid_value"],
    ),
    "transcription-huge-key": (
        session_update({"audio": {"input": {"transcription": {"k" * 60_000: "x"}}}}),
        ["invalid_value"],
    ),
    "deep-tool-parameters": (
        session_update({"tools": [{"name": "t", "parameters": {"a": deep(900)}}]}),
        [],
    ),
    "huge-type": (encode({"type": "x" * 60_000}), ["unknown_event"]),
    # read as a commit (the service's error for an empty buffer shows it was understood)
    "utf16": (encode({"type": rt.COMMIT}).encode("utf-16"), ["input_audio_buffer_commit_empty"]),
    "invalid-utf8": (b'{"type": "\xff"}', ["invalid_json"]),
    "surrogate": (session_update({"instructions": "\ud800"}), []),
    "empty-audio": (encode({"type": rt.APPEND, "audio": ""}), []),
}


def test_adversarial(server: ServerThread) -> None:
    for name, (frame, codes) in ADVERSARIAL.items():
        assert check_case(server, [frame]) == codes, name


def test_concurrent_bad_sessions(server: ServerThread) -> None:
    frames = [frame for frame, _ in ADVERSARIAL.values()] + [b"\x00" * (FRAME_LIMIT + 1)]

    async def all_at_once() -> list[list[str]]:
        hostile = [hostile_session(server.url, [f, f], f"m{i}") for i, f in enumerate(frames)]
        codes, _ = await asyncio.gather(asyncio.gather(*hostile), good_session(server.url))
        return list(codes)

    codes = run(all_at_once())
    assert codes[-1] == ["closed"] and codes[0] == ["invalid_json"] * 2
    assert len(server.server.sessions) == len(frames) + 1


def test_transcribing_sessions_end_cleanly(server: ServerThread) -> None:
    """Each committed item of a session that asks for transcription gets `.failed` (the
    fuzz server has no ASR); a session closed right after its commits leaves nothing
    running (the fixture checks for unhandled task exceptions)."""
    failed = "conversation.item.input_audio_transcription.failed"
    loud = encode(rt.append_audio(np.full(2400, 3000, dtype=np.int16)))

    async def go(wait: bool) -> list[dict[str, Any]]:
        async with websockets.connect(server.url) as ws:
            await recv(ws)
            await ws.send(session_update({"input_audio_transcription": {"model": "whisper-1"}}))
            await until(ws, rt.SESSION_UPDATED)
            for _ in range(3):
                await ws.send(loud)
                await ws.send(encode({"type": rt.COMMIT}))
            if not wait:
                return []
            seen = await until(ws, failed)
            while sum(m["type"] == failed for m in seen) < 3:
                seen += await until(ws, failed)
            return seen

    seen = run(go(wait=True))
    assert [m["error"]["code"] for m in seen if m["type"] == failed] == ["asr_unavailable"] * 3
    assert rt.ERROR not in [m["type"] for m in seen]
    run(go(wait=False))


# --- regressions for the fixes -------------------------------------------------------------------


def test_regression_deeply_nested_message_is_invalid_json(server: ServerThread) -> None:
    assert check_case(server, [DEEP_LISTS, DEEP_MAPS]) == ["invalid_json"] * 2  # were 1011 closes


@pytest.mark.parametrize("value", ["1e400", "-1e400", "NaN", "-5", "true", '"x"', "600001"])
def test_regression_bad_turn_detection_is_rejected_whole(server: ServerThread, value: str) -> None:
    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        async with websockets.connect(server.url) as ws:
            before = (await recv(ws))["session"]
            await ws.send(BAD_SILENCE % value)  # 1e400 crashed the session (OverflowError)
            error = await recv(ws)
            await ws.send(session_update({"type": "realtime"}))  # GA shaped, as `before`
            after = (await until(ws, rt.SESSION_UPDATED))[-1]["session"]
            return error, {"before": before, "after": after}

    error, seen = run(go())
    assert (
        error["error"]["code"] == "invalid_value"
        and "silence_duration_ms" in error["error"]["message"]
    )
    assert seen["after"]["audio"] == seen["before"]["audio"]  # nothing of it was applied
    assert seen["after"]["tools"] == seen["before"]["tools"]


def test_regression_empty_audio_append_is_accepted(server: ServerThread) -> None:
    empty = encode({"type": rt.APPEND, "audio": ""})  # crashed StreamResampler (ValueError)
    assert check_case(server, [empty, empty]) == []
    assert len(rt.StreamResampler(24_000, 16_000).process(np.zeros(0, dtype=np.int16))) == 0


def test_regression_error_messages_are_clipped(server: ServerThread) -> None:
    async def go() -> dict[str, Any]:
        async with websockets.connect(server.url, max_size=None) as ws:
            await recv(ws)
            await ws.send(encode({"type": "x" * 60_000}))
            return await recv(ws)  # recv checks the message is at most 1000 characters

    error = run(go())["error"]
    assert error["code"] == "unknown_event" and error["message"].endswith("xxx...")


def test_regression_resampler_works_in_bounded_pieces() -> None:
    samples = (np.sin(np.arange(960_000) / 7) * 9000).astype(np.int16)
    whole = rt.StreamResampler(24_000, 16_000)
    pieces = rt.StreamResampler(24_000, 16_000)
    tracemalloc.start()
    out = whole.process(samples)  # in one piece: 49 x 8 bytes per output sample, 250 MB
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    step = 4_800
    parts = [pieces.process(samples[i : i + step]) for i in range(0, len(samples), step)]
    assert np.array_equal(out, np.concatenate(parts)) and len(out) == 640_000
    assert peak < 64 << 20, peak
