"""The harness of the `serve-agent` fuzzer (tests/agents/test_fuzz_serve.py).

`ServerThread` runs one `RealtimeServer` (agent `Responder`, 64 KiB messages)
in its own thread and event loop, recording unhandled task exceptions;
`Failures` collects the handler failures `websockets` logs. `good_session` is
a well-behaved client that must complete (an answer with transcript, audio and
a tool call, the tool result, the follow-up). `hostile_session` sends fuzzed
frames then a marked `session.update` and returns the error codes that came
back (or `closed`, allowed only after a frame over the frame limit), checking
every event on the way (`recv`). `expected_code` is the oracle: the error the
server must answer a frame with, or None when any answer is fine;
`check_case` runs a hostile and a good session at once and checks the order.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Coroutine, Sequence
from typing import Any

import numpy as np
import websockets
from hypothesis import HealthCheck, settings

from duplexbench.agents._audio_protocol import AudioSession
from duplexbench.agents._events import (
    AgentEvent,
    AudioDelta,
    ResponseDone,
    ToolCallRequest,
    TranscriptDelta,
)
from duplexbench.agents._protocol import ToolResultMessage
from duplexbench.agents._providers import openai_realtime_protocol as rt
from duplexbench.agents._registry import AgentSpec, Channel, get_agent, register_agent
from duplexbench.agents._serve import RealtimeServer, ServeConfig
from duplexbench.audio._frames import AudioFrame
from duplexbench.testing._conformance import TOOL
from support.agent_fuzz import encode, is_pcm16
from support.fuzzing import CASE_SECONDS, FUZZ, time_guard

LIMIT = 64 * 1024
FRAME_LIMIT = 2 * LIMIT + 1024
SERVER_FUZZ = settings(  # one server (a function-scoped fixture) for all the cases of a test
    FUZZ, suppress_health_check=[*FUZZ.suppress_health_check, HealthCheck.function_scoped_fixture]
)
RESPONDER = "test-fuzz-responder"
HANDLED = {
    rt.SESSION_UPDATE,
    rt.APPEND,
    rt.COMMIT,
    rt.CLEAR,
    rt.ITEM_CREATE,
    rt.ITEM_TRUNCATE,
    rt.RESPONSE_CANCEL,
    rt.RESPONSE_CREATE,
    "output_audio_buffer.clear",
}


class Responder:
    """Answers the 10th frame (200 ms of input) with a line, audio and a tool call, and a
    tool result with a second line."""

    def start(self, session: AudioSession) -> None:
        self.frames = 0

    def step(
        self, frame: AudioFrame, tool_results: Sequence[ToolResultMessage]
    ) -> Sequence[AgentEvent]:
        self.frames += 1
        if tool_results:
            return [TranscriptDelta("Thanks."), ResponseDone()]
        if self.frames != 10:
            return []
        audio = AudioDelta(np.full(1600, 1000, dtype=np.int16))
        return [
            TranscriptDelta("One moment."),
            audio,
            ToolCallRequest(TOOL.name, {}),
            ResponseDone(),
        ]

    def close(self) -> None:
        return None


try:
    get_agent(RESPONDER)
except ValueError:

    @register_agent(RESPONDER, description="serve-agent fuzz test agent", channels=("audio",))
    def _responder(spec: AgentSpec, channel: Channel) -> Responder:
        return Responder()


class Failures(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


class ServerThread:
    """A `RealtimeServer` serving from its own thread and event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.unhandled: list[str] = []
        self.loop.set_exception_handler(lambda _, context: self.unhandled.append(str(context)))
        self.server = RealtimeServer(ServeConfig(agent=RESPONDER, port=0, max_message_bytes=LIMIT))
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.url = self.call(self.server.start()) + "/realtime?model=fuzz"

    def call(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(CASE_SECONDS)

    def stop(self) -> None:
        self.call(self.server.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(CASE_SECONDS)
        self.loop.close()


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    with time_guard():
        return asyncio.run(asyncio.wait_for(coro, CASE_SECONDS))


async def recv(ws: Any) -> dict[str, Any]:
    message = json.loads(await asyncio.wait_for(ws.recv(), CASE_SECONDS))
    assert isinstance(message, dict) and isinstance(message.get("type"), str), message
    if message["type"] == rt.ERROR:
        error = message["error"]
        assert isinstance(error["code"], str) and isinstance(error["message"], str), error
        assert len(error["message"]) <= 1000, len(error["message"])
    return message


async def until(ws: Any, kind: str) -> list[dict[str, Any]]:
    seen = [await recv(ws)]
    while seen[-1]["type"] != kind:
        seen.append(await recv(ws))
    return seen


UPDATE = {
    "type": rt.SESSION_UPDATE,
    "session": {"instructions": "Hi.", "tools": [rt.function_tool(TOOL)]},
}


async def good_session(url: str) -> None:
    """A well-behaved client: it must get its answer, the tool call and the follow-up."""
    async with websockets.connect(url, max_size=None) as ws:
        assert (await recv(ws))["type"] == rt.SESSION_CREATED
        await ws.send(encode(UPDATE))
        assert (await recv(ws))["session"]["instructions"] == "Hi."
        await ws.send(encode(rt.append_audio(np.zeros(4800, dtype=np.int16))))  # 10 frames
        first = await until(ws, rt.RESPONSE_DONE)
        kinds = [m["type"] for m in first]
        assert kinds[0] == rt.RESPONSE_CREATED and rt.ERROR not in kinds, kinds
        assert {rt.TRANSCRIPT_DELTA, rt.AUDIO_DELTA, rt.ARGUMENTS_DONE} <= set(kinds)
        [call] = [m for m in first if m["type"] == rt.ARGUMENTS_DONE]
        assert call["name"] == TOOL.name and first[-1]["response"]["status"] == "completed"
        await ws.send(encode(rt.function_output(call["call_id"], {"ok": True})))
        assert (await recv(ws))["type"] == rt.ITEM_CREATED
        await ws.send(encode(rt.append_audio(np.zeros(480, dtype=np.int16))))
        second = await until(ws, rt.RESPONSE_DONE)
        assert [m["delta"] for m in second if m["type"] == rt.TRANSCRIPT_DELTA] == ["Thanks."]


def expected_code(frame: str | bytes) -> str | None:
    """The error the server must answer with (the oracle); None: any reply is fine."""
    if len(frame) > LIMIT:
        return "message_too_large"
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError):
        return "invalid_json"
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return "invalid_event"
    if message["type"] not in HANDLED:
        return "unknown_event"
    if message["type"] == rt.APPEND and not is_pcm16(message.get("audio")):
        return "invalid_audio"
    return None


def too_big(frame: str | bytes) -> bool:
    return len(frame.encode() if isinstance(frame, str) else frame) > FRAME_LIMIT


async def hostile_session(url: str, frames: Sequence[str | bytes], marker: str) -> list[str]:
    """Sends `frames`, then a marked `session.update`; the error codes that came back."""
    async with websockets.connect(url, max_size=None) as ws:
        assert (await recv(ws))["type"] == rt.SESSION_CREATED
        try:
            for frame in frames:
                await ws.send(frame)
                if too_big(frame):  # nothing more goes out: wait for the server to close
                    await until(ws, "no such event")
            await ws.send(encode({"type": rt.SESSION_UPDATE, "session": {"instructions": marker}}))
            replies = await until(ws, rt.SESSION_UPDATED)
            while replies[-1]["session"]["instructions"] != marker:
                replies += await until(ws, rt.SESSION_UPDATED)
        except websockets.exceptions.ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 1009, exc  # only a too-big frame
            assert any(map(too_big, frames))
            return ["closed"]
    session = replies[-1]["session"]  # GA shaped, or beta shaped in a beta session
    detection = (session["audio"]["input"] if "audio" in session else session)["turn_detection"]
    assert detection is None or isinstance(detection, dict), detection
    return [m["error"]["code"] for m in replies if m["type"] == rt.ERROR]


def check_case(server: ServerThread, frames: Sequence[str | bytes]) -> list[str]:
    """One hostile session beside a good one; its errors must follow the oracle."""

    async def both() -> list[str]:
        codes, _ = await asyncio.gather(
            hostile_session(server.url, frames, "marker"), good_session(server.url)
        )
        return list(codes)

    codes: list[str] = run(both())
    if codes != ["closed"]:
        wanted = [c for c in map(expected_code, frames) if c is not None]
        left = iter(codes)
        assert all(code in left for code in wanted), (wanted, codes)  # in order
        assert len(codes) <= len(frames)
    return codes
