"""Errors policy: an agent error is a failed episode, a harness error is left out.

The Done-when of the policy: a scripted agent that raises on the episodes it
would fail scores no better than the same agent without raising.
"""

from __future__ import annotations

from typing import Any

import pytest

from duplexbench.agents import AgentToolCall, AgentTurn, ScriptedAgent
from duplexbench.agents._protocol import AgentInput
from duplexbench.items._workflow import WorkflowItem
from duplexbench.orchestrator._text_loop import TextEpisode
from duplexbench.scoring._episode import EpisodeScore, score_episode
from duplexbench.scoring._errors import NO_AGENT_ERROR, all_errored, errors_block
from duplexbench.scoring._summary import build_summary
from duplexbench.trace._events import EpisodeEnd, TraceEvent
from support.fixtures import FIXTURES, fixture_item
from support.helpers import run_and_score, run_episode

REPEATS = 2


def reference_script(item: WorkflowItem, cut: int = 0) -> list[AgentTurn]:
    """The item's reference turns as a script, without its last `cut` turns."""
    turns = item.reference.turns[: len(item.reference.turns) - cut]
    return [
        AgentTurn(
            say=t.say,
            tool_calls=tuple(
                AgentToolCall(c.name, dict(c.arguments), f"s-{n}-{i}")
                for i, c in enumerate(t.tool_calls)
            ),
            end_call=t.end_call,
        )
        for n, t in enumerate(turns)
    ]


class KnowsItFailed(ScriptedAgent):
    """Plays its script; with `raises`, raises once the script ran out on an item it
    knows it failed (its script was cut), instead of idling to the end."""

    def __init__(self, turns: list[AgentTurn], failing: bool, raises: bool) -> None:
        super().__init__(turns)
        self.failing, self.raises, self.heard = failing, raises, 0

    def respond(self, observation: AgentInput) -> AgentTurn:
        if observation.user_text is not None:
            self.heard += 1
            if self.raises and self.failing and self.heard > len(self.turns):
                raise RuntimeError("the agent knows it failed")
        return super().respond(observation)


def run_suite(raises: bool) -> list[EpisodeScore]:
    """Every fixture item, REPEATS times: full script on even items, cut on odd ones."""
    items = [fixture_item(p.stem) for p in sorted(FIXTURES.glob("*.yaml")) if p.stem != "suite"]
    scores = []
    for n, item in enumerate(items):
        failing = n % 2 == 1
        for repetition in range(REPEATS):
            agent = KnowsItFailed(reference_script(item, 2 if failing else 0), failing, raises)
            _, score = run_and_score(item, agent, repetition=repetition)
            scores.append(score)
    return scores


def summary(scores: list[EpisodeScore]) -> dict[str, Any]:
    return build_summary(
        scores, suite="fixtures", agent="scripted", condition="text", repeats=REPEATS,
        seed=0, judge=None,
    )  # fmt: skip


def test_raising_on_the_episodes_it_fails_scores_no_better_than_not_raising() -> None:
    honest, raising = run_suite(raises=False), run_suite(raises=True)
    failed = [s for s in honest if s.ws == 0]
    assert failed and len(failed) < len(honest)  # the agent passes some items and fails others
    assert all(s.agent_error is None and s.status == "ok" for s in honest)
    mine = [s for s in raising if s.agent_error is not None]
    assert len(mine) == len(failed)  # it raised exactly on the episodes it failed
    assert all(s.status == "ok" and s.ws == 0 for s in mine)
    h, r = summary(honest)["workflows"], summary(raising)["workflows"]
    for key in ("pass_at_1", "pass_at_k", "reliable_at_k", "afa"):
        assert r[key] is not None and h[key] is not None
        assert r[key] <= h[key], key
    assert (r["pass_at_1"], r["afa"], r["runs"]) == (h["pass_at_1"], h["afa"], h["runs"])
    block = summary(raising)
    assert (block["agent_errors"], block["errors"], block["complete"]) == (len(failed), 0, True)
    assert block["agent_error_reasons"] == ["RuntimeError: the agent knows it failed"]
    # the exploit the policy closes: leaving these episodes out would have scored 1.0
    hidden = summary([s for s in raising if s.agent_error is None])["workflows"]
    assert hidden["pass_at_1"] == 1.0 > h["pass_at_1"]


def test_an_agent_error_is_scored_over_the_artifact_as_it_stood() -> None:
    item = fixture_item("form-expense-correction")
    turns = reference_script(item, cut=len(item.reference.turns) - 2)
    _, kept = run_and_score(item, KnowsItFailed(turns, failing=True, raises=False))
    record, raised = run_and_score(item, KnowsItFailed(turns, failing=True, raises=True))
    assert record.error_kind == "agent" and raised.end_reason == "error"
    assert raised.afa == kept.afa and raised.fields == kept.fields
    assert raised.ws == raised.ws_deterministic == 0
    assert [c.name for c in raised.checks if not c.passed].count(NO_AGENT_ERROR) == 1


def _with_kind(events: list[TraceEvent], kind: Any) -> list[TraceEvent]:
    end = events[-1]
    assert isinstance(end, EpisodeEnd)
    data = end.data.model_copy(update={"error_kind": kind})
    return [*events[:-1], end.model_copy(update={"data": data})]


def test_a_harness_error_is_left_out_and_an_old_trace_counts_against_the_agent() -> None:
    item = fixture_item("meeting-scheduling")
    record = run_episode(item, KnowsItFailed([], failing=True, raises=True))
    assert record.error_kind == "agent"
    harness = score_episode(item, _with_kind(record.events, "harness"))
    assert harness.status == "error" and harness.ws is None and harness.agent_error is None
    assert harness.error == "RuntimeError: the agent knows it failed"
    old = score_episode(item, _with_kind(record.events, None))  # before trace version 6
    assert old.status == "ok" and old.ws == 0 and old.agent_error == harness.error


def test_a_harness_fault_during_the_episode_is_the_harness_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    item = fixture_item("meeting-scheduling")
    original = TextEpisode._user_turn
    calls = [0]

    def failing_user(self: TextEpisode, plans: Any, opening: bool = False) -> Any:
        calls[0] += 1
        if calls[0] == 2:  # the user side fails after the agent's first reply
            raise OSError("the speech bank disk failed")
        return original(self, plans, opening)

    monkeypatch.setattr(TextEpisode, "_user_turn", failing_user)
    agent = ScriptedAgent([AgentTurn(say="Hello, which day suits you?")])
    record, score = run_and_score(item, agent)
    assert record.error_kind == "harness" and score.status == "error"
    assert score.error == "OSError: the speech bank disk failed" and score.ws is None


def test_errors_block_and_all_errored() -> None:
    ok = EpisodeScore(item_id="a", repetition=0, status="ok", ws=1)
    agent = EpisodeScore(item_id="a", repetition=1, status="ok", ws=0, agent_error="boom")
    harness = EpisodeScore(item_id="b", repetition=0, status="error", error="TTS down")
    block = errors_block([ok, agent, harness])
    assert block == {
        "errors": 1,
        "error_reasons": ["TTS down"],
        "agent_errors": 1,
        "agent_error_reasons": ["boom"],
        "complete": False,
    }
    assert errors_block([ok, agent])["complete"] is True
    assert not all_errored(3, block["errors"], block["agent_errors"])
    assert all_errored(2, block["errors"], block["agent_errors"])
    assert not all_errored(0, 0, 0)
