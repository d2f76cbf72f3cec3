"""What the WebSocket adapters share: open, wait for the setup answer, read, send, fail, close.

A provider adapter (`openai_realtime.py`, `gemini_live.py`, `step_audio.py`)
subclasses :class:`WebSocketSession` and keeps only its protocol mapping: the
URL and headers (`endpoint`), the first message and which answer means the
session is ready (`open_session`), and how one server message becomes agent
events (`on_message`). The base holds:

- the connection, opened by `open_session` (or given: tests, fakes); one
  that never opened raises `ConnectionNotOpened`, the harness's error
  (docs/metrics.md "Errors"), with the key redacted;
- the send queue: a writer task sends what `post` (never waits: the reader
  may call it) and `send` (waits while more than `max_backlog` messages are
  queued: back-pressure for the audio stream) queue, in order, so the task
  reading the connection never blocks on a full socket;
- the reader task and the events waiting for `poll()` (`push`, bounded by
  `max_events`);
- the failure rule: the first failure becomes one `AgentFailure` (its text
  clipped to 1000 characters, the key redacted) and ends the reading. A
  closed connection is `connection closed: ...`, a message that is not JSON
  `malformed message from the provider: ...`, one whose fields cannot be
  read what `malformed` says.
The key lives in a `Secret` (`use_key`), so no repr shows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from duplexbench.agents._events import AgentEvent, AgentFailure, clip_reason
from duplexbench.agents._providers.secrets import Secret, redact
from duplexbench.agents._providers.transport import (
    ConnectionNotOpened,
    Message,
    Outbox,
    Transport,
    TransportClosed,
    TransportError,
    WebSocketTransport,
)

_Key = TypeVar("_Key", str, str | None)
Connector = Callable[[str, dict[str, str]], Awaitable[Transport]]
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, RecursionError)
"""What reading a server message may raise when its fields are not what the protocol says."""


async def websocket(url: str, headers: dict[str, str]) -> Transport:
    return await WebSocketTransport.connect(url, headers)


class WebSocketSession(ABC):
    """The connection side of a streaming agent (module docstring)."""

    name = "agent"
    """Prefix of failure messages (the agent's registered name)."""
    max_events: int | None = None
    """Events waiting for `poll()` beyond which the session fails (None: unbounded)."""
    max_backlog = 500
    """Messages queued for sending beyond which `send` waits."""

    def __init__(self, transport: Transport | None, connector: Connector | None) -> None:
        self._transport = transport
        self._connector = connector or websocket
        self._secret = Secret()
        self._events: list[AgentEvent] = []
        self._outbox: Outbox | None = None
        self._reader: asyncio.Task[None] | None = None
        self._failed = False
        self._closing = False

    # ------------------------------------------------------------ for subclasses

    @abstractmethod
    def endpoint(self) -> tuple[str, dict[str, str]]:
        """The URL and headers to open (set the key with `use_key` first)."""

    @abstractmethod
    def on_message(self, message: Message) -> Awaitable[None] | None:
        """Turn one server message into events (may be a coroutine function)."""

    def malformed(self, message: Message, exc: Exception) -> str:
        """The failure text for a message whose fields could not be read."""
        return f"malformed message from the provider: {type(exc).__name__}: {exc}"

    def peer_closed(self, exc: TransportClosed) -> None:
        """The peer closed the connection (`exc.code`: its close code, if any): a failure
        unless we are closing; a protocol where closing means hanging up overrides this."""
        self._closed(str(exc))

    def use_key(self, key: _Key) -> _Key:
        """Keep the key for redaction (never shown) and return it."""
        self._secret.value = key
        return key

    # ------------------------------------------------------------ session

    @property
    def ready(self) -> bool:
        """The session is set up and not failed: audio may be sent."""
        return not self._failed and self._transport is not None and self._reader is not None

    async def open_session(
        self,
        first: Message | None,
        is_ready: Callable[[Message], bool] | None,
        what: str,
        timeout_s: float,
    ) -> None:
        """Open the connection (unless one was given), send `first` (None: nothing, for a
        protocol where the server speaks first) and wait until a message
        `is_ready` (`what` names it in the failure; None: a protocol without a setup
        answer, ready once sent); then read in the background."""
        try:
            if self._transport is None:
                url, headers = self.endpoint()
                self._transport = await self._connector(url, headers)
        except ConnectionNotOpened as exc:  # nothing reached the agent: the harness's error
            raise ConnectionNotOpened(self._redact(f"{self.name}: {exc}")) from None
        except (TransportClosed, TransportError, OSError) as exc:
            self.fail(f"cannot start the session: {exc}")
            return
        self._outbox = Outbox(self._transport.send, self._closed, self.max_backlog)
        self._outbox.start()
        if first is not None:
            self.post(first)
        if is_ready is None or await self._await_ready(is_ready, what, timeout_s):
            self._reader = asyncio.create_task(self._read())

    def post(self, message: Message) -> None:
        """Queue a message for the writer; never waits (safe from the reader)."""
        if self._outbox is not None:
            self._outbox.put(message)

    async def send(self, message: Message) -> None:
        """Queue a message, waiting while the send queue is over `max_backlog`."""
        if self._outbox is not None:
            await self._outbox.put_wait(message)

    def push(self, event: AgentEvent) -> bool:
        """Hand an event to the next `poll()`; False (and the session fails) when
        `max_events` are already waiting."""
        if self.max_events is not None and len(self._events) >= self.max_events:
            self.fail(f"more than {self.max_events} events waiting to be polled")
            return False
        self._events.append(event)
        return True

    def poll(self) -> Sequence[AgentEvent]:
        events, self._events = self._events, []
        return events

    async def close(self) -> None:
        """Flush the send queue, stop reading, close; a send that failed for another
        reason than a closed connection is raised here (never lost)."""
        self._closing = True
        if self._outbox is not None:
            await self._outbox.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
        if self._transport is not None:
            with contextlib.suppress(Exception):  # a broken connection must not mask the end
                await self._transport.close()
        if self._outbox is not None and self._outbox.error is not None:
            raise self._outbox.error

    def fail(self, reason: str) -> None:
        """The session failed: one `AgentFailure` (the first reason), nothing read after."""
        if not self._failed:
            self._failed = True
            self._events.append(AgentFailure(clip_reason(self._redact(f"{self.name}: {reason}"))))

    # ------------------------------------------------------------ internals

    def _redact(self, text: str) -> str:
        return redact(text, [self._secret.value])

    def _closed(self, reason: str) -> None:
        if not self._closing:  # the transport's reason may already say so: said once
            self.fail(f"connection closed: {reason.removeprefix('connection closed: ')}")

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
            message = await self._receive(left)
            if message is None:
                continue
            if is_ready(message):
                return True
            await self._handle(message)
        if not self._failed:
            self.fail(f"no {what} within {timeout_s:g} s")
        return False

    async def _read(self) -> None:
        while not (self._failed or self._closing):
            message = await self._receive(None)
            if message is not None:
                await self._handle(message)

    async def _receive(self, timeout: float | None) -> Message | None:
        """The next message, or None (nothing in time, or the session failed reading)."""
        assert self._transport is not None
        try:
            return await self._transport.recv(timeout=timeout)
        except TransportError as exc:
            self.fail(f"malformed message from the provider: {exc}")
        except TransportClosed as exc:
            self.peer_closed(exc)
        except OSError as exc:
            self._closed(str(exc))
        return None

    async def _handle(self, message: Message) -> None:
        """One server message; one that cannot be read fails the session."""
        try:
            result: Any = self.on_message(message)
            if inspect.isawaitable(result):
                await result
        except MALFORMED as exc:
            self.fail(self.malformed(message, exc))
