"""A stall watchdog: an episode that stops making progress ends as an error.

The episode loops call :func:`kick` after every frame (audio) or turn (text).
Inside :func:`watchdog`, if no kick comes for `limit_s` seconds of wall time,
:class:`Stalled` is raised in the episode's thread, wherever it is blocked
(an agent's `step` or `respond` that never returns, a TTS call that hangs),
and the loop ends the episode as an `error` naming the stall. The campaign
engine runs every job inside one (`campaign/_jobs.py`), so a stalled agent
costs at most `limit_s` before the retry policy takes over.

It uses SIGALRM, so it is active only in a process's main thread on a POSIX
system (local runs, pool workers and Ray workers run jobs there); elsewhere
it does nothing. Awaited calls of streaming agents are bounded by
:func:`bounded` instead, with the same limit, so a connection that never
answers raises :class:`Stalled` inside the event loop, where the episode can
still close the agent and write its trace (while such a call is awaited the
alarm is pushed to twice the limit, a backstop for code that blocks the
event loop itself).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

T = TypeVar("T")

DEFAULT_STALL_S = 60.0
"""Seconds without progress before an episode is declared stalled."""

_active: list[float] = []
"""The armed limit (at most one: a watchdog inside another does nothing)."""


def _current() -> float | None:
    return _active[0] if _active else None


class Stalled(BaseException):
    """The episode made no progress for the watchdog's limit.

    A `BaseException`, so agent code that swallows `Exception` (a retry loop
    around a network call, say) cannot swallow it; the episode loops catch
    :data:`FAULTS`. The alarm repeats every `limit_s` until the next kick.
    """


FAULTS = (Exception, Stalled)
"""What the episode loops turn into an `error` episode."""


def _armable() -> bool:
    return hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread()


def _alarm(signum: int, frame: FrameType | None) -> None:
    limit = _current()
    raise Stalled(f"no progress for {limit:g} s: the agent (or the harness) stalled")


@contextmanager
def watchdog(limit_s: float | None) -> Iterator[None]:
    """Raise :class:`Stalled` when no :func:`kick` comes for `limit_s` seconds (None: off)."""
    if limit_s is None or not _armable() or _active:
        yield
        return
    if limit_s <= 0:
        raise ValueError(f"the stall limit must be > 0 s, got {limit_s}")
    previous = signal.signal(signal.SIGALRM, _alarm)
    _active.append(limit_s)
    signal.setitimer(signal.ITIMER_REAL, limit_s, limit_s)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _active.clear()
        signal.signal(signal.SIGALRM, previous)


def kick() -> None:
    """Progress was made: restart the countdown (no-op outside a watchdog)."""
    limit_s = _current()
    if limit_s is not None:
        signal.setitimer(signal.ITIMER_REAL, limit_s, limit_s)


def limit() -> float | None:
    """The active watchdog's limit in seconds (None outside one)."""
    return _current()


async def bounded(call: Awaitable[T], what: str) -> T:
    """Await an agent call; :class:`Stalled` naming `what` if it outlasts the limit."""
    import asyncio  # noqa: PLC0415 - only streaming agents run an event loop

    limit_s = _current()
    if limit_s is None:
        return await call
    # wait_for ends the call first; the alarm stays armed (at twice the limit)
    # only as a backstop for code that blocks the event loop itself.
    signal.setitimer(signal.ITIMER_REAL, 2 * limit_s, limit_s)
    try:
        return await asyncio.wait_for(call, limit_s)
    except TimeoutError:
        raise Stalled(f"{what} did not return within {limit_s:g} s: the agent stalled") from None
    finally:
        kick()
