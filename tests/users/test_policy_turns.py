"""The simulated user's turn rules, pinned with scripted agents over whole episodes.

Each rule is a fix of a way a good agent used to fail or a weak one to pass
(docs/simulator.md, "Turn rules").
"""

from __future__ import annotations

from typing import Any

from duplexbench.agents import AgentTurn, ScriptedAgent
from duplexbench.items._load import parse_item
from duplexbench.items._workflow import WorkflowItem
from duplexbench.trace._events import (
    AgentActs,
    ApprovalGranted,
    FactRevealed,
    TraceEvent,
    UserUtterance,
)
from support.fixtures import fixture_item
from support.helpers import run_episode

READBACK = "Here is what I have: 10 boxes, and the cost center CC-410."
ASK_QUANTITY = AgentTurn("How many boxes do you need?")
ASK_COST = AgentTurn("Which cost center should I charge?")
BYE = AgentTurn("Thank you, goodbye!", end_call=True)


def order_item(*, event: str | None = None, readback: list[str] | None = None) -> WorkflowItem:
    """The order fixture with its revocation replaced by `event` (revocation or
    cancellation, anchored to the approval request) and key slots to read back."""
    data: dict[str, Any] = fixture_item("order-revocation").model_dump(mode="json")
    user = data["user"]
    user["approvals"][0]["readback"] = readback or []
    if event is None:
        user["events"] = []
        user["realizations"].pop("event:hold_order")
        user["facts"] = [f for f in user["facts"] if f["id"] != "quantity_v2"]
    else:
        hold = user["events"][0]
        hold["kind"] = event
        hold["trigger"] = {"act": "REQUEST_APPROVAL:place_order"}
        if event == "cancellation":
            hold["reveals"] = []
            user["facts"] = [f for f in user["facts"] if f["id"] != "quantity_v2"]
            user["realizations"]["event:hold_order"] = [
                "Wait, cancel that, I don't want you to place the order after all.",
                "Actually, please don't place it at all.",
            ]
    return parse_item(data, "order")


def utterances(events: list[TraceEvent]) -> list[list[str]]:
    return [e.data.plan_ids for e in events if isinstance(e, UserUtterance)]


def acts(events: list[TraceEvent]) -> list[str]:
    return [a for e in events if isinstance(e, AgentActs) for a in e.data.acts]


def test_a_cancellation_ends_the_turn_and_no_approval_follows_it() -> None:
    """Regression: "Wait, cancel that ... You have my approval, go ahead." in one turn."""
    agent = ScriptedAgent(
        [
            ASK_QUANTITY,
            ASK_COST,
            AgentTurn(f"{READBACK} Shall I place the order?"),
            AgentTurn("Shall I place the order now?"),
            BYE,
        ]
    )
    record = run_episode(order_item(event="cancellation"), agent)
    turns = utterances(record.events)
    cancelled = next(i for i, t in enumerate(turns) if "event:hold_order" in t)
    assert turns[cancelled] == ["event:hold_order"]  # nothing after the cancellation
    assert not any(isinstance(e, ApprovalGranted) for e in record.events)
    assert turns[cancelled + 1] == ["decline:approve_order"]  # cancelled for good


def test_after_a_revocation_a_new_request_is_needed() -> None:
    agent = ScriptedAgent(
        [
            ASK_QUANTITY,
            ASK_COST,
            AgentTurn(f"{READBACK} Shall I place the order?"),
            AgentTurn("Changed to 12 boxes. Shall I place the order now?"),
            BYE,
        ]
    )
    record = run_episode(order_item(event="revocation"), agent)
    turns = utterances(record.events)
    revoked = next(i for i, t in enumerate(turns) if "event:hold_order" in t)
    assert turns[revoked] == ["event:hold_order"]
    assert turns[revoked + 1] == ["approve:approve_order"]


def test_approval_asked_before_the_read_back_is_withheld() -> None:
    agent = ScriptedAgent(
        [
            ASK_QUANTITY,
            ASK_COST,
            AgentTurn("Shall I place the order?"),
            AgentTurn(f"{READBACK} Shall I place the order now?"),
            BYE,
        ]
    )
    item = order_item(readback=["quantity", "cost_center"])
    record = run_episode(item, agent)
    turns = utterances(record.events)
    assert turns[3] == ["ask_readback"]
    assert turns[4][-1] == "approve:approve_order" and "ask_readback" not in turns[4]
    [grant] = [e for e in record.events if isinstance(e, ApprovalGranted)]
    assert {"quantity", "cost_center"} <= set(grant.data.read_back or [])
    assert grant.t_ms > next(
        e.t_ms
        for e in record.events
        if isinstance(e, UserUtterance) and e.data.plan_ids == ["ask_readback"]
    )


def test_a_read_back_with_a_key_value_missing_is_not_enough() -> None:
    agent = ScriptedAgent(
        [ASK_QUANTITY, ASK_COST, AgentTurn("I have 10 boxes. Shall I place the order?"), BYE]
    )
    record = run_episode(order_item(readback=["quantity", "cost_center"]), agent)
    assert utterances(record.events)[3] == ["ask_readback"]
    assert not any(isinstance(e, ApprovalGranted) for e in record.events)


def test_a_split_read_back_still_triggers_the_authored_cancellation() -> None:
    """Regression: authored events fired only on one shape of read-back sentence."""
    agent = ScriptedAgent(
        [
            ASK_QUANTITY,
            ASK_COST,
            AgentTurn("So, 10 boxes. The cost center is CC-410. Shall I place the order?"),
            BYE,
        ]
    )
    item = order_item(event="cancellation", readback=["quantity", "cost_center"])
    record = run_episode(item, agent)
    assert utterances(record.events)[3] == ["event:hold_order"]


def test_a_confirmation_without_a_value_is_not_a_confirmation() -> None:
    """Regression: "Just to confirm, is the currency correct?" got "Yes, that's right."."""
    agent = ScriptedAgent(
        [ASK_COST, AgentTurn("Just to confirm, is the cost center correct?"), BYE]
    )
    record = run_episode(order_item(), agent)
    assert "CHECK:cost_center" in acts(record.events)
    assert not any(a.startswith("CONFIRM") for a in acts(record.events))
    assert utterances(record.events)[2] == ["what_value"]


def test_a_mentioned_goodbye_is_not_a_leave_taking() -> None:
    """Regression: "... until it is filed and we say goodbye" made the caller hang up."""
    agent = ScriptedAgent(
        [
            AgentTurn("I will stay on the line until it is placed and we say goodbye."),
            ASK_COST,
            BYE,
        ]
    )
    record = run_episode(order_item(), agent)
    first = next(e for e in record.events if isinstance(e, AgentActs))
    assert first.data.acts == ["OTHER"]
    assert utterances(record.events)[1:3] == [["ack"], ["answer:cost_center"]]
    assert "CLOSE" in acts(record.events)  # the real goodbye, at the end


def test_asked_for_everything_at_once_the_caller_gives_at_most_two() -> None:
    agent = ScriptedAgent(
        [
            AgentTurn("Could you give me the quantity, the delivery date and the cost center?"),
            BYE,
        ]
    )
    record = run_episode(order_item(), agent)
    [asked, *_] = [t for t in utterances(record.events)[1:]]
    answers = [p for p in asked if p.startswith("answer:")]
    assert len(answers) == 2 and asked[-1] == "more_later"
    revealed = [
        e for e in record.events if isinstance(e, FactRevealed) and e.data.rule != "volunteer"
    ]
    assert len(revealed) == 2


def test_no_approval_for_key_details_never_collected() -> None:
    """Found trying a cheating agent: asking for the go-ahead before collecting anything
    got an approval with an empty read-back."""
    agent = ScriptedAgent(
        [
            AgentTurn("Everything is correct, right? Do I have your approval to place the order?"),
            BYE,
        ]
    )
    record = run_episode(order_item(readback=["quantity", "cost_center"]), agent)
    assert utterances(record.events)[1] == ["ask_readback"]
    assert not any(isinstance(e, ApprovalGranted) for e in record.events)
