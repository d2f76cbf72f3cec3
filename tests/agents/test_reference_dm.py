"""The reference agent's dialogue manager: reading answers, and whole text episodes."""

from __future__ import annotations

import pytest

from duplexbench.agents._notes.schema import FieldInfo, classify
from duplexbench.agents._notes.understand import (
    about,
    conform,
    is_correction,
    is_no,
    is_unknown,
    is_yes,
    old_value,
    parse_value,
)
from duplexbench.agents._protocol import AgentInput, AgentSession, ToolSpec
from duplexbench.agents._reference import ReferenceDialogue
from duplexbench.items._tool_schema import tool_parameters
from support.fixtures import fixture_item
from support.helpers import run_and_score

PHONE = "555-201-7788"
NAMES = ["Arjun Raman", "Maya Raman"]
TOPICS = ["budget", "delivery timeline"]
VISION = ("Vision Basic", "Vision Plus", "None")


def info(kind: str, choices: tuple[str, ...] = (), description: str = "") -> FieldInfo:
    return FieldInfo("x", kind, description, choices)


@pytest.mark.parametrize(
    ("field", "text", "value"),
    [
        (info("string"), "It's E1042.", "E1042"),
        (info("string", description="Employee ID, e.g. HR-10000"), "H-R 20,931.", "HR-20931"),
        (info("string"), "That would be my husband, Arjun Raman.", "Arjun Raman"),
        (info("number"), "It came to 240 dollars.", 240),
        (info("number"), "Sorry, I misspoke, the total was 200 dollars, not 240.", 200),
        (info("integer"), "I need 12 boxes, not 10.", 12),
        (info("date"), "That would be Tuesday, June 9th.", "2026-06-09"),
        (
            info("phone"),
            "It's five five five, two zero one, seven seven eight eight.",
            "555-201-7788",
        ),
        (
            info("list"),
            "My husband Arjun Raman and our daughter Maya Raman.",
            ["Arjun Raman", "Maya Raman"],
        ),
        (
            info("list"),
            "First the budget, then the delivery timeline.",
            ["budget", "delivery timeline"],
        ),
        (info("interval"), "From 2 to 3 pm.", "14:00-15:00"),
        (
            info("enum", ("Vision Basic", "Vision Plus", "None")),
            "The basic vision plan.",
            "Vision Basic",
        ),
        (info("enum", ("A", "B")), "Okay.", None),
    ],
)
def test_parse_value_by_type(field: FieldInfo, text: str, value: object) -> None:
    assert parse_value(field, text, 2026) == value


def test_intent_cues() -> None:
    assert is_yes("You have my approval, go ahead.") and not is_yes("No, not yet.")
    assert is_no("Hold on, don't send it.")
    assert is_unknown("I don't have that information right now.")
    assert is_correction("Wait, correction, the total is actually 200 dollars.")
    assert is_correction("No, the employee ID is E1042.")
    assert not is_correction("Yes, that's right.")
    # a caller who missed the question corrects nothing (found in workflows-v2 episodes)
    assert not is_correction("Sorry, what was that? Oh, C M dash 3 4 4 6 dash N W.")
    assert is_correction("Sorry, what was that? Oh, sorry, I misspoke, it's 12.")
    assert old_value("I need 12 boxes, not 10.") == "10"
    assert about("No, the employee ID is E1042. Go ahead.", "employee id") == "E1042"
    assert (
        conform("cc 330", "e.g. CC-100") == "CC-330" and conform("client", "e.g. X-1") == "client"
    )


def test_tools_are_classified_from_their_schemas() -> None:
    item = fixture_item("benefits-enrollment")
    specs = tuple(ToolSpec(t.name, t.description, tool_parameters(item, t)) for t in item.tools)
    tools = classify(specs)
    assert tools.update is not None and tools.update.name == "update_enrollment"
    assert tools.search is not None and tools.ready is not None and tools.commit is not None
    kinds = {f.name: f.kind for f in tools.fields}
    assert kinds["vision_plan"] == "enum" and kinds["date_of_birth"] == "date"
    assert kinds["dependents"] == "list" and kinds["monthly_premium"] == "number"


@pytest.mark.parametrize(
    ("name", "passes"),
    [
        ("form-expense-correction", True),  # takes the mid-conversation correction
        ("order-revocation", True),  # stands down on the revocation, then asks again
        ("benefits-enrollment", False),  # looks up the premium, cannot derive the start date
        ("airline-rebooking", False),  # no database workflow in the rule-based manager
    ],
)
def test_text_episodes(name: str, passes: bool) -> None:
    item = fixture_item(name)
    _, score = run_and_score(item, ReferenceDialogue())
    assert score.status == "ok" and score.gates["PV"] is True  # never an unauthorized commit
    assert (score.ws == 1) is passes, [c for c in score.checks if not c.passed]
    if name == "benefits-enrollment":
        premium = next(f for f in score.fields if f.field == "monthly_premium")
        assert premium.correct  # read out of the rate table


def test_the_reference_agent_never_reads_hidden_state() -> None:
    agent = ReferenceDialogue()
    run_and_score(fixture_item("form-expense-correction"), agent)
    assert not hasattr(agent, "session") or getattr(agent, "session", None) is None


def test_a_correction_with_an_approval_is_not_a_refusal() -> None:
    dm = ReferenceDialogue()
    item = fixture_item("order-revocation")
    specs = tuple(ToolSpec(t.name, t.description, tool_parameters(item, t)) for t in item.tools)
    dm.start(AgentSession("x", specs, item.id, 0))
    dm.s.asked_approval = True
    dm._approval_answer("No, the item is A4 copy paper. You have my approval, go ahead.")
    assert not dm.s.declined
    dm.s.asked_approval = True
    dm._approval_answer("Hold on, please don't do that yet.")
    assert dm.s.declined and not dm.s.approved


def test_after_a_correction_only_what_changed_is_read_back() -> None:
    dm = ReferenceDialogue()
    item = fixture_item("order-revocation")
    specs = tuple(ToolSpec(t.name, t.description, tool_parameters(item, t)) for t in item.tools)
    dm.start(AgentSession("x", specs, item.id, 0))
    dm.s.values = {
        "supplier": "Acme",
        "item": "A4 copy paper",
        "quantity": 10,
        "delivery_date": "2026-06-09",
        "cost_center": "CC-42",
    }
    first = dm.respond(AgentInput(0, user_text="That's everything."))
    assert first.say.startswith("Here is what I have:") and "A4 copy paper" in first.say
    fixed = dm.respond(AgentInput(1, user_text="No, the quantity is 12, not 10."))
    assert "quantity is 12" in fixed.say and [c.arguments for c in fixed.tool_calls] == [
        {"fields": {"quantity": 12}}
    ]
    again = dm.respond(AgentInput(2, user_text="Yes, that's right."))
    assert again.say == "Here is what changed: quantity 12. Shall I place order now?"
    # nothing changed since: a question that is neither yes nor no gets it all again
    unclear = dm.respond(AgentInput(3, user_text="Sorry, could you say that again?"))
    assert unclear.say.startswith("Here is what I have:") and "CC-42" in unclear.say
