"""The user's floor-taking on the audio channel (one decision per frame)."""

from __future__ import annotations

import numpy as np

from duplexbench.users.floor import Cue, UserFloor
from duplexbench.users.policy import Plan
from duplexbench.users.turntaking import TurnTakingConfig

F = 320  # 20 ms at 16 kHz
PLAN = [Plan("answer:x", "answer")]


def floor(**kw: int | None) -> UserFloor:
    return UserFloor(TurnTakingConfig(**kw), F)  # type: ignore[arg-type]


def speak(f: UserFloor, ms: int, t: int = 0) -> None:
    f.start(np.ones(ms * 16, dtype=np.int16), PLAN, t)


def test_frames_play_the_clip_then_silence() -> None:
    f = floor()
    speak(f, 30)
    assert f.frame().sum() == 320 and f.frame().sum() == 160
    assert f.after_frame(40, False, 0, 0) is Cue.FINISHED
    assert f.speaking is None and f.frame().sum() == 0


def test_yields_after_being_talked_over() -> None:
    f = floor(yield_after_ms=100)
    speak(f, 2000)
    cues = []
    for i in range(10):
        f.frame()
        cues.append(f.after_frame(20 * (i + 1), True, 0, 20 * (i + 1)))
    assert cues[:4] == [Cue.NONE] * 4 and cues[4] is Cue.YIELDED
    assert f.interrupted == PLAN  # said again once the agent is quiet
    assert f.after_frame(200, False, 700, 0) is Cue.REPEAT


def test_a_short_overlap_does_not_make_the_user_yield() -> None:
    f = floor(yield_after_ms=100)
    speak(f, 2000)
    cues = []
    for i in range(20):
        f.frame()
        cues.append(f.after_frame(20 * (i + 1), i % 4 != 3, 0, 0))  # talk-over keeps breaking
    assert Cue.YIELDED not in cues


def test_no_yield_with_only_the_tail_left() -> None:
    f = floor(yield_after_ms=40, yield_min_remaining_ms=300)
    speak(f, 100)
    f.frame()
    assert f.after_frame(20, True, 0, 0) is Cue.NONE
    f.frame()
    assert f.after_frame(40, True, 0, 0) is Cue.NONE  # 60 ms left: finishes instead


def test_reply_waits_for_the_response_gap() -> None:
    f = floor(response_gap_ms=700)
    assert f.after_frame(1000, True, 0, 500) is Cue.NONE  # agent talking
    assert f.after_frame(1500, False, 600, 0) is Cue.NONE
    assert f.after_frame(1600, False, 700, 0) is Cue.REPLY


def test_nudge_after_idle_agent() -> None:
    f = floor(idle_nudge_ms=3000, response_gap_ms=700)
    assert f.after_frame(2000, False, 2000, 0) is Cue.NONE
    assert f.after_frame(3000, False, 3000, 0) is Cue.NUDGE


def test_scheduled_barge_in_comes_due_even_while_the_agent_talks() -> None:
    f = floor()
    f.schedule(500, PLAN)
    assert f.after_frame(480, True, 0, 400) is Cue.NONE
    assert f.after_frame(500, True, 0, 420) is Cue.BARGE_IN
    assert f.due(500) == PLAN and f.scheduled == []


def test_backchannel_once_per_long_agent_turn() -> None:
    f = floor(backchannel_after_ms=3000)
    assert f.after_frame(100, True, 0, 2000) is Cue.NONE
    assert f.after_frame(200, True, 0, 3000) is Cue.BACKCHANNEL
    assert f.after_frame(300, True, 0, 3100) is Cue.NONE
    assert floor().after_frame(200, True, 0, 60_000) is Cue.NONE  # off by default
