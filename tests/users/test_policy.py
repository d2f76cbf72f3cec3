"""The user policy: reveal rules, corrections, approvals, idle hang-up."""

from __future__ import annotations

from duplexbench.items._load import parse_item
from duplexbench.users._policy import Observation, UserPolicy
from support.fixtures import fixture_item


def obs(
    *acts: str,
    t: int = 1000,
    spoke: bool = True,
    tools: tuple[str, ...] = (),
    fields: tuple[str, ...] = (),
) -> Observation:
    return Observation(t_ms=t, acts=acts, tools=tools, fields=fields, agent_spoke=spoke)


def test_opening_carries_only_volunteer_facts() -> None:
    policy = UserPolicy(fixture_item("form-expense-correction"))
    [plan] = policy.opening()
    assert plan.plan_id == "open" and plan.facts == ("trip_purpose",)
    assert [r.rule for r in plan.reveals] == ["volunteer"]


def test_when_asked_fact_only_after_the_ask() -> None:
    policy = UserPolicy(fixture_item("form-expense-correction"))
    policy.opening()
    plans = policy.react(obs("OTHER"))
    assert all("cost_center" not in p.facts for p in plans)
    [plan] = policy.react(obs("ASK:cost_center"))
    assert plan.plan_id == "answer:cost_center"
    assert plan.reveals[0].because == "ASK:cost_center"


def test_on_event_version_never_before_its_event() -> None:
    policy = UserPolicy(fixture_item("form-expense-correction"))
    policy.opening()
    [first] = policy.react(obs("ASK:total_amount"))
    assert first.facts == ("total_amount",)
    assert policy.react(obs("OTHER"))[0].act == "ack"  # the answer is not finished yet
    policy.utterance_finished([first.plan_id])
    plans = policy.react(obs("ASK:cost_center"))  # the correction fires after the answer
    assert [p.plan_id for p in plans] == ["event:fix_total", "answer:cost_center"]
    assert plans[0].facts == ("total_amount_v2",) and plans[0].reveals[0].rule == "on_event"
    [again] = policy.react(obs("ASK:total_amount"))
    assert again.facts == ("total_amount_v2",)  # the latest revealed version from now on


def test_superseding_fact_unknown_when_asked_before_any_version() -> None:
    item = fixture_item("form-expense-correction")
    policy = UserPolicy(item)
    assert "total_amount_v2" not in {
        f for p in policy.react(obs("ASK:total_amount")) for f in p.facts
    }


def test_approval_given_up_to_max_grants_then_declined() -> None:
    policy = UserPolicy(fixture_item("form-expense-correction"))
    [plan] = policy.react(obs("REQUEST_APPROVAL:submit_expense"))
    assert plan.act == "approve" and plan.approval is not None
    [plan] = policy.react(obs("REQUEST_APPROVAL:submit_expense"))
    assert plan.act == "confirm"  # still approved, not yet used
    policy.consumed("approve_submit")
    [plan] = policy.react(obs("REQUEST_APPROVAL:submit_expense"))
    assert plan.act == "decline"  # max_grants = 1


def test_revocation_event_revokes_and_replaces_confirmation() -> None:
    policy = UserPolicy(fixture_item("order-revocation"))
    policy.react(obs("REQUEST_APPROVAL:place_order"))
    [plan] = policy.react(obs("READBACK"))
    assert plan.plan_id == "event:hold_order" and plan.revokes == "approve_order"
    [plan] = policy.react(obs("REQUEST_APPROVAL:place_order"))
    assert plan.act == "approve"  # max_grants = 2


def test_unknown_approval_and_close() -> None:
    policy = UserPolicy(fixture_item("meeting-scheduling"))
    assert policy.react(obs("REQUEST_APPROVAL:launch"))[0].act == "unknown"
    [plan] = policy.react(obs("CLOSE"))
    assert plan.act == "end" and policy.ended and policy.end_reason == "user_ended"


def test_idle_agent_is_nudged_then_left() -> None:
    policy = UserPolicy(fixture_item("meeting-scheduling"))
    acts = [policy.react(obs(spoke=False))[0].act for _ in range(3)]
    assert acts == ["nudge", "nudge", "end"]
    assert policy.ended and policy.end_reason == "agent_idle"


def test_time_anchored_event() -> None:
    item = fixture_item("form-expense-correction")
    data = item.model_dump()
    data["user"]["events"][0]["trigger"] = {"at_ms": 5000}
    policy = UserPolicy(parse_item(data))
    assert policy.react(obs("OTHER", t=4999))[0].act == "ack"
    assert policy.react(obs("OTHER", t=5000))[0].plan_id == "event:fix_total"


def test_field_anchored_event_fires_after_the_agent_writes_the_field() -> None:
    data = fixture_item("form-expense-correction").model_dump()
    data["user"]["events"][0]["trigger"] = {"field": "expense.total_amount"}
    policy = UserPolicy(parse_item(data))
    assert policy.react(obs("OTHER", fields=("expense.cost_center",)))[0].act == "ack"
    plans = policy.react(obs("OTHER", fields=("expense.total_amount",)))
    assert plans[0].plan_id == "event:fix_total"
