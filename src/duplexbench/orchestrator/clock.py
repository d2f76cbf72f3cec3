"""Media clocks: the one place the episode loop gets time from.

Media time is integer milliseconds from the first user sample. The
`VirtualClock` jumps to whatever time the loop asks for (as fast as the agent
computes); a `RealtimeClock` (network agents, full-duplex issue) will pace the
same calls at wall-clock speed. Both write the same trace.
"""

from __future__ import annotations

from typing import Protocol


class MediaClock(Protocol):
    def now_ms(self) -> int: ...

    def advance_to(self, t_ms: int) -> None:
        """Move media time forward to `t_ms` (never backwards)."""
        ...


class VirtualClock:
    def __init__(self, start_ms: int = 0) -> None:
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def advance_to(self, t_ms: int) -> None:
        if t_ms < self._now:
            raise ValueError(f"media time cannot go back from {self._now} to {t_ms} ms")
        self._now = t_ms

    def advance(self, delta_ms: int) -> int:
        self.advance_to(self._now + delta_ms)
        return self._now
