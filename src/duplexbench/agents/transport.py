"""Message transports for network adapters: JSON messages over a WebSocket.

Adapters speak a provider's protocol through a `Transport`, so the same
adapter runs against the real service, a local server (`serve-agent`) or a
scripted fake provider (`duplexbench.testing.ScriptedProvider`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Protocol

import websockets

Message = dict[str, Any]
MAX_MESSAGE_BYTES = 16 * 1024 * 1024


class TransportClosed(Exception):
    """The peer closed the connection (or it broke)."""


class TransportError(Exception):
    """The peer sent something that is not a protocol message."""


class Transport(Protocol):
    async def send(self, message: Message) -> None: ...

    async def recv(self, timeout: float | None = None) -> Message | None:
        """The next message; None if none arrived within `timeout` seconds.

        Raises TransportClosed when the connection is gone.
        """
        ...

    async def close(self) -> None: ...


class WebSocketTransport:
    """JSON text frames over a `websockets` client connection."""

    def __init__(self, connection: Any) -> None:
        self._ws = connection

    @classmethod
    async def connect(
        cls, url: str, headers: dict[str, str] | None = None, open_timeout: float = 10.0
    ) -> WebSocketTransport:
        try:
            ws = await websockets.connect(
                url,
                additional_headers=headers or {},
                max_size=MAX_MESSAGE_BYTES,
                open_timeout=open_timeout,
            )
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as exc:
            raise TransportClosed(f"cannot connect to {url}: {exc}") from None
        return cls(ws)

    async def send(self, message: Message) -> None:
        try:
            await self._ws.send(json.dumps(message))
        except websockets.exceptions.ConnectionClosed as exc:
            raise TransportClosed(f"connection closed: {exc}") from None

    async def recv(self, timeout: float | None = None) -> Message | None:
        try:
            raw = await asyncio.wait_for(self._ws.recv(), timeout)
        except TimeoutError:
            return None
        except websockets.exceptions.ConnectionClosed as exc:
            raise TransportClosed(f"connection closed: {exc}") from None
        try:
            message = json.loads(raw)
        except (ValueError, TypeError):
            raise TransportError(f"not JSON: {str(raw)[:80]!r}") from None
        if not isinstance(message, dict):
            raise TransportError("a protocol message must be a JSON object")
        return message

    async def close(self) -> None:
        await self._ws.close()
