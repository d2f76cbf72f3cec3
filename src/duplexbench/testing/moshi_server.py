"""A scripted server speaking the Moshi websocket protocol, for tests and trying the adapter.

`python -m duplexbench.testing.moshi_server --port 8998` serves
`ws://127.0.0.1:8998/api/chat` as `python -m moshi.server` does, without a
model: it sends the handshake (`\\x00`), then, like Moshi, one 80 ms step of
output for every 80 ms of user audio it receives (Ogg Opus at 24 kHz, one page
per step, then the step's text piece). What it says comes from a script: a
greeting when audio starts flowing (`greet`), then the next line after each
time the caller spoke and paused (`pause_ms`); each word is a `\\x02` text
piece (" word", as moshi.server sends SentencePiece pieces) voiced by a
harmonic tone for `word_ms`; between lines it streams near-silence (noise at
about -70 dBFS), as the model does. `echo=True` sends the caller's audio back
instead.

For bad-input tests a script can hold the handshake back (`handshake=False`),
send metadata before it (moshi-backend does), send raw frames right after it
(`after_handshake`) and then close (`close_after_handshake`). Every
connection is logged in `sessions` (query parameters, user audio received,
text sent). Nothing here needs a GPU or model weights.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import soxr
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from duplexbench.agents import (
    BYTES,
    MOSHI_RATE,
    OPUS_RATE,
    OggOpusDecoder,
    OggOpusEncoder,
    OggOpusError,
)
from duplexbench.audio import Int16Array

PATH = "/api/chat"
STEP_MS = 80
STEP = MOSHI_RATE * STEP_MS // 1000  # output samples per step (24 kHz)
USER_STEP = OPUS_RATE * STEP_MS // 1000  # decoded user samples per step (48 kHz)
SPEECH_DBFS = -45.0
"""User audio at least this loud is the caller talking (for the turn taking)."""


@dataclass(frozen=True)
class MoshiScript:
    lines: tuple[str, ...] = ("Hello, how can I help you today?",)
    greet: bool = True
    """Say the first line as soon as audio flows (else after the caller's first turn)."""
    echo: bool = False
    """Send the caller's audio back instead of speaking."""
    word_ms: int = 240
    pause_ms: int = 640
    """Caller silence after speech that ends the caller's turn."""
    handshake: bool = True
    metadata: dict[str, Any] | None = None
    """Sent (`\\x04`) before the handshake, as moshi-backend does."""
    after_handshake: tuple[bytes | str, ...] = ()
    """Raw frames sent right after the handshake (a str goes as a text frame)."""
    close_after_handshake: bool = False


@dataclass
class SessionLog:
    query: dict[str, str]
    user_samples: int = 0
    """User audio decoded, in samples at 48 kHz."""
    steps: int = 0
    text: list[str] = field(default_factory=list)


def _kind(name: str) -> bytes:
    return bytes([BYTES[name]])


def voice(n: int, seed: int) -> Int16Array:
    """A voiced-sounding tone (harmonics of 140-180 Hz) at about -20 dBFS, 24 kHz."""
    t = np.arange(n) / MOSHI_RATE
    f0 = 140.0 + 10.0 * (seed % 5)
    wave = np.zeros(n)
    for k in range(1, 6):
        wave += np.sin(2 * np.pi * f0 * k * t) / k
    return (wave / max(float(np.max(np.abs(wave), initial=0.0)), 1e-9) * 4000).astype(np.int16)


def hush(n: int, rng: np.random.Generator) -> Int16Array:
    """The near-silence Moshi streams when it does not talk (about -70 dBFS)."""
    return rng.normal(0.0, 10.0, n).astype(np.int16)


class _Conversation:
    """One connection's model side: input-driven steps of audio and text."""

    def __init__(self, script: MoshiScript, log: SessionLog) -> None:
        self.script, self.log = script, log
        self._decoder = OggOpusDecoder()
        self._encoder = OggOpusEncoder(MOSHI_RATE, STEP_MS)
        self._rng = np.random.default_rng(0)
        self._heard = np.zeros(0, dtype=np.int16)
        self._words: list[str] = []
        self._word_steps = 0
        self._line = 0
        self._user_spoke = False
        self._quiet_ms = 0
        if script.greet:
            self._next_line()

    def hear(self, ogg: bytes) -> list[bytes]:
        """The frames to send for this piece of the caller's Ogg Opus stream."""
        frames: list[bytes] = []
        for pcm in self._decoder.feed(ogg):
            self.log.user_samples += len(pcm)
            self._heard = np.concatenate([self._heard, pcm])
        while len(self._heard) >= USER_STEP:
            step, self._heard = np.split(self._heard, [USER_STEP])
            frames += self._step(step)
        return frames

    def _step(self, heard: Int16Array) -> list[bytes]:
        self.log.steps += 1
        self._turn_taking(heard)
        piece = ""
        if self.script.echo:
            out = soxr.resample(heard, OPUS_RATE, MOSHI_RATE).astype(np.int16)
        elif self._words or self._word_steps:
            if self._word_steps == 0:
                piece = " " + self._words.pop(0)
                self._word_steps = max(1, self.script.word_ms // STEP_MS)
            self._word_steps -= 1
            out = voice(STEP, len(self.log.text))
        else:
            out = hush(STEP, self._rng)
        frames = [_kind("audio") + self._encoder.encode(out)]
        if piece:
            self.log.text.append(piece)
            frames.append(_kind("text") + piece.encode("utf-8"))
        return frames

    def _turn_taking(self, heard: Int16Array) -> None:
        x = heard.astype(np.float64) / 32768.0
        level = 10 * np.log10(max(float(np.mean(x * x)), 1e-12))
        if level >= SPEECH_DBFS:
            self._user_spoke, self._quiet_ms = True, 0
            return
        self._quiet_ms += STEP_MS
        talking = bool(self._words or self._word_steps)
        if self._user_spoke and self._quiet_ms >= self.script.pause_ms and not talking:
            self._user_spoke = False
            self._next_line()

    def _next_line(self) -> None:
        if self._line < len(self.script.lines):
            self._words = self.script.lines[self._line].split()
            self._line += 1


class MoshiServer:
    """`async with MoshiServer(script) as server:` serves `server.url` until the block ends."""

    def __init__(self, script: MoshiScript | None = None, host: str = "127.0.0.1", port: int = 0):
        self.script = script or MoshiScript()
        self.host, self._port = host, port
        self.sessions: list[SessionLog] = []
        self._server: Server | None = None

    async def start(self) -> str:
        self._server = await serve(self._handle, self.host, self._port, process_request=_only_chat)
        return self.url

    @property
    def url(self) -> str:
        assert self._server is not None, "the server is not started"
        port = int(self._server.sockets[0].getsockname()[1])
        return f"ws://{self.host}:{port}{PATH}"

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def __aenter__(self) -> MoshiServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _handle(self, ws: ServerConnection) -> None:
        assert ws.request is not None
        log = SessionLog(dict(parse_qsl(urlsplit(ws.request.path).query)))
        self.sessions.append(log)
        script = self.script
        try:
            if script.metadata is not None:
                await ws.send(_kind("metadata") + json.dumps(script.metadata).encode())
            if not script.handshake:
                await ws.wait_closed()
                return
            await ws.send(_kind("handshake"))
            for frame in script.after_handshake:
                await ws.send(frame)
            if script.close_after_handshake:
                await ws.close()
                return
            await self._converse(ws, _Conversation(script, log))
        except ConnectionClosed:
            return

    async def _converse(self, ws: ServerConnection, model: _Conversation) -> None:
        async for raw in ws:
            if isinstance(raw, str) or not raw or raw[0] != BYTES["audio"]:
                continue  # moshi.server logs and skips what is not audio
            try:
                frames = model.hear(raw[1:])
            except OggOpusError as exc:
                await ws.send(_kind("error") + f"bad audio: {exc}".encode())
                await ws.close()
                return
            for frame in frames:
                await ws.send(frame)


def _only_chat(connection: ServerConnection, request: Request) -> Response | None:
    if urlsplit(request.path).path == PATH:
        return None
    return connection.respond(HTTPStatus.NOT_FOUND, f"the chat endpoint is {PATH}\n")


async def _serve_forever(server: MoshiServer) -> None:
    async with server:
        print(f"scripted Moshi server on {server.url}", flush=True)
        await asyncio.Future()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8998)
    parser.add_argument("--say", action="append", help="a line to say (repeatable)")
    parser.add_argument("--no-greet", action="store_true", help="wait for the caller first")
    parser.add_argument("--echo", action="store_true", help="send the caller's audio back")
    args = parser.parse_args(argv)
    lines = tuple(args.say) if args.say else MoshiScript().lines
    script = MoshiScript(lines=lines, greet=not args.no_greet, echo=args.echo)
    try:
        asyncio.run(_serve_forever(MoshiServer(script, args.host, args.port)))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
