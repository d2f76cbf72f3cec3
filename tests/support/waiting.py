"""Waiting on state, never on time: the one place where tests poll.

A test that needs another task, thread or process to make progress waits for
the state it needs, with a deadline and a message naming what it waited for:
`until` in a coroutine, `wait_until` in plain code, `stop_when` for a child
process that is about to be killed (a scripted provider's `caught_up()` tells
when an adapter's reader has handled all it was sent). Sleeps left in the tests pace a simulated
real-time stream (a caller's frames, a server slow on purpose) and say so on
their line.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import Callable

What = str | Callable[[], str]
"""What is waited for, for the failure message (a callable: computed at the failure)."""

BARE_YIELDS = 100
"""`until` first yields with nothing in between (in-memory tasks need no more); then it
also lets the event loop's selector wait 1 ms (a socket or another thread is involved)."""


def _describe(what: What) -> str:
    return what() if callable(what) else what


async def until(predicate: Callable[[], object], timeout: float = 5.0, what: What = "") -> None:
    """Return once `predicate()` is true; AssertionError after `timeout` seconds.

    Yields to the event loop before the first check, so that tasks made ready
    before the call (a writer woken by a `put`) run first.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    tries = 0
    while True:
        await asyncio.sleep(0 if tries < BARE_YIELDS else 0.001)  # the one polling yield
        tries += 1
        if predicate():
            return
        if loop.time() >= deadline:
            raise AssertionError(f"waited {timeout:g} s for {_describe(what) or predicate}")


def wait_until(
    predicate: Callable[[], object], timeout: float = 10.0, what: What = "", every: float = 0.002
) -> None:
    """`until` for plain code (another process or thread makes the progress)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout:g} s for {_describe(what) or predicate}")
        time.sleep(every)  # the one polling sleep of plain code


def stop_when(
    proc: subprocess.Popen[bytes], ready: Callable[[], bool], timeout: float, what: str
) -> None:
    """Stop `proc` (SIGSTOP) at a moment `ready()` holds, and leave it stopped.

    `ready` is checked again once the process has stopped (`waitpid`), so the
    state the caller then sees is the state the process is in when killed; if
    it no longer holds, the process continues and the wait goes on. Raises
    AssertionError when the process ends first or after `timeout` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        wait_until(lambda: proc.poll() is not None or ready(), left, what)
        assert proc.poll() is None, f"the process ended ({proc.returncode}) before {what}"
        os.kill(proc.pid, signal.SIGSTOP)
        _, status = os.waitpid(proc.pid, os.WUNTRACED)
        if not os.WIFSTOPPED(status):  # it ended before the signal came
            proc.returncode = os.waitstatus_to_exitcode(status)
            raise AssertionError(f"the process ended ({proc.returncode}) before {what}")
        if ready():
            return
        os.kill(proc.pid, signal.SIGCONT)
