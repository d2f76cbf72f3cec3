"""The stall watchdog: kicks keep an episode alive, silence stops it, swallowing does not help."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from duplexbench.orchestrator._watchdog import FAULTS, Stalled, bounded, kick, limit, watchdog


def spin(seconds: float, swallow: bool = False) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            time.sleep(0.01)  # pacing: work that takes wall time (what the alarm counts)
        except Exception:
            if not swallow:
                raise


def test_kicks_keep_it_quiet_and_it_disarms() -> None:
    with watchdog(0.5):
        assert limit() == 0.5
        for _ in range(8):
            spin(0.1)  # 0.8 s in all, never 0.5 s without a kick
            kick()
    assert limit() is None
    spin(0.6)  # disarmed: nothing fires after the block


def test_no_progress_raises_even_through_code_that_swallows_exceptions() -> None:
    assert not issubclass(Stalled, Exception) and Stalled in FAULTS
    with pytest.raises(Stalled, match=r"no progress for 0\.1 s"), watchdog(0.1):
        spin(5.0, swallow=True)


def test_a_watchdog_inside_another_and_off_do_nothing() -> None:
    with watchdog(0.5), watchdog(0.05):
        assert limit() == 0.5
        spin(0.1)  # the inner 0.05 s limit is not armed
        kick()
    with watchdog(None):
        assert limit() is None
    with pytest.raises(ValueError, match="> 0"), watchdog(0):
        pass


def test_outside_the_main_thread_it_is_off() -> None:
    seen: list[float | None] = []

    def worker() -> None:
        with watchdog(0.05):
            seen.append(limit())
            spin(0.15)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [None]


def test_bounded_ends_a_call_that_never_returns() -> None:
    async def forever() -> None:
        await asyncio.Event().wait()

    async def ok() -> int:
        return 7

    async def main() -> int:
        assert await bounded(ok(), "ok") == 7
        await bounded(forever(), "send_audio")
        return 0

    with pytest.raises(Stalled, match=r"send_audio did not return within 0\.2 s"), watchdog(0.2):
        asyncio.run(main())
    assert asyncio.run(bounded(ok(), "no watchdog")) == 7
