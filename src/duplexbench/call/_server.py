"""`CallServer`: the local web server between a person's browser and the harness.

One asyncio loop in a daemon thread serves the page over plain HTTP and the
call over one WebSocket (`/ws`), both on the same port and both behind a
token made for this server. The harness lives in other threads and never
touches the loop: `send` and `send_audio` hand frames to it
(`call_soon_threadsafe`), and what the page says arrives in a thread-safe
queue (`next_control`) and, for audio, in the `MicBuffer` (`mic`).

Only one page is on a call: a second WebSocket is closed (1008) while the
first is open, so two tabs can never both speak for the caller. Frames are
bounded (binary 64 KiB, text 16 KiB; beyond: 1009) and anything malformed
from the page is logged and ignored: the server must outlive a bad page.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import secrets
import threading
from pathlib import Path
from typing import cast
from urllib.parse import quote

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from duplexbench.call._inbox import page_message
from duplexbench.call._mic import MicBuffer
from duplexbench.call._routes import FILES, Routes, check_name, secure

log = logging.getLogger(__package__)
"""The package's logger, `duplexbench.call` (a logger name, not an import of the package)."""

MAX_BINARY = 64 * 1024
MAX_TEXT = 16 * 1024
TOO_BIG = 1009
POLICY = 1008
Frame = str | bytes


class CallServer:
    """The page and its WebSocket on `host:port` (0: any free port), guarded by `token`."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, token: str | None = None) -> None:
        if token == "":
            raise ValueError("an empty token guards nothing")
        self._host, self._wanted_port = host, port
        self._token = token if token is not None else secrets.token_urlsafe(24)
        self._routes = Routes(self._token)
        self._mic = MicBuffer()
        self._controls: queue.Queue[dict[str, object]] = queue.Queue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._port: int | None = None
        self._closed = False
        self._outbox: asyncio.Queue[Frame] | None = None
        """The connected page's outgoing frames (None: no page); touched in the loop only."""

    def start(self) -> None:
        """Start serving in a daemon thread; return once the socket listens."""
        with self._lock:
            if self._thread is not None or self._closed:
                raise RuntimeError("a CallServer starts once")
            ready = threading.Event()
            failure: list[Exception] = []
            self._thread = threading.Thread(
                target=lambda: asyncio.run(self._serve(ready, failure)),
                name="duplexbench-call",
                daemon=True,
            )
            self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            raise failure[0]

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("the CallServer is not started")
        return self._port

    @property
    def url(self) -> str:
        """The page's address, token included (what the person opens)."""
        return f"{self._origin()}/?token={quote(self._token, safe='')}"

    @property
    def mic(self) -> MicBuffer:
        return self._mic

    def close(self) -> None:
        """Stop serving (the page's socket closes with 1001) and end the thread; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            loop, stop, thread = self._loop, self._stop, self._thread
        if loop is not None and stop is not None:
            loop.call_soon_threadsafe(stop.set)
        if thread is not None:
            thread.join()

    def send(self, message: dict[str, object]) -> None:
        """One JSON text frame to the page (dropped when no page is connected)."""
        self._post(json.dumps(message, ensure_ascii=False, allow_nan=False))

    def send_audio(self, pcm16: bytes) -> None:
        """Agent audio to play: int16 LE mono at 16 kHz (dropped when no page is connected)."""
        if len(pcm16) % 2:
            raise ValueError(f"int16 audio has an even byte count, not {len(pcm16)}")
        self._post(bytes(pcm16))

    def next_control(self, timeout: float | None = None) -> dict[str, object] | None:
        """The page's next control message (or `connected` / `disconnected`); None on timeout."""
        try:
            return self._controls.get(timeout=timeout)
        except queue.Empty:
            return None

    def publish(self, name: str, path: Path) -> str:
        """Serve `path` at /files/<name> (token required); its absolute URL, token included."""
        url = f"{self._origin()}{FILES}{check_name(name)}?token={quote(self._token, safe='')}"
        self._routes.publish(name, path)
        return url

    def _origin(self) -> str:
        host = f"[{self._host}]" if ":" in self._host else self._host
        return f"http://{host}:{self.port}"

    def _post(self, frame: Frame) -> None:
        with self._lock:
            loop = None if self._closed else self._loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(self._enqueue, frame)
        except RuntimeError:  # the loop closed between the check and the call
            return

    def _enqueue(self, frame: Frame) -> None:
        if self._outbox is not None:
            self._outbox.put_nowait(frame)

    async def _serve(self, ready: threading.Event, failure: list[Exception]) -> None:
        try:
            server = await serve(
                self._handle,
                self._host,
                self._wanted_port,
                process_request=self._routes.answer,
                process_response=secure,
                max_size=MAX_BINARY,
                compression=None,
            )
        except Exception as exc:  # handed to start(), which raises it in the caller's thread
            failure.append(exc)
            ready.set()
            return
        async with server:
            stop = asyncio.Event()
            with self._lock:
                self._port = int(server.sockets[0].getsockname()[1])
                self._loop, self._stop = asyncio.get_running_loop(), stop
                if self._closed:
                    stop.set()
            ready.set()
            await stop.wait()

    async def _handle(self, ws: ServerConnection) -> None:
        if self._outbox is not None:
            await ws.close(POLICY, "another page is on this call")
            return
        outbox: asyncio.Queue[Frame] = asyncio.Queue()
        self._outbox = outbox
        self._controls.put({"type": "connected"})
        writer = asyncio.create_task(_write(ws, outbox))
        try:
            await self._read(ws)
        finally:
            self._outbox = None
            writer.cancel()
            self._controls.put({"type": "disconnected"})

    async def _read(self, ws: ServerConnection) -> None:
        """Take the page's frames until its socket closes."""
        heard_hello = warned = False
        try:
            async for frame in ws:
                if isinstance(frame, str):
                    if len(frame.encode("utf-8")) > MAX_TEXT:
                        await ws.close(TOO_BIG, "text frame over 16 KiB")
                        return
                    heard_hello = self._control(frame) or heard_hello
                elif not heard_hello or len(frame) % 2:
                    if not warned:
                        log.warning("ignored microphone audio before hello or of odd length")
                    warned = True
                else:
                    self._mic.push(frame)
        except ConnectionClosed:
            return

    def _control(self, text: str) -> bool:
        """Queue a control message for the harness; True for a hello that set the mic rate."""
        message = page_message(text)
        if message is None:
            return False
        if message["type"] == "hello":
            try:
                self._mic.set_input_rate(cast(int, message["sample_rate"]))
            except ValueError as exc:
                log.warning("ignored the page's hello: %s", exc)
                return False
        self._controls.put(message)
        return message["type"] == "hello"


async def _write(ws: ServerConnection, outbox: asyncio.Queue[Frame]) -> None:
    """Send the outbox to the page, in order, until the socket closes."""
    try:
        while True:
            await ws.send(await outbox.get())
    except ConnectionClosed:
        return
