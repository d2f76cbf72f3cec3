"""Message transports for network adapters: JSON messages over a WebSocket.

Adapters speak a provider's protocol through a `Transport`, so the same
adapter runs against the real service, a local server (`serve-agent`) or a
scripted fake provider (`duplexbench.testing.ScriptedProvider`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, Self

import websockets

from duplexbench.agents._connection import ConnectionNotOpened, TransportClosed, TransportError

__all__ = [
    "MAX_MESSAGE_BYTES",
    "ConnectionNotOpened",
    "Message",
    "Outbox",
    "Transport",
    "TransportClosed",
    "TransportError",
    "WebSocketTransport",
]

Message = dict[str, Any]
MAX_MESSAGE_BYTES = 16 * 1024 * 1024


class Transport(Protocol):
    async def send(self, message: Message) -> None: ...

    async def recv(self, timeout: float | None = None) -> Message | None:
        """The next message; None if none arrived within `timeout` seconds.

        Raises TransportClosed when the connection is gone.
        """
        ...

    async def close(self) -> None: ...


class WebSocketTransport:
    """JSON text frames over a `websockets` client connection (a protocol with other
    frames overrides `encode` and `decode`, e.g. Moshi's binary ones)."""

    def __init__(self, connection: Any) -> None:
        self._ws = connection

    @classmethod
    async def connect(
        cls, url: str, headers: dict[str, str] | None = None, open_timeout: float = 10.0
    ) -> Self:
        try:
            ws = await websockets.connect(
                url,
                additional_headers=headers or {},
                max_size=MAX_MESSAGE_BYTES,
                open_timeout=open_timeout,
            )
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as exc:
            raise ConnectionNotOpened(f"cannot connect to {url}: {exc}") from None
        return cls(ws)

    def encode(self, message: Message) -> str | bytes | None:
        """The frame of `message` (None: nothing to send)."""
        return json.dumps(message)

    def decode(self, raw: str | bytes) -> Message:
        """The message of a frame; TransportError when it is none."""
        try:
            message = json.loads(raw)
        except (ValueError, TypeError):
            raise TransportError(f"not JSON: {str(raw)[:80]!r}") from None
        except RecursionError:  # e.g. 10,000 nested arrays: never a protocol message
            raise TransportError(f"JSON nested too deeply: {str(raw)[:80]!r}") from None
        if not isinstance(message, dict):
            raise TransportError("a protocol message must be a JSON object")
        return message

    async def send(self, message: Message) -> None:
        frame = self.encode(message)
        if frame is None:
            return
        try:
            await self._ws.send(frame)
        except websockets.exceptions.ConnectionClosed as exc:
            raise TransportClosed(f"connection closed: {exc}") from None

    async def recv(self, timeout: float | None = None) -> Message | None:
        try:
            raw = await asyncio.wait_for(self._ws.recv(), timeout)
        except TimeoutError:
            return None
        except websockets.exceptions.ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            raise TransportClosed(f"connection closed: {exc}", code) from None
        return self.decode(raw)

    async def close(self) -> None:
        await self._ws.close()


class Outbox:
    """Sends messages from a writer task, so that a reader never waits on a full socket.

    A full-duplex peer reads and writes at once. If the task reading a
    connection also awaited its own sends, two peers could each block writing
    to the other while neither reads (a deadlock once the socket buffers
    fill). `put` never waits; `put_wait` waits only while more than
    `max_backlog` messages are queued (back-pressure for the audio stream).
    The first error other than a closed connection is kept in `error`.
    """

    def __init__(
        self,
        send: Callable[[Any], Awaitable[None]],
        on_closed: Callable[[str], None],
        max_backlog: int = 500,
    ) -> None:
        self._send, self._on_closed = send, on_closed
        self.max_backlog = max_backlog
        self._queue: deque[Any] = deque()
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()
        self._task: asyncio.Task[None] | None = None
        self.closed = False
        self.error: BaseException | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._write())

    def put(self, message: Any) -> None:
        if self.closed:
            return
        self._queue.append(message)
        self._drained.clear()
        self._wake.set()

    async def put_wait(self, message: Any) -> None:
        while len(self._queue) > self.max_backlog and not self.closed:
            await self._drained.wait()
        self.put(message)

    async def _write(self) -> None:
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                while self._queue and not self.closed:
                    await self._send(self._queue.popleft())
                self._drained.set()
        except TransportClosed as exc:
            self.closed = True
            self._on_closed(str(exc))
        except Exception as exc:  # kept and re-raised by close(): never lost
            self.closed, self.error = True, exc
        finally:
            self._drained.set()

    async def close(self, timeout: float = 2.0) -> None:
        """Flush what is queued (up to `timeout` s), then stop the writer."""
        if self._task is not None and not self.closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._until_drained(), timeout)
        self.closed = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _until_drained(self) -> None:
        while self._queue and not self.closed:
            self._drained.clear()
            self._wake.set()
            await self._drained.wait()
