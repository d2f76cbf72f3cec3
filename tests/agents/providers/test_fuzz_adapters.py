"""Property-based fuzzing of the network adapters' provider-message parsers.

Each adapter (`openai-realtime`, `gemini-live`, `step-audio`) runs on a
`WebSocketTransport` over a fake socket that plays raw frames: the provider's
handshake, the fuzzed frames (before or after the handshake), then a sentinel
transcript message (the harness: tests/support/adapter_fuzz.py). Every case must end
in a defined outcome: the adapter reports an `AgentFailure` with a reason (or
`connect` raises `AgentError`), or it handled the frames (normalized events,
or ignored them) and is still reading, so the sentinel comes through. Every
event must be well formed (int16 mono audio at 8-48 kHz, string text and ids,
token counts >= 0, reasons of at most 1000 characters). Any other exception, a
reader task that died, or a case running past `CASE_SECONDS` fails. (The
`text` agent: test_fuzz_text_agent.py.)

Cases per target by default (`DUPLEXBENCH_FUZZ_EXAMPLES`, default 40, sets the
Hypothesis `max_examples` of each property; e.g. `DUPLEXBENCH_FUZZ_EXAMPLES=2000`):

- `test_random_json`: N x 3 adapters (1-4 frames: random JSON, or objects with
  the protocol's keys and event types holding random values)
- `test_mutated_messages`: N x 3 adapters (1-4 mutated valid provider messages:
  dropped keys, changed types, huge strings, surrogates/NUL/RTL, other event types)
- `test_raw_frames`: N x 3 adapters (1-4 non-JSON text, binary, truncated JSON, disconnects)
- `test_bad_audio`: N x 3 adapters (invalid base64, odd-length PCM, non-strings, 4 MB deltas)
- `test_adversarial_frames`: 12 fixed frames (10,000-deep nesting, 5000-digit ints,
  NaN, UTF-16, invalid UTF-8, ...) x 3 adapters, before and after the handshake
- `test_oversized_frame_over_a_real_socket`: a frame over 16 MiB on a real socket, x 3
- regression tests for the fixes (`test_regression_*`).

The whole file runs in about 10 s at the default.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.asyncio.server import ServerConnection, serve

from duplexbench.agents._events import AgentEvent, ToolCallRequest, TranscriptDelta, UsageDelta
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._providers.transport import (
    MAX_MESSAGE_BYTES,
    TransportError,
    WebSocketTransport,
)
from duplexbench.testing._conformance import session
from support.adapter_fuzz import (
    BY_NAME,
    CLOSE,
    SENTINEL,
    TARGETS,
    FakeSocket,
    failures,
    outcome,
    play,
)
from support.agent_fuzz import (
    DEEP_LISTS,
    DEEP_MAPS,
    b64,
    bad_audio,
    documents,
    encode,
    is_pcm16,
    mutated,
    shaped,
)
from support.fuzzing import CASE_SECONDS, FUZZ, get, time_guard

each_target = pytest.mark.parametrize("name", sorted(BY_NAME))


# --- properties ---------------------------------------------------------------------------------


@each_target
@FUZZ
@given(data=st.data(), before=st.booleans())
def test_random_json(name: str, data: st.DataObject, before: bool) -> None:
    target = BY_NAME[name]
    value = st.one_of(documents, shaped(target.samples))
    values = data.draw(st.lists(value, min_size=1, max_size=4))
    outcome(target, [encode(v) for v in values], before)


@each_target
@FUZZ
@given(data=st.data(), before=st.booleans(), ascii_only=st.booleans())
def test_mutated_messages(name: str, data: st.DataObject, before: bool, ascii_only: bool) -> None:
    target = BY_NAME[name]
    messages = data.draw(st.lists(mutated(target.samples), min_size=1, max_size=4))
    outcome(target, [encode(m, ascii_only) for m in messages], before)


@st.composite
def raw_frame(draw: st.DrawFn, samples: list[dict[str, Any]]) -> Any:
    kind = draw(st.sampled_from(["binary", "text", "truncated", "json-bytes", "close"]))
    if kind == "binary":
        return draw(st.binary(max_size=200))
    if kind == "text":
        return draw(st.text(max_size=200))
    whole = encode(draw(st.sampled_from(samples)))
    if kind == "truncated":
        return whole[: draw(st.integers(0, len(whole) - 1))]
    return whole.encode() if kind == "json-bytes" else CLOSE


@each_target
@FUZZ
@given(data=st.data(), before=st.booleans())
def test_raw_frames(name: str, data: st.DataObject, before: bool) -> None:
    target = BY_NAME[name]
    frames = data.draw(st.lists(raw_frame(target.samples), min_size=1, max_size=4))
    outcome(target, frames, before)


@each_target
@FUZZ
@given(audio=bad_audio)
def test_bad_audio(name: str, audio: Any) -> None:
    target = BY_NAME[name]
    message = copy.deepcopy(target.audio)
    get(message, target.audio_path[:-1])[target.audio_path[-1]] = audio
    expected = "ok" if is_pcm16(audio) else "failure"
    assert outcome(target, [encode(message)]) == expected, str(audio)[:40]


ADVERSARIAL = {
    "deep-lists": DEEP_LISTS,
    "deep-maps": DEEP_MAPS,
    "deep-arguments": encode(
        {"type": rt.ARGUMENTS_DONE, "call_id": "c", "name": "n", "arguments": "[" * 10_000}
    ),
    "huge-int": '{"type": "error", "error": ' + "9" * 5000 + "}",
    "nan": '{"type": "response.done", "response": {"usage": {"input_tokens": NaN}}}',
    "bom": "\ufeff{}",
    "invalid-utf8": b'{"type": "\xff\xfe"}',
    "utf16": '{"type": "x"}'.encode("utf-16"),
    "nul": "\x00",
    "empty": "",
    "lone-surrogate": '{"type": "\\ud800", "serverContent": {"outputTranscription": {"text": 1}}}',
    "array": "[]",
}


@each_target
@pytest.mark.parametrize("frame", sorted(ADVERSARIAL))
def test_adversarial_frames(name: str, frame: str) -> None:
    for before in (False, True):
        assert outcome(BY_NAME[name], [ADVERSARIAL[frame]], before) in ("ok", "failure")


@each_target
def test_oversized_frame_over_a_real_socket(name: str) -> None:
    """A frame over the transport's 16 MiB limit closes the connection (1009): a failure."""
    target = BY_NAME[name]

    async def provider(ws: ServerConnection) -> None:
        for message in target.handshake:
            await ws.send(encode(message))
        await ws.send(encode({"type": "x", "pad": "x" * MAX_MESSAGE_BYTES}))
        await ws.wait_closed()

    async def go() -> list[AgentEvent]:
        async with serve(provider, "127.0.0.1", 0, compression=None, max_size=None) as server:
            port = server.sockets[0].getsockname()[1]
            agent = target.make(await WebSocketTransport.connect(f"ws://127.0.0.1:{port}"))
            await agent.connect(session())
            reader: asyncio.Task[None] | None = getattr(agent, "_reader", None)
            if reader is not None:  # None: the frame came before the setup completed
                await asyncio.wait([reader], timeout=CASE_SECONDS)
            events = list(agent.poll())
            await agent.close()
            return events

    with time_guard():
        events = asyncio.run(go())
    [failure] = failures(events)
    assert "1009" in failure and "too big" in failure, events


# --- regressions for the fixes -------------------------------------------------------------------


def test_regression_deeply_nested_frame_is_a_transport_error() -> None:
    async def recv() -> None:
        await WebSocketTransport(FakeSocket([DEEP_LISTS])).recv()

    with pytest.raises(TransportError, match="nested too deeply"):
        asyncio.run(recv())
    for target in TARGETS:  # was a RecursionError that killed the reader: a silent hang
        [reason] = failures(play(target, [DEEP_MAPS]))
        assert "nested too deeply" in reason


@pytest.mark.parametrize("name", ["openai-realtime", "step-audio"])
def test_regression_deeply_nested_tool_arguments_pass_through_raw(name: str) -> None:
    events = play(BY_NAME[name], [ADVERSARIAL["deep-arguments"]])
    [call] = [e for e in events if isinstance(e, ToolCallRequest)]
    assert call.arguments == "[" * 10_000 and not failures(events)


BAD_COUNTS = ["-5", '"12"', '"\\u0000"', "1.5", "null", "[3]", '"' + "9" * 40 + '"']
BAD_COUNTS += ["NaN", "Infinity", "-1e400"]  # JSON literals Python reads as floats
COUNTED = [0, 12, 0, 0, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize(
    ("name", "template"),
    [
        (
            "openai-realtime",
            '{"type": "response.done", "response": {"usage": {"input_tokens": %s}}}',
        ),
        ("step-audio", '{"type": "response.done", "response": {"usage": {"input_tokens": %s}}}'),
        ("gemini-live", '{"usageMetadata": {"promptTokenCount": %s}}'),
    ],
)
def test_regression_malformed_token_counts_count_as_zero(name: str, template: str) -> None:
    events = play(BY_NAME[name], [template % v for v in BAD_COUNTS])
    counts = [e.input_tokens for e in events if isinstance(e, UsageDelta)]
    assert counts == COUNTED and not failures(events)


@pytest.mark.parametrize(
    ("inline", "reason"),
    [
        ({"mimeType": "audio/pcm;rate=1", "data": b64(4)}, "rate 1 Hz"),
        ({"mimeType": "audio/pcm;rate=0", "data": b64(4)}, "rate 0 Hz"),
        ({"mimeType": "audio/pcm;rate=" + "9" * 5000, "data": b64(4)}, "rate 999999999999 Hz"),
        ({"mimeType": "audio/pcm;rate=16000", "data": None}, "non-string data"),
        ({"mimeType": "audio/pcm;rate=16000", "data": 1234}, "non-string data"),
    ],
)
def test_regression_gemini_bad_audio_rate_or_data_fails_cleanly(
    inline: dict[str, Any], reason: str
) -> None:
    message = {"serverContent": {"modelTurn": {"parts": [{"inlineData": inline}]}}}
    [failure] = failures(play(BY_NAME["gemini-live"], [encode(message)]))
    assert f"bad audio from the provider: {reason}" in failure


@pytest.mark.parametrize(
    "message",
    [{"toolCall": {"functionCalls": 7}}, {"toolCallCancellation": {"ids": 7}}, {"goAway": "soon"}],
)
def test_regression_gemini_malformed_fields_do_not_kill_the_reader(message: dict[str, Any]) -> None:
    for before in (False, True):  # during setup these escaped connect() as raw exceptions
        events = play(BY_NAME["gemini-live"], [encode(message)], before)
        if "goAway" in message:
            assert "goAway, time left ?" in failures(events)[0]
        else:
            assert not failures(events) and TranscriptDelta(SENTINEL) in events


@pytest.mark.parametrize("code", [[], {"a": 1}, ["response_cancel_not_active"]])
def test_regression_step_error_with_unhashable_code_is_a_failure(code: Any) -> None:
    message = {"type": "error", "error": {"code": code, "message": "no"}}
    [failure] = failures(play(BY_NAME["step-audio"], [encode(message)]))
    assert "provider error" in failure and failure.endswith(": no")


@each_target
def test_regression_failure_reasons_are_clipped(name: str) -> None:
    message = {"code": "x", "message": "m" * 1_000_000}
    error: dict[str, Any] = {"type": "error", "error": message}
    if name == "gemini-live":  # its errors are close frames: a huge provider string instead
        error = {"goAway": {"timeLeft": "m" * 1_000_000}}
    [failure] = failures(play(BY_NAME[name], [encode(error)]))
    assert len(failure) == 1000 and failure.endswith("mmm...")
