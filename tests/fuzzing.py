"""What every fuzz suite shares: the example count, hypothesis settings, a hang guard.

`DUPLEXBENCH_FUZZ_EXAMPLES` (default 40) sets hypothesis's `max_examples`
for every property; `time_guard` turns a case that runs too long into a
failure (SIGALRM: the tests run in the main thread) instead of a hang.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("DUPLEXBENCH_FUZZ_EXAMPLES", "40"))
CASE_SECONDS = 20

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Hang(Exception):
    """A fuzz case ran past its time guard."""


@contextmanager
def time_guard(seconds: float = CASE_SECONDS) -> Iterator[None]:
    """Raise `Hang` in the block once it has run `seconds`."""

    def fire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"case ran past {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
