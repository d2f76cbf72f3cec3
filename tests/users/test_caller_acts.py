"""Reading a human caller's words as the simulator's plans."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from duplexbench.items import WorkflowItem, parse_item
from duplexbench.users import (
    CallerReader,
    CallHistory,
    Heard,
    Observation,
    Plan,
    Realizer,
    UserPolicy,
)
from support.fixtures import fixture_item


@dataclass
class Call:
    """A call with a human caller: what the agent did, what the caller's words were read as."""

    item: WorkflowItem
    reader: CallerReader = field(init=False)
    said: list[str] = field(default_factory=list)
    acts: list[str] = field(default_factory=list)
    granted: list[str] = field(default_factory=list)
    fired: list[str] = field(default_factory=list)
    t_ms: int = 1000

    def __post_init__(self) -> None:
        self.reader = CallerReader(self.item.user)

    def says(self, transcript: str, *agent_acts: str) -> list[Plan]:
        self.acts += agent_acts
        history = CallHistory(
            self.t_ms,
            acts=tuple(self.acts),
            said_plans=tuple(self.said),
            granted=tuple(self.granted),
            fired=tuple(self.fired),
        )
        plans = self.reader.read(transcript, Heard(self.t_ms, agent_acts, history))
        for plan in plans:  # what the episode notes (orchestrator `_History.note`)
            self.said.append(plan.plan_id)
            if plan.event is not None:
                self.fired.append(plan.event.id)
            if plan.approval is not None:
                self.granted.append(plan.approval.id)
            if plan.revokes is not None:
                self.granted = [g for g in self.granted if g != plan.revokes]
        return plans

    def ids(self, transcript: str, *agent_acts: str) -> list[str]:
        return [p.plan_id for p in self.says(transcript, *agent_acts)]


def expense() -> Call:
    call = Call(fixture_item("form-expense-correction"))
    call.says("Hi, I need to file an expense report.")
    return call


def changed(name: str, *, event: dict[str, Any] | None = None, **approval: Any) -> WorkflowItem:
    data = fixture_item(name).model_dump()
    data["user"]["events"][0].update(event or {})
    data["user"]["approvals"][0].update(approval)
    return parse_item(data)


# ---------------------------------------------------------------- opening and facts


def test_the_first_utterance_opens_with_the_volunteer_facts_it_mentions() -> None:
    call = Call(fixture_item("form-expense-correction"))
    plans = call.says("hi I need to file expenses for a client on site trip my ID is E1042")
    assert [p.plan_id for p in plans] == ["open", "answer:employee_id"]
    [opening] = plans[0].reveals
    assert (opening.fact, opening.rule, opening.because) == ("trip_purpose", "volunteer", "opening")
    assert plans[1].reveals[0].because == "unprompted"  # given before the agent asked
    assert call.ids("hello again") == ["say"]  # one opening per call


@pytest.mark.parametrize(
    ("transcript", "act", "fact"),
    [
        ("it came to two hundred and forty bucks", "ASK:total_amount", "total_amount"),
        ("um two forty", "ASK:total_amount", "total_amount"),
        ("$240.00", "ASK:total_amount", "total_amount"),
        ("my employee number is E one zero four two", "ASK:employee_id", "employee_id"),
        ("e 1042", "ASK:employee_id", "employee_id"),
        ("the fifth of March", "ASK:expense_date", "expense_date"),
        ("march 5th 2026", "ASK:expense_date", "expense_date"),
        ("it was on 2026-03-05", "ASK:expense_date", "expense_date"),
        ("charge it to C C three thirty", "ASK:cost_center", "cost_center"),
        ("CC-330", "ASK:cost_center", "cost_center"),
    ],
)
def test_natural_phrasings_of_a_value(transcript: str, act: str, fact: str) -> None:
    [plan] = expense().says(transcript, act)
    assert (plan.plan_id, plan.act, plan.facts) == (f"answer:{fact}", "answer", (fact,))
    [reveal] = plan.reveals
    assert (reveal.fact, reveal.slot, reveal.because) == (fact, fact, act)


@pytest.mark.parametrize(
    "transcript",
    [
        "two hundred and forty one",
        "the twenty fifth of march",
        "E one zero four",
        "it was 2400",
        "March 5th 2025",
    ],
)
def test_a_near_value_is_not_the_value(transcript: str) -> None:
    assert expense().ids(transcript, "ASK:total_amount") == ["say"]


def test_a_correction_fires_the_event_with_the_new_version() -> None:
    call = expense()
    call.says("it was 240 dollars", "ASK:total_amount")
    [plan] = call.says("sorry, it was actually 200 not 240")
    assert (plan.plan_id, plan.act, plan.facts) == (
        "event:fix_total",
        "correct",
        ("total_amount_v2",),
    )
    assert plan.event is not None and plan.event.id == "fix_total"
    assert plan.anchor == "after_plan:answer:total_amount"
    [reveal] = plan.reveals
    assert (reveal.slot, reveal.rule, reveal.because) == ("total_amount", "on_event", "fix_total")
    assert call.ids("200", "ASK:total_amount") == ["answer:total_amount_v2"]  # a repeat now
    assert call.says("200", "ASK:total_amount")[0].reveals[0].because == "repeat"


def test_a_new_version_of_a_value_said_is_a_correction_even_before_its_trigger() -> None:
    call = Call(changed("form-expense-correction", event={"trigger": {"at_ms": 60000}}))
    call.says("hello", "OTHER")
    call.says("240", "ASK:total_amount")
    [plan] = call.says("no wait, make that two hundred")
    assert plan.plan_id == "event:fix_total" and plan.anchor == "caller"


def test_repeating_the_old_value_is_not_a_correction() -> None:
    call = expense()
    call.says("240", "ASK:total_amount")
    [plan] = call.says("yeah it was 240", "ASK:total_amount")
    assert plan.plan_id == "answer:total_amount" and plan.event is None
    assert plan.reveals[0].because == "repeat"
    call.says("actually 200")
    [again] = call.says("I said 240 before")
    assert again.plan_id == "answer:total_amount" and again.reveals[0].because == "repeat"


def test_a_wrong_read_back_is_fixed_with_the_current_value() -> None:
    call = expense()
    call.says("240", "ASK:total_amount")
    call.says("sorry, 200")
    [plan] = call.says("no it's 200", "CONFIRM:total_amount")
    assert (plan.plan_id, plan.act) == ("fix:total_amount_v2", "correct")
    assert call.ids("yes that's right", "CONFIRM:total_amount") == ["confirm"]


# ---------------------------------------------------------------- approvals


def test_approval_only_after_a_request() -> None:
    call = expense()
    assert call.ids("yes go ahead and submit it") == ["say"]
    [plan] = call.says("yes go ahead and submit it", "REQUEST_APPROVAL:submit_expense")
    assert (plan.plan_id, plan.act) == ("approve:approve_submit", "approve")
    assert plan.approval is not None and plan.approval.id == "approve_submit"


def test_an_approval_alias_is_an_answer_to_the_request() -> None:
    [plan] = expense().says("submit the report", "REQUEST_APPROVAL:submit_expense")
    assert plan.plan_id == "approve:approve_submit"


def test_an_approval_in_force_is_confirmed_and_max_grants_holds() -> None:
    call = expense()
    call.says("sure", "REQUEST_APPROVAL:submit_expense")
    assert call.ids("yes", "REQUEST_APPROVAL:submit_expense") == ["confirm"]
    call.granted.clear()  # the token was used by the commit
    assert call.ids("yes", "REQUEST_APPROVAL:submit_expense") == ["say"]  # max_grants = 1


def test_approval_waits_for_its_after_events() -> None:
    call = Call(changed("form-expense-correction", after=["fix_total"]))
    call.says("hi")
    assert call.ids("yes", "REQUEST_APPROVAL:submit_expense") == ["say"]
    call.says("240", "ASK:total_amount")
    call.says("sorry, 200")
    assert call.ids("yes", "REQUEST_APPROVAL:submit_expense") == ["approve:approve_submit"]


@pytest.mark.parametrize(
    "transcript", ["no, don't submit yet", "not yet", "wait", "nope", "please don't do that yet"]
)
def test_a_negative_declines(transcript: str) -> None:
    assert expense().ids(transcript, "REQUEST_APPROVAL:submit_expense") == [
        "decline:approve_submit"
    ]


@pytest.mark.parametrize("transcript", ["no problem, go ahead", "yeah I don't mind, do it"])
def test_agreement_with_a_negative_word_approves(transcript: str) -> None:
    ids = expense().ids(transcript, "REQUEST_APPROVAL:submit_expense")
    assert ids == ["approve:approve_submit"]


def test_a_correction_means_no_approval_in_the_same_turn() -> None:
    call = expense()
    call.says("240", "ASK:total_amount")
    assert call.ids("sorry it's 200, yes", "REQUEST_APPROVAL:submit_expense") == ["event:fix_total"]


# ---------------------------------------------------------------- revocation, cancellation


def test_revocation_after_a_grant() -> None:
    call = Call(fixture_item("order-revocation"))
    call.says("hi I need to order some A4 copy paper from Northwind Supplies")
    assert call.ids("stop") == ["say"]  # nothing granted, not due: no revocation
    call.says("yes place it", "REQUEST_APPROVAL:place_order")
    [plan] = call.says("wait, stop, don't place it")
    assert (plan.plan_id, plan.act, plan.revokes) == ("event:hold_order", "revoke", "approve_order")
    assert plan.facts == ()  # the new quantity was not said
    [later] = call.says("it should be 12 boxes", "ASK:quantity")
    assert later.plan_id == "answer:quantity_v2" and later.reveals[0].because == "hold_order"


def test_a_revocation_with_its_new_value() -> None:
    call = Call(fixture_item("order-revocation"))
    call.says("hi")
    call.says("ten boxes", "ASK:quantity")
    call.says("yes", "REQUEST_APPROVAL:place_order")
    [plan] = call.says("hold on, I need twelve, not ten", "READBACK")
    assert plan.plan_id == "event:hold_order" and plan.anchor == "act:READBACK"
    assert plan.facts == ("quantity_v2",) and plan.revokes == "approve_order"


def test_a_due_cancellation_is_not_a_decline_and_lasts() -> None:
    trigger = {"act": "REQUEST_APPROVAL:place_order"}
    call = Call(changed("order-revocation", event={"kind": "cancellation", "trigger": trigger}))
    call.says("hi")
    [plan] = call.says("no, cancel the order", "REQUEST_APPROVAL:place_order")
    assert (plan.plan_id, plan.act, plan.revokes) == ("event:hold_order", "cancel", "approve_order")
    assert call.ids("yes", "REQUEST_APPROVAL:place_order") == ["say"]  # called off for good


def test_a_plain_no_is_the_due_cancellation() -> None:
    trigger = {"act": "REQUEST_APPROVAL:place_order"}
    call = Call(changed("order-revocation", event={"kind": "cancellation", "trigger": trigger}))
    call.says("hi")
    assert call.ids("no", "REQUEST_APPROVAL:place_order") == ["event:hold_order"]


# ---------------------------------------------------------------- other events, ending


def plus_event(kind: str) -> Call:
    data = fixture_item("form-expense-correction").model_dump()
    trigger = {"act": "ASK:cost_center"}
    data["user"]["events"].append({"id": "extra", "kind": kind, "trigger": trigger})
    data["user"]["realizations"]["event:extra"] = ["Why do you need that?", "What for?"]
    call = Call(parse_item(data))
    call.says("hi")
    return call


def test_a_due_clarification_fires_on_a_question() -> None:
    call = plus_event("clarification")
    assert call.ids("what do you mean", "OTHER") == ["say"]  # not due yet
    plans = call.says("why do you need that", "ASK:cost_center")
    assert [(p.plan_id, p.act) for p in plans] == [("event:extra", "clarify")]
    assert plans[0].anchor == "act:ASK:cost_center"


def test_a_due_backchannel_fires_on_a_listening_token_only() -> None:
    call = plus_event("backchannel")
    assert call.ids("it is CC-330", "ASK:cost_center") == ["answer:cost_center"]
    assert call.ids("mm-hm") == ["event:extra"]


def test_a_due_barge_in_fires_on_the_next_words() -> None:
    call = plus_event("barge_in")
    assert call.ids("sorry, CC-330", "ASK:cost_center") == ["event:extra", "answer:cost_center"]


@pytest.mark.parametrize("transcript", ["thanks, bye", "Goodbye!", "ok that's all", "take care"])
def test_ending(transcript: str) -> None:
    assert expense().ids(transcript) == ["end"]


def test_that_s_all_inside_a_sentence_is_no_ending() -> None:
    assert expense().ids("yes that's all correct", "READBACK") == ["confirm"]


@pytest.mark.parametrize("transcript", ["the weather is nice", "hmm", "", "what's the time"])
def test_anything_else_is_other(transcript: str) -> None:
    [plan] = expense().says(transcript, "ASK:employee_id")
    assert (plan.plan_id, plan.act, plan.reveals, plan.event, plan.approval) == (
        "say",
        "other",
        (),
        None,
        None,
    )


# ---------------------------------------------------------------- same plans as the simulator


def effects(plan: Plan) -> tuple[object, ...]:
    """What the episode applies of a plan (the trace events it gives)."""
    return (
        plan.plan_id,
        plan.act,
        plan.facts,
        tuple((r.fact, r.slot, r.rule, r.because) for r in plan.reveals),
        plan.event.id if plan.event else None,
        plan.anchor,
        plan.approval.id if plan.approval else None,
        plan.revokes,
    )


def simulate(name: str, turns: list[tuple[str, ...]], repetition: int) -> None:
    """Walk a call with the simulator; read each of its utterances (its own words, from
    its realizations) with the reader and compare the plans' effects."""
    item = fixture_item(name)
    policy = UserPolicy(item)
    realizer = Realizer(item.id, item.user, 0, repetition)
    call = Call(item)
    for i, acts in enumerate(turns):
        plans = policy.opening() if i == 0 else policy.react(Observation(1000, acts))
        for plan in plans:
            text = realizer.realize(plan.plan_id, list(plan.facts), plan.slots).text
            assert [effects(p) for p in call.says(text, *acts)] == [effects(plan)], text
            policy.utterance_finished([plan.plan_id])


@pytest.mark.parametrize("repetition", range(4))
def test_the_simulator_s_words_read_as_its_own_plans(repetition: int) -> None:
    simulate(
        "form-expense-correction",
        [
            (),
            ("ASK:employee_id",),
            ("ASK:expense_date",),
            ("ASK:total_amount",),
            ("OTHER",),  # the correction, right after the answer
            ("ASK:cost_center",),
            ("CONFIRM:total_amount",),
            ("REQUEST_APPROVAL:submit_expense",),
        ],
        repetition,
    )
    simulate(
        "order-revocation",
        [
            (),
            ("ASK:quantity",),
            ("ASK:delivery_date",),
            ("REQUEST_APPROVAL:place_order",),
            ("READBACK",),  # the revocation, with the new quantity
            ("REQUEST_APPROVAL:place_order",),
        ],
        repetition,
    )
