"""How a network agent's connection fails: the errors only, so the episode loops
(`orchestrator/_blame.py`) can name them without importing asyncio and websockets
(`agents/_providers/transport.py`, which re-exports them). It lives in `agents/`, not
`_providers/`, because the orchestrator needs it and must not reach into the adapters."""

from __future__ import annotations

__all__ = ["ConnectionNotOpened", "TransportClosed", "TransportError"]


class TransportClosed(Exception):
    """The peer closed the connection (or it broke); `code`: the WebSocket close code the
    peer sent, None when there was none (the connection broke)."""

    def __init__(self, message: str = "", code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class ConnectionNotOpened(TransportClosed):
    """The connection could not be opened at all (refused, no route, handshake
    rejected): nothing of the episode reached the agent, so the episode's
    error is the harness's (retried, left out of the rates; docs/metrics.md)."""


class TransportError(Exception):
    """The peer sent something that is not a protocol message."""
