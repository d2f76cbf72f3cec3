"""Media clocks: the one place the episode loops get time from.

Media time is integer milliseconds from the first user sample. The
`VirtualClock` jumps to whatever time the loop asks for (as fast as the agent
computes); the `RealtimeClock` paces the same calls at wall-clock speed (or a
multiple of it, for tests) for network agents. Both write the same trace.
No other module sleeps or reads the wall clock for timing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol


class MediaClock(Protocol):
    paced: bool
    """True when media time waits for the wall clock (the frame loop then runs an event loop)."""

    def now_ms(self) -> int: ...

    def advance_to(self, t_ms: int) -> None:
        """Move media time forward to `t_ms` (never backwards)."""
        ...

    async def wait_until(self, t_ms: int) -> None:
        """`advance_to` for the frame loop: a paced clock yields to the event loop meanwhile."""
        ...


class VirtualClock:
    paced = False

    def __init__(self, start_ms: int = 0) -> None:
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def advance_to(self, t_ms: int) -> None:
        if t_ms < self._now:
            raise ValueError(f"media time cannot go back from {self._now} to {t_ms} ms")
        self._now = t_ms

    async def wait_until(self, t_ms: int) -> None:
        self.advance_to(t_ms)  # never suspends: the episode runs in line

    def advance(self, delta_ms: int) -> int:
        self.advance_to(self._now + delta_ms)
        return self._now


class RealtimeClock:
    """Media time paced by the wall clock; `speed` > 1 runs faster (tests only).

    Media time 0 is the wall time of the first `advance_to` / `wait_until` call.
    """

    paced = True

    def __init__(
        self,
        speed: float = 1.0,
        wall: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self.speed = speed
        self._wall, self._sleep = wall, sleep
        self._t0: float | None = None
        self._now = 0

    def now_ms(self) -> int:
        return self._now

    def _delay(self, t_ms: int) -> float:
        if t_ms < self._now:
            raise ValueError(f"media time cannot go back from {self._now} to {t_ms} ms")
        if self._t0 is None:
            self._t0 = self._wall()
        self._now = t_ms
        return self._t0 + t_ms / 1000 / self.speed - self._wall()

    def advance_to(self, t_ms: int) -> None:
        delay = self._delay(t_ms)
        if delay > 0:
            self._sleep(delay)

    async def wait_until(self, t_ms: int) -> None:
        """Like `advance_to`, without blocking the event loop (network agents keep talking)."""
        import asyncio  # noqa: PLC0415 - only streaming agents run an event loop

        delay = self._delay(t_ms)
        await asyncio.sleep(max(0.0, delay))

    def lag_ms(self) -> int:
        """How far the wall clock is behind media time (positive: running late)."""
        if self._t0 is None:
            return 0
        return int((self._wall() - self._t0) * 1000 * self.speed) - self._now
