"""What the WebSocket adapters share: open, wait for the setup answer, read, send, fail, close.

A provider adapter (`gemini_live.py`, `step_audio.py`) subclasses
:class:`WebSocketSession` and keeps only its protocol mapping: the URL and
headers (`endpoint`), the first message and which answer means the session
is ready (`open_session`), and how one server message becomes agent events
(`on_message`). The base holds the connection, the reader task, the events
waiting for `poll()` and the failure rule: the first failure becomes one
`AgentFailure` (its text clipped and the key redacted) and ends the reading;
a connection that never opened raises `ConnectionNotOpened` (the harness's
error, docs/metrics.md "Errors").
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from duplexbench.agents.events import AgentEvent, AgentFailure, clip_reason
from duplexbench.agents.secrets import redact
from duplexbench.agents.transport import (
    ConnectionNotOpened,
    Message,
    Transport,
    TransportClosed,
    TransportError,
    WebSocketTransport,
)

Connector = Callable[[str, dict[str, str]], Awaitable[Transport]]
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, RecursionError)
"""What reading a server message may raise when its fields are not what the protocol says."""


async def websocket(url: str, headers: dict[str, str]) -> Transport:
    return await WebSocketTransport.connect(url, headers)


class WebSocketSession(ABC):
    """The connection side of a streaming agent (module docstring)."""

    name = "agent"
    """Prefix of failure messages (the agent's registered name)."""

    def __init__(self, transport: Transport | None, connector: Connector | None) -> None:
        self._transport = transport
        self._connector = connector or websocket
        self._key: str | None = None
        self._events: list[AgentEvent] = []
        self._reader: asyncio.Task[None] | None = None
        self._failed = False
        self._closing = False

    # ------------------------------------------------------------ for subclasses

    @abstractmethod
    def endpoint(self) -> tuple[str, dict[str, str]]:
        """The URL and headers to open (read the key into `self._key` first)."""

    @abstractmethod
    def on_message(self, message: Message) -> Awaitable[None] | None:
        """Turn one server message into events (may be a coroutine function)."""

    def malformed(self, message: Message, exc: Exception) -> str:
        """The failure text for a message whose fields could not be read."""
        return f"malformed message from the provider: {type(exc).__name__}: {exc}"

    # ------------------------------------------------------------ session

    @property
    def ready(self) -> bool:
        """The session is set up and not failed: audio may be sent."""
        return not self._failed and self._transport is not None and self._reader is not None

    async def open_session(
        self, first: Message, is_ready: Callable[[Message], bool], what: str, timeout_s: float
    ) -> None:
        """Open the connection (unless one was given), send `first` and wait until a message
        `is_ready` (`what` names it in the failure); then read in the background."""
        try:
            if self._transport is None:
                url, headers = self.endpoint()
                self._transport = await self._connector(url, headers)
            await self._transport.send(first)
            if await self._await_ready(is_ready, what, timeout_s):
                self._reader = asyncio.create_task(self._read())
        except ConnectionNotOpened:
            raise  # nothing reached the agent: the harness's error (docs/metrics.md)
        except (TransportClosed, TransportError, OSError) as exc:
            self.fail(f"cannot start the session: {exc}")

    def poll(self) -> Sequence[AgentEvent]:
        events, self._events = self._events, []
        return events

    async def close(self) -> None:
        self._closing = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
        if self._transport is not None:
            with contextlib.suppress(Exception):
                await self._transport.close()

    def fail(self, reason: str) -> None:
        """The session failed: one `AgentFailure` (the first reason), nothing read after."""
        if not self._failed:
            self._failed = True
            text = clip_reason(redact(f"{self.name}: {reason}", [self._key]))
            self._events.append(AgentFailure(text))

    async def send(self, message: Message) -> None:
        assert self._transport is not None
        try:
            await self._transport.send(message)
        except (TransportClosed, TransportError, OSError) as exc:
            self.fail(f"connection lost: {exc}")

    # ------------------------------------------------------------ internals

    async def _await_ready(
        self, is_ready: Callable[[Message], bool], what: str, timeout_s: float
    ) -> bool:
        """Wait for the setup answer; anything else that arrives first is handled."""
        assert self._transport is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while not self._failed:
            left = deadline - loop.time()
            if left <= 0:
                break
            message = await self._transport.recv(timeout=left)
            if message is None:
                continue
            if is_ready(message):
                return True
            await self._handle(message)
        if not self._failed:
            self.fail(f"no {what} within {timeout_s:g} s")
        return False

    async def _read(self) -> None:
        assert self._transport is not None
        while not self._failed:
            try:
                message = await self._transport.recv(timeout=None)
            except (TransportClosed, TransportError, OSError) as exc:
                if not self._closing:
                    self.fail(f"connection lost: {exc}")
                return
            if message is not None:
                await self._handle(message)

    async def _handle(self, message: Message) -> None:
        """One server message; one that cannot be read fails the session."""
        try:
            result: Any = self.on_message(message)
            if inspect.isawaitable(result):
                await result
        except MALFORMED as exc:
            self.fail(self.malformed(message, exc))
