"""The streaming interface under the RealtimeClock writes the same trace as the step one."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from duplexbench.agents._audio_builtin import AudioOracle
from duplexbench.agents._streaming import StepAsStreaming
from duplexbench.items._load import item_checksum
from duplexbench.orchestrator._audio_loop import AudioChannelConfig, AudioEpisode
from duplexbench.orchestrator._clock import RealtimeClock
from duplexbench.orchestrator._episode import EpisodeSetup
from duplexbench.speech._bank import SpeechBank
from duplexbench.trace._events import TraceEvent
from support.fixtures import fixture_item
from support.helpers import run_audio


def _without_wall(events: list[TraceEvent]) -> list[dict[str, Any]]:
    return [e.model_dump(exclude={"wall_ms"}) for e in events]


def test_same_trace_through_both_interfaces() -> None:
    item = fixture_item("form-expense-correction")
    stepped = run_audio(item, AudioOracle(), privileged=True)
    setup = EpisodeSetup(item, item_checksum(item), "tests", "test-agent", "clean", 0, 0)
    config = AudioChannelConfig(user_voice="synthetic:alto")
    clock = RealtimeClock(speed=400.0)
    streamed = AudioEpisode(
        setup,
        StepAsStreaming(AudioOracle()),
        SpeechBank(),
        clock=clock,
        privileged=True,
        config=config,
    ).run()
    assert streamed.status == "ok"
    assert _without_wall(streamed.events) == _without_wall(stepped.events)
    assert stepped.audio is not None and streamed.audio is not None
    assert streamed.audio[0].tobytes() == stepped.audio[0].tobytes()
    assert streamed.audio[1].tobytes() == stepped.audio[1].tobytes()


class FakeWall:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def wall(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += seconds


def test_realtime_clock_paces_media_time() -> None:
    fake = FakeWall()
    clock = RealtimeClock(speed=2.0, wall=fake.wall, sleep=fake.sleep)
    clock.advance_to(0)
    clock.advance_to(1000)  # 1 s of media at 2x: 0.5 s of wall time
    fake.now += 0.7  # the agent was slow: already 0.2 s late for 2000 ms
    clock.advance_to(2000)
    assert fake.slept == [0.5]
    assert clock.now_ms() == 2000 and clock.lag_ms() == 400
    with pytest.raises(ValueError, match="cannot go back"):
        clock.advance_to(1500)


def test_realtime_clock_async_wait() -> None:
    clock = RealtimeClock(speed=1000.0)

    async def run() -> int:
        for t in range(0, 2000, 20):
            await clock.wait_until(t)
        return clock.now_ms()

    assert asyncio.run(run()) == 1980
    with pytest.raises(ValueError, match="speed"):
        RealtimeClock(speed=0)
