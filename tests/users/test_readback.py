"""The user corrects values the agent reads back wrong, a bounded number of times."""

from __future__ import annotations

from duplexbench.agents import AgentTurn, ScriptedAgent
from duplexbench.items._suite import load_suite
from duplexbench.suites._package import DATA
from duplexbench.trace._events import UserUtterance
from duplexbench.users._policy import Observation, UserPolicy
from support.fixtures import fixture_item
from support.helpers import run_episode


def plans_after(policy: UserPolicy, sentence: str, act: str) -> list[str]:
    obs = Observation(t_ms=0, acts=(act,), agent_spoke=True, heard=(sentence,))
    return [p.plan_id for p in policy.react(obs)]


def asked(policy: UserPolicy, slot: str) -> None:
    [plan] = policy.react(Observation(t_ms=0, acts=(f"ASK:{slot}",), agent_spoke=True))
    policy.utterance_finished([plan.plan_id])


def test_a_wrong_value_is_corrected_and_a_right_one_confirmed() -> None:
    policy = UserPolicy(fixture_item("form-expense-correction"))
    asked(policy, "employee_id")
    wrong = "Just to confirm, the employee id is E1043?"
    assert plans_after(policy, wrong, "CONFIRM:employee_id") == ["fix:employee_id"]
    right = "Just to confirm, the employee id is E1042?"
    assert plans_after(policy, right, "CONFIRM:employee_id") == ["confirm"]


def test_corrections_per_slot_are_bounded() -> None:
    policy = UserPolicy(fixture_item("form-expense-correction"))
    asked(policy, "cost_center")
    wrong = "Just to confirm, the cost center is CC 330?"
    seen = [plans_after(policy, wrong, "CONFIRM:cost_center") for _ in range(4)]
    assert seen == [["fix:cost_center"], ["fix:cost_center"], ["confirm"], ["confirm"]]


def test_readback_checks_every_named_value_by_its_grader() -> None:
    policy = UserPolicy(fixture_item("form-expense-correction"))
    for slot in ("employee_id", "cost_center", "expense_date"):
        asked(policy, slot)
    ok = "Here is what I have: employee id E1042, cost center CC-330, expense date March 5."
    assert plans_after(policy, ok, "READBACK") == ["confirm"]  # no year: month and day agree
    bad = "Here is what I have: employee id E1042, cost center CC-333, expense date March 5."
    assert plans_after(policy, bad, "READBACK") == ["fix:cost_center"]


def test_facts_never_given_are_not_corrected() -> None:
    policy = UserPolicy(fixture_item("form-expense-correction"))
    sentence = "Just to confirm, the cost center is CC 999?"
    assert plans_after(policy, sentence, "CONFIRM:cost_center") == ["confirm"]


def test_fix_is_said_with_the_field_name() -> None:
    agent = ScriptedAgent(
        [
            AgentTurn("What is the employee id?"),
            AgentTurn("Just to confirm, the employee id is E1043?"),
            AgentTurn("Goodbye!", end_call=True),
        ]
    )
    record = run_episode(fixture_item("form-expense-correction"), agent)
    [fix] = [
        e
        for e in record.events
        if isinstance(e, UserUtterance) and "fix:employee_id" in e.data.plan_ids
    ]
    assert "employee id is E1042" in fix.data.text


def test_the_latest_statement_of_a_value_counts() -> None:
    """Regression: a cut-off earlier readback must not trigger a false correction."""
    policy = UserPolicy(fixture_item("order-revocation"))
    asked(policy, "quantity")
    heard = ("Here is what I have: supplier X, quantity 7,", "Just to confirm, the quantity is 10?")
    obs = Observation(t_ms=0, acts=("CONFIRM:quantity",), agent_spoke=True, heard=heard)
    assert [p.plan_id for p in policy.react(obs)] == ["confirm"]


def test_a_record_value_is_checked_in_the_value_stated_not_the_field_name() -> None:
    """workflows-v2 customer-service-10: the caller said yes to "the paperless billing
    is aprilus?" (its value "paperless" is in the field's name)."""
    item = next(i for i in load_suite(DATA / "workflows-v2").items if i.id == "customer-service-10")
    policy = UserPolicy(item)
    asked(policy, "paperless_billing")
    wrong = "Just to confirm, the paperless billing is aprilus?"
    assert plans_after(policy, wrong, "CONFIRM:paperless_billing") == ["fix:paperless_billing"]
    right = "Just to confirm, the paperless billing is paperless?"
    assert plans_after(policy, right, "CONFIRM:paperless_billing") == ["confirm"]
