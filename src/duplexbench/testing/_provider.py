"""A scripted fake provider: the other end of an adapter's transport, from a script.

A script is a list of steps: `Expect` (the adapter must send a message of this
type whose fields contain `match`), `Emit` (the provider sends this message)
and `Disconnect` (the provider drops the connection). Steps run in order;
emits wait until every earlier expect was met. A message that does not match
the next expect raises `ScriptError` (naming both); `finish()` raises if steps
were left unconsumed. Messages of types listed in `ignore` are accepted
anywhere without a step (e.g. streaming audio appends).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from duplexbench.agents import Message, TransportClosed


class ScriptError(AssertionError):
    """The adapter did something the script did not expect (or left steps undone)."""


@dataclass(frozen=True)
class Expect:
    type: str
    match: dict[str, Any] = field(default_factory=dict)
    check: Callable[[Message], bool] | None = None


@dataclass(frozen=True)
class Emit:
    message: Message


@dataclass(frozen=True)
class Disconnect:
    """The provider drops the connection (with the close reason a real one gives)."""

    reason: str = "the fake provider disconnected"


Step = Expect | Emit | Disconnect


def _contains(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _contains(actual[k], v) for k, v in expected.items()
        )
    return bool(actual == expected)


class ScriptedProvider:
    """Implements `Transport` for the adapter under test, playing a script of steps.

    `caught_up()` tells when the adapter has handled everything emitted so far (wait
    on it, with a deadline, instead of sleeping); `finished()` when the script ran."""

    def __init__(self, steps: Sequence[Step], ignore: Iterable[str] = ()) -> None:
        self.steps = list(steps)
        self.ignore = set(ignore)
        self.sent: list[Message] = []
        self.ignored: list[Message] = []
        self._pos = 0
        self._inbox: asyncio.Queue[Message | Disconnect] = asyncio.Queue()
        self._closed = False
        self._reason = Disconnect().reason
        self.waiting = 0
        """Readers inside `recv` (suspended there: nothing was queued for them)."""
        self._pump()

    def _pump(self) -> None:
        """Emit every step up to the next expect."""
        while self._pos < len(self.steps):
            step = self.steps[self._pos]
            if isinstance(step, Expect):
                return
            self._pos += 1
            self._inbox.put_nowait(step.message if isinstance(step, Emit) else step)

    async def send(self, message: Message) -> None:
        if self._closed:
            raise TransportClosed(self._reason)
        self.sent.append(message)
        kind = message.get("type")
        step = self.steps[self._pos] if self._pos < len(self.steps) else None
        if isinstance(step, Expect) and kind == step.type and _contains(message, step.match):
            if step.check is not None and not step.check(message):
                raise ScriptError(f"step {self._pos}: {kind} failed its check: {message}")
            self._pos += 1
            self._pump()
            return
        if kind in self.ignore:
            self.ignored.append(message)
            return
        wanted = f"{step.type} {step.match}" if isinstance(step, Expect) else "nothing"
        raise ScriptError(f"step {self._pos}: expected {wanted}, got {kind}: {message}")

    async def recv(self, timeout: float | None = None) -> Message | None:
        if self._closed and self._inbox.empty():
            raise TransportClosed(self._reason)
        self.waiting += 1
        try:
            message = await asyncio.wait_for(self._inbox.get(), timeout)
        except TimeoutError:
            return None
        finally:
            self.waiting -= 1
        if isinstance(message, Disconnect):
            self._closed, self._reason = True, message.reason
            raise TransportClosed(message.reason)
        return message

    async def close(self) -> None:
        self._closed = True

    @property
    def pending(self) -> int:
        """Messages emitted and not yet received by the adapter."""
        return self._inbox.qsize()

    def caught_up(self) -> bool:
        """The adapter's reader waits for more and nothing is queued for it: everything
        emitted so far has been handled (wait on it, with a deadline, instead of sleeping)."""
        return self.waiting > 0 and self.pending == 0

    def finished(self) -> bool:
        """Every step of the script has run."""
        try:
            self.finish()
        except ScriptError:
            return False
        return True

    def finish(self) -> None:
        """Raise if the script has steps the adapter never reached."""
        if self._pos < len(self.steps):
            raise ScriptError(f"unconsumed steps from {self._pos}: {self.steps[self._pos :]}")
