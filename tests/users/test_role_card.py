"""The human caller's role card: the user side in plain words, states, due events."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from duplexbench.items import UserSpec, WorkflowItem, load_suite, parse_item
from duplexbench.suites import DATA
from duplexbench.users import (
    CallHistory,
    CardLine,
    CardProgress,
    Observation,
    RoleCard,
    UserPolicy,
    due_events,
    role_card,
)
from support.fixtures import fixture_item

FIXTURES = (
    "airline-rebooking",
    "benefits-enrollment",
    "form-expense-correction",
    "meeting-scheduling",
    "order-revocation",
)


def lines(card: RoleCard) -> dict[str, CardLine]:
    return {line.id: line for line in card.lines}


def with_event(name: str, **event: Any) -> WorkflowItem:
    """The fixture with its first event changed (trigger, kind, delivery, ...)."""
    data = fixture_item(name).model_dump()
    data["user"]["events"][0].update(event)
    return parse_item(data)


def plus_event(name: str, **event: Any) -> WorkflowItem:
    """The fixture with one more event, `extra` (after the fixture's first answer)."""
    data = fixture_item(name).model_dump()
    trigger = {"act": "ASK:cost_center"}
    data["user"]["events"].append({"id": "extra", "trigger": trigger, **event})
    data["user"]["realizations"]["event:extra"] = ["Sorry, one moment.", "Hang on a second."]
    return parse_item(data)


def card_text(card: RoleCard) -> str:
    return json.dumps(card.to_message())


def test_card_names_persona_goal_and_every_fact_event_and_approval() -> None:
    item = fixture_item("form-expense-correction")
    card = role_card(item.user)
    assert card.persona.name == "Jordan Lee" and card.goal == item.user.goal
    ids = [line.id for line in card.lines]
    assert ids[:6] == [f"fact:{f.id}" for f in item.user.facts]
    assert {"event:fix_total", "approval:approve_submit", "note:unknown", "note:end"} <= set(ids)
    text = lines(card)
    assert text["fact:total_amount"].text == (
        "Your total amount: 240 dollars (give it when the agent asks)"
    )
    assert "say it up front" in text["fact:trip_purpose"].text
    assert text["event:fix_total"].text == (
        "Right after you give your total amount, interrupt the agent to correct it: "
        "your total amount is 200 dollars, not 240 dollars."
    )
    assert text["approval:approve_submit"].text == (
        "Give your go-ahead when the agent asks to submit the expense report (once)."
    )


def test_the_message_the_page_receives() -> None:
    message = role_card(fixture_item("form-expense-correction").user).to_message()
    assert message["type"] == "card"
    assert message["persona"] == {
        "name": "Jordan Lee",
        "verbosity": "normal",
        "behavior": "correction_prone",
    }
    first = message["lines"][0]  # type: ignore[index]  # a list of dicts, checked here
    assert set(first) == {"id", "kind", "text", "state"}
    assert json.loads(json.dumps(message)) == message


@pytest.mark.parametrize("name", FIXTURES)
def test_no_gold_reference_or_tool_name_leaks(name: str) -> None:
    item = fixture_item(name)
    held = " ".join(f"{f.value} {f.spoken}" for f in item.user.facts).casefold()
    for card in (role_card(item), role_card(item.user)):
        text = card_text(card)
        for tool in item.tools:
            assert tool.name not in text
        for turn in item.reference.turns:
            assert not turn.say or turn.say not in text
        golds = [str(f.gold) for a in item.artifacts for f in a.fields if f.gold is not None]
        for gold in golds:
            if len(gold) > 2 and gold.casefold() not in held:
                assert gold.casefold() not in text.casefold(), gold
        assert "e.g." not in text  # a field description's example is not the caller's


def test_the_item_gives_context_from_field_and_tool_descriptions() -> None:
    item = with_event("form-expense-correction", trigger={"tool": "mark_expense_ready"})
    text = lines(role_card(item))
    # A label from the field's name; the description in parentheses when it adds to it.
    assert text["fact:employee_id"].text.startswith("Your employee ID: E1042")
    assert text["fact:expense_date"].text.startswith("Your expense date: ")
    assert text["fact:cost_center"].text.startswith("Your cost center (to charge): ")
    assert text["fact:total_amount"].text.startswith("Your total amount (total in US dollars): ")
    assert text["event:fix_total"].text.startswith(
        "After the agent has done this: mark the expense report complete and ready to submit,"
    )


def described(fact_id: str, description: str, value: str = "X1") -> UserSpec:
    facts = [{"id": fact_id, "value": value, "description": description}]
    return UserSpec.model_validate({"persona": {"name": "Sam"}, "goal": "Call.", "facts": facts})


@pytest.mark.parametrize(
    ("fact_id", "description", "line"),
    [
        (
            "reference_number",
            "The reference number the caller's existing vendor onboarding form is filed under",
            "Your reference number (for the existing vendor onboarding form): X1",
        ),
        (
            "legal_name",
            "Full legal name the vendor company is registered under",
            "Your legal name (for the vendor company): X1",
        ),
        (
            "service_plan",
            "Service plan the customer's account is on",
            "Your service plan (the one the customer's account is on): X1",
        ),
        (
            "floor_area",
            "Total floor area of the building in square feet",
            "Your floor area (of the building in square feet): X1",
        ),
        (
            "line_items",
            "Goods being ordered, listed in the order the caller gives them",
            "Your line items (goods being ordered, listed in the order you give them): X1",
        ),
        (
            "promo_code",
            "Promotion code applied to the account, e.g. PR-48KQ",
            "Your promo code (promotion code applied to the account): X1",
        ),
        ("tax_id", "Tax ID", "Your tax ID: X1"),
        ("expense_date", "The date of the expense.", "Your expense date: X1"),
    ],
)
def test_a_fact_line_names_the_detail_then_its_context(
    fact_id: str, description: str, line: str
) -> None:
    card = role_card(described(fact_id, description))
    assert card.lines[0].text == f"{line} (give it when the agent asks)"


def workflows_v2() -> list[WorkflowItem]:
    items = load_suite(DATA / "workflows-v2").items
    return [item for item in items if isinstance(item, WorkflowItem)]


_YOUR = re.compile(r"(?:^|: )[Yy]our [A-Za-z]")


def test_every_workflows_v2_fact_line_reads_as_instructions_to_a_person() -> None:
    items = workflows_v2()
    assert len(items) == 120
    checked = 0
    for item in items:
        card = lines(role_card(item))
        for fact in item.user.facts:
            text = card[f"fact:{fact.id}"].text
            where = f"{item.id} {fact.id}: {text}"
            for bad in ("Your the", "your the", "Your a ", "your a ", "the caller"):
                assert bad not in text, where
            if fact.reveal == "on_event":
                assert text.startswith("Later: your ") and _YOUR.search(text), where
            else:
                assert re.match(r"Your [A-Za-z]", text), where
                assert f": {fact.spoken} (" in text, where
            checked += 1
    assert checked > 1000


def test_workflows_v2_lines_for_representative_facts() -> None:
    card = lines(role_card(next(i for i in workflows_v2() if i.id == "form-completion-01")))
    assert card["fact:reference_number"].text == (
        "Your reference number (for the existing vendor onboarding form): R F 9 9 9 8 "
        "(give it when the agent asks)"
    )
    assert card["fact:legal_name"].text.startswith(
        "Your legal name (for the vendor company): Summit Learning ("
    )
    assert card["fact:currency"].text.startswith(
        "Your currency (the one the vendor's invoices are billed in): "
    )


def test_the_card_says_how_to_repeat_spell_and_read_digits() -> None:
    card = lines(role_card(fixture_item("form-expense-correction")))
    note = card["note:spell"]
    assert (note.kind, note.state) == ("note", "known")
    for words in ("repeat", "spell", "letter by letter", "'D as in David'", "one digit at a time"):
        assert words in note.text, words


def test_fact_lines_go_from_known_to_done() -> None:
    user = fixture_item("form-expense-correction").user
    assert lines(role_card(user))["fact:employee_id"].state == "known"
    done = role_card(user, CardProgress(revealed=frozenset({"employee_id"})))
    assert lines(done)["fact:employee_id"].state == "done"
    assert lines(done)["fact:cost_center"].state == "known"


def test_an_event_and_its_fact_go_later_now_done() -> None:
    user = fixture_item("form-expense-correction").user
    start = lines(role_card(user))
    assert start["event:fix_total"].state == start["fact:total_amount_v2"].state == "later"
    now = lines(role_card(user, CardProgress(due=frozenset({"fix_total"}))))
    assert now["event:fix_total"].state == now["fact:total_amount_v2"].state == "now"
    assert now["event:fix_total"].text == (
        "Now interrupt the agent to correct it: your total amount is 200 dollars, not 240 dollars."
    )
    assert now["fact:total_amount_v2"].text.startswith("Now tell the agent")
    done = CardProgress(revealed=frozenset({"total_amount_v2"}), fired=frozenset({"fix_total"}))
    after = lines(role_card(user, done))
    assert after["event:fix_total"].state == after["fact:total_amount_v2"].state == "done"


def test_approval_done_once_granted_and_again_to_give_after_a_revocation() -> None:
    user = fixture_item("order-revocation").user
    assert lines(role_card(user))["approval:approve_order"].state == "known"
    granted = CardProgress(granted=frozenset({"approve_order"}))
    assert lines(role_card(user, granted))["approval:approve_order"].state == "done"
    revoked = CardProgress(
        granted=frozenset({"approve_order"}),
        revoked=frozenset({"approve_order"}),
        fired=frozenset({"hold_order"}),
    )
    card = lines(role_card(user, revoked))
    assert card["approval:approve_order"].state == "known"  # max_grants 2: may approve again
    assert card["event:hold_order"].state == "done"
    assert "(up to 2 times)" in card["approval:approve_order"].text
    assert "take back your go-ahead to place the order: tell the agent to stop" in (
        card["event:hold_order"].text
    )


def test_a_cancelled_approval_is_done_for_good() -> None:
    item = with_event(
        "order-revocation", kind="cancellation", trigger={"act": "REQUEST_APPROVAL:place_order"}
    )
    card = lines(role_card(item.user, CardProgress(fired=frozenset({"hold_order"}))))
    assert card["approval:approve_order"].state == "done"
    assert card["event:hold_order"].text == (
        "When the agent asks for your go-ahead to place the order, interrupt the agent to "
        "call off place the order for good: tell the agent to cancel it, and say your "
        "quantity is 12 boxes, not 10 boxes."
    )


def test_approval_conditions_are_spelled_out() -> None:
    data = fixture_item("form-expense-correction").model_dump()
    data["user"]["approvals"][0].update(after=["fix_total"], readback=["total_amount"])
    text = lines(role_card(parse_item(data).user))["approval:approve_submit"].text
    assert "only after you have corrected your total amount" in text
    assert "only once the agent has read back your total amount" in text
    assert text.endswith("if the agent asks before that, say no.")


@pytest.mark.parametrize(
    ("trigger", "words"),
    [
        ({"at_ms": 30000}, "About 30 seconds into the call, "),
        ({"act": "ASK:cost_center"}, "When the agent asks for your cost center, "),
        ({"act": "CONFIRM:total_amount"}, "When the agent checks your total amount with you"),
        ({"act": "CHECK:total_amount"}, "When the agent asks whether your total amount is right"),
        ({"act": "READBACK"}, "When the agent reads your details back to you, "),
        ({"act": "CLOSE"}, "When the agent wraps up the call, "),
        (
            {"act": "REQUEST_APPROVAL:submit_expense"},
            "When the agent asks for your go-ahead to submit the expense report, ",
        ),
        ({"after_plan": "answer:employee_id"}, "Right after you give your employee ID, "),
        ({"after_plan": "open"}, "Right after you open the call, "),
        ({"tool": "update_expense"}, "After the agent has used its update expense step, "),
        ({"tool": "submit_expense"}, "After the agent goes ahead and does this: submit the exp"),
        ({"field": "expense.cost_center"}, "After the agent writes down your cost center, "),
        (
            {"approval": "approve_submit"},
            "After you give your go-ahead to submit the expense report, ",
        ),
    ],
)
def test_every_trigger_kind_is_described(trigger: dict[str, object], words: str) -> None:
    user = with_event("form-expense-correction", trigger=trigger).user
    assert lines(role_card(user))["event:fix_total"].text.startswith(words)


def test_delivery_after_the_turn_waits_for_the_agent() -> None:
    user = with_event("form-expense-correction", delivery="after_turn").user
    text = lines(role_card(user))["event:fix_total"].text
    assert "wait until the agent finishes speaking, then correct it" in text


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ({"kind": "clarification"}, "ask the agent what they mean or why they need it."),
        ({"kind": "barge_in"}, 'interrupt the agent to cut in (for example "sorry, one moment")'),
        ({"kind": "backchannel"}, 'make a short listening sound such as "mm-hm"'),
        (
            {"kind": "revocation", "revokes": "approve_submit"},
            "take back your go-ahead to submit the expense report: tell the agent to stop.",
        ),
    ],
)
def test_every_event_kind_is_described(event: dict[str, object], words: str) -> None:
    user = plus_event("form-expense-correction", delivery="barge_in", **event).user
    text = lines(role_card(user))["event:extra"].text
    assert text.startswith("When the agent asks for your cost center, ")
    assert words in text


# ---------------------------------------------------------------- due events


def policy_fires(item: WorkflowItem, obs: Observation, said: tuple[str, ...] = ()) -> str | None:
    """The anchor of the simulator's event plan for this observation, if it fires."""
    policy = UserPolicy(item)
    if "approve_submit" in said:
        policy.react(Observation(t_ms=0, acts=("REQUEST_APPROVAL:submit_expense",)))
    policy.utterance_finished(list(said))
    plans = [p for p in policy.react(obs) if p.event is not None]
    return plans[0].anchor if plans else None


Case = tuple[dict[str, object], Observation, CallHistory]


def case(trigger: dict[str, object], t: int = 0, **seen: tuple[str, ...]) -> Case:
    """A trigger, and one moment of a call as the simulator and the history see it."""
    acts, tools, fields = seen.get("acts", ()), seen.get("tools", ()), seen.get("fields", ())
    said, granted = seen.get("said", ()), seen.get("granted", ())
    history = CallHistory(t, acts, tools, fields, said_plans=said, granted=granted)
    return trigger, Observation(t, acts, tools, fields), history


ASK: dict[str, object] = {"act": "ASK:cost_center"}
TOOL: dict[str, object] = {"tool": "update_expense"}
FIELD: dict[str, object] = {"field": "expense.cost_center"}
AFTER: dict[str, object] = {"after_plan": "answer:employee_id"}
GRANT: dict[str, object] = {"approval": "approve_submit"}
TRIGGER_CASES = [
    case({"at_ms": 5000}, 5000),
    case({"at_ms": 5000}, 4999),
    case(ASK, acts=("ASK:cost_center",)),
    case(ASK, acts=("ASK:employee_id",)),
    case(TOOL, tools=("update_expense",)),
    case(TOOL, tools=("mark_expense_ready",)),
    case(FIELD, fields=("expense.cost_center",)),
    case(FIELD, fields=("expense.total_amount",)),
    case(AFTER, said=("answer:employee_id",)),
    case(AFTER, said=("answer:cost_center",)),
    case(GRANT, granted=("approve_submit",)),
    case(GRANT),
]


@pytest.mark.parametrize(("trigger", "obs", "history"), TRIGGER_CASES)
def test_due_events_agree_with_the_simulator(
    trigger: dict[str, object], obs: Observation, history: CallHistory
) -> None:
    item = with_event("form-expense-correction", trigger=trigger)
    said = history.said_plans + history.granted
    fires = policy_fires(item, obs, said)
    assert due_events(item.user, history) == (["fix_total"] if fires else [])


def test_a_fired_event_is_no_longer_due() -> None:
    user = with_event("form-expense-correction", trigger={"at_ms": 0}).user
    assert due_events(user, CallHistory(10)) == ["fix_total"]
    assert due_events(user, CallHistory(10, fired=("fix_total",))) == []


def test_card_from_a_user_spec_without_events_or_approvals() -> None:
    facts = [{"id": "party_size", "value": 4}]
    user = UserSpec.model_validate(
        {"persona": {"name": "Sam"}, "goal": "Book a table.", "facts": facts}
    )
    card = role_card(user)
    assert [line.id for line in card.lines] == [
        "fact:party_size",
        "note:unknown",
        "note:spell",
        "note:end",
    ]
    assert card.lines[0].text == "Your party size: 4 (give it when the agent asks)"
