"""The action follow-through judge: prompts, cache keys, and a real local HTTP endpoint."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from duplexbench.items._action import CONDITION_IDS
from duplexbench.scoring._actions import judge as judge_module
from duplexbench.scoring._actions.judge import (
    SYSTEM_PROMPT,
    ActionJudge,
    ActionJudgeCache,
    OpenAIChatActionJudge,
    build_question,
    evidence,
    question_text,
)
from duplexbench.scoring._actions.observation import ActionObservation
from duplexbench.scoring._actions.rules import Verdict
from duplexbench.yesno import as_data
from support.action_builders import agent, item, observe, seg
from support.chat_endpoint import ChatHandler as _Handler
from support.chat_endpoint import serve_chat


def _obs(reply: str = "I can process a refund for the kettle now.") -> ActionObservation:
    it = item(
        "take_turn.immediate",
        [seg(0, 4000, "My kettle broke after two days")],
        user_end_ms=4000,
        response_window=[0, 500],
        reference_response="I'm sorry, I can refund or replace it.",
    )
    return observe(it, [agent(4200, 6500, reply)])


@pytest.fixture
def endpoint() -> Iterator[str]:
    yield from serve_chat()


def test_every_judged_condition_has_a_strict_question() -> None:
    for condition in CONDITION_IDS:
        if condition.startswith("stop."):
            with pytest.raises(ValueError, match="not judged"):
                question_text(condition)
            continue
        text = question_text(condition)
        assert "NO" in text, condition
    assert "simpler words" in question_text("hold_floor.simplify")
    assert "distractor" in question_text("hold_floor.background_speech")
    assert "follow-up question" in question_text("recover.ask_follow_up")
    assert "clarification" in question_text("backchannel.uncertainty")
    assert "hazard" in question_text("interrupt.safety")
    assert "strict JSON" in SYSTEM_PROMPT and "answer NO" in SYSTEM_PROMPT


def test_evidence_is_the_timeline() -> None:
    text = evidence(_obs())
    assert "SCENE: You are a helpful voice assistant." in text
    assert "[0.00-4.00] USER: My kettle broke after two days" in text
    assert "[4.20-6.50] ASSISTANT: I can process a refund for the kettle now." in text
    assert "FOCUS: judge the assistant's speech from 4.00 s on." in text
    assert "ONE ACCEPTABLE RESPONSE" in text


def test_cache_only_judge_hits_and_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "actions.jsonl"
    judge = ActionJudge("m1", ActionJudgeCache(path))
    assert judge.verdict(_obs()) is None
    assert (judge.hits, judge.misses, judge.calls) == (0, 1, 0)
    judge.cache.put("m1", build_question(_obs()), Verdict(True, "refund offered"))
    assert judge.verdict(_obs()) == Verdict(True, "refund offered")
    assert judge.hits == 1
    # a new process reads the file
    assert ActionJudge("m1", ActionJudgeCache(path)).verdict(_obs()) == Verdict(
        True, "refund offered"
    )
    # another model, other evidence or another prompt version do not share it
    assert ActionJudge("m2", ActionJudgeCache(path)).verdict(_obs()) is None
    assert ActionJudge("m1", ActionJudgeCache(path)).verdict(_obs("Something else.")) is None
    monkeypatch.setattr(judge_module, "PROMPT_VERSION", "action-judge-v999")
    assert ActionJudge("m1", ActionJudgeCache(path)).verdict(_obs()) is None


def test_stop_is_never_judged(tmp_path: Path) -> None:
    it = item("stop.direct_interruption", [seg(0, 2000), seg(0, 900, "stop", part="cue")])
    judge = ActionJudge("m1", ActionJudgeCache(None))
    assert judge.verdict(observe(it, [agent(0, 3000, "a b c d")], cue=(2000, 2900))) is None
    assert judge.misses == 0


def test_openai_compatible_endpoint_and_cache(
    endpoint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUPLEXBENCH_JUDGE_API_KEY", "sk-test")
    _Handler.replies = ['{"answer": "NO", "reason": "no refund"}']
    path = tmp_path / "cache.jsonl"
    judge = ActionJudge("m1", ActionJudgeCache(path), OpenAIChatActionJudge("m1", endpoint))
    assert judge.verdict(_obs()) == Verdict(False, "no refund")
    request = _Handler.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer sk-test"
    body = request["body"]
    assert body["temperature"] == 0 and body["model"] == "m1"
    assert body["messages"][0]["content"] == SYSTEM_PROMPT
    user = body["messages"][1]["content"]
    assert user.startswith(as_data({"evidence": evidence(_obs())})) and "QUESTION: " in user
    assert question_text("take_turn.immediate") in user
    # second time the cache answers
    assert judge.verdict(_obs()) == Verdict(False, "no refund")
    assert (judge.calls, judge.hits, len(_Handler.requests)) == (1, 1, 1)
    assert len(path.read_text().splitlines()) == 1
    assert judge.stats()["prompt_version"] == "action-judge-v2"


def test_bad_reply_gives_no_verdict_and_caches_nothing(endpoint: str, tmp_path: Path) -> None:
    _Handler.replies = ["maybe"]
    path = tmp_path / "c.jsonl"
    judge = ActionJudge("m1", ActionJudgeCache(path), OpenAIChatActionJudge("m1", endpoint))
    assert judge.verdict(_obs()) is None
    assert len(judge.failures) == 1 and not path.exists()


def test_unreachable_endpoint() -> None:
    judge = ActionJudge(
        "m1", ActionJudgeCache(None), OpenAIChatActionJudge("m1", "http://127.0.0.1:9")
    )
    assert judge.verdict(_obs()) is None and judge.failures


def test_corrupt_cache_line_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text('{"model": "m"}\n')
    with pytest.raises(ValueError, match=":1: bad judge cache line"):
        ActionJudgeCache(path)
