"""The optional LLM decision model for the user's interruptions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from duplexbench.users._decision import FloorMoment, LLMInterruptDecider
from duplexbench.users._turntaking import NATURAL
from duplexbench.users._user_floor import Cue, Listening, UserFloor
from duplexbench.yesno import JudgeUnavailable, YesNo

MOMENT = FloorMoment(4000, "What is your employee ID? I can also", "In a rush.", "Submit expenses")


def test_the_model_decides_at_checks_the_rules_allow() -> None:
    asked: list[Listening] = []

    def decide(heard: Listening) -> bool:
        asked.append(heard)
        return len(asked) == 2

    f = UserFloor(replace(NATURAL, interrupt_probability=0.0), 320, decide_interrupt=decide)
    heard = Listening(has_reply=True, text="What is your ID? I can")
    cues = [(t, f.after_frame(t, True, 0, 0, heard)) for t in range(20, 5000, 20)]
    assert [c for c in cues if c[1] is not Cue.NONE] == [(4000, Cue.INTERRUPT)]
    assert len(asked) == 2 and asked[0].text == "What is your ID? I can"
    question = Listening(has_reply=True, question_in_progress=True)
    g = UserFloor(NATURAL, 320, decide_interrupt=decide)
    assert all(g.after_frame(t, True, 0, 0, question) is Cue.NONE for t in range(20, 6020, 20))
    assert len(asked) == 2  # never asked while a question is being asked


def test_prompt_failures_and_the_cache(tmp_path: Path) -> None:
    calls: list[tuple[str, str]] = []

    def ask(system: str, user: str) -> YesNo:
        calls.append((system, user))
        return YesNo(True, "the agent keeps talking after its question")

    cache = tmp_path / "user-decisions.jsonl"
    decider = LLMInterruptDecider("m", ask, cache)
    assert decider.should_interrupt(MOMENT) and decider.should_interrupt(MOMENT)
    assert len(calls) == 1 and decider.name == "llm:m"
    user = calls[0][1]
    assert "In a rush." in user and "Submit expenses" in user and "employee ID" in user
    offline = LLMInterruptDecider("m", ask, cache)  # a rerun with the cache: no request
    assert offline.should_interrupt(MOMENT) and len(calls) == 1

    def down(system: str, user: str) -> YesNo:
        raise JudgeUnavailable("judge request failed: URLError")

    failing = LLMInterruptDecider("m", down)
    assert not failing.should_interrupt(MOMENT) and failing.failures == 1
