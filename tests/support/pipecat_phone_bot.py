"""A pipecat phone bot for the `twilio-stream` tests, built from pipecat's own parts.

pipecat's FastAPI WebSocket transport with its `TwilioFrameSerializer` (as a
pipecat Twilio bot is deployed), pipecat's `parse_telephony_websocket` to read
the call's `start`, and one small rule-based processor in place of the
STT -> LLM -> TTS services: it greets, answers each caller turn with its next
line, yields when the caller talks over it (`broadcast_interruption`, which
the serializer turns into Twilio's `clear`), and hangs up (`EndWorkerFrame`)
after its last line. Served by uvicorn on a loopback port in a thread.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import uvicorn
from fastapi import FastAPI, WebSocket
from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    EndWorkerFrame,
    Frame,
    InputAudioRawFrame,
    StartFrame,
    TTSAudioRawFrame,
    TTSStartedFrame,
    TTSStoppedFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.task import PipelineParams
from pipecat.pipeline.worker import PipelineWorker
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.runner.utils import parse_telephony_websocket
from pipecat.serializers.twilio import TwilioFrameSerializer
from pipecat.transports.websocket.fastapi import FastAPIWebsocketParams, FastAPIWebsocketTransport
from pipecat.workers.runner import WorkerRunner

from duplexbench.audio._pcm import resample
from duplexbench.speech._tts import SynthesisSettings, get_tts

RATE = 16_000
CHUNK = RATE // 50  # 20 ms


@dataclass
class CallLog:
    """What the bot saw of each call (read by the tests)."""

    starts: list[dict[str, Any]] = field(default_factory=list)
    caller_ms: float = 0.0
    interruptions: int = 0
    lines_said: int = 0
    hung_up: int = 0


class RuleBot(FrameProcessor):
    """Greets, answers each caller turn with its next line, yields when talked over."""

    def __init__(self, lines: Sequence[np.ndarray[Any, Any]], log: CallLog) -> None:
        super().__init__()
        self.lines, self.log = list(lines), log
        self.speech_ms = self.silence_ms = self.overlap_ms = 0.0
        self.bot_speaking = False
        self.next_line = 0

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, InputAudioRawFrame):
            await self._hear(frame)
            return  # caller audio stops here
        if isinstance(frame, BotStartedSpeakingFrame):
            self.bot_speaking = True
        elif isinstance(frame, BotStoppedSpeakingFrame):
            self.bot_speaking = False
            if self.next_line >= len(self.lines):
                self.log.hung_up += 1
                await self.push_frame(EndWorkerFrame(), FrameDirection.UPSTREAM)
        await self.push_frame(frame, direction)
        if isinstance(frame, StartFrame):
            await self._say()  # the greeting

    async def _hear(self, frame: InputAudioRawFrame) -> None:
        pcm = np.frombuffer(frame.audio, dtype=np.int16).astype(np.float64)
        ms = len(pcm) * 1000 / frame.sample_rate
        self.log.caller_ms += ms
        loud = bool(pcm.size) and float(np.sqrt(np.mean(pcm**2))) > 300
        if self.bot_speaking:
            self.overlap_ms = self.overlap_ms + ms if loud else 0.0
            if self.overlap_ms >= 200:  # talked over: yield
                self.log.interruptions += 1
                self.bot_speaking, self.overlap_ms = False, 0.0
                self.speech_ms, self.silence_ms = 200.0, 0.0
                # pipecat leaves this method unannotated
                interrupt = cast(Callable[[], Awaitable[None]], self.broadcast_interruption)
                await interrupt()
            return
        if loud:
            self.speech_ms, self.silence_ms = self.speech_ms + ms, 0.0
        else:
            self.silence_ms += ms
        if self.speech_ms >= 300 and self.silence_ms >= 700 and self.next_line < len(self.lines):
            self.speech_ms = 0.0
            await self._say()

    async def _say(self) -> None:
        line = self.lines[self.next_line]
        self.next_line += 1
        self.log.lines_said += 1
        await self.push_frame(TTSStartedFrame())  # as a TTS service frames a reply
        for start in range(0, len(line), CHUNK):
            chunk = line[start : start + CHUNK].astype("<i2").tobytes()
            await self.push_frame(TTSAudioRawFrame(chunk, RATE, 1))
        await self.push_frame(TTSStoppedFrame())


ORDER_DESK = (
    "Thanks for calling the supply desk. How can I help you today?",
    "Sure. Let me read that back to you. Ten boxes of A4 copy paper from Northwind Supplies, "
    "delivered by March twentieth, on cost center C C four ten. Shall I place the order now?",
    "Okay, I have put the order on hold. Goodbye.",
)
"""A greeting, a read-back (the fixture's caller revokes at it, talking over the bot),
and a goodbye before hanging up."""


def order_desk_lines() -> list[np.ndarray[Any, Any]]:
    """The bot's lines spoken by piper (joe), 16 kHz."""
    tts = get_tts("piper")
    out = []
    for text in ORDER_DESK:
        pcm, rate = tts.synthesize(text, "joe", SynthesisSettings())
        out.append(resample(pcm, rate, RATE))
    return out


def app(lines: Sequence[np.ndarray[Any, Any]], log: CallLog) -> FastAPI:
    api = FastAPI()

    @api.websocket("/ws")
    async def call(websocket: WebSocket) -> None:
        await websocket.accept()
        kind, data = await parse_telephony_websocket(websocket)
        assert kind == "twilio", kind
        log.starts.append(dict(data))
        serializer = TwilioFrameSerializer(
            stream_sid=data["stream_id"],
            call_sid=data["call_id"],
            params=TwilioFrameSerializer.InputParams(auto_hang_up=False),
        )
        params = FastAPIWebsocketParams(
            audio_in_enabled=True,
            audio_out_enabled=True,
            add_wav_header=False,
            serializer=serializer,
        )
        transport = FastAPIWebsocketTransport(websocket, params)
        pipeline = Pipeline([transport.input(), RuleBot(lines, log), transport.output()])
        worker = PipelineWorker(
            pipeline,
            params=PipelineParams(audio_in_sample_rate=RATE, audio_out_sample_rate=RATE),
        )
        runner = WorkerRunner(handle_sigint=False)
        await runner.add_workers(worker)
        await runner.run()

    return api


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def phone_bot(lines: Sequence[np.ndarray[Any, Any]]) -> Iterator[tuple[str, CallLog]]:
    """Serve the bot on a loopback port: its stream URL and its call log."""
    log = CallLog()
    port = _free_port()
    config = uvicorn.Config(app(lines, log), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(500):  # wait on state: the server says it started
            if server.started:
                break
            threading.Event().wait(0.01)
        assert server.started, "uvicorn did not start"
        yield f"ws://127.0.0.1:{port}/ws", log
    finally:
        server.should_exit = True
        thread.join(10)


__all__ = ["ORDER_DESK", "CallLog", "RuleBot", "app", "order_desk_lines", "phone_bot"]
