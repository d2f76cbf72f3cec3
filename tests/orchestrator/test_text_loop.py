"""The text-channel loop: timing on the media clock, tool rounds, limits, faults."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from duplexbench.agents import AgentInput, AgentSession, AgentToolCall, AgentTurn, ScriptedAgent
from duplexbench.agents._builtin import NoopAgent, OracleAgent
from duplexbench.items._load import parse_item
from duplexbench.orchestrator._clock import VirtualClock
from duplexbench.trace._events import (
    ActionExecuted,
    AgentUtterance,
    ApprovalGranted,
    EpisodeEnd,
    HarnessError,
    ToolCall,
    UserUtterance,
)
from support.fixtures import fixture_item
from support.helpers import run_episode


def of(events: list[Any], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def test_virtual_clock_never_goes_back() -> None:
    clock = VirtualClock()
    assert clock.advance(250) == 250
    clock.advance_to(250)
    with pytest.raises(ValueError, match="cannot go back"):
        clock.advance_to(100)


def test_timeline_is_monotonic_and_turns_do_not_overlap() -> None:
    record = run_episode(fixture_item("benefits-enrollment"), OracleAgent(), privileged=True)
    times = [e.t_ms for e in record.events]
    assert times == sorted(times)
    spoken = sorted(
        (e.t_ms, e.data.end_ms)
        for e in record.events
        if isinstance(e, UserUtterance | AgentUtterance)
    )
    assert spoken[0][0] == 0  # the first user sample is t = 0
    for (_, end), (start, _) in itertools.pairwise(spoken):
        assert start > end


def test_approval_token_is_stamped_at_speech_onset() -> None:
    record = run_episode(fixture_item("airline-rebooking"), OracleAgent(), privileged=True)
    [granted] = of(record.events, ApprovalGranted)
    approving = next(
        e for e in of(record.events, UserUtterance) if "approve:approve_change" in e.data.plan_ids
    )
    assert granted.t_ms == approving.t_ms
    [executed] = of(record.events, ActionExecuted)
    assert executed.t_ms > approving.data.end_ms and executed.data.token == granted.data.token


class _LooksUp:
    """Calls a tool, then speaks about its result in the continuation."""

    def __init__(self) -> None:
        self.inputs: list[AgentInput] = []

    def start(self, session: AgentSession) -> None:
        self.tools = [t.name for t in session.tools]

    def respond(self, observation: AgentInput) -> AgentTurn:
        self.inputs.append(observation)
        if observation.user_text is not None and len(self.inputs) == 1:
            return AgentTurn(tool_calls=(AgentToolCall("get_flight", {"id": "DB124"}),))
        if observation.tool_results:
            seats = observation.tool_results[0].output["result"]["record"]["seats_left"]
            return AgentTurn(say=f"There are {seats} seats. Goodbye!", end_call=True)
        return AgentTurn()

    def close(self) -> None:
        return None


def test_tool_results_come_back_before_the_user_speaks() -> None:
    agent = _LooksUp()
    record = run_episode(fixture_item("airline-rebooking"), agent)
    assert agent.inputs[1].user_text is None and agent.inputs[1].tool_results
    assert "get_flight" in agent.tools
    [said] = of(record.events, AgentUtterance)
    assert said.data.text.startswith("There are 5 seats")
    assert of(record.events, EpisodeEnd)[0].data.reason in ("user_ended", "agent_ended")


def test_endless_tool_rounds_are_cut() -> None:
    class Looping(NoopAgent):
        def respond(self, observation: AgentInput) -> AgentTurn:
            return AgentTurn(tool_calls=(AgentToolCall("get_flight", {"id": "DB124"}),))

    record = run_episode(fixture_item("airline-rebooking"), Looping())
    calls = of(record.events, ToolCall)
    assert len(calls) == 80 * 9  # max_agent_turns x (max_tool_rounds + 1)
    assert record.end_reason == "turn_limit"


def test_talking_forever_hits_the_turn_limit() -> None:
    agent = ScriptedAgent([AgentTurn(say="Hmm, interesting.")] * 200)
    record = run_episode(fixture_item("meeting-scheduling"), agent)
    assert record.end_reason == "turn_limit" and record.status == "ok"


def test_close_failure_is_logged_not_fatal() -> None:
    class BadClose(NoopAgent):
        def close(self) -> None:
            raise OSError("already closed")

    record = run_episode(fixture_item("meeting-scheduling"), BadClose())
    assert record.status == "ok" and record.end_reason == "agent_idle"
    [error] = of(record.events, HarnessError)
    assert error.data.where == "agent.close"


def test_non_privileged_agents_never_see_the_reference() -> None:
    agent = ScriptedAgent([])
    run_episode(fixture_item("order-revocation"), agent)
    assert agent.session is not None and agent.session.privileged is None
    assert "12" not in agent.session.instructions  # no hidden facts in the instructions


def test_oracle_refuses_to_run_unprivileged() -> None:
    record = run_episode(fixture_item("order-revocation"), OracleAgent())
    assert record.status == "error" and "reference trajectory" in (record.error or "")


def test_formal_approval_request_tool_is_answered_like_speech() -> None:
    data = fixture_item("airline-rebooking").model_dump(mode="json", exclude_none=True)
    data["tools"].append(
        {"name": "ask_approval", "kind": "approval_request", "description": "Ask the caller."}
    )
    item = parse_item(data)
    change = {"id": "R7QX2L", "fields": {"flight": "DB124", "date": "2026-05-03", "bags": 2}}
    agent = ScriptedAgent(
        [
            AgentTurn(
                tool_calls=(AgentToolCall("ask_approval", {"action": "change_reservation"}),)
            ),
            AgentTurn("Done. Goodbye!", (AgentToolCall("change_reservation", change),), True),
        ]
    )
    record = run_episode(item, agent)
    [granted] = of(record.events, ApprovalGranted)
    [executed] = of(record.events, ActionExecuted)
    assert executed.data.token == granted.data.token
    bad = ScriptedAgent([AgentTurn(tool_calls=(AgentToolCall("ask_approval", {"action": "x"}),))])
    errors = [e for e in run_episode(item, bad).events if e.type == "tool.result"]
    assert errors[0].data.error_code == "invalid_arguments"
