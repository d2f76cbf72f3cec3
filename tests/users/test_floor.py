"""The user's floor-taking on the audio channel (one decision per frame)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TypedDict, Unpack

import numpy as np

from duplexbench.users._policy import Plan
from duplexbench.users._turntaking import NATURAL, TurnTakingConfig
from duplexbench.users._user_floor import Cue, Listening, UserFloor

F = 320  # 20 ms at 16 kHz
PLAN = [Plan("answer:x", "answer")]


class Timing(TypedDict, total=False):
    """The `TurnTakingConfig` fields these tests set."""

    response_gap_ms: int
    yield_after_ms: int
    yield_min_remaining_ms: int
    idle_nudge_ms: int


def floor(**kw: Unpack[Timing]) -> UserFloor:
    return UserFloor(TurnTakingConfig(**kw), F)


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


def talk(f: UserFloor, ms: int, heard: Listening, t0: int = 0) -> list[tuple[int, Cue]]:
    """Agent speaks for `ms`; the cues (time, cue) other than NONE."""
    cues: list[tuple[int, Cue]] = []
    for t in range(t0 + 20, t0 + ms + 20, 20):
        cue = f.after_frame(t, True, 0, 0, heard)
        if cue is not Cue.NONE:
            cues.append((t, cue))
    return cues


def test_polite_user_never_checks_while_the_agent_talks() -> None:
    f = floor()
    assert talk(f, 60_000, Listening(sentences_heard=99, has_reply=True)) == []


def test_natural_user_checks_every_2s_and_never_interrupts_right_away() -> None:
    f = UserFloor(replace(NATURAL, interrupt_probability=1.0), F)
    cues = talk(f, 5000, Listening(has_reply=True))
    assert cues[0] == (2000, Cue.INTERRUPT)  # the first check, not before


def test_no_interrupt_during_a_question_or_without_anything_to_answer() -> None:
    always = replace(NATURAL, interrupt_probability=1.0, backchannel_sentences=None)
    assert talk(UserFloor(always, F), 9000, Listening(has_reply=False)) == []
    asking = Listening(has_reply=True, question_in_progress=True)
    assert talk(UserFloor(always, F), 9000, asking) == []


def test_backchannel_after_four_to_six_heard_sentences_at_a_check() -> None:
    never = replace(NATURAL, interrupt_probability=0.0, backchannel_sentences=(4, 4))
    f = UserFloor(never, F)
    assert talk(f, 4000, Listening(sentences_heard=3)) == []
    assert talk(f, 2000, Listening(sentences_heard=4), 4000) == [(6000, Cue.BACKCHANNEL)]
    assert talk(f, 6000, Listening(sentences_heard=7), 6000) == []  # 3 more: not yet
    assert talk(f, 2000, Listening(sentences_heard=8), 12_000) == [(14_000, Cue.BACKCHANNEL)]


def test_backchannel_target_is_drawn_in_range_and_seeded() -> None:
    def first_backchannel(seed: int) -> int:
        f = UserFloor(replace(NATURAL, interrupt_probability=0.0), F, rng=random.Random(seed))
        for n in range(20):
            if talk(f, 2000, Listening(sentences_heard=n), 2000 * n):
                return n
        raise AssertionError("no backchannel")

    firsts = {first_backchannel(seed) for seed in range(30)}
    assert firsts == {4, 5, 6}
    assert first_backchannel(7) == first_backchannel(7)


def test_after_interrupting_the_user_keeps_talking_up_to_5s() -> None:
    f = UserFloor(NATURAL, F)
    f.after_frame(0, True, 0, 0)  # the agent is talking when the user starts
    speak(f, 20_000)
    cues = [f.after_frame(t, True, 0, 0) for t in range(20, 6000, 20)]
    assert cues.index(Cue.YIELDED) * 20 + 20 == 5000
    polite = floor()
    polite.after_frame(0, True, 0, 0)
    speak(polite, 20_000)
    cues = [polite.after_frame(t, True, 0, 0) for t in range(20, 6000, 20)]
    assert cues.index(Cue.YIELDED) * 20 + 20 == 1000
